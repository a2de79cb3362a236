// Constants whose size comes from a model's declarations, not its bytes
// (docs/hardening.md, "Limits"): a model of a few hundred bytes
// (Inputs/hostile_memory.py) asks for up to 2^28 elements per constant
// (ConstantOfShape, Expand, Range), or for many constants, or copies one
// again and again (Identity). The importer holds 8 bytes an element of every
// constant and 4 more of each it places in the IR, at most
// QUANTC_MAX_INPUT_BYTES in all, and checks that before it computes a
// constant or builds its IR copy: every case fails with the node, the
// count and the limit, without allocating what it refuses (the limits are
// small here; memory-peak.mlir and docs/hardening.md measure the defaults).
// Each activation an op computes is bounded by the limit as well.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/hostile_memory.py %t
//
// One constant over the per-constant limit (2^28 elements), whatever the
// input limit.
// RUN: not quant-translate --import-onnx %t/const-268435457.onnx 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: error: '{{.*}}const-268435457.onnx': node 'c' (ConstantOfShape): the shape: too many elements (a constant has at most 268435456)
//
// At the per-constant limit: 2 GiB as the importer holds it, refused
// before it is computed when the input limit is smaller.
// RUN: env QUANTC_MAX_INPUT_BYTES=1M not quant-translate --import-onnx %t/const-268435456.onnx 2>&1 | FileCheck %s --check-prefix=AT
// AT: error: '{{.*}}const-268435456.onnx': node 'c' (ConstantOfShape): the shape: a constant of 268435456 elements would take the model's constants to 2147483656 bytes (8 an element as the importer holds them, 4 more in the IR), more than the input limit of 1048576 bytes (1 MiB); set QUANTC_MAX_INPUT_BYTES (e.g. QUANTC_MAX_INPUT_BYTES=8G) to raise it
// RUN: env QUANTC_MAX_INPUT_BYTES=1M not quant-compile %t/const-268435456.onnx -o %t/at.o 2>&1 | FileCheck %s --check-prefix=AT-COMPILE
// AT-COMPILE: quant-compile: error: '{{.*}}const-268435456.onnx': node 'c' (ConstantOfShape): the shape: a constant of 268435456 elements would take
// RUN: not ls %t/at.o
//
// 2^20 elements: 8 MiB held; its IR copy needs 8 MiB more while it is
// built (4 stay): 12 MiB is not enough, 17 MiB is.
// RUN: env QUANTC_MAX_INPUT_BYTES=12M not quant-translate --import-onnx %t/const-1048576.onnx 2>&1 | FileCheck %s --check-prefix=IR
// IR: node 'add' (Add): a constant of 1048576 elements in the IR would take the model's constants to 16777224 bytes (8 an element as the importer holds them, 4 more in the IR), more than the input limit of 12582912 bytes (12 MiB)
// RUN: env QUANTC_MAX_INPUT_BYTES=17M quant-translate --import-onnx %t/const-1048576.onnx -o %t/ok.mlir
// RUN: FileCheck %s --check-prefix=FITS --input-file %t/ok.mlir
// FITS: tosa.add
//
// Many constants, each within the limits, together over it: the fourth
// is refused before it is computed.
// RUN: env QUANTC_MAX_INPUT_BYTES=28M not quant-translate --import-onnx %t/many.onnx 2>&1 | FileCheck %s --check-prefix=MANY
// MANY: node 'c3' (ConstantOfShape): the shape: a constant of 1048576 elements would take the model's constants to {{[0-9]+}} bytes {{.*}} more than the input limit of 29360128 bytes (28 MiB)
//
// Copies count as constants of their own, checked before they are made.
// RUN: env QUANTC_MAX_INPUT_BYTES=28M not quant-translate --import-onnx %t/identity.onnx 2>&1 | FileCheck %s --check-prefix=COPIES
// COPIES: node 'id2' (Identity): the result: a constant of 1048576 elements would take the model's constants to {{[0-9]+}} bytes
//
// Expand and Range of tiny constants to 2^28 elements.
// RUN: env QUANTC_MAX_INPUT_BYTES=64M not quant-translate --import-onnx %t/expand.onnx 2>&1 | FileCheck %s --check-prefix=EXPAND
// EXPAND: node 'expand' (Expand): the shape: a constant of 268435456 elements would take the model's constants to {{[0-9]+}} bytes
// RUN: env QUANTC_MAX_INPUT_BYTES=64M not quant-translate --import-onnx %t/range.onnx 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: node 'range' (Range): the result: a constant of 268435456 elements would take the model's constants to {{[0-9]+}} bytes
//
// The variable itself is checked.
// RUN: env QUANTC_MAX_INPUT_BYTES=lots not quant-translate --import-onnx %t/const-1048576.onnx 2>&1 | FileCheck %s --check-prefix=BADVAR
// BADVAR: error: QUANTC_MAX_INPUT_BYTES='lots' is not a positive byte count (e.g. 4294967296, 4096M or 4G)
// RUN: env QUANTC_MAX_INPUT_BYTES=0 not quant-translate --import-onnx %t/const-1048576.onnx 2>&1 | FileCheck %s --check-prefix=ZEROVAR
// ZEROVAR: error: QUANTC_MAX_INPUT_BYTES='0' is not a positive byte count
//
// External data (a tensor whose values are in another file) is not
// supported: no name in a model ever opens a file (here /dev/zero).
// RUN: not quant-translate --import-onnx %t/external.onnx 2>&1 | FileCheck %s --check-prefix=EXTERNAL
// EXTERNAL: error: '{{.*}}external.onnx': initializer: tensor 'w' uses external data (not supported)
// RUN: not quant-translate --import-onnx %t/external-unmarked.onnx 2>&1 | FileCheck %s --check-prefix=UNMARKED
// UNMARKED: error: '{{.*}}external-unmarked.onnx': initializer: tensor 'w' has 0 values, its shape needs 4
//
// An activation the model declares is bounded by the limit too: running
// the model allocates it (here 4 GiB for a [1, 1] input).
// RUN: not quant-translate --import-onnx %t/expand-act.onnx 2>&1 | FileCheck %s --check-prefix=ACT
// RUN: echo > %t/none.npy
// RUN: not quant-run %t/expand-act.onnx --input %t/none.npy -o %t/act.npy 2>&1 | FileCheck %s --check-prefix=ACT
// ACT: error: '{{.*}}expand-act.onnx': node 'expand' (Expand): the result has 1073741824 elements (4294967296 bytes as float32), more than the input limit of 2147483648 bytes (2 GiB); set QUANTC_MAX_INPUT_BYTES (e.g. QUANTC_MAX_INPUT_BYTES=8G) to raise it
// RUN: env QUANTC_MAX_INPUT_BYTES=5G quant-translate --import-onnx %t/expand-act.onnx -o %t/act.mlir
// RUN: not ls %t/act.npy
//
// quant-run holds the outputs of every sample until it writes them: 16
// samples of a [1, 1] input expanded to 4 MiB each need 64 MiB.
// RUN: env QUANTC_MAX_INPUT_BYTES=32M not quant-run %t/expand-run.onnx --input %t/samples16.npy -o %t/run.npy 2>&1 | FileCheck %s --check-prefix=RUNS
// RUNS: quant-run: error: the model's outputs take 4194304 bytes a run, and the 16 runs of '{{.*}}samples16.npy' are held until they are written: more than the input limit of 33554432 bytes (32 MiB); set QUANTC_MAX_INPUT_BYTES (e.g. QUANTC_MAX_INPUT_BYTES=8G) to raise it, or give fewer samples at a time
// RUN: not ls %t/run.npy
// RUN: env QUANTC_MAX_INPUT_BYTES=32M quant-run %t/expand-run.onnx --input %t/samples4.npy -o %t/run.npy
