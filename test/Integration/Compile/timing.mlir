// --mlir-timing: the wall time of each step of quant-compile, with the passes
// of the pass-manager steps nested in them (the report goes to stderr).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --calibration-data %quantc_src_root/test/Import/Inputs/resnet_block.input.npy -o %t/model.o --mlir-timing --mlir-timing-display=tree 2>&1 | FileCheck %s
// CHECK: Execution time report
// CHECK-DAG: import
// CHECK-DAG: fuse + insert observers
// CHECK-DAG: QntFuse
// CHECK-DAG: QntInsertObservers
// CHECK-DAG: calibration build (JIT)
// CHECK-DAG: calibration run
// CHECK-DAG: fold + quantize
// CHECK-DAG: QntQuantize
// CHECK-DAG: lower to the LLVM dialect
// CHECK-DAG: QntLowerQuantized
// CHECK-DAG: OutlineLoopNests
// CHECK-DAG: translate to LLVM IR
// CHECK-DAG: LLVM -O3
// CHECK-DAG: LLVM code generation
// CHECK: Total
//
// Without the option, no report.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --calibration-data %quantc_src_root/test/Import/Inputs/resnet_block.input.npy -o %t/model.o 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: Execution time report
