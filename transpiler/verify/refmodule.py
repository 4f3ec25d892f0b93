"""The reference module of a kernel file: its kernels and what they use, nothing of the host code.

A real kernel file imports torch, triton, its own package (``from tilegym.backend import register_impl``,
``from .utils import next_power_of_2``) for its host code; none of that is needed to compile the kernels.
``extract`` keeps the top-level statements the ``@ct.kernel`` functions reach (helpers, constants,
aliases, imports; transitively, decorators and annotations included) and blanks every other line, so the
module text has the original line numbers (and columns): debug locations in the reference Tile IR point at
the original file, which is also the code object's file name.

Imports the kept statements need are resolved like this:
  * relative imports (``from .utils import f``) are resolved on disk next to the file and the names are
    extracted from that file the same way (recursively);
  * absolute imports are executed; one that fails is resolved on disk when it names the file's own package
    (``from pkg.sub import f`` inside ``pkg/``), else it is a ``CTRS-E018`` error naming the import.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import importlib
import importlib.util
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path

from .. import errors

_BUILTINS = set(dir(builtins))


@dataclass
class _Stmt:
    node: ast.stmt
    first: int  # first line (decorators included), 1-based
    last: int
    defines: set[str]
    uses: set[str] = field(default_factory=set)


def _defined(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name.split(".")[0]) for a in node.names}
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out |= {(a.asname or a.name.split(".")[0]) for a in n.names}
    return out


def _used(node: ast.stmt) -> set[str]:
    """Free names: loads, less what a function binds itself (parameters, local stores); decorators, defaults
    and annotations are evaluated outside it and count."""
    loads = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return loads
    outside = set()
    for part in [*node.decorator_list, *node.args.defaults, *node.args.kw_defaults, node.returns,
                 *(a.annotation for a in [*node.args.args, *node.args.posonlyargs, *node.args.kwonlyargs])]:
        if part is not None:
            outside |= {n.id for n in ast.walk(part) if isinstance(n, ast.Name)}
    a = node.args
    local = {x.arg for x in [*a.args, *a.posonlyargs, *a.kwonlyargs, *(y for y in (a.vararg, a.kwarg) if y)]}
    glob: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            local.add(n.id)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            glob |= set(n.names)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not node:
            local.add(n.name)
    return outside | (loads - (local - glob))


def _is_kernel(node: ast.stmt) -> bool:
    if not isinstance(node, ast.FunctionDef):
        return False
    for d in node.decorator_list:
        f = d.func if isinstance(d, ast.Call) else d
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if name in ("kernel", "jit"):  # @ct.kernel, @triton.jit (under @triton.autotune / heuristics too)
            return True
    return False


def _statements(tree: ast.Module) -> list[_Stmt]:
    out = []
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        out.append(_Stmt(node, first, node.end_lineno or node.lineno, _defined(node), _used(node)))
    return out


def needed(source: str, roots: set[str] | None = None) -> list[_Stmt]:
    """Top-level statements reachable from the kernels (or from the names ``roots``)."""
    stmts = _statements(ast.parse(source))
    by_name: dict[str, list[_Stmt]] = {}
    for s in stmts:
        for n in s.defines:
            by_name.setdefault(n, []).append(s)
    star = [s for s in stmts if isinstance(s.node, ast.ImportFrom) and any(a.name == "*" for a in s.node.names)]
    if roots is None:
        work = [s for s in stmts if _is_kernel(s.node)]
    else:
        work = [d for r in roots for d in by_name.get(r, [])]
    keep: dict[int, _Stmt] = {}
    while work:
        s = work.pop()
        if id(s) in keep:
            continue
        keep[id(s)] = s
        for name in s.uses:
            defs = by_name.get(name)
            if defs:
                work.extend(d for d in defs if id(d) not in keep)
            elif name not in _BUILTINS:
                work.extend(d for d in star if id(d) not in keep)
    return sorted(keep.values(), key=lambda s: s.first)


def _module_file(base: Path, modname: str, level: int, own: Path) -> Path | None:
    """The file of ``from <level dots><modname> import ...`` relative to ``own``; for level 0 only inside
    the file's own package tree (``pkg.sub`` when ``own`` is under ``pkg/``)."""
    if level:
        d = own.parent
        for _ in range(level - 1):
            d = d.parent
    else:
        root = own.parent
        while (root / "__init__.py").exists() and (root.parent / "__init__.py").exists():
            root = root.parent
        head, _, rest = modname.partition(".")
        if not (root / "__init__.py").exists() or root.name != head:
            return None
        d, modname = root, rest
    target = d.joinpath(*modname.split(".")) if modname else d
    for cand in (target.with_suffix(".py"), target / "__init__.py"):
        if cand.is_file():
            return cand
    return None


def _import_names(node: ast.ImportFrom, path: Path, stack: tuple[Path, ...]) -> tuple[dict[str, object], set[Path]]:
    """Names of a ``from X import a, b`` resolved by extracting them from X's file on disk, and the files
    read for them."""
    src = _module_file(path.parent, node.module or "", node.level, path)
    if src is None and not node.level:
        standin = _package_standins(node)
        if standin is not None:
            return standin, set()
    if src is None:
        raise errors.CtrsError(errors.REF_EXTRACT, f"the kernels need '{ast.unparse(node)}' and it cannot be "
                               "imported", "install that package, or move what the kernels use into the kernel file",
                               errors.Loc(str(path), node.lineno, node.col_offset + 1))
    names = {a.name for a in node.names}
    if src.name == "__init__.py":  # submodules imported by name: `from . import utils`
        mods = {n for n in names if (src.parent / f"{n}.py").is_file()}
    else:
        mods = set()
    out: dict[str, object] = {}
    read: set[Path] = set()
    if names - mods:
        sub = load(src, names - mods, stack)
        read.update(sub.__ctrs_files__)
        for a in node.names:
            if a.name in names - mods:
                if not hasattr(sub, a.name):
                    raise errors.CtrsError(errors.REF_EXTRACT, f"'{a.name}' is not defined in {src}",
                                           "fix the import", errors.Loc(str(path), node.lineno, node.col_offset + 1))
                out[a.asname or a.name] = getattr(sub, a.name)
    for a in node.names:
        if a.name in mods:
            out[a.asname or a.name] = sub = load(src.parent / f"{a.name}.py", None, stack, whole=True)
            read.update(sub.__ctrs_files__)
    if src.name == "__init__.py":
        read.add(src)
    return out, read


def load(path: Path, roots: set[str] | None = None, stack: tuple[Path, ...] = (), whole: bool = False):
    """Build and execute the reference module of ``path`` (kernels, or the names ``roots``)."""
    path = Path(path).resolve()
    if path in stack:
        raise errors.CtrsError(errors.REF_EXTRACT, f"import cycle through {path.name}",
                               "break the cycle between the kernel file and its helpers", errors.Loc(str(path)))
    text = path.read_text()
    key = hashlib.sha1(f"{path}\0{sorted(roots) if roots else ''}\0{whole}\0{text}".encode()).hexdigest()[:12]
    name = f"_ctrs_refx_{key}"
    if name in sys.modules:
        return sys.modules[name]
    try:
        stmts = _statements(ast.parse(text)) if whole else needed(text, roots)
    except SyntaxError as e:
        raise errors.CtrsError(errors.REF_EXTRACT, f"{path.name} does not parse: {e.msg}", "fix the syntax",
                               errors.Loc(str(path), e.lineno or 0, e.offset or 0)) from e
    lines = text.splitlines(keepends=True)
    keep = [False] * len(lines)
    injected: dict[str, object] = {}
    files = {path}  # the files this reference module is built from (ctrs bundle carries them to the GPU host)
    for s in stmts:
        node = s.node
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not _imports_ok(node, path):
            if isinstance(node, ast.ImportFrom):
                names, read = _import_names(node, path, (*stack, path))
                injected.update(names)
                files |= read
                continue
            standin = _torch_standin(node)
            if standin is not None:  # torch only for annotations / dtypes: its stand-in (no GPU package needed)
                injected.update(standin)
                continue
            raise errors.CtrsError(errors.REF_EXTRACT, f"the kernels need '{ast.unparse(node)}' and it cannot be "
                                   "imported", "install that package, or use 'from X import name' in the kernel file",
                                   errors.Loc(str(path), node.lineno, node.col_offset + 1))
        for i in range(s.first - 1, s.last):
            keep[i] = True
    body = "".join(line if keep[i] else ("\n" if line.endswith("\n") else "") for i, line in enumerate(lines))
    mod = types.ModuleType(name)
    mod.__file__ = str(path)
    mod.__dict__.update(injected)
    mod.__ctrs_files__ = tuple(sorted(files))
    sys.modules[name] = mod
    try:
        exec(compile(body, str(path), "exec"), mod.__dict__)  # noqa: S102 - the kernel file's own statements
    except errors.CtrsError:
        sys.modules.pop(name, None)
        raise
    except Exception as e:  # noqa: BLE001 - user code
        sys.modules.pop(name, None)
        raise errors.CtrsError(errors.REF_EXTRACT, f"the kernels' part of {path.name} failed to load: "
                               f"{type(e).__name__}: {e}", "the statements the kernels use must run without a GPU",
                               errors.loc_in_traceback(e, path)) from e
    return mod


def files(path: Path) -> list[Path]:
    """Every file the reference module of ``path`` reads: the file itself and the files of its package it
    imports from (relative or own-package imports), transitively."""
    return list(load(Path(path)).__ctrs_files__)


def reads(path: Path, roots: set[str] | None = None, stack: tuple[Path, ...] = ()) -> set[Path]:
    """The files ``files`` would read, found without executing anything (on a machine without the kernels'
    language package, e.g. Triton on the build machine): the file, and per kept ``from X import names`` of its
    own package, X's file on disk with what those names need, transitively."""
    path = Path(path).resolve()
    out = {path}
    if path in stack:
        return out
    try:
        stmts = needed(path.read_text(), roots)
    except SyntaxError as e:
        raise errors.CtrsError(errors.REF_EXTRACT, f"{path.name} does not parse: {e.msg}", "fix the syntax",
                               errors.Loc(str(path), e.lineno or 0, e.offset or 0)) from e
    for s in stmts:
        node = s.node
        if not isinstance(node, ast.ImportFrom):
            continue
        src = _module_file(path.parent, node.module or "", node.level, path)
        if src is None:
            continue  # another package: the host imports it itself
        names = {a.name for a in node.names}
        mods = {n for n in names if src.name == "__init__.py" and (src.parent / f"{n}.py").is_file()}
        if src.name == "__init__.py":
            out.add(src)
        if names - mods:
            out |= reads(src, names - mods, (*stack, path))
        for m in sorted(mods):
            out |= reads(src.parent / f"{m}.py", None, (*stack, path))
    return out


# torch dtypes by name -> the cuda.tile dtype of the same name (cuTile Python maps a torch dtype used in a kernel
# body to it); the stand-in's other names do not exist (docs/porting.md, "Reference modules").
_TORCH_DTYPES = {"float32": "float32", "float": "float32", "float16": "float16", "half": "float16",
                 "bfloat16": "bfloat16", "float64": "float64", "double": "float64", "int8": "int8", "int16": "int16",
                 "int32": "int32", "int": "int32", "int64": "int64", "long": "int64", "uint8": "uint8",
                 "uint16": "uint16", "uint32": "uint32", "uint64": "uint64", "bool": "bool_",
                 "float8_e4m3fn": "float8_e4m3fn", "float8_e5m2": "float8_e5m2"}


class _TorchStandIn(types.ModuleType):
    """What a kernel file may use of torch when torch is not installed: ``torch.Tensor`` (parameter annotations)
    and the dtypes, as cuda.tile's. Anything else is an error that says so, never a silent substitute."""

    class Tensor:  # noqa: D106 - an annotation only
        pass

    def __getattr__(self, name: str):
        if name in _TORCH_DTYPES:
            import cuda.tile as ct  # noqa: PLC0415 - the reference compiler; only a reference build gets here

            return getattr(ct, _TORCH_DTYPES[name])
        raise AttributeError(f"torch.{name}: torch is not installed, and its stand-in for reference modules has "
                             "only Tensor and the dtypes (install ctrs[specs] for the real torch)")


def _torch_standin(node: ast.Import | ast.ImportFrom) -> dict[str, object] | None:
    """``import torch`` (``as x``) when torch cannot be imported: the stand-in under that name; else None."""
    if not isinstance(node, ast.Import) or any(a.name != "torch" for a in node.names):
        return None
    if importlib.util.find_spec("torch") is not None:
        return None  # installed but failing to import: that error stands
    return {a.asname or "torch": _TorchStandIn("torch") for a in node.names}


# Names that kernel files import from packages a GPU host or CI machine often lacks, with the installed module that
# provides the same thing: a version-comparison class guarding which helper a file defines (unsloth's
# `if Version(triton.__version__) >= Version("3.0.0"):` picks its tanh); the stand-in must behave the same.
PACKAGE_STANDINS: dict[tuple[str, str], tuple[str, str]] = {
    ("unsloth_zoo.utils", "Version"): ("packaging.version", "Version"),
}


def _package_standins(node: ast.ImportFrom) -> dict[str, object] | None:
    """``from pkg import a, b`` that cannot be imported, when every name has an installed stand-in
    (PACKAGE_STANDINS); else None."""
    pairs = [(a, PACKAGE_STANDINS.get((node.module or "", a.name))) for a in node.names]
    if any(s is None for _, s in pairs):
        return None
    out: dict[str, object] = {}
    for a, (mod, name) in pairs:
        try:
            out[a.asname or a.name] = getattr(importlib.import_module(mod), name)
        except (ImportError, AttributeError):
            return None
    return out


def _imports_ok(node: ast.Import | ast.ImportFrom, path: Path) -> bool:
    if isinstance(node, ast.ImportFrom) and node.level:
        return False  # resolved on disk: the reference module has no package
    mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
    for m in mods:
        try:
            importlib.import_module(m)
        except Exception:  # noqa: BLE001 - not installed, or it fails to import here
            return False
    return True
