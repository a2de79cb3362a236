"""Checks quant-run's outputs of multi-input.mlir's float model against numpy.

argv: outputs.npz inputs.npz. The model doubles each input: the compiled
float code must give numpy's values exactly.
"""
import sys

import numpy as np

got = np.load(sys.argv[1])
inputs = np.load(sys.argv[2])
assert sorted(got.files) == ["feat_out", "twice_out"], got.files
for name, source in (("twice_out", "image"), ("feat_out", "features")):
    want = inputs[source] * 2
    assert got[name].dtype == np.float32 and got[name].shape == want.shape, \
        (name, got[name].dtype, got[name].shape, want.shape)
    assert np.array_equal(got[name], want), name
    print(f"{name}: {want.shape} exact")
