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


def _jit_def(tf, name: str, depth: int):
    """(file, def) of the @triton.jit function ``name`` of module ``tf`` (its own or one it imports), or None."""
    own = next((fn for fn in tf.kernels if fn.name.value == name), None)
    if own is not None:
        return tf, own
    if depth >= MAX_DEPTH:
        return None
    for local, imported, s in _imports(tf):
        if local != name:
            continue
        other = _module_of(tf, s)
        return None if other is None else _jit_def(other, imported, depth + 1)
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
    """Fill ``tf.foreign``: each imported name that is a @triton.jit function of another module -> that module."""
    own = {fn.name.value for fn in tf.kernels}
    for local, _imported, _s in _imports(tf):
        if local in own or local in tf.foreign:
            continue
        found = _jit_def(tf, local, 0)
        if found is not None and found[0] is not tf:
            tf.foreign[local] = found


def imported_constant(tf, name: str):
    """``(module, name there)`` for ``from .x import NAME`` of a module, or None."""
    for local, imported, s in _imports(tf):
        if local == name:
            other = _module_of(tf, s)
            return None if other is None else (other, imported)
    return None
