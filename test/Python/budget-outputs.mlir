// Every output counts: the report and the accuracy budget measure every
// model output. A model with two outputs (Inputs/two_heads.py) whose
// second, boxes, loses most of its signal in int8 while the first, scores,
// keeps about 33 dB: the report against NumPy, the budget for all outputs
// and per output (quant-compile --min-output-sqnr [NAME=]DB, quantc.compile
// min_output_sqnr=DB or {NAME: DB}) checked on the libraries it builds
// (Inputs/test_budget_outputs.py).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/two_heads.py %t
// RUN: %python %S/Inputs/test_budget_outputs.py %quantc_tools_dir %quantc_src_root %t | FileCheck %s
// CHECK: report scores:
// CHECK: report boxes:
// CHECK: report summary: worst output boxes
// CHECK: all int8: scores {{[0-9.]+}} dB >= 25.0 dB > boxes
// CHECK: budget 25.0 dB: met
// CHECK: boxes=25.0: met
// CHECK: met with every layer int8, boxes unconstrained
// CHECK: metric on boxes:
// CHECK: OUTPUTS BUDGET OK
//
// The command line: a target for every output and one for boxes, the
// report's per-output budget.
// RUN: quant-compile %t/two_heads.onnx --calibration-data %t/calib.npy --validation-data %t/val.npy --min-output-sqnr=20 --min-output-sqnr=boxes=25 -o %t/m.o --report %t/cli
// RUN: %python -c "import json; b = json.load(open('%t/cli/report.json'))['accuracy_budget']; print('CLI', b['met'], b['min_output_sqnr_db'], [(o['name'], o['min_sqnr_db'], o['met']) for o in b['outputs']])" | FileCheck %s --check-prefix=CLI
// CLI: CLI True 20 [('scores', 20, True), ('boxes', 25, True)]
//
// A target no set of float layers reaches names the output short of it.
// RUN: quant-compile %t/two_heads.onnx --calibration-data %t/calib.npy --validation-data %t/val.npy --min-output-sqnr boxes=500 -o %t/m.o 2>&1 | FileCheck %s --check-prefix=UNMET
// UNMET: warning: the accuracy budget (output SQNR >= boxes 500.00 dB) is not met: {{[0-9.]+}} dB with {{[0-9]+}} layer(s) in float (short: boxes {{[0-9.]+}} dB < 500.00 dB)
//
// Bad targets are errors that say what to give.
// RUN: not quant-compile %t/two_heads.onnx --calibration-data %t/calib.npy --min-output-sqnr nope=25 -o %t/m.o 2>&1 | FileCheck %s --check-prefix=BADNAME
// BADNAME: error: --min-output-sqnr: the model has no output 'nope' (its outputs: scores, boxes); give NAME=DB with one of them
// RUN: not quant-compile %t/two_heads.onnx --calibration-data %t/calib.npy --min-output-sqnr boxes=25 --min-output-sqnr boxes=30 -o %t/m.o 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: --min-output-sqnr: the target of output 'boxes' is given twice
// RUN: not quant-compile %t/two_heads.onnx --calibration-data %t/calib.npy --min-output-sqnr 25 --min-output-sqnr 30 -o %t/m.o 2>&1 | FileCheck %s --check-prefix=TWICE-ALL
// TWICE-ALL: error: --min-output-sqnr: the target of every output is given twice
// RUN: not quant-compile %t/two_heads.onnx --calibration-data %t/calib.npy --min-output-sqnr==25 -o %t/m.o 2>&1 | FileCheck %s --check-prefix=NONAME
// NONAME: for the --min-output-sqnr option: '=25' names no output (NAME=NUMBER)
// RUN: not quant-compile %t/two_heads.onnx --calibration-data %t/calib.npy --min-output-sqnr boxes= -o %t/m.o 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: for the --min-output-sqnr option: needs a number (the value is empty)
// RUN: not quant-compile %t/two_heads.onnx --calibration-data %t/calib.npy --min-output-sqnr boxes=nan -o %t/m.o 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: for the --min-output-sqnr option: 'nan' is not a finite number
