"""Reference Tile IR: compile a cuTile Python kernel for one specialisation, on the CPU.

Uses ``cuda.tile.compilation.export_kernel`` (no GPU, no libcuda) with the signature ``ct.launch``
would build (see spec.py), at the pinned bytecode version, and disassembles it with tileirdisasm.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import io
import sys
from dataclasses import dataclass
from pathlib import Path

from .. import errors, spec as specmod, toolchain
from . import tileir_tools


@dataclass
class IRResult:
    bytecode: bytes
    text: str
    symbol: str


def load_module(path: Path, code: str = errors.KERNEL_IMPORT, hint: str = "the kernel file must import without a GPU"):
    """Import a kernel file under a private name (its directory goes first on sys.path)."""
    path = path.resolve()
    if not path.exists():
        raise errors.CtrsError(errors.KERNEL_IMPORT, f"no such file: {path}", "check the kernel path")
    name = "_ctrs_ref_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    modspec = importlib.util.spec_from_file_location(name, path)
    assert modspec and modspec.loader
    mod = importlib.util.module_from_spec(modspec)
    sys.path.insert(0, str(path.parent))
    try:
        modspec.loader.exec_module(mod)
    except Exception as e:  # noqa: BLE001 - any failure importing user code is reported, not raised
        raise errors.CtrsError(code, f"importing {path.name} failed: {type(e).__name__}: {e}", hint,
                               errors.loc_in_traceback(e, path)) from e
    finally:
        sys.path.remove(str(path.parent))
    sys.modules[name] = mod
    return mod


def kernels_in(mod) -> dict[str, object]:
    import cuda.tile as ct  # noqa: PLC0415

    return {n: o for n, o in vars(mod).items() if isinstance(o, ct.kernel)}


def reference_module(path: Path):
    """The kernels of ``path`` and what they use (refmodule: host code, torch, the file's own package are
    not imported); the whole file imported as a fallback (kernels built at import time by other code)."""
    from . import refmodule  # noqa: PLC0415

    try:
        return refmodule.load(Path(path))
    except errors.CtrsError as first:
        try:
            return load_module(Path(path))
        except errors.CtrsError:
            raise first from None


def find_kernel(path: Path, name: str):
    mod = reference_module(path)
    ks = kernels_in(mod)
    if name not in ks:  # a kernel made by code the extraction does not keep: import the whole file
        try:
            ks = kernels_in(load_module(Path(path)))
        except errors.CtrsError:
            pass
    if name not in ks:
        raise errors.CtrsError(errors.KERNEL_NOT_FOUND, f"no @ct.kernel named '{name}' in {path.name}",
                               f"known kernels: {', '.join(sorted(ks)) or 'none'}", errors.Loc(str(path)))
    return ks[name]


def compile_reference(path: Path, spec: specmod.Spec) -> IRResult:
    toolchain.require("cuda-tile", "tileirdisasm")
    from cuda.tile.compilation import export_kernel  # noqa: PLC0415

    kernel = find_kernel(path, spec.kernel)
    if spec.hints:  # the launch's compiler hints (replace_hints / autotune) are part of the reference
        kernel = kernel.replace_hints(**spec.hints)
    params = list(inspect.signature(kernel._pyfunc).parameters)
    sig = specmod.reference_signature(spec, params).with_mangled_symbol(spec.kernel)
    buf = io.BytesIO()
    try:
        export_kernel(kernel, [sig], buf, output_format="tileir_bytecode", bytecode_version=toolchain.BYTECODE_VERSION)
    except Exception as e:  # noqa: BLE001 - cuTile raises many error types; all become one diagnostic
        loc = None
        fl = getattr(e, "loc", None)
        if fl is not None and getattr(fl, "line", None):
            loc = errors.Loc(str(getattr(fl, "filename", path)), fl.line, getattr(fl, "col", 0) or 0)
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise errors.CtrsError(errors.REF_COMPILE, f"cuTile Python rejected '{spec.kernel}' for spec "
                               f"'{spec.name}': {type(e).__name__}: {first}",
                               "check the spec's dtypes/shapes/constants against the kernel", loc or errors.Loc(str(path))) from e
    data = buf.getvalue()
    return IRResult(data, tileir_tools.disasm(data), sig.symbol)
