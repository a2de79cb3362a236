"""Copies a calibrated model (quant-calibrate output) so that it returns the
output of the observer named NAME instead of the model result:

  truncate.py calibrated.mlir NAME out.mlir

quant-run on the copy gives the float activation at that point; after
qnt-fold-observers and qnt-quantize, quant-run --reference gives the int8
model's dequantized activation there."""
import re
import sys

text = open(sys.argv[1]).read()
name = sys.argv[2]
m = re.search(r'(%[\w.#]+) = qnt\.observe [^\n]*name = "' + re.escape(name) +
              r'"[^\n]*: (tensor<[^>]*>)\n', text)
if not m:
    sys.exit(f"no observer named {name}")
value, type_ = m.group(1), m.group(2)
text, n = re.subn(r'return %[\w.#]+ : tensor<[^>]*>', f'return {value} : {type_}', text)
assert n == 1, n
text, n = re.subn(r'(func\.func @\w+\([^)]*\)) -> tensor<[^>]*>', r'\1 -> ' + type_, text)
assert n == 1, n
open(sys.argv[3], "w").write(text)
