// Names a model carries reach the terminal only escaped: errors quote them
// through quantc::printable (control characters and bytes >= 0x7f as
// \xNN, at most 200 bytes and the length), and every tool's error printer
// (ToolError) and diagnostic handler (ToolContext's TerminalSafeStream)
// pass their whole text through quantc::terminalSafe, so that no byte of a
// model can move the cursor, clear the screen, set the title or change
// colours. Inputs/check_terminal.py prints CLEAN when the output holds no
// such byte. Models from Inputs/hostile_names.py.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/hostile_names.py %t
//
// An import error quoting the graph output's name.
// RUN: not quant-compile %t/error.onnx -o %t/e.o 2> %t/error.txt
// RUN: %python %S/Inputs/check_terminal.py < %t/error.txt | FileCheck %s --check-prefix=CLEAN
// RUN: FileCheck %s --check-prefix=ERROR --input-file %t/error.txt
// ERROR: quant-compile: error: '{{.*}}error.onnx': graph output 'y\xFF\xFE\xC3(\xC2\x9B31m\xE2\x80\xAEgnp' is not computed by the graph
// RUN: not quant-calibrate %t/error.onnx --data %t/data.npy -o %t/e.json 2>&1 | %python %S/Inputs/check_terminal.py | FileCheck %s --check-prefix=CLEAN
// RUN: not quant-run %t/error.onnx --input %t/data.npy -o %t/e.npy 2>&1 | %python %S/Inputs/check_terminal.py | FileCheck %s --check-prefix=CLEAN
// RUN: not quant-translate --import-onnx %t/error.onnx -o %t/e.mlir 2>&1 | %python %S/Inputs/check_terminal.py | FileCheck %s --check-prefix=CLEAN
// CLEAN: CLEAN
//
// A 100000-byte name: the message quotes 200 bytes of it.
// RUN: not quant-compile %t/error-long.onnx -o %t/e.o 2> %t/error-long.txt
// RUN: FileCheck %s --check-prefix=LONG --input-file %t/error-long.txt
// LONG: graph output 'y{{(\\x1B)+}}... (100000 bytes)' is not computed by the graph
// RUN: wc -c < %t/error-long.txt | %python -c "import sys; print('SHORT' if int(sys.stdin.read()) < 2000 else 'LONG')" | FileCheck %s --check-prefix=SHORT
// SHORT: SHORT
//
// An import warning (the declared output shape differs) goes through the
// diagnostic handler.
// RUN: quant-compile %t/warning.onnx -o %t/w.o 2> %t/warning.txt
// RUN: %python %S/Inputs/check_terminal.py < %t/warning.txt | FileCheck %s --check-prefix=CLEAN
// RUN: FileCheck %s --check-prefix=WARNING --input-file %t/warning.txt
// WARNING: warning: graph output 'y\xFF\xFE\xC3(\xC2\x9B31m\xE2\x80\xAEgnp': declared shape [1, 5] differs from the computed [1, 4]
//
// The summary table of quant-calibrate names the observers after the
// model's tensors.
// RUN: quant-calibrate %t/bytes.onnx --data %t/data.npy -o %t/profile.json > %t/summary.txt 2>&1
// RUN: %python %S/Inputs/check_terminal.py < %t/summary.txt | FileCheck %s --check-prefix=CLEAN
