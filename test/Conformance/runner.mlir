// The conformance runner (onnx-node-tests) on a tiny suite in the layout of
// ONNX's node tests (scripts/gen_conformance_runner_tests.py): a passing
// test, a wrong reference, an int64 input folded into an initializer and an
// op without a handler (not run); the expected-failures list it writes and
// checks, and the docs it writes and checks.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: not %quantc_tools_dir/onnx-node-tests --data-dir %t/none 2>&1 | FileCheck %s --check-prefix=SKIP
// SKIP: SKIPPED: the ONNX node tests are not installed
//
// RUN: %quantc_tools_dir/onnx-node-tests --data-dir %S/Inputs/node --expected %t/expected.txt --docs %t/docs.md --update-expected --write-docs -j 1 | FileCheck %s --check-prefix=UPDATE
// UPDATE: 2 of 3 node tests passed (4 in
// RUN: FileCheck %s --check-prefix=LIST < %t/expected.txt
// LIST: build/bin/onnx-node-tests --update-expected --write-docs
// LIST-NOT: test_relu{{ }}
// LIST: test_relu_wrong_reference  output 'y' differs: element 0 is 0.00, the reference 0.01
// LIST-NOT: test_
// RUN: FileCheck %s --check-prefix=DOCS < %t/docs.md
// DOCS: Node tests: 2 passed of 3 run (of the 4 in the suite).
// DOCS: | Relu | 7-21 | yes | {{[a-z]+}} | 1 / 2 |
// DOCS: | Reshape | 7-21 | yes | {{.*}} | 1 / 1 |
//
// RUN: %quantc_tools_dir/onnx-node-tests --data-dir %S/Inputs/node --expected %t/expected.txt --docs %t/docs.md --check-docs -j 1 | FileCheck %s --check-prefix=CHECK-OK
// CHECK-OK: 2 of 3 node tests passed
// CHECK-OK-NOT: UNEXPECTED
// CHECK-OK-NOT: OUT OF DATE
//
// A stale list: every way it can be wrong fails the run.
// RUN: printf 'test_relu  x\ntest_unimported_op  x\ntest_gone  x\n' > %t/stale.txt
// RUN: echo changed >> %t/docs.md
// RUN: not %quantc_tools_dir/onnx-node-tests --data-dir %S/Inputs/node --expected %t/stale.txt --docs %t/docs.md --check-docs -j 2 | FileCheck %s --check-prefix=STALE
// STALE-DAG: UNEXPECTED PASS: test_relu (remove it from the expected failures)
// STALE-DAG: UNEXPECTED FAILURE: test_relu_wrong_reference: output 'y' differs
// STALE-DAG: NOT R{{UN}}: test_unimported_op is listed as an expected failure but no longer runs
// STALE-DAG: UNKNOWN: test_gone is listed as an expected failure but is no node test
// STALE-DAG: OUT OF DATE: {{.*}}docs.md
// STALE: onnx-node-tests: FAILED
