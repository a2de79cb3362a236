// quantc.compile refuses numeric keywords no compile can mean (NaN,
// infinities, strings, a negative max_metric_drop, a batch that is not a
// positive integer) with QuantcError, as quant-compile refuses its options
// (checks-numeric-options.mlir); min_metric / max_metric_drop never reach
// quant-compile, and batch=2.5 was truncated to 2.
//
// RUN: %python %S/Inputs/python_keywords.py %quantc_src_root | FileCheck %s
// CHECK: {'min_output_sqnr': nan}: min_output_sqnr must be a finite number, not nan
// CHECK: {'min_output_sqnr': '30dB'}: min_output_sqnr must be a finite number, not '30dB'
// CHECK: {'min_metric': inf}: min_metric must be a finite number, not inf
// CHECK: {'max_metric_drop': -0.5}: max_metric_drop must be >= 0, not -0.5
// CHECK: {'smooth_alpha': True}: smooth_alpha must be a finite number, not True
// CHECK: {'batch': 2.5}: batch must be a positive integer, not 2.5
// CHECK: {'batch': 0}: batch must be a positive integer, not 0
// CHECK: {'batch': -1}: batch must be a positive integer, not -1
// CHECK: {'batch': '4'}: batch must be a positive integer, not '4'
// CHECK-NOT: ACCEPTED
