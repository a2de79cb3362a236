"""Compares a calibration profile's min/max with numpy's (expected.json).

The input observers must match exactly (it sees the data itself). Computed
activations may differ from the float64 numpy reference by float32 rounding
of the compiled model: allowed 1e-6 relative to the tensor's magnitude.
Weights (constants) must match exactly.
"""
import json
import sys

profile = json.load(open(sys.argv[1]))
expected = json.load(open(sys.argv[2]))
observers = {o["name"]: o for o in profile["observers"]}
# Observers of model inputs and weights, compared exactly ("_exact" in
# expected.json lists them when the model's input is not named "input").
exact = set(expected.pop("_exact", ["input", "conv.weight"]))
ok = True
for name, (lo, hi) in expected.items():
    state = observers[name]["state"]
    if name in exact:
        got = (state["min"], state["max"]) if name == "conv.weight" else (state["min"][0], state["max"][0])
        exp = (lo, hi)
        # JSON holds the float32 values as doubles: compare as float32.
        import numpy as np
        same = np.array_equal(np.float32(got[0]), np.float32(exp[0])) and np.array_equal(np.float32(got[1]), np.float32(exp[1]))
        print(f"{name}: min {got[0]} max {got[1]} (numpy {exp[0]} {exp[1]}) {'exact' if same else 'MISMATCH'}")
        ok &= bool(same)
        continue
    scale = max(abs(lo), abs(hi), 1.0)
    dmin = abs(state["min"][0] - lo) / scale
    dmax = abs(state["max"][0] - hi) / scale
    good = dmin <= 1e-6 and dmax <= 1e-6
    print(f"{name}: min {state['min'][0]:.9g} max {state['max'][0]:.9g} (numpy {lo:.9g} {hi:.9g}) rel.err {max(dmin, dmax):.2e} {'ok' if good else 'MISMATCH'}")
    ok &= good
print("RANGES", "MATCH" if ok else "DIFFER")
sys.exit(0 if ok else 1)
