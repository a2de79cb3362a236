"""The data of the accuracy benchmark, made the way users have it: rendered
text lines and pages for the OCR models, synthesized speech for the speech
models, Fashion-MNIST images for the classifiers. Each data set has three
disjoint splits, calib (calibration), val (the accuracy budget's
--validation-data) and eval (the task metrics), written as float32 .npy
files in the model's input layout to <cache>/data/<set>/, plus
eval_truth.npy where there is a ground truth.

Preprocessing follows each model's own inference code: PaddleOCR's
resize_norm_img for recognition / direction (height 48, width by aspect
ratio, (x / 255 - 0.5) / 0.5, zero padding on the right), its
DetResizeForTest + NormalizeImage for detection (ImageNet mean / std on
x / 255, BGR order as cv2 reads), openWakeWord's mel features
(melspectrogram.onnx's arithmetic in NumPy, then x / 10 + 2; 76-frame
windows every 8 frames for the embedding model, consecutive embeddings for
the keyword heads).
"""
import os
import random
import subprocess
import tempfile
import wave

import numpy as np

FONTS = "/usr/share/fonts/truetype/dejavu"
TEXT_SOURCE = "/usr/share/common-licenses/GPL-3"


def _words():
    with open(TEXT_SOURCE, encoding="utf-8") as f:
        words = f.read().split()
    return [w for w in words if w.isprintable() and len(w) < 16]


def _fonts():
    return sorted(os.path.join(FONTS, f) for f in os.listdir(FONTS)
                  if f.endswith(".ttf") and "Math" not in f)


def _line_text(rng, words):
    text = " ".join(words[rng.randrange(len(words))] for _ in range(rng.randint(1, 4)))
    if rng.random() < 0.3:
        text += f" {rng.randint(0, 99999)}"
    return text[:24]


def _render_line(rng, text, font_path):
    from PIL import Image, ImageDraw, ImageFont
    size = rng.randint(26, 40)
    font = ImageFont.truetype(font_path, size)
    box = font.getbbox(text)
    pad = rng.randint(2, 8)
    w, h = box[2] - box[0] + 2 * pad, box[3] - box[1] + 2 * pad
    bg = tuple(rng.randint(200, 255) for _ in range(3))
    fg = tuple(rng.randint(0, 70) for _ in range(3))
    img = Image.new("RGB", (w, h), bg)
    ImageDraw.Draw(img).text((pad - box[0], pad - box[1]), text, font=font, fill=fg)
    return img


def _resize_norm(img, height, width):
    """PaddleOCR's resize_norm_img: [3, height, width], BGR."""
    from PIL import Image
    ratio = img.width / img.height
    w = min(width, int(np.ceil(height * ratio)))
    img = img.resize((w, height), Image.BILINEAR)
    x = np.asarray(img, np.float32)[:, :, ::-1].transpose(2, 0, 1) / 255.0
    out = np.zeros((3, height, width), np.float32)
    out[:, :, :w] = (x - 0.5) / 0.5
    return out


def ocr_lines(rng, n, width, rotate=False):
    words, fonts = _words(), _fonts()
    xs, truth = [], []
    for _ in range(n):
        text = _line_text(rng, words)
        img = _render_line(rng, text, rng.choice(fonts))
        flip = rotate and rng.random() < 0.5
        if flip:
            img = img.rotate(180)
        xs.append(_resize_norm(img, 48, width))
        truth.append(int(flip) if rotate else text)
    return np.stack(xs), truth


def ocr_pages(rng, n, height, width):
    from PIL import Image, ImageDraw, ImageFont
    words, fonts = _words(), _fonts()
    mean = np.array([0.485, 0.456, 0.406], np.float32).reshape(3, 1, 1)
    std = np.array([0.229, 0.224, 0.225], np.float32).reshape(3, 1, 1)
    xs = []
    for _ in range(n):
        bg = tuple(rng.randint(190, 255) for _ in range(3))
        img = Image.new("RGB", (width, height), bg)
        draw = ImageDraw.Draw(img)
        y = rng.randint(4, 20)
        while y < height - 20:
            size = rng.randint(12, 28)
            font = ImageFont.truetype(rng.choice(fonts), size)
            fg = tuple(rng.randint(0, 80) for _ in range(3))
            draw.text((rng.randint(4, width // 3), y), _line_text(rng, words),
                      font=font, fill=fg)
            y += size + rng.randint(4, 30)
        x = np.asarray(img, np.float32)[:, :, ::-1].transpose(2, 0, 1) / 255.0
        xs.append((x - mean) / std)
    return np.stack(xs).astype(np.float32), None


# Phrases the keyword models listen for, and others.
PHRASES = ["alexa", "hey mycroft", "hey jarvis", "what is the weather today",
           "what's the weather like", "set a timer for five minutes",
           "set a ten minute timer", "start a one hour timer", "alexa, play some music",
           "hey mycroft, what time is it", "turn off the lights in the kitchen",
           "the quick brown fox jumps over the lazy dog", "call my mother tomorrow",
           "how far is the moon", "open the garage door", "remind me to buy milk"]
VOICES = ["en-us", "en-gb", "en-gb-scotland", "en-gb-x-rp", "en-029", "en-us+f3",
          "en-gb+f2", "en-us+m3"]
RATE = 16000


def _speak(rng, text):
    """espeak-ng's speech at 16 kHz, placed at a random offset in 4 s of low
    noise; returns the audio and the sample where the speech ends."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.wav")
        subprocess.run(["espeak-ng", "-v", rng.choice(VOICES), "-s", str(rng.randint(120, 190)),
                        "-p", str(rng.randint(30, 70)), "-w", path, text], check=True)
        with wave.open(path) as w:
            rate = w.getframerate()
            pcm = np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32)
    t = np.arange(int(len(pcm) * RATE / rate)) * (rate / RATE)
    speech = np.interp(t, np.arange(len(pcm)), pcm)[: 4 * RATE - 1600]
    audio = np.random.default_rng(rng.randint(0, 2**31)).normal(0, 30, 4 * RATE)
    start = rng.randint(800, 4 * RATE - len(speech) - 800)
    audio[start:start + len(speech)] += speech * rng.uniform(0.3, 1.0)
    return audio.astype(np.float32), start + len(speech)


class LogMel:
    """melspectrogram.onnx's arithmetic (STFT as a strided conv, power, mel
    matrix, 10 log10 clamped, then clamped at max - 80 dB) in NumPy, from
    the model's own weights."""

    def __init__(self, path):
        import onnx
        from onnx import numpy_helper
        m = onnx.load(path)
        w = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
        self.real = w["0.stft.conv_real.weight"][:, 0, :].T.astype(np.float64)
        self.imag = w["0.stft.conv_imag.weight"][:, 0, :].T.astype(np.float64)
        self.mel = w["1.melW"].astype(np.float64)
        self.lo, self.hi = float(w["onnx::Clip_39"]), float(w["onnx::Clip_40"])
        self.top = float(w["onnx::Clip_41"])

    def __call__(self, audio):
        frames = np.lib.stride_tricks.sliding_window_view(audio, 512)[::160]
        power = (frames @ self.real) ** 2 + (frames @ self.imag) ** 2
        db = 10 * np.log10(np.clip(power @ self.mel, self.lo, self.hi))
        return np.clip(db, db.max() - 80, self.top)


def speech(rng, n, mel_path):
    """n utterances -> their openWakeWord features ([frames, 32]), the mel
    frame where each one's speech ends and the log-mel front end's input:
    the 12512 samples (76 frames) that end with the speech."""
    logmel = LogMel(mel_path)
    out = []
    for _ in range(n):
        audio, end = _speak(rng, rng.choice(PHRASES))
        start = min(max(end - 12512, 0), len(audio) - 12512)
        out.append(((logmel(audio) / 10 + 2).astype(np.float32), end // 160,
                    audio[start:start + 12512]))
    return out


def mel_windows(features, rng, per_utterance=2):
    """76-frame windows of the mel features, [N, 76, 32, 1]."""
    out = []
    for f in features:
        for _ in range(per_utterance):
            start = rng.randrange(0, (len(f) - 76) // 8 + 1) * 8
            out.append(f[start:start + 76, :, None])
    return np.stack(out)


def head_input(sequence, end_frame, k):
    """The k embeddings a streaming keyword model sees just after the
    speech ends (embedding j covers mel frames 8j .. 8j + 75)."""
    last = int(np.clip(np.ceil((end_frame + 4 - 76) / 8) + 1, k, len(sequence)))
    return sequence[last - k:last]


def embedding_sequence(features, embed):
    """The embedding model run over every 76-frame window (8-frame hop)."""
    windows = np.stack([features[s:s + 76, :, None] for s in range(0, len(features) - 75, 8)])
    return embed(windows).reshape(len(windows), 96)


def fashion(split, n, offset=0):
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../examples/fashion-mnist"))
    import fashion_mnist as fm
    x, y = fm.load(split)
    return x[offset:offset + n], y[offset:offset + n]


def save(folder, name, array):
    os.makedirs(folder, exist_ok=True)
    np.save(os.path.join(folder, name + ".npy"), np.ascontiguousarray(array, np.float32))


def make_image_sets(cache, counts, det_shape):
    """The OCR and Fashion-MNIST sets (counts: calib, val, eval)."""
    root = os.path.join(cache, "data")
    h, w = (int(d) for d in det_shape.split("x")[2:])
    for split, n, seed in zip(("calib", "val", "eval"), counts, (1, 2, 3)):
        rng = random.Random(seed)
        x, truth = ocr_lines(rng, n, 320)
        save(os.path.join(root, "ocr-rec"), split, x)
        if split == "eval":
            with open(os.path.join(root, "ocr-rec", "eval_truth.txt"), "w") as f:
                f.write("\n".join(truth) + "\n")
        x, truth = ocr_lines(rng, n, 192, rotate=True)
        save(os.path.join(root, "ocr-cls"), split, x)
        np.save(os.path.join(root, "ocr-cls", split + "_truth.npy"), np.array(truth))
        save(os.path.join(root, "ocr-det"), split, ocr_pages(rng, n, h, w)[0])
    x, _ = fashion("train", counts[0] + counts[1], offset=50000)
    save(os.path.join(root, "fashion"), "calib", x[:counts[0]])
    save(os.path.join(root, "fashion"), "val", x[counts[0]:])
    x, y = fashion("test", 8 * counts[2])
    save(os.path.join(root, "fashion"), "eval", x)
    np.save(os.path.join(root, "fashion", "eval_truth.npy"), y)
