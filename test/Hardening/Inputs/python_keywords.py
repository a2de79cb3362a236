"""Calls quantc.compile with numeric keywords no compile can mean; each
must raise QuantcError before quant-compile runs (the model does not even
exist), printing its message.

  python3 python_keywords.py SRC_ROOT
"""
import math
import sys

sys.path.insert(0, sys.argv[1] + "/python")
import quantc  # noqa: E402

CASES = [dict(min_output_sqnr=math.nan), dict(min_output_sqnr="30dB"),
         dict(min_metric=math.inf), dict(max_metric_drop=-0.5),
         dict(smooth_alpha=True), dict(batch=2.5), dict(batch=0),
         dict(batch=-1), dict(batch="4")]
for kwargs in CASES:
    try:
        quantc.compile("/nonexistent/model.onnx", **kwargs)
        print(f"{kwargs}: ACCEPTED")
    except quantc.QuantcError as e:
        print(f"{kwargs}: {e}")
