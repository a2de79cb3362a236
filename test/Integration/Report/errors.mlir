// Report errors: a clear message, a non-zero exit, no output.
//
// RUN: rm -rf %t && mkdir -p %t && touch %t/file
// RUN: quant-opt %quantc_src_root/examples/small-cnn/model.mlir --qnt-fuse --qnt-insert-observers -o %t/observed.mlir
// RUN: %python -c "import numpy; numpy.save('%t/data.npy', numpy.load('%quantc_src_root/examples/small-cnn/calibration.npy')[:4])"
//
// RUN: not quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx -o %t/a.o --report %t/r 2>&1 | FileCheck %s --check-prefix=NODATA
// NODATA: quant-compile: error: --report needs --calibration-data (the report runs the float and int8 models on it)
// RUN: not quant-calibrate %t/observed.mlir --profile %t/none.json -o %t/a.mlir --report %t/r 2>&1 | FileCheck %s --check-prefix=NODATA-CAL
// NODATA-CAL: quant-calibrate: error: --report needs --data (the report runs the float and int8 models on it)
// RUN: not ls %t/r %t/a.o %t/a.mlir
//
// The directory cannot be created: a file is in the way.
// RUN: not quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --calibration-data %quantc_src_root/test/Import/Inputs/resnet_block.input.npy -o %t/b.o --report %t/file/r 2>&1 | FileCheck %s --check-prefix=MKDIR
// MKDIR: quant-compile: error: cannot write '{{.*}}file/r/report.json' (--report): '{{.*}}file' is not a directory
// RUN: not quant-calibrate %t/observed.mlir --data %t/data.npy --quiet -o %t/b.mlir --report %t/file 2>&1 | FileCheck %s --check-prefix=EXISTS
// EXISTS: quant-calibrate: error: cannot write '{{.*}}file/report.json' (--report): '{{.*}}file' is not a directory
// RUN: not ls %t/b.o %t/b.mlir
//
// A report file cannot be written: a directory is in the way.
// RUN: mkdir -p %t/busy/report.html
// RUN: not quant-calibrate %t/observed.mlir --data %t/data.npy --quiet -o %t/c.mlir --report %t/busy 2>&1 | FileCheck %s --check-prefix=WRITE
// WRITE: quant-calibrate: error: cannot write '{{.*}}busy/report.html' (--report): it is a directory; name a file in it
// RUN: not ls %t/c.mlir
// RUN: ls -A %t/busy | count 1
