"""Checks that the Python package returns integer outputs in their dtype:
the segmentation-like model of scripts/gen_int_output_models.py (ArgMax
int64, Casts to INT32 and UINT8), float and int8.

Usage: test_int_outputs.py TOOLS_DIR SRC_ROOT WORK
Prints one line per check; a failed check raises.
"""
import os
import sys

import numpy as np

tools, src, work = sys.argv[1:4]
sys.path.insert(0, os.path.join(src, "python"))
import quantc  # noqa: E402

os.makedirs(work, exist_ok=True)
data = os.path.join(src, "test", "Integration", "Compile", "Inputs", "intout")
images = np.load(os.path.join(data, "seg.input.npy"))
golden = np.load(os.path.join(data, "seg.classes.npy"))
compile_tool = os.path.join(tools, "quant-compile")

model = quantc.compile(os.path.join(data, "seg.onnx"),
                       output=os.path.join(work, "seg.so"),
                       quant_compile=compile_tool)
print("dtypes:", [o["dtype"] for o in model.outputs])
outputs = model(images)
for out, dtype in zip(outputs, ("int64", "int32", "uint8")):
    assert out.dtype == np.dtype(dtype), (out.dtype, dtype)
    assert out.shape == golden.shape, out.shape
    assert np.array_equal(out, golden)
print("float:", ", ".join(str(o.dtype) for o in outputs), "equal to PyTorch")
# One sample without its batch dimension.
single = model(images[0])
assert single[0].dtype == np.int64 and single[0].shape == golden.shape[1:]
assert np.array_equal(single[0], golden[0])
print("single sample: ok")

int8 = quantc.compile(os.path.join(data, "seg.onnx"),
                      output=os.path.join(work, "seg_int8.so"),
                      calibration=np.load(os.path.join(data, "seg.calib.npy")),
                      quant_compile=compile_tool)
outputs = int8(images)
assert [o.dtype for o in outputs] == [np.int64, np.int32, np.uint8]
agree = float((outputs[0] == golden).mean())
assert agree >= 0.95, agree
assert all(np.array_equal(o, outputs[0]) for o in outputs[1:])
print(f"int8: {agree:.3f} of the pixels agree with PyTorch")
print("INT OUTPUTS OK")
