"""quantc from Python: load compiled models, compile ONNX and PyTorch models.

Pure Python on ctypes and NumPy; nothing to build. A model compiled with
``quant-compile --emit=shared -o model.so`` loads as a callable on NumPy
arrays::

    import quantc
    model = quantc.load("model.so")
    logits = model(images)            # float32 [N, 3, 224, 224] -> [N, 1000]

``quantc.compile`` drives ``quant-compile`` (post-training quantization with
calibration data, or a float or QDQ model as it is) and loads the result;
``quantc.from_torch`` exports a ``torch.nn.Module`` with ``torch.onnx.export``
first. The loaded model checks every input's dtype and shape against the
interface the library describes (``<name>_metadata()``, the header's
information as JSON), and runs a batch of several times the compiled batch
size as that many calls, stacking the outputs.

Loading a library runs its code: load only libraries you compiled or trust.
``load`` copies the file into a private temporary first and checks the copy
(a regular file, a 64-bit little-endian ELF shared library for this machine
whose program and section headers, segments and sections lie inside the
file), loads it once in a child process, and only then in this one, so
that a truncated or corrupt file raises QuantcError instead of crashing the
process (SIGBUS, or SIGSEGV in the dynamic loader) and nobody can truncate
it while it is mapped; the copy is removed once it is loaded (the mapping
stays). The interface the library describes (``<name>_metadata()``) is
checked too. ``compile`` removes every temporary directory it makes, on
success, failure and exceptions alike (docs/hardening.md).
"""

import ctypes
import json
import math
import numbers
import os
import platform
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile

import numpy as np

__all__ = ["Model", "QuantcError", "load", "compile", "from_torch",
           "find_quant_compile"]


class QuantcError(RuntimeError):
    """quant-compile failed, or a compiled model refused to run."""


class Model:
    """A compiled model loaded from a shared library.

    Attributes: ``name`` (the C symbol prefix), ``inputs`` / ``outputs``
    (lists of dicts: ``name``, ``shape``, ``layout``, ``dtype`` and, for a
    quantized interface, ``quantization``), ``int8_isas`` (the instruction
    sets the library carries), ``quantized``, ``threads``, ``path``.
    """

    def __init__(self, path, name=None):
        self.path = os.path.abspath(path)
        self._lib, symbols = _load_library(self.path)
        if name is None:
            name = _only_model_name(self.path, symbols)
        self.name = name
        try:
            metadata = getattr(self._lib, f"{name}_metadata")
        except AttributeError:
            raise QuantcError(
                f"{path}: no {name}_metadata(); compile it with "
                "quant-compile --emit=shared") from None
        metadata.restype = ctypes.c_char_p
        metadata.argtypes = []
        info = _check_metadata(path, name, metadata())
        self.inputs = info["inputs"]
        self.outputs = info["outputs"]
        self.int8_isas = info["int8_isas"]
        self.quantized = info["quantized"]
        self.threads = info["threads"]
        try:
            self._run = getattr(self._lib, f"{name}_run")
            self._isa = getattr(self._lib, f"{name}_int8_isa")
        except AttributeError:
            raise QuantcError(
                f"{path}: no {name}_run() or {name}_int8_isa(); compile it "
                "with quant-compile --emit=shared") from None
        self._run.restype = ctypes.c_int
        self._run.argtypes = [ctypes.c_void_p] * (len(self.inputs) +
                                                  len(self.outputs))
        self._isa.restype = ctypes.c_char_p
        self._isa.argtypes = []

    @property
    def int8_isa(self):
        """The instruction set this CPU runs (None: the CPU has none)."""
        isa = self._isa()
        return isa.decode() if isa is not None else None

    def set_num_threads(self, n):
        """Threads of later runs (a model compiled with --parallel=omp;
        n <= 0: the OpenMP default)."""
        if not self.threads:
            raise QuantcError(f"{self.name} is single-threaded (compile it "
                              "with parallel='omp')")
        fn = getattr(self._lib, f"{self.name}_set_num_threads")
        fn.argtypes = [ctypes.c_int]
        fn.restype = None
        fn(int(n))

    def __call__(self, *arrays):
        """Runs the model: one array per input, in model order. Returns the
        output array, or a tuple of them for a model with several outputs.
        An input may carry k times the compiled batch (the first
        dimension), or omit a compiled batch of 1; the outputs then carry
        k times theirs (or omit it)."""
        if len(arrays) != len(self.inputs):
            raise TypeError(f"{self.name} takes {len(self.inputs)} input(s), "
                            f"got {len(arrays)}")
        prepared, repeats, squeeze = [], None, None
        for i, (array, spec) in enumerate(zip(arrays, self.inputs)):
            array = np.asarray(array)
            if not (np.issubdtype(array.dtype, np.floating) or
                    np.issubdtype(array.dtype, np.integer)):
                raise TypeError(f"input {i} ({spec['name'] or i}): dtype "
                                f"{array.dtype}, expected {spec['dtype']}")
            if array.dtype != np.float32:
                if not np.issubdtype(array.dtype, np.floating):
                    raise TypeError(
                        f"input {i} ({spec['name'] or i}): dtype "
                        f"{array.dtype}, expected float32 (convert it "
                        "explicitly)")
                array = array.astype(np.float32)
            shape = tuple(spec["shape"])
            k, drop = _batches(array.shape, shape)
            if k is None:
                raise ValueError(
                    f"input {i} ({spec['name'] or i}): shape "
                    f"{tuple(array.shape)}, expected {shape} (or a multiple "
                    "of its first dimension)")
            if repeats is not None and (k, drop) != (repeats, squeeze):
                raise ValueError("the inputs carry different batch sizes")
            repeats, squeeze = k, drop
            prepared.append(np.ascontiguousarray(array).reshape(
                (k,) + shape))
        # float32, or an integer dtype (ArgMax indices: int64, ...).
        outputs = [np.empty((repeats,) + tuple(o["shape"]),
                            np.dtype(o.get("dtype", "float32")))
                   for o in self.outputs]
        for r in range(repeats):
            pointers = [a[r].ctypes.data for a in prepared] + \
                       [o[r].ctypes.data for o in outputs]
            if self._run(*pointers) != 0:
                raise QuantcError(
                    f"{self.name}_run returned an error: this CPU has none "
                    f"of the instruction sets the library carries "
                    f"({', '.join(self.int8_isas)})")
        results = []
        for o, spec in zip(outputs, self.outputs):
            shape = tuple(spec["shape"])
            if squeeze:
                results.append(o.reshape(shape[1:]) if repeats == 1
                               else o.reshape((repeats,) + shape[1:]))
            else:
                results.append(o.reshape((repeats * shape[0],) + shape[1:])
                               if shape else o.reshape(repeats))
        return results[0] if len(results) == 1 else tuple(results)

    def __repr__(self):
        shapes = ", ".join(str(tuple(i["shape"])) for i in self.inputs)
        where = f" from {self.path}" if self.path else ""
        return (f"<quantc.Model {self.name}({shapes}) "
                f"{'int8' if self.quantized else 'float'}{where}>")


def _batches(actual, compiled):
    """(k, squeeze): `actual` is k stacked copies of `compiled` along the
    first dimension (squeeze False), or `compiled` without its leading 1
    (k = 1, squeeze True), or k such inputs stacked (squeeze True);
    (None, None) otherwise."""
    actual, compiled = tuple(actual), tuple(compiled)
    if not compiled:
        return (1, False) if actual == () else (None, None)
    if len(actual) == len(compiled) and actual[1:] == compiled[1:] and \
            compiled[0] > 0 and actual[0] % compiled[0] == 0 and actual[0]:
        return actual[0] // compiled[0], False
    if compiled[0] == 1 and actual == compiled[1:]:
        return 1, True
    return None, None


def _check_metadata(path, name, text):
    """The interface `name`_metadata() returned (`text`, bytes), checked to
    be what quant-compile writes: inputs and outputs with shapes of
    non-negative integers and NumPy dtypes, the instruction sets, flags."""
    def bad(why):
        return QuantcError(f"{path}: {name}_metadata() is not what "
                           f"quant-compile --emit=shared writes ({why})")
    try:
        info = json.loads(text.decode())
    except (AttributeError, UnicodeDecodeError, ValueError) as e:
        raise bad(f"not JSON: {e}") from None
    if not isinstance(info, dict):
        raise bad("not an object")
    for key in ("inputs", "outputs", "int8_isas"):
        if not isinstance(info.get(key), list):
            raise bad(f"no list '{key}'")
    for key in ("quantized", "threads"):
        if key not in info:
            raise bad(f"no '{key}'")
    for spec in info["inputs"] + info["outputs"]:
        shape = spec.get("shape") if isinstance(spec, dict) else None
        if not isinstance(shape, list) or not all(
                isinstance(d, int) and not isinstance(d, bool) and d >= 0
                for d in shape):
            raise bad(f"a tensor without a shape of sizes: {spec!r:.80}")
        try:
            np.dtype(spec.get("dtype", "float32"))
        except TypeError:
            raise bad(f"unknown dtype {spec.get('dtype')!r:.40}") from None
    if not info["outputs"]:
        raise bad("no outputs")
    return info


def _only_model_name(path, symbols):
    """The model name of a library with one <name>_metadata symbol among
    its defined dynamic `symbols`."""
    names = set()
    for symbol in symbols:
        if symbol.endswith("_metadata"):
            names.add(symbol[:-len("_metadata")])
    if len(names) != 1:
        raise QuantcError(f"{path}: expected one model, found "
                          f"{sorted(names) or 'none'}; pass name=")
    return names.pop()


# ELF constants (64-bit little-endian libraries: x86-64, AArch64).
_ELF_HEADER = struct.Struct("<16sHHIQQQIHHHHHH")
_PROGRAM_HEADER = struct.Struct("<IIQQQQQQ")
_SECTION_HEADER = struct.Struct("<IIQQQQIIQQ")
_SYMBOL = struct.Struct("<IBBHQQ")
_ET_DYN, _PT_LOAD, _PT_DYNAMIC, _SHT_NOBITS, _SHT_DYNSYM = 3, 1, 2, 8, 11
_MACHINES = {62: "x86_64", 183: "aarch64"}


def _load_library(path):
    """(ctypes library, defined dynamic symbol names) of the shared library
    at `path`, loaded from a private copy checked by _check_elf."""
    try:
        # O_NONBLOCK: a fifo does not block the open; it is refused below.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK |
                     getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise QuantcError(f"{path}: cannot open: {e.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise QuantcError(f"{path}: not a regular file")
        handle, copy = tempfile.mkstemp(prefix="quantc-", suffix=".so")
        try:
            with open(handle, "wb") as out, open(fd, "rb", closefd=False) as f:
                shutil.copyfileobj(f, out, 1 << 20)
            with open(copy, "rb") as f:
                symbols = _check_elf(path, f)
            _probe_load(path, copy, symbols)
            try:
                library = ctypes.CDLL(copy)
            except OSError as e:
                raise QuantcError(f"{path}: cannot load: {e}") from None
        finally:
            os.unlink(copy)
    finally:
        os.close(fd)
    return library, symbols


_PROBE = """import ctypes, sys
library = ctypes.CDLL(sys.argv[1])
for name in sys.argv[2:]:
    function = getattr(library, name)
    if name.endswith("_metadata"):
        function.restype = ctypes.c_char_p
        function()
"""


def _probe_load(path, copy, symbols):
    """Loads `copy` in a child process first, looks up its `symbols` there
    and calls its <name>_metadata functions: a library whose headers pass
    _check_elf can still crash the dynamic loader, a symbol lookup or that
    first call (a damaged segment table, dynamic section or hash table:
    SIGSEGV) or hang in a constructor; then this process stays alive and
    raises QuantcError."""
    if not sys.executable:
        return
    try:
        probe = subprocess.run(
            [sys.executable, "-S", "-c", _PROBE, copy] + list(symbols),
            capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise QuantcError(f"{path}: loading it did not finish in 120 s") \
            from None
    if probe.returncode < 0:
        raise QuantcError(
            f"{path}: not a valid shared library (the dynamic loader "
            f"crashed on it: {signal.Signals(-probe.returncode).name}); "
            "compile it again with quant-compile --emit=shared")
    if probe.returncode != 0:
        lines = probe.stderr.strip().splitlines()
        reason = lines[-1] if lines else f"exit code {probe.returncode}"
        raise QuantcError(f"{path}: cannot load: "
                          f"{reason.replace(copy, path)}")


def _check_elf(path, f):
    """Checks that the file `f` is a 64-bit little-endian ELF shared library
    for this machine whose headers, segments and sections lie inside it
    (what the dynamic loader maps and reads; a part past the end of the file
    is a SIGBUS inside dlopen). Returns its defined dynamic symbols."""
    def bad(why):
        return QuantcError(f"{path}: not a valid shared library ({why}); "
                           "compile it again with quant-compile "
                           "--emit=shared")
    size = os.fstat(f.fileno()).st_size

    def read(offset, length):
        f.seek(offset)
        data = f.read(length)
        if len(data) != length:
            raise bad(f"{length} bytes at {offset} outside the file")
        return data
    if size < _ELF_HEADER.size:
        raise bad("no ELF header")
    (ident, kind, machine, _, _, phoff, shoff, _, _, phentsize, phnum,
     shentsize, shnum, shstrndx) = _ELF_HEADER.unpack(
         read(0, _ELF_HEADER.size))
    if ident[:4] != b"\x7fELF":
        raise bad("no ELF header")
    if ident[4] != 2 or ident[5] != 1:
        raise bad("not 64-bit little-endian ELF")
    if kind != _ET_DYN:
        raise bad(f"ELF type {kind}, not a shared object")
    host = platform.machine().lower().replace("arm64", "aarch64")
    if host in _MACHINES.values() and _MACHINES.get(machine) != host:
        raise QuantcError(f"{path}: a library for "
                          f"{_MACHINES.get(machine, f'ELF machine {machine}')}"
                          f", this machine is {host}")
    if phnum == 0 or phentsize != _PROGRAM_HEADER.size or \
            phoff + phnum * phentsize > size:
        raise bad("program headers outside the file (truncated?)")
    dynamic = False
    headers = read(phoff, phnum * phentsize)
    for i in range(phnum):
        (ptype, _, offset, _, _, filesz, memsz, _) = \
            _PROGRAM_HEADER.unpack_from(headers, i * phentsize)
        if offset + filesz > size:
            raise bad(f"segment {i} ends at byte {offset + filesz}, the "
                      f"file has {size} (truncated?)")
        if ptype == _PT_LOAD and filesz > memsz:
            raise bad(f"segment {i} is larger in the file than in memory")
        dynamic |= ptype == _PT_DYNAMIC
    if not dynamic:
        raise bad("no dynamic segment")
    if shnum and (shentsize != _SECTION_HEADER.size or
                  shoff + shnum * shentsize > size):
        raise bad("section headers outside the file (truncated?)")
    headers = read(shoff, shnum * shentsize)
    sections = [_SECTION_HEADER.unpack_from(headers, i * shentsize)
                for i in range(shnum)]
    for i, section in enumerate(sections):
        kind, offset, length = section[1], section[4], section[5]
        if kind != _SHT_NOBITS and offset + length > size:
            raise bad(f"section {i} ends at byte {offset + length}, the "
                      f"file has {size} (truncated?)")
    if shnum and shstrndx >= shnum:
        raise bad("section name table index out of range")
    try:
        return _dynamic_symbols(read, sections)
    except (struct.error, IndexError, ValueError, UnicodeDecodeError):
        raise bad("unreadable dynamic symbol table") from None


def _dynamic_symbols(read, sections):
    """The names of the defined dynamic symbols (SHT_DYNSYM) of an ELF
    library, given its section headers and read(offset, length)."""
    symbols = []
    for (_, kind, _, _, offset, size, link, _, _, entsize) in sections:
        if kind != _SHT_DYNSYM:
            continue
        if entsize != _SYMBOL.size:
            raise ValueError("symbol entry size")
        table = read(offset, size)
        strings = read(sections[link][4], sections[link][5])
        for at in range(0, size - size % entsize, entsize):
            name, _, _, shndx, _, _ = _SYMBOL.unpack_from(table, at)
            if shndx == 0 or name == 0:
                continue
            end = strings.index(b"\0", name)
            symbols.append(strings[name:end].decode())
    return symbols


def load(path, name=None):
    """Loads a model compiled with ``quant-compile --emit=shared``."""
    return Model(path, name)


def find_quant_compile(explicit=None):
    """The quant-compile to run: `explicit`, $QUANTC_COMPILE, the build tree
    beside this package (build/bin), or quant-compile on PATH."""
    candidates = [explicit, os.environ.get("QUANTC_COMPILE"),
                  os.path.join(os.path.dirname(os.path.abspath(__file__)),
                               "..", "..", "build", "bin", "quant-compile"),
                  shutil.which("quant-compile")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    raise QuantcError("quant-compile not found: build it (scripts/build.sh), "
                      "put it on PATH, or set QUANTC_COMPILE")


def compile(model, output=None, calibration=None, profile=None, cpu=None,
            int8_isas=None, parallel=None, batch=None, input_shapes=None,
            exclude=None, extra_args=(), quant_compile=None,
            validation=None, min_output_sqnr=None, metric=None,
            min_metric=None, max_metric_drop=None, report=None,
            equalize=False, bias_correction=False, smooth_alpha=None,
            activation_observer=None):
    """Compiles the ONNX (or MLIR) file `model` to a shared library and loads
    it.

    calibration: a float32 array of samples stacked along the first
    dimension, for a model with several inputs a dict of such arrays keyed
    by input name (or a path to a .npy / .npz file or a directory of them):
    quantizes the float model post-training. Without it a float model stays float and a QDQ
    model is quantized with its own parameters; a dynamically quantized
    model (ONNX Runtime's quantize_dynamic) needs calibration, or
    extra_args=["--dynamic-as-float"] to compile it in float. profile: calibration
    profile(s) to start from. cpu / int8_isas: pin a CPU, or choose the
    instruction sets of a dispatching library. parallel: "omp" for OpenMP
    threads. batch: the batch size to compile for. input_shapes: the
    shapes to compile an ONNX model's inputs for, fixing their free
    dimensions: a dict {input name: shape}, or one shape (a list of ints)
    for a model with one input (quant-compile --input-shape). output: where
    the library goes (default: nowhere: it is compiled into a temporary
    directory, loaded, and the directory removed; the model's ``path`` is
    then None). Every temporary directory is removed before compile
    returns or raises.

    Accuracy tools (docs/accuracy.md): min_output_sqnr (dB) keeps the most
    sensitive layers in float until the int8 SQNR against float of every
    model output holds on `validation` (data as for calibration; default:
    the calibration data); a dict {output name: dB} sets it per output
    (key None: every other output; outputs without a target are not
    constrained). metric (a function of a loaded model, higher is
    better; the model returns all its outputs) with min_metric or
    max_metric_drop runs that search on the caller's own metric (see
    _compile_for_metric). report: a directory for
    the per-layer report. equalize, bias_correction, smooth_alpha and
    activation_observer ("auto", ...) pass --equalize, --bias-correction,
    --smooth-alpha and --activation-observer.
    """
    _check_numeric_keywords(batch, min_output_sqnr, min_metric,
                            max_metric_drop, smooth_alpha)
    tool = find_quant_compile(quant_compile)
    with tempfile.TemporaryDirectory(prefix="quantc-") as work:
        compiled = _compile_in(
            work, tool, model, output, calibration, profile, cpu, int8_isas,
            parallel, batch, input_shapes, exclude, extra_args,
            quant_compile, validation, min_output_sqnr, metric, min_metric,
            max_metric_drop, report, equalize, bias_correction,
            smooth_alpha, activation_observer)
        if output is None:
            compiled.path = None  # its file goes with `work`
        return compiled


def _check_numeric_keywords(batch, min_output_sqnr, min_metric,
                            max_metric_drop, smooth_alpha):
    """Refuses numeric keywords no compile can mean, as quant-compile
    refuses its options: a number that is NaN, infinite or no number, a
    negative max_metric_drop, a batch that is not a positive integer."""
    if isinstance(min_output_sqnr, dict):
        for output, value in min_output_sqnr.items():
            if output is not None and (not isinstance(output, str) or
                                       not output):
                raise QuantcError("min_output_sqnr: the keys are output "
                                  f"names (or None), not {output!r}")
            _check_numeric_keywords(None, value, None, None, None)
        min_output_sqnr = None
    for name, value in (("min_output_sqnr", min_output_sqnr),
                        ("min_metric", min_metric),
                        ("max_metric_drop", max_metric_drop),
                        ("smooth_alpha", smooth_alpha)):
        if value is None:
            continue
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = math.nan
        if isinstance(value, bool) or not math.isfinite(number):
            raise QuantcError(f"{name} must be a finite number, not "
                              f"{value!r}")
    if max_metric_drop is not None and float(max_metric_drop) < 0:
        raise QuantcError(f"max_metric_drop must be >= 0, not "
                          f"{max_metric_drop!r}")
    if batch is not None and (isinstance(batch, bool) or
                              not isinstance(batch, numbers.Integral) or
                              batch < 1):
        raise QuantcError(f"batch must be a positive integer, not {batch!r}")


def _compile_in(work, tool, model, output, calibration, profile, cpu,
                int8_isas, parallel, batch, input_shapes, exclude,
                extra_args, quant_compile, validation, min_output_sqnr,
                metric, min_metric, max_metric_drop, report, equalize,
                bias_correction, smooth_alpha, activation_observer):
    """compile() with `work`, a temporary directory the caller removes."""
    if output is None:
        output = os.path.join(work, "model.so")
    args = [tool, os.fspath(model), "--emit=shared", "-o", os.fspath(output)]
    if calibration is not None and metric is None:
        args.append("--calibration-data=" +
                    _data_file(calibration, work, "calibration"))
    if metric is not None:
        return _compile_for_metric(
            model, output, work, calibration, validation, metric, min_metric,
            max_metric_drop, report,
            dict(profile=profile, cpu=cpu, int8_isas=int8_isas,
                 parallel=parallel, batch=batch, input_shapes=input_shapes,
                 exclude=exclude, extra_args=extra_args,
                 quant_compile=quant_compile, equalize=equalize,
                 bias_correction=bias_correction, smooth_alpha=smooth_alpha,
                 activation_observer=activation_observer))
    if validation is not None:
        args.append("--validation-data=" +
                    _data_file(validation, work, "validation"))
    if min_output_sqnr is not None:
        targets = min_output_sqnr if isinstance(min_output_sqnr, dict) \
            else {None: min_output_sqnr}
        args += [f"--min-output-sqnr={'' if output is None else output + '='}"
                 f"{float(db)!r}" for output, db in targets.items()]
    if report is not None:
        args.append(f"--report={os.fspath(report)}")
    if equalize:
        args.append("--equalize")
    if bias_correction:
        args.append("--bias-correction")
    if smooth_alpha is not None:
        args.append(f"--smooth-alpha={float(smooth_alpha)!r}")
    if activation_observer:
        args.append(f"--activation-observer={activation_observer}")
    for p in ([profile] if isinstance(profile, (str, os.PathLike))
              else profile or []):
        args.append(f"--profile={os.fspath(p)}")
    if cpu:
        args.append(f"--cpu={cpu}")
    if int8_isas:
        args.append("--int8-isas=" + (int8_isas if isinstance(int8_isas, str)
                                      else ",".join(int8_isas)))
    if parallel:
        args.append(f"--parallel={parallel}")
    if batch:
        args.append(f"--batch={int(batch)}")
    if input_shapes is not None:
        args += [f"--input-shape={spec}"
                 for spec in _input_shape_specs(input_shapes)]
    if exclude:
        args.append("--exclude=" + ",".join(exclude))
    args += list(extra_args)
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode != 0:
        raise QuantcError(f"quant-compile failed (exit {result.returncode}): "
                          f"{result.stderr.strip()}")
    return load(output)


def _data_file(data, work, name):
    """A path quant-compile reads `data` from: the path itself, else an .npz
    (a dict of arrays by input name) or .npy file written into `work`."""
    if isinstance(data, (str, os.PathLike)):
        return os.fspath(data)
    if isinstance(data, dict):
        path = os.path.join(work, f"{name}.npz")
        np.savez(path, **{key: np.ascontiguousarray(a, dtype=np.float32)
                          for key, a in data.items()})
        return path
    path = os.path.join(work, f"{name}.npy")
    np.save(path, np.ascontiguousarray(data, dtype=np.float32))
    return path


def _compile_for_metric(model, output, work, calibration, validation, metric,
                        min_metric, max_metric_drop, report, options):
    """compile(metric=...): the accuracy budget on the user's own metric.

    metric(model) -> float, higher is better, is called on the float model
    and on int8 candidates, loaded libraries whose call returns every model
    output (a tuple for several). The ranking it follows is by the worst
    output's SQNR. The target is min_metric, else the float model's
    score minus max_metric_drop (default 0). Layers go back to float in the
    order of quant-compile's measured sensitivity ranking (--rank-layers on
    the validation data, else the calibration data): the smallest prefix of
    that order whose int8 model scores at least the target (found by
    doubling, then bisection; the metric is assumed to improve with more
    float layers). Calibration runs once (a saved profile serves the
    rest). The returned model has ``float_layers`` (the names kept in float)
    and ``metric_scores`` ({number of float layers: score})."""
    if calibration is None:
        raise QuantcError("metric= needs calibration data")
    if min_metric is not None and max_metric_drop is not None:
        raise QuantcError("give min_metric or max_metric_drop, not both")
    base_exclude = list(options.pop("exclude") or [])
    float_model = compile(model, output=os.path.join(work, "float.so"),
                          **{k: v for k, v in options.items()
                             if k not in ("profile", "equalize",
                                          "bias_correction", "smooth_alpha",
                                          "activation_observer")})
    float_score = float(metric(float_model))
    target = float(min_metric) if min_metric is not None else \
        float_score - float(max_metric_drop or 0.0)
    profile = os.path.join(work, "calibration.profile.json")
    ranking_dir = os.path.join(work, "ranking")
    first = compile(model, output=os.path.join(work, "int8-0.so"),
                    calibration=calibration, validation=validation,
                    report=ranking_dir, exclude=base_exclude,
                    **dict(options, extra_args=list(options["extra_args"]) +
                           ["--rank-layers", f"--save-profile={profile}"]))
    with open(os.path.join(ranking_dir, "report.json")) as f:
        ranking = [l["name"] for l in
                   json.load(f)["accuracy_budget"]["ranking"]]
    scores = {0: float(metric(first))}
    models = {0: first}

    def build(k):
        if k not in models:
            # Bias correction measures on the data: it recalibrates.
            data = dict(calibration=calibration) \
                if options["bias_correction"] else dict(profile=profile)
            models[k] = compile(
                model, output=os.path.join(work, f"int8-{k}.so"),
                exclude=base_exclude + ranking[:k], **dict(options, **data))
            scores[k] = float(metric(models[k]))
        return scores[k] >= target

    best = 0
    if not build(0):
        low, high = 0, 1
        while high < len(ranking) and not build(high):
            low, high = high, min(2 * high, len(ranking))
        if build(high):
            while high - low > 1:
                mid = (low + high) // 2
                if build(mid):
                    high = mid
                else:
                    low = mid
        best = high
    chosen = models[best]
    if output is not None:
        _copy_whole(chosen.path, os.fspath(output))
        chosen = load(output)
    if report is not None:
        compile(model, output=os.path.join(work, "report.so"),
                exclude=base_exclude + ranking[:best], report=report,
                calibration=calibration, **dict(options, profile=None))
    chosen.float_layers = ranking[:best]
    chosen.metric_scores = dict(sorted(scores.items()))
    chosen.float_metric = float_score
    chosen.metric_met = scores[best] >= target
    return chosen


def _copy_whole(source, target):
    """Copies `source` to `target` as quant-compile writes its outputs: into
    a temporary beside it, renamed onto it only where it is a new name or a
    regular file (a link to one: that file), removed on failure."""
    if os.path.islink(target):
        if not os.path.exists(target):
            raise QuantcError(f"cannot write '{target}': a symbolic link to "
                              "a missing file")
        target = os.path.realpath(target)
    if os.path.lexists(target) and not stat.S_ISREG(os.lstat(target).st_mode):
        raise QuantcError(f"cannot write '{target}': not a regular file")
    directory, name = os.path.split(os.path.abspath(target))
    fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{name[:200]}.tmp-")
    try:
        with open(fd, "wb") as out, open(source, "rb") as f:
            shutil.copyfileobj(f, out, 1 << 20)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)
    except BaseException:
        if os.path.lexists(temp):
            os.unlink(temp)
        raise


def _input_shape_specs(input_shapes):
    """quant-compile --input-shape values for `input_shapes`: a dict of
    shapes by input name, or one shape."""
    def dims(shape):
        try:
            values = [int(d) for d in shape]
        except (TypeError, ValueError):
            raise QuantcError(f"input_shapes: {shape!r} is not a sequence "
                              "of integers") from None
        if any(int(d) != d for d in shape):
            raise QuantcError(f"input_shapes: {shape!r} is not a sequence "
                              "of integers")
        return "x".join(str(d) for d in values)
    if isinstance(input_shapes, dict):
        return [f"{name}={dims(shape)}"
                for name, shape in input_shapes.items()]
    return [dims(input_shapes)]


def from_torch(module, example_input, calibration=None, opset_version=13,
               **options):
    """Exports the torch.nn.Module `module` with torch.onnx.export on
    `example_input` (a tensor or a tuple of them; the inputs are named
    input0, input1, ...), then compiles it like ``compile`` (calibration:
    samples as a NumPy array or tensor, for several inputs a tuple of them in
    input order; other options as for ``compile``)."""
    import torch
    with tempfile.TemporaryDirectory(prefix="quantc-torch-") as work:
        return _from_torch_in(work, torch, module, example_input,
                              calibration, opset_version, options)


def _from_torch_in(work, torch, module, example_input, calibration,
                   opset_version, options):
    """from_torch() with `work`, a temporary directory the caller
    removes."""
    path = os.path.join(work, "model.onnx")
    inputs = example_input if isinstance(example_input, tuple) \
        else (example_input,)
    was_training = module.training
    module.eval()
    try:
        with torch.no_grad():
            torch.onnx.export(module, inputs, path,
                              opset_version=opset_version,
                              input_names=[f"input{i}"
                                           for i in range(len(inputs))])
    finally:
        module.train(was_training)
    def numpy(a):
        return a.detach().cpu().numpy() if hasattr(a, "detach") else a
    if isinstance(calibration, (tuple, list)):
        if len(calibration) != len(inputs):
            raise QuantcError(f"calibration has {len(calibration)} arrays, "
                              f"the module {len(inputs)} inputs")
        calibration = {f"input{i}": numpy(a)
                       for i, a in enumerate(calibration)}
    elif calibration is not None:
        calibration = numpy(calibration)
    return compile(path, calibration=calibration, **options)
