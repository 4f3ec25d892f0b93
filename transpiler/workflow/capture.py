"""Record the specialisations a host program really launches: every ``ct.launch`` it makes.

One recording path for two uses:

* ``ctrs specs FILE --call EXPR`` (``mode="intercept"``, CPU): the host function of FILE runs on CPU torch
  tensors; ``ct.launch`` records and returns without launching; what the host code asks of CUDA (streams,
  device properties, capability) is answered for an H200 (132 SMs, sm_90; ``num_sms`` changes the count);
* the pytest plugin ``ctrs.workflow.record`` (``mode="passthrough"``, GPU): every launch is recorded, then really made.

A launch is described in the spec format (spec.py): each array's dtype, shape, strides (elements) and base
alignment, each scalar's dtype and value, each ``ct.Constant`` value, the grid, and the kernel's compiler
hints (``replace_hints`` / autotune ``hints_fn``) when they differ from the defaults. Launches the JIT would
compile once are recorded once: the key is the kernel, its hints and the ``KernelSignature`` the reference
side builds for the spec (spec.reference_signature: the same constraints ``ct.launch`` derives).

Autotuning records one spec per config: ``cuda.tile.tune.exhaustive_search`` and
``cuda.tile_experimental.autotune_launch`` (installed as a module when that package is absent) evaluate
grid/args/hints for every config of the search space; in intercept mode they return the first config as
the "best" one, so the host code goes on to its final ``ct.launch``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import inspect
import sys
import types
from dataclasses import dataclass, field
from typing import Any

from .. import errors, spec as specmod

H200_SMS = 132
H200_CAPABILITY = (9, 0)
H200_MEMORY = 150_012_854_272  # bytes (141 GiB HBM3e as torch reports it)
_DEFAULT_HINTS = {"num_ctas": None, "occupancy": None, "opt_level": 3, "num_worker_warps": None}


@dataclass
class Launch:
    kernel: str
    source: str  # file defining the kernel
    spec: specmod.Spec
    origin: str  # "launch" | "autotune[i]"
    key: str


@dataclass
class Recorder:
    """Collects launches, deduplicated by the JIT's cache key."""

    mode: str = "intercept"  # or "passthrough"
    num_sms: int = H200_SMS
    launches: list[Launch] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    seen: int = 0  # launches made, repeats included
    _keys: set = field(default_factory=set)

    def record(self, kernel, grid, args, origin: str = "launch") -> Launch | None:
        """Describe one launch; None when the JIT would reuse an earlier compilation."""
        self.seen += 1
        spec = describe(kernel, grid, args, self.mode == "intercept")
        if isinstance(spec, str):
            self.unsupported.append(f"{_kernel_name(kernel)}: parameter '{spec}' is of a kind the spec format "
                                    "cannot describe (tuple, list, dataclass, pointer, dtype)")
            return None
        site = _call_site()
        key = jit_key(kernel, spec)
        if key in self._keys:  # compiled once by the JIT: one spec, every launch line it came from
            first = next(la for la in self.launches if la.key == key)
            if site and site not in first.spec.sites:
                first.spec.sites.append(site)
            return None
        spec.sites = [site] if site else []
        self._keys.add(key)
        src = inspect.getsourcefile(_pyfunc(kernel)) or ""
        launch = Launch(spec.kernel, src, spec, origin, key)
        self.launches.append(launch)
        return launch

    def specs(self, source: str | None = None) -> list[specmod.Spec]:
        """The recorded specs (of kernels defined in ``source`` when given), named uniquely:
        ``<kernel>__<dtype>_<shape of the first array>[_<CONST><value>...]``, ``_2``, ``_3`` on a clash."""
        out: list[specmod.Spec] = []
        used: set[str] = set()
        for la in self.launches:
            if source is not None and la.source != source:
                continue
            base = _spec_name(la.spec)
            name, i = base, 2
            while name in used:
                name, i = f"{base}_{i}", i + 1
            used.add(name)
            out.append(dataclasses.replace(la.spec, name=name))
        return out


def _call_site() -> str:
    """``file.py:LINE`` of the host code's ct.launch / autotune call (the first frame outside ctrs, cuda.tile)."""
    import os  # noqa: PLC0415

    here = os.path.dirname(os.path.abspath(__file__))
    f = sys._getframe(1)
    while f is not None:
        fn = f.f_code.co_filename
        if not (fn.startswith(here) or f"{os.sep}cuda{os.sep}tile" in fn or fn.startswith("<")):
            return f"{os.path.basename(fn)}:{f.f_lineno}"
        f = f.f_back
    return ""


def _pyfunc(kernel):
    return getattr(kernel, "_pyfunc", None) or kernel


def _kernel_name(kernel) -> str:
    return getattr(_pyfunc(kernel), "__name__", type(kernel).__name__)


def _options(kernel) -> dict[str, Any]:
    opts = getattr(kernel, "_compiler_options", None)
    if opts is None or not dataclasses.is_dataclass(opts):
        return {}
    return {k: v for k, v in dataclasses.asdict(opts).items() if k in _DEFAULT_HINTS}


def _declared(kernel):
    """The module-level ``@ct.kernel`` object of the same function (its decorator's hints), if any."""
    fn = _pyfunc(kernel)
    mod = sys.modules.get(getattr(fn, "__module__", ""), None)
    for v in vars(mod).values() if mod is not None else ():
        if getattr(v, "_pyfunc", None) is fn and hasattr(v, "_compiler_options"):
            return v
    return None


def _for_sm90(v):
    """A ``ct.ByTarget`` hint as an H200 (sm_90) compile sees it."""
    by = getattr(v, "_by_target", None)
    if by is None:
        return v
    val = by.get("sm_90", getattr(v, "_default", None))
    return val if isinstance(val, (int, float, bool)) else None


def _hints(kernel) -> dict[str, Any]:
    """Compiler hints of the launched kernel that its decorator does not declare (``replace_hints``,
    autotune ``hints_fn``): the reference compiles the file's kernel, so only these must be added."""
    have = _options(kernel)
    base = _options(_declared(kernel)) if _declared(kernel) is not None else dict(_DEFAULT_HINTS)
    out = {}
    for k, v in have.items():
        if v != base.get(k):
            v = _for_sm90(v)
            if v is not None:
                out[k] = v
    return out


def _is_tensor(x) -> bool:
    return all(hasattr(x, a) for a in ("shape", "stride", "dtype", "data_ptr"))


def _dtype_name(dt) -> str:
    name = str(dt).rsplit(".", 1)[-1]
    return {"bool": "bool_"}.get(name, name)


def _align(t, model_gpu: bool) -> int:
    """Base-pointer alignment in bytes, capped at 256. On a CPU capture the GPU allocation is modelled:
    a fresh CUDA allocation is 256-aligned, a view moves it by storage_offset * element size."""
    if model_gpu:
        off = int(t.storage_offset()) * int(t.element_size())
    else:
        off = int(t.data_ptr())
    return 256 if off % 256 == 0 else off & -off


def _scalar_dtype(v) -> str:
    if isinstance(v, bool):
        return "bool_"
    if isinstance(v, int):
        return "int32" if -(2 ** 31) <= v < 2 ** 31 else "int64"
    if isinstance(v, float):
        return "float32"
    dt = getattr(v, "dtype", None)  # a numpy / torch 0-d scalar
    return _dtype_name(dt) if dt is not None else ""


def _constant_params(kernel) -> set[str]:
    """Parameters annotated ``ct.Constant[...]`` (or an alias of it)."""
    import cuda.tile as ct  # noqa: PLC0415

    out = set()
    try:
        hints = inspect.get_annotations(_pyfunc(kernel), eval_str=False)
    except Exception:  # noqa: BLE001 - odd annotations: no constants known
        return out
    for name, ann in hints.items():
        if isinstance(ann, str):
            if "Constant" in ann:
                out.add(name)
        elif type(ann).__name__ == "ConstantAnnotation" or ann is ct.Constant or "Constant" in repr(ann):
            out.add(name)
    return out


def describe(kernel, grid, args, model_gpu: bool) -> specmod.Spec | str:
    """The spec of one ``ct.launch(stream, grid, kernel, args)``, or the name of a parameter it cannot describe."""
    params = list(inspect.signature(_pyfunc(kernel)).parameters)
    consts = _constant_params(kernel)
    out: dict[str, specmod.ArrayArg | specmod.ScalarArg | specmod.ConstArg] = {}
    for pname, v in zip(params, tuple(args)):
        if _is_tensor(v):
            shape = tuple(int(d) for d in v.shape)
            out[pname] = specmod.ArrayArg(pname, specmod.canonical_dtype(_dtype_name(v.dtype), pname), shape,
                                          tuple(int(s) for s in v.stride()), _align(v, model_gpu))
        elif pname in consts:
            if not isinstance(v, (bool, int, float)):
                return pname
            out[pname] = specmod.ConstArg(pname, v)
        else:
            dt = _scalar_dtype(v)
            if not dt:
                return pname
            val = v.item() if hasattr(v, "item") else v
            out[pname] = specmod.ScalarArg(pname, specmod.canonical_dtype(dt, pname), val)
    if len(out) != len(params):
        raise errors.CtrsError(errors.CAPTURE_CALL, f"ct.launch of '{_kernel_name(kernel)}' passes {len(tuple(args))} "
                               f"argument(s) to {len(params)} parameter(s) {params}",
                               "the host code launches the kernel with the wrong arguments")
    g = [str(int(x)) for x in (tuple(grid) if isinstance(grid, (tuple, list)) else (grid,))]
    return specmod.Spec(_kernel_name(kernel), _kernel_name(kernel), out, grid=g, hints=_hints(kernel))


def jit_key(kernel, spec: specmod.Spec) -> str:
    """What the JIT caches a compilation on: the function, its compiler hints and the signature
    ct.launch derives (spec.reference_signature reproduces it; scalars' values and shapes are not in it)."""
    fn = _pyfunc(kernel)
    sig = specmod.reference_signature(spec, list(inspect.signature(fn).parameters))
    return repr((getattr(fn, "__module__", ""), getattr(fn, "__qualname__", ""), sorted(_hints(kernel).items()),
                 sig.parameters, sig.calling_convention))


NAME_MAX = 200  # spec_schema's maxLength for a spec name


def _spec_name(spec: specmod.Spec) -> str:
    arr = next((a for a in spec.args.values() if isinstance(a, specmod.ArrayArg)), None)
    parts = [spec.kernel]
    if arr is not None:
        parts.append(f"{specmod.DTYPES[arr.dtype][1]}_{'x'.join(map(str, arr.shape)) or 'scalar'}")
    for n, a in spec.args.items():
        if isinstance(a, specmod.ConstArg):
            v = a.value
            v = int(v) if isinstance(v, bool) else v
            parts.append(f"{n}{str(v).replace('-', 'm').replace('.', 'p')}")
    for k, v in sorted(spec.hints.items()):
        parts.append(f"{k}{v}")
    name = "__".join(parts[:2]) + "".join(f"_{p}" for p in parts[2:])
    if len(name) > NAME_MAX:  # many constants: the schema's limit, kept unique by a hash of the whole name
        name = f"{name[:NAME_MAX - 17]}_{hashlib.sha1(name.encode()).hexdigest()[:16]}"
    return name


# ------------------------------------------------------------------------------------------- interception


class _Stream:
    """What ``torch.cuda.current_stream()`` returns on a CPU capture."""

    cuda_stream = 0
    device = "cuda:0"

    def synchronize(self) -> None:
        return None

    def wait_stream(self, other) -> None:
        return None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None


def _device_properties(num_sms: int):
    return types.SimpleNamespace(name="NVIDIA H200", major=H200_CAPABILITY[0], minor=H200_CAPABILITY[1],
                                 multi_processor_count=num_sms, total_memory=H200_MEMORY,
                                 L2_cache_size=60 * 2 ** 20, max_threads_per_multi_processor=2048,
                                 warp_size=32, regs_per_multiprocessor=65536,
                                 shared_memory_per_block_optin=232448, shared_memory_per_multiprocessor=233472)


def _tuning_result(cfg):
    from cuda.tile.tune import Measurement, TuningResult  # noqa: PLC0415

    m = Measurement(config=cfg, mean_us=0.0, num_samples=0, error_margin_us=0.0)
    return TuningResult(best=m, successes=[m], failures=[])


@contextlib.contextmanager
def recording(rec: Recorder):
    """Patch ``ct.launch``, the autotuners and (intercept mode) ``torch.cuda`` for the duration."""
    import cuda.tile as ct  # noqa: PLC0415
    import cuda.tile.tune as tune  # noqa: PLC0415
    from cuda.tile.tune import _tune  # noqa: PLC0415

    real_launch, real_search = ct.launch, tune.exhaustive_search
    passthrough = rec.mode == "passthrough"

    def record(kernel, grid, args, origin: str) -> None:
        if not passthrough:
            rec.record(kernel, grid, args, origin)
            return
        try:  # recording must never break the suite it watches: a failure is noted, the launch goes on
            rec.record(kernel, grid, args, origin)
        except Exception as e:  # noqa: BLE001
            rec.unsupported.append(f"{_kernel_name(kernel)}: not recorded: {type(e).__name__}: {e}")

    def launch(stream, grid, kernel, args, *rest, **kw):
        record(kernel, grid, args, "launch")
        if passthrough:
            return real_launch(stream, grid, kernel, args, *rest, **kw)
        return None

    def _configs(search_space, grid_fn, kernel, args_fn, hints_fn, launch_args_fn=None):
        configs = list(search_space() if callable(search_space) else search_space)
        for i, cfg in enumerate(configs):
            k = kernel(cfg) if callable(kernel) and not hasattr(kernel, "_pyfunc") else kernel
            hints = hints_fn(cfg) if hints_fn else {}
            if hints:
                k = k.replace_hints(**hints)
            record(k, grid_fn(cfg), (launch_args_fn or args_fn)(cfg), f"autotune[{i}]")
        return configs

    def exhaustive_search(search_space, stream, grid_fn, kernel, args_fn, hints_fn=None, **kw):
        configs = _configs(search_space, grid_fn, kernel, args_fn, hints_fn)
        if passthrough:
            return real_search(configs, stream, grid_fn, kernel, args_fn, hints_fn, **kw)
        return _tuning_result(configs[0])

    experimental = sys.modules.get("cuda.tile_experimental")
    real_autotune = getattr(experimental, "autotune_launch", None)
    if experimental is None:
        try:
            import cuda.tile_experimental as experimental  # noqa: PLC0415
            real_autotune = experimental.autotune_launch
        except ImportError:
            experimental = None

    def autotune_launch(stream, grid_fn, kernel, args_fn, launch_args_fn=None, hints_fn=None, *,
                        search_space, **kw):
        configs = _configs(search_space, grid_fn, kernel, args_fn, hints_fn, launch_args_fn)
        if passthrough and real_autotune is not None:
            return real_autotune(stream, grid_fn, kernel, args_fn, launch_args_fn, hints_fn,
                                 search_space=configs, **kw)
        cfg = configs[0]
        k = kernel(cfg) if callable(kernel) and not hasattr(kernel, "_pyfunc") else kernel
        return types.SimpleNamespace(best_cfg=cfg, best_grid=grid_fn(cfg), best_kernel=k, tuning_record=[])

    swaps = {real_launch: launch, real_search: exhaustive_search}
    if real_autotune is not None:
        swaps[real_autotune] = autotune_launch
    by_id = {id(k): (k, v) for k, v in swaps.items()}
    saved: list[tuple[object, str, object]] = []

    def swap(obj, name: str, new) -> None:
        saved.append((obj, name, getattr(obj, name)))
        setattr(obj, name, new)

    swap(ct, "launch", launch)
    swap(tune, "exhaustive_search", exhaustive_search)
    swap(_tune, "exhaustive_search", exhaustive_search)
    installed = False
    if experimental is None:  # host code written for cuda.tile_experimental still imports
        experimental = types.ModuleType("cuda.tile_experimental")
        experimental.autotune_launch = autotune_launch
        experimental.clear_autotune_cache = lambda *a, **k: None
        sys.modules["cuda.tile_experimental"] = experimental
        installed = True
    else:
        swap(experimental, "autotune_launch", autotune_launch)
    # names bound by ``from cuda.tile import launch`` in modules imported before us
    for mod in list(sys.modules.values()):
        d = getattr(mod, "__dict__", None)
        if not isinstance(d, dict) or mod in (ct, tune, _tune, experimental):
            continue
        for name, val in list(d.items()):
            new = by_id.get(id(val))  # identity, never hash(): module globals may not be hashable
            if new is not None and new[0] is val:
                swap(mod, name, new[1])
    rec._rebind = by_id  # modules imported during the recording rebind through rebind_module
    if not passthrough:
        _patch_torch_cuda(rec, swap)
    try:
        yield rec
    finally:
        for obj, name, old in reversed(saved):
            setattr(obj, name, old)
        if installed:
            sys.modules.pop("cuda.tile_experimental", None)


def rebind_module(rec: Recorder, mod) -> None:
    """Swap names a module imported during a recording bound to the real launch / autotuners."""
    by_id = getattr(rec, "_rebind", {})
    for name, val in list(vars(mod).items()):
        new = by_id.get(id(val))
        if new is not None and new[0] is val:
            setattr(mod, name, new[1])


def _patch_torch_cuda(rec: Recorder, swap) -> None:
    try:
        import torch  # noqa: PLC0415
    except ImportError:
        return
    props = _device_properties(rec.num_sms)
    cuda = torch.cuda
    for name, fn in (("current_stream", lambda *a, **k: _Stream()), ("default_stream", lambda *a, **k: _Stream()),
                     ("Stream", lambda *a, **k: _Stream()), ("stream", lambda *a, **k: _Stream()),
                     ("get_device_properties", lambda *a, **k: props),
                     ("get_device_capability", lambda *a, **k: H200_CAPABILITY),
                     ("get_device_name", lambda *a, **k: props.name), ("device_count", lambda: 1),
                     ("current_device", lambda: 0), ("synchronize", lambda *a, **k: None),
                     ("is_available", lambda: True), ("set_device", lambda *a, **k: None)):
        swap(cuda, name, fn)


# ------------------------------------------------------------------------------------------- ctrs specs


def _package_import(path):
    """Import FILE as the module it is in its package (relative imports work), else as a plain file."""
    import importlib  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    from ..verify import ir_ref  # noqa: PLC0415

    path = Path(path).resolve()
    if not path.exists():
        raise errors.CtrsError(errors.KERNEL_IMPORT, f"no such file: {path}", "check the kernel path")
    parts, d = [path.stem], path.parent
    while (d / "__init__.py").exists():
        parts.insert(0, d.name)
        d = d.parent
    if len(parts) == 1:
        return ir_ref.load_module(path, errors.CAPTURE_CALL, "ctrs specs runs the host code: install what it imports "
                                  "(torch: pip install 'ctrs[specs]')")
    sys.path.insert(0, str(d))
    try:
        return importlib.import_module(".".join(parts))
    except Exception as e:  # noqa: BLE001 - user code
        raise errors.CtrsError(errors.CAPTURE_CALL, f"importing {'.'.join(parts)} failed: {type(e).__name__}: {e}",
                               "ctrs specs runs the host code: install what it imports (torch: pip install "
                               "'ctrs[specs]'), or run it where the package is installed", errors.Loc(str(path))) from e
    finally:
        sys.path.remove(str(d))


def capture_file(path, calls: list[str], num_sms: int = H200_SMS) -> tuple[list[specmod.Spec], list[str]]:
    """Run each ``--call`` expression in FILE's namespace (``torch`` available) with launches intercepted.
    Returns the specs of kernels defined in FILE and notes (launches of kernels defined elsewhere)."""
    from pathlib import Path  # noqa: PLC0415

    path = Path(path).resolve()
    rec = Recorder("intercept", num_sms)
    with recording(rec):
        mod = _package_import(path)
        rebind_module(rec, mod)
        ns = dict(vars(mod))
        if "torch" not in ns:
            try:
                import torch  # noqa: PLC0415
                ns["torch"] = torch
            except ImportError:
                pass
        for expr in calls:
            before = rec.seen
            try:
                code = compile(expr, "<--call>", "eval")
            except SyntaxError as e:
                raise errors.CtrsError(errors.CAPTURE_CALL, f"--call {expr!r} is not a Python expression: {e.msg}",
                                       "quote it for the shell: --call 'fn(torch.empty(64, 64))'") from e
            try:
                eval(code, ns)  # noqa: S307 - the user's own host code, run on purpose
            except errors.CtrsError:
                raise
            except Exception as e:  # noqa: BLE001 - user code: one line, where it failed
                first = (str(e).strip().splitlines() or [""])[0]
                raise errors.CtrsError(errors.CAPTURE_CALL, f"--call {expr!r} raised {type(e).__name__}: {first}",
                                       "the host code ran on CPU torch tensors with ct.launch intercepted; "
                                       "fix the call's arguments (shapes, dtypes) or the host code",
                                       errors.loc_in_traceback(e, path)) from e
            if rec.seen == before:
                raise errors.CtrsError(errors.CAPTURE_NO_LAUNCH, f"--call {expr!r} launched no kernel",
                                       "call the host function that runs ct.launch", errors.Loc(str(path)))
    specs = rec.specs(str(path))
    if rec.unsupported and not specs:
        raise errors.CtrsError(errors.CAPTURE_UNSUPPORTED, rec.unsupported[0],
                               "write that launch's spec by hand (README, Specialisation format)", errors.Loc(str(path)))
    notes = sorted({f"note: launches of '{la.kernel}' ({la.source}) skipped: not defined in {path.name}"
                    for la in rec.launches if la.source != str(path)})
    notes += [f"note: launch not recorded: {u}" for u in sorted(set(rec.unsupported))]
    return specs, notes
