"""Helpers and constants a kernel file takes from other modules of its package, found through its imports.

``from .utils import f`` / ``from ..ops.x import C`` (relative to the kernel file) and ``from pkg.mod import f``
(an absolute name, looked for under every ancestor directory of the kernel file) are resolved to a file, which
is parsed with libcst (never executed) as a :class:`~ctrs.frontends.cutile.module.ModuleInfo`; re-exports are followed.
A helper is a plain module-level ``def`` or one decorated ``@ct.function`` (cuTile Python inlines both); it is
lowered in its own module's context (its ``ct`` alias, constants and helpers).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import libcst as cst

from ..pysource import dotted_text, read_kernel_source
from .module import ModuleInfo

MAX_DEPTH = 8  # re-export chains followed


@lru_cache(maxsize=64)
def _module(path: str):

    return ModuleInfo(Path(path), read_kernel_source(Path(path)))


_dotted = dotted_text  # a.b.c of a Name / Attribute chain (pysource)


def _file(base: Path, parts: list[str]) -> Path | None:
    p = base.joinpath(*parts)
    for cand in (p.with_suffix(".py"), p / "__init__.py"):
        if cand.is_file():
            return cand
    return None


def module_path(info, s: cst.ImportFrom) -> Path | None:
    """The file an ``from X import ...`` statement of ``info``'s module names, or None."""
    parts = _dotted(s.module).split(".") if s.module is not None else []
    parts = [p for p in parts if p]
    dots = len(s.relative)
    here = Path(info.path).resolve().parent
    if dots:
        base = here
        for _ in range(dots - 1):
            base = base.parent
        return _file(base, parts) if parts else _file(base, ["__init__"])
    if not parts or parts[0] in ("cuda", "torch", "numpy", "math", "triton"):
        return None
    for base in [here, *here.parents]:
        f = _file(base, parts)
        if f is not None:
            return f
    return None


def ct_functions(info) -> dict[str, cst.FunctionDef]:
    """Module-level ``@ct.function`` defs of a module (plain defs are ``info.helpers``)."""
    out = {}
    for stmt in info.module.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.decorators and all(
                info.dotted(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator) == "ct.function"
                for d in stmt.decorators):
            out[stmt.name.value] = stmt
    return out


def lookup(info, name: str, depth: int = 0):
    """``(module info, value)`` for a name of ``info``'s module: a helper def (its own or imported), or an
    imported module constant; None when the module neither defines nor imports it."""
    if depth > MAX_DEPTH:
        return None
    if name in info.helpers:
        return info, info.helpers[name]
    fns = ct_functions(info)
    if name in fns:
        return info, fns[name]
    if depth and name in info.consts:
        return info, info.consts[name]
    for stmt in info.module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for s in stmt.body:
            if not isinstance(s, cst.ImportFrom) or isinstance(s.names, cst.ImportStar):
                continue
            for a in s.names:
                local = a.asname.name.value if a.asname is not None and isinstance(a.asname.name, cst.Name) \
                    else _dotted(a.name)
                if local != name:
                    continue
                path = module_path(info, s)
                if path is None or Path(path).resolve() == Path(info.path).resolve():
                    return None
                try:
                    other = _module(str(path))
                except Exception:  # noqa: BLE001 - an unreadable module: the name stays unresolved
                    return None
                return lookup(other, _dotted(a.name), depth + 1)
    return None
