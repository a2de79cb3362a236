// --activation-observer=auto: each observed activation becomes min_max,
// percentile, entropy or mse, whichever gives its consumers' outputs the
// least estimated error (lib/Calibrate/ChooseObservers.cpp). A model whose
// input has a long thin tail (Student's t, 3 degrees of freedom) and whose
// next activation is clamped to [-1, 1] (Inputs/make_auto.py): the choices
// differ per tensor, the recorded scores equal NumPy's recomputation from
// the float activations quant-run dumps and the candidates' qparams of
// fixed-kind runs (Inputs/check_auto.py), the least one is chosen, the
// profile records the choice and reloads to the same object, quant-calibrate
// chooses the same, and the int8 object is bit-identical to the int8
// reference.
//
// REQUIRES: avx2
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_auto.py %t
// RUN: quant-compile %t/model.mlir --calibration-data %t/data.npy --activation-observer=auto --save-profile %t/auto.json --report %t/r -o %t/model.o
// RUN: %python %S/../Report/Inputs/check_html.py %t/r | FileCheck %s --check-prefix=HTML
// HTML: HTML OK: 3 layers
// RUN: FileCheck %s --check-prefix=HTML-AUTO --input-file %t/r/report.html
// HTML-AUTO: auto: score per candidate
// HTML-AUTO: <b>mse {{.*}}</b>{{.*}}(output MSE of clamp1 (weighted))
//
// The candidates, each as the fixed kind of every activation.
// RUN: quant-compile %t/model.mlir --calibration-data %t/data.npy --activation-observer=min_max --save-profile %t/min_max.json -o %t/min_max.o
// RUN: quant-compile %t/model.mlir --calibration-data %t/data.npy --activation-observer=percentile --save-profile %t/percentile.json -o %t/percentile.o
// RUN: quant-compile %t/model.mlir --calibration-data %t/data.npy --activation-observer=entropy --save-profile %t/entropy.json -o %t/entropy.o
// RUN: quant-compile %t/model.mlir --calibration-data %t/data.npy --activation-observer=mse --save-profile %t/mse.json -o %t/mse.o
//
// The profile alone reproduces the object (the choices it records apply).
// RUN: quant-compile %t/model.mlir --profile %t/auto.json --activation-observer=auto --save-profile %t/reload.json -o %t/reload.o
// RUN: cmp %t/model.o %t/reload.o
//
// quant-calibrate chooses too, and writes the choice into the IR.
// RUN: quant-opt %t/model.mlir --quantc-prepare="activation-kind=auto" -o %t/observed.mlir
// RUN: quant-calibrate %t/observed.mlir --data %t/data.npy --quiet -o %t/calibrated.mlir --save-profile %t/calibrated.json
// RUN: FileCheck %s --check-prefix=IR --input-file %t/calibrated.mlir
// IR: qnt.observe %arg0 config <kind = mse> state <{{.*}}> {name = "input", quantc.observer_choice = {consumers = "clamp1 (weighted)", kind = "mse", scores = {entropy = {{.*}} : f64, min_max = {{.*}} : f64, mse = {{.*}} : f64, percentile = {{.*}} : f64}}}
// IR: qnt.observe %{{.*}} config <kind = min_max> state <batches = {{[0-9]+}}, min = [-1.0{{0*}}], max = [1.0{{0*}}]> {name = "clamp1", quantc.observer_choice = {consumers = "conv2 (weighted)", kind = "min_max"
// IR: {name = "conv2", quantc.observer_choice = {consumers = "the model result"
//
// Without data, a profile without choices cannot resolve auto observers.
// RUN: %python -c "import json; p = json.load(open('%t/auto.json')); [o.pop('choice', None) for o in p['observers']]; json.dump(p, open('%t/nochoice.json', 'w'))"
// RUN: not quant-compile %t/model.mlir --profile %t/nochoice.json --activation-observer=auto -o %t/x.o 2>&1 | FileCheck %s --check-prefix=NOCHOICE
// NOCHOICE: auto observers are chosen on calibration data: the profile records no choice
// An auto observer left unresolved does not fold.
// RUN: sed -e 's/config <kind = mse> state/config <kind = auto> state/' %t/calibrated.mlir > %t/unresolved.mlir
// RUN: not quant-opt %t/unresolved.mlir --qnt-fold-observers 2>&1 | FileCheck %s --check-prefix=UNRESOLVED
// UNRESOLVED: error: 'qnt.observe' op an auto observer has no range of its own: choose its kind first (quant-compile --activation-observer=auto)
//
// The scores against NumPy, from the float activations.
// RUN: %python %S/../Report/Inputs/truncate.py %t/calibrated.mlir clamp1 %t/clamp1.mlir
// RUN: quant-run %t/clamp1.mlir --input %t/data.npy -o %t/clamp1.npy
// RUN: quant-run %t/calibrated.mlir --input %t/data.npy -o %t/conv2.npy
// RUN: %python %S/Inputs/check_auto.py %t | FileCheck %s --check-prefix=SCORES
// SCORES: input: mse
// SCORES: clamp1: min_max
// SCORES: conv2: mse
// SCORES: AUTO CHECKED
//
// The int8 object against the int8 reference of the same quantization.
// RUN: quant-opt %t/calibrated.mlir --quantc-quantize -o %t/int8.mlir
// RUN: quant-run %t/int8.mlir --reference --input %t/data.npy -o %t/reference.npy
// RUN: cc -I%t -DMODEL=auto_model -DMODEL_UPPER=AUTO_MODEL %quantc_src_root/examples/common/run_model.c %t/model.o -lm -o %t/run
// RUN: %t/run %t/data.npy %t/compiled.npy
// RUN: %python %S/../Compile/Inputs/compare.py %t/reference.npy %t/compiled.npy | FileCheck %s --check-prefix=BITS
// BITS: exact samples: 64/64
// BITS: BIT-IDENTICAL
