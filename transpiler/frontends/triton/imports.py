"""``@triton.jit`` helpers a Triton kernel file imports from other modules of its package.

``from .nf4 import _mul, _nf4_lut`` (relative) or ``from pkg.kernels.nf4 import _mul`` (absolute, looked for under
the kernel file's ancestor directories) is resolved to a file as the cuTile front end resolves imported helpers
(cutile/imports.py ``module_path``); the file is read (never executed) as a :class:`~.source.TritonFile`, and a
``@triton.jit`` function it defines (or re-exports, followed) becomes a helper of the kernel file
(``tf.foreign``). inline.py lowers it in its own module's context: its ``tl`` aliases, its module constants, its
own helpers, its source positions.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import libcst as cst

from ..cutile.imports import module_path
from ..pysource import dotted_text, read_kernel_source
from .source import TritonFile, small_statements

MAX_DEPTH = 8  # import / re-export chains followed


@lru_cache(maxsize=64)
def _file(path: str):
    tf = TritonFile(Path(path), read_kernel_source(Path(path)))
    resolve(tf)
    return tf


def _imports(tf):
    """(local name, imported name, statement) of every ``from X import a [as b]`` at module level."""
    for stmt in tf.module.body:
        for s in small_statements(stmt):
            if isinstance(s, cst.ImportFrom) and not isinstance(s.names, cst.ImportStar):
                for a in s.names:
                    local = a.asname.name.value if a.asname is not None and isinstance(a.asname.name, cst.Name) \
                        else dotted_text(a.name)
                    yield local, dotted_text(a.name), s


def _defining(tf, name: str, depth: int):
    """(module, name there) of the module that defines ``name`` (a @triton.jit def, decided or not) of ``tf``,
    following its imports and re-exports; None when no module does."""
    if any(fn.name.value == name for fn in tf.kernels) or name in tf.undecided:
        return tf, name
    if depth >= MAX_DEPTH:
        return None
    for local, imported, s in _imports(tf):
        if local == name:
            other = _module_of(tf, s)
            return None if other is None else _defining(other, imported, depth + 1)
    return None


def _module_of(tf, s: cst.ImportFrom):
    path = module_path(tf, s)
    if path is None or Path(path).resolve() == Path(tf.path).resolve():
        return None
    try:
        return _file(str(Path(path).resolve()))
    except Exception:  # noqa: BLE001 - an unreadable / non-Python module: its names stay unresolved
        return None


def resolve(tf) -> None:
    """Fill ``tf.foreign`` (each imported name that is a @triton.jit function of another module -> (that module,
    its def)) and ``tf.undecided`` (an imported one defined under a module-level ``if`` ctrs cannot decide)."""
    own = {fn.name.value for fn in tf.kernels}
    for local, _imported, _s in _imports(tf):
        if local in own or local in tf.foreign:
            continue
        found = _defining(tf, local, 0)
        if found is None or found[0] is tf:
            continue
        other, name = found
        fn = next((f for f in other.kernels if f.name.value == name), None)
        if fn is not None:
            tf.foreign[local] = (other, fn)
        else:
            tf.undecided.setdefault(local, other.undecided[name])


def imported_constant(tf, name: str):
    """``(module, name there)`` for ``from .x import NAME`` of a module, or None."""
    for local, imported, s in _imports(tf):
        if local == name:
            other = _module_of(tf, s)
            return None if other is None else (other, imported)
    return None
