// The accuracy budget (quant-compile --min-output-sqnr, --validation-data,
// --rank-layers) through the Python package, checked on the libraries it
// builds; and quantc.compile(metric=...), the budget on a user's metric.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/test_budget.py %quantc_tools_dir %quantc_src_root %t | FileCheck %s
// CHECK: all int8:
// CHECK: met, {{.*}} a prefix of the ranking
// CHECK: budget already met: every layer int8
// CHECK: metric: agreement
// CHECK: BUDGET OK
//
// Without validation data the calibration data serves, with a warning.
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --calibration-data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy --max-samples 64 --min-output-sqnr 10 -o %t/m.o 2>&1 | FileCheck %s --check-prefix=WARN
// WARN: warning: no validation data: the accuracy budget is measured on the calibration data
//
// A budget no set of float layers reaches: the best found, with a warning.
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --calibration-data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy --max-samples 64 --min-output-sqnr 500 -o %t/m.o 2>&1 | FileCheck %s --check-prefix=UNMET
// UNMET: warning: the accuracy budget (output SQNR >= 500.00 dB) is not met: {{[0-9.]+}} dB with {{[0-9]+}} layer(s) in float
//
// Bad uses are errors.
// RUN: not quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --min-output-sqnr 30 -o %t/m.o 2>&1 | FileCheck %s --check-prefix=NODATA
// NODATA: error: --min-output-sqnr / --validation-data apply to post-training quantization
// RUN: not quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --calibration-data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy --validation-data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy -o %t/m.o 2>&1 | FileCheck %s --check-prefix=NOBUDGET
// NOBUDGET: error: --validation-data is the data of the accuracy budget
// RUN: not quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --calibration-data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy --min-output-sqnr inf -o %t/m.o 2>&1 | FileCheck %s --check-prefix=INF
// INF: for the --min-output-sqnr option: 'inf' is not a finite number
// RUN: not quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --calibration-data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy --min-output-sqnr 30 --validation-data %t/missing.npy -o %t/m.o 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error:
