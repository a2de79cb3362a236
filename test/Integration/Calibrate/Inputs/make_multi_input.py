"""Calibration data for multi-input.mlir (a model with two inputs).

Writes into the directory given as argv[1]:
  calib.npz             image (64, 4, 4, 2) and features (64, 3), numpy.savez
  compressed.npz        the same arrays, numpy.savez_compressed (deflate)
  positional.npz        the same, numpy.savez(path, image, features): arr_0, arr_1
  parts/a.npz, b.npz    the first 24 and the last 40 samples
  one.npz               one sample, each array without its batch dimension
  expected.json         numpy min / max of each observed tensor
Bad data:
  image.npy             a .npy file for a two-input model
  missing.npz           no 'features'
  extra.npz             an array 'labels' that names no input
  counts.npz            64 images, 63 feature rows
  nan.npz               NaN in the features of sample 5
  badcrc.npz            one data byte of calib.npz changed
  truncated.npz         calib.npz cut in half
  pickled.npz           an object array (numpy.savez with allow_pickle)
"""
import json
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(os.path.join(out, "parts"), exist_ok=True)
rng = np.random.default_rng(7)
image = (rng.standard_normal((64, 4, 4, 2)) * 3 + 1).astype(np.float32)
features = (rng.standard_normal((64, 3)) * [1, 4, 9] - 2).astype(np.float32)
np.savez(os.path.join(out, "calib.npz"), image=image, features=features)
np.savez_compressed(os.path.join(out, "compressed.npz"), image=image,
                    features=features)
np.savez(os.path.join(out, "positional.npz"), image, features)
np.savez(os.path.join(out, "parts", "a.npz"), image=image[:24],
         features=features[:24])
np.savez(os.path.join(out, "parts", "b.npz"), features=features[24:],
         image=image[24:])
np.savez(os.path.join(out, "one.npz"), image=image[0], features=features[0])


expected = {
    "_exact": ["image", "features"],
    "image": [float(image.min()), float(image.max())],
    "features": [float(features.min()), float(features.max())],
    "twice": [float(2 * image.min()), float(2 * image.max())],
    "twice_features": [float(2 * features.min()), float(2 * features.max())],
}
with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump(expected, f)

np.save(os.path.join(out, "image.npy"), image)
np.savez(os.path.join(out, "missing.npz"), image=image)
np.savez(os.path.join(out, "extra.npz"), image=image, features=features,
         labels=features[:, :1])
np.savez(os.path.join(out, "counts.npz"), image=image,
         features=features[:63])
bad = features.copy()
bad[5, 1] = np.nan
np.savez(os.path.join(out, "nan.npz"), image=image, features=bad)
blob = bytearray(open(os.path.join(out, "calib.npz"), "rb").read())
blob[200] ^= 0x5A  # inside the first member's data
open(os.path.join(out, "badcrc.npz"), "wb").write(bytes(blob))
open(os.path.join(out, "truncated.npz"), "wb").write(bytes(blob[:len(blob) // 2]))
np.savez(os.path.join(out, "pickled.npz"), image=np.array([{"a": 1}], dtype=object),
         features=features)
