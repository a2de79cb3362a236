"""quantc.compile(..., input_shapes=...) on models with free input
dimensions (test/Import/Inputs/exporters, scripts/gen_exporter_models.py):
compiled ahead of time for the given shapes, the outputs match the
references.

Usage: test_input_shapes.py TOOLS_DIR SRC_ROOT WORK
"""
import os
import sys

import numpy as np

tools, src, work = sys.argv[1:4]
sys.path.insert(0, os.path.join(src, "python"))
import quantc  # noqa: E402

compile_tool = os.path.join(tools, "quant-compile")
data = os.path.join(src, "test", "Import", "Inputs", "exporters")
os.makedirs(work, exist_ok=True)


def rel_error(y, ref):
    return float(np.abs(y - ref).max() / np.abs(ref).max())


# A dict by input name, and one shape for the model's only input.
for tag, shapes in (("a", {"x": [1, 3, 24, 24]}), ("b", (2, 3, 16, 24))):
    model = quantc.compile(os.path.join(data, "paddle_det.onnx"),
                           output=os.path.join(work, f"paddle-{tag}.so"),
                           input_shapes=shapes, quant_compile=compile_tool)
    ref = np.load(os.path.join(data, f"paddle_det.{tag}.out.npz"))
    boxes, scores = model(np.load(os.path.join(data, f"paddle_det.{tag}.x.npy")))
    err = max(rel_error(boxes, ref["boxes"]), rel_error(scores, ref["scores"]))
    assert err <= 1e-5, err
    print(f"paddle_det {model.name} {model.inputs[0]['shape']}: "
          f"max rel. error {err:.2g}")

model = quantc.compile(os.path.join(data, "fp16.onnx"),
                       output=os.path.join(work, "fp16.so"),
                       quant_compile=compile_tool)
err = rel_error(model(np.load(os.path.join(data, "fp16.x.npy"))),
                np.load(os.path.join(data, "fp16.out.npy")))
assert err <= 1e-2, err
print(f"fp16: max rel. error {err:.2g}")

# int8: the float16 rounding stays float between the quantized ops.
x = np.load(os.path.join(data, "fp16.x.npy"))
int8 = quantc.compile(os.path.join(data, "fp16.onnx"),
                      output=os.path.join(work, "fp16_int8.so"),
                      calibration=x, quant_compile=compile_tool)
reference = model(x)
sqnr = 10 * np.log10(np.sum(reference**2) / np.sum((reference - int8(x))**2))
assert int8.quantized and sqnr > 20, sqnr  # measured: 23.8 dB
print(f"fp16 int8: {sqnr:.1f} dB SQNR")

# Casts to bfloat16 and float16 of activations, in a shared library (on x86
# the object defines the __truncsfbf2 that GCC 12's libgcc lacks).
model = quantc.compile(os.path.join(data, "dtypes.onnx"),
                       output=os.path.join(work, "dtypes.so"),
                       quant_compile=compile_tool)
y = model(np.load(os.path.join(data, "dtypes.x.npy")))
assert np.array_equal(y, np.load(os.path.join(data, "dtypes.out.npy")))
print("dtypes: bit-exact")

for shapes in ({"y": [1, 3, 8, 8]}, [1, 3, 0, 8], {"x": [1.5, 3]}):
    try:
        quantc.compile(os.path.join(data, "paddle_det.onnx"),
                       input_shapes=shapes, quant_compile=compile_tool)
        raise AssertionError(f"{shapes} was accepted")
    except quantc.QuantcError as e:
        print("refused:", str(e).splitlines()[0])
print("INPUT SHAPES OK")
