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
    lazy: set[str] = field(default_factory=set)  # uses inside function bodies (see _lazy); the rest run at import


_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _outside(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[ast.AST]:
    """The parts of a function evaluated where it is defined: decorators, defaults, annotations."""
    a = fn.args
    parts = [*a.defaults, *a.kw_defaults]
    if not isinstance(fn, ast.Lambda):
        parts += [*fn.decorator_list, fn.returns,
                  *(x.annotation for x in [*a.args, *a.posonlyargs, *a.kwonlyargs, *(y for y in (a.vararg, a.kwarg) if y)])]
    return [x for x in parts if x is not None]


def _scope_names(node: ast.AST) -> tuple[set[str], set[str], set[str]]:
    """(stores, eager loads, lazy loads) of ``node`` in the scope it runs in: a nested function's parameters and
    local stores are its own and its free names are lazy loads (they run when it is called); a comprehension's
    targets are its own."""
    stores: set[str] = set()
    eager: set[str] = set()
    lazy: set[str] = set()

    def visit(n: ast.AST) -> None:
        if isinstance(n, _FUNCS):
            for part in _outside(n):
                visit(part)
            if not isinstance(n, ast.Lambda):
                stores.add(n.name)
            lazy.update(_function_free(n))
            return
        if isinstance(n, _COMPS):
            targets = {m.id for g in n.generators for m in ast.walk(g.target) if isinstance(m, ast.Name)}
            for c in [*n.generators, *([n.key, n.value] if isinstance(n, ast.DictComp) else [n.elt])]:
                _, e2, l2 = _scope_names(c)
                eager.update(e2 - targets)
                lazy.update(l2)
            return
        if isinstance(n, ast.ClassDef):
            stores.add(n.name)
        if isinstance(n, ast.Name):
            (eager if isinstance(n.ctx, ast.Load) else stores).add(n.id)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            stores.update(a.asname or a.name.split(".")[0] for a in n.names)
        for c in ast.iter_child_nodes(n):
            visit(c)

    visit(node)
    return stores, eager, lazy


def _function_free(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    """The free names of a function's body: loads, less its parameters and local stores (``global`` ones kept)."""
    a = fn.args
    local = {x.arg for x in [*a.args, *a.posonlyargs, *a.kwonlyargs, *(y for y in (a.vararg, a.kwarg) if y)]}
    stores: set[str] = set()
    loads: set[str] = set()
    glob: set[str] = set()
    for st in fn.body if isinstance(fn.body, list) else [fn.body]:
        s2, e2, l2 = _scope_names(st)
        stores |= s2
        loads |= e2 | l2
        glob |= {g for n in ast.walk(st) if isinstance(n, (ast.Global, ast.Nonlocal)) for g in n.names}
    return loads - (local | (stores - glob))


def _defined(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name.split(".")[0]) for a in node.names}
    return _scope_names(node)[0]


def _eager(node: ast.stmt) -> set[str]:
    """The names ``node`` loads when the statement itself executes (at import time)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        out: set[str] = set()
        for part in _outside(node):
            _, e, lz = _scope_names(part)
            out |= e | lz
        return out
    return _scope_names(node)[1]


def _lazy(node: ast.stmt) -> set[str]:
    """The names ``node`` loads only when a function it defines runs (function and lambda bodies): a use there
    sees the name's last binding, wherever it is."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _function_free(node)
    return _scope_names(node)[2]


def _used(node: ast.stmt) -> set[str]:
    """Free names: loads, less what a function binds itself (parameters, local stores) and a comprehension its
    targets; decorators, defaults and annotations are evaluated outside a function and count."""
    return _eager(node) | _lazy(node)


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
        eager, lazy = _eager(node), _lazy(node)
        out.append(_Stmt(node, first, node.end_lineno or node.lineno, _defined(node), eager | lazy, lazy - eager))
    return out


def needed(source: str, roots: set[str] | None = None) -> list[_Stmt]:
    """Top-level statements reachable from the kernels (or from the names ``roots``).

    A name a statement uses at import time (a module-level ``if``'s test, a decorator, an assignment's value) is
    what the statements before it bound: only those definitions are followed. A name used in a function body
    sees its last binding, so every definition of it is (``import triton`` again in a later, unrelated block
    does not pull that block in for the ``if Version(triton.__version__) ...`` before it)."""
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
            if defs and name not in s.lazy:
                defs = [d for d in defs if d.first < s.first] or defs  # none before: a NameError stays one
            if defs:
                work.extend(d for d in defs if id(d) not in keep)
            elif name not in _BUILTINS:
                work.extend(d for d in star if id(d) not in keep)
    return sorted(keep.values(), key=lambda s: s.first)


_SIMPLE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign, ast.AugAssign,
           ast.Import, ast.ImportFrom, ast.Expr)


def strict_names(stmts: list[_Stmt], roots: set[str] | None) -> set[str]:
    """The names the kernels (or ``roots``) reference through their own code: the kernels, the helpers and
    aliases they use, what those use, transitively -- followed through definitions (functions, classes,
    assignments, imports), not through the blocks a file runs to probe its environment (``if DEVICE_TYPE ==
    "xpu": ...``, ``try: import bitsandbytes``), whose uses only decide between definitions. A name here that
    cannot be imported is an error when the module loads; any other is bound to a stand-in that fails when used
    (``_Dropped``)."""
    by_name: dict[str, list[_Stmt]] = {}
    for s in stmts:
        for n in s.defines:
            by_name.setdefault(n, []).append(s)
    work = [s for s in stmts if _is_kernel(s.node)] if roots is None else []
    out = set(roots or ())
    for r in roots or ():
        work += by_name.get(r, [])
    seen: set[int] = set()
    while work:
        s = work.pop()
        if id(s) in seen or not isinstance(s.node, _SIMPLE):
            continue
        seen.add(id(s))
        for name in s.uses:
            if name not in out:
                out.add(name)
                work += by_name.get(name, [])
    return out


def _bound(a: ast.alias, node: ast.Import | ast.ImportFrom) -> str:
    return a.asname or (a.name.split(".")[0] if isinstance(node, ast.Import) else a.name)


def _narrowed(node: ast.Import | ast.ImportFrom, used: set[str]):
    """``node`` with only the names ``used`` binds (None: it binds none of them). A kernel file's
    ``from .utils import (calculate_settings, triton_tanh, torch_gpu_device)`` for a kernel that calls
    triton_tanh only: the other names (host code, possibly importing packages this machine lacks) are not
    resolved at all."""
    names = [a for a in node.names if a.name == "*" or _bound(a, node) in used]
    if not names:
        return None
    if len(names) == len(node.names):
        return node
    return ast.copy_location(type(node)(**{**{f: getattr(node, f) for f in node._fields}, "names": names}), node)


class _Dropped:
    """A name the kernels' module imports from a package this machine cannot import, reached only through code
    the kernels do not run (host code, environment probes): bound so the module loads, failing with the import's
    location when anything uses it."""

    def __init__(self, name: str, stmt: str, loc: errors.Loc):
        object.__setattr__(self, "_ctrs_why", (name, stmt, loc))

    def _fail(self, *_a, **_k):
        name, stmt, loc = object.__getattribute__(self, "_ctrs_why")
        raise errors.CtrsError(errors.REF_IMPORT_DROPPED, f"'{name}' is used, but '{stmt}' cannot be imported here "
                               "(the reference module left it out: the kernels do not reference it)",
                               "install that package, or keep the name out of the code the kernels run", loc)

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)  # introspection (copy, pickle, inspect) sees a plain object
        self._fail()

    __call__ = __bool__ = __iter__ = __getitem__ = __eq__ = __lt__ = __le__ = __gt__ = __ge__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _fail
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        name, stmt, _ = object.__getattribute__(self, "_ctrs_why")
        return f"<{name}: '{stmt}' cannot be imported here>"


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


def _import_names(node: ast.ImportFrom, path: Path, stack: tuple[Path, ...],
                  strict: set[str]) -> tuple[dict[str, object], set[Path]]:
    """Names of a ``from X import a, b`` resolved by extracting them from X's file on disk, and the files
    read for them. X another package that cannot be imported: each name its installed stand-in
    (PACKAGE_STANDINS), else, unless the kernels reference it (``strict``: an error), a ``_Dropped``."""
    src = _module_file(path.parent, node.module or "", node.level, path)
    loc = errors.Loc(str(path), node.lineno, node.col_offset + 1)
    if src is None and not node.level:
        out: dict[str, object] = {}
        for a in node.names:
            standin = _package_standin(node.module or "", a.name)
            if standin is not None:
                out[a.asname or a.name] = standin
            elif (a.asname or a.name) in strict or a.name == "*":
                raise errors.CtrsError(errors.REF_EXTRACT, f"the kernels need '{ast.unparse(node)}' and it cannot be "
                                       "imported", "install that package, or move what the kernels use into the "
                                       "kernel file", loc)
            else:
                out[a.asname or a.name] = _Dropped(a.asname or a.name, ast.unparse(node), loc)
        return out, set()
    if src is None:
        raise errors.CtrsError(errors.REF_EXTRACT, f"the kernels need '{ast.unparse(node)}' and it cannot be "
                               "imported", "install that package, or move what the kernels use into the kernel file",
                               loc)
    names = {a.name for a in node.names}
    if src.name == "__init__.py":  # submodules imported by name: `from . import utils`
        mods = {n for n in names if (src.parent / f"{n}.py").is_file()}
    else:
        mods = set()
    out = {}
    read: set[Path] = set()
    if names - mods:
        strict_here = {a.name for a in node.names if (a.asname or a.name) in strict}
        sub = load(src, names - mods, stack, strict_roots=strict_here & (names - mods))
        read.update(sub.__ctrs_files__)
        for a in node.names:
            if a.name in names - mods:
                if not hasattr(sub, a.name):
                    raise errors.CtrsError(errors.REF_EXTRACT, f"'{a.name}' is not defined in {src}",
                                           "fix the import", loc)
                out[a.asname or a.name] = getattr(sub, a.name)
    for a in node.names:
        if a.name in mods:
            out[a.asname or a.name] = sub = load(src.parent / f"{a.name}.py", None, stack, whole=True)
            read.update(sub.__ctrs_files__)
    if src.name == "__init__.py":
        read.add(src)
    return out, read


def load(path: Path, roots: set[str] | None = None, stack: tuple[Path, ...] = (), whole: bool = False,
         strict_roots: set[str] | None = None):
    """Build and execute the reference module of ``path`` (kernels, or the names ``roots``; of those, the
    importer's kernels reference ``strict_roots``, default all: see ``strict_names``)."""
    path = Path(path).resolve()
    if path in stack:
        raise errors.CtrsError(errors.REF_EXTRACT, f"import cycle through {path.name}",
                               "break the cycle between the kernel file and its helpers", errors.Loc(str(path)))
    text = path.read_text()
    strict_roots = set(roots or ()) if strict_roots is None else strict_roots
    key = hashlib.sha1(f"{path}\0{sorted(roots) if roots else ''}\0{sorted(strict_roots)}\0{whole}\0{text}"
                       .encode()).hexdigest()[:12]
    name = f"_ctrs_refx_{key}"
    if name in sys.modules:
        return sys.modules[name]
    try:
        stmts = _statements(ast.parse(text)) if whole else needed(text, roots)
    except SyntaxError as e:
        raise errors.CtrsError(errors.REF_EXTRACT, f"{path.name} does not parse: {e.msg}", "fix the syntax",
                               errors.Loc(str(path), e.lineno or 0, e.offset or 0)) from e
    used = set(roots or ()).union(*(s.uses for s in stmts))
    strict = strict_names(stmts, strict_roots if roots is not None else None)
    lines = text.splitlines(keepends=True)
    keep = [False] * len(lines)
    injected: dict[str, object] = {}
    files = {path}  # the files this reference module is built from (ctrs bundle carries them to the GPU host)
    for s in stmts:
        node = s.node
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not _imports_ok(node, path):
            node = _narrowed(node, used)
            if node is None:
                continue  # it binds nothing the kept statements use
            if isinstance(node, ast.ImportFrom):
                names, read = _import_names(node, path, (*stack, path), strict)
                injected.update(names)
                files |= read
                continue
            standin = _torch_standin(node)
            if standin is not None:  # torch only for annotations / dtypes: its stand-in (no GPU package needed)
                injected.update(standin)
                continue
            loc = errors.Loc(str(path), node.lineno, node.col_offset + 1)
            if not any(_bound(a, node) in strict for a in node.names):
                injected.update({_bound(a, node): _Dropped(_bound(a, node), ast.unparse(node), loc)
                                 for a in node.names})
                continue
            raise errors.CtrsError(errors.REF_EXTRACT, f"the kernels need '{ast.unparse(node)}' and it cannot be "
                                   "imported", "install that package, or use 'from X import name' in the kernel file",
                                   loc)
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
    used = set(roots or ()).union(*(s.uses for s in stmts))
    for s in stmts:
        node = s.node
        if not isinstance(node, ast.ImportFrom) or _narrowed(node, used) is None:
            continue
        node = _narrowed(node, used)
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


def _package_standin(module: str, name: str):
    """The installed stand-in of ``from module import name`` (PACKAGE_STANDINS), else None."""
    target = PACKAGE_STANDINS.get((module, name))
    if target is None:
        return None
    try:
        return getattr(importlib.import_module(target[0]), target[1])
    except (ImportError, AttributeError):
        return None


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
