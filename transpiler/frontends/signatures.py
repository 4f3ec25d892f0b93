"""Arity / keyword check of a ``ct.*`` or ``tl.*`` call against the signature in the rules.

rules/cutile.toml gives each ``[functions."ct.X"]`` a ``signature`` (the parameter list of cuTile Python
1.7.0's function) and rules/triton.toml a ``[signatures]`` table for ``tl.*``. A call whose arguments do
not bind is refused before any lowering reads them (no KeyError on a missing keyword), with the message
the real compiler gives: cuTile Python binds with ``inspect.Signature.bind`` and raises
``TileTypeError("load(): missing a required argument: 'shape'")``; Triton calls the Python builtin, so
the message is Python's own ``TypeError`` (``zeros() missing 1 required positional argument: 'dtype'``).

Self-contained on purpose (the front ends call ``check_call`` and raise ``CTRS-E107`` with the text).
"""

from __future__ import annotations

import ast
import inspect
from functools import cache

import libcst as cst

_ARG = object()


@cache
def _function(name: str, signature: str):
    """A do-nothing Python function with that parameter list (rules data, parsed as a ``def``)."""
    tree = ast.parse(f"def {name}({signature}):\n    pass\n")
    scope: dict = {}
    exec(compile(tree, f"<signature of {name}>", "exec"), {"__builtins__": {}, "Ellipsis": ...}, scope)  # noqa: S102
    return scope[name]


def check_call(name: str, signature: str | None, call: cst.Call, style: str = "cutile") -> str | None:
    """None if ``call``'s arguments bind to ``signature`` (or it cannot be told statically: ``*args``,
    ``**kw``, no signature in the rules); else the compiler's message for ``style`` cutile / triton."""
    if not signature or any(a.star for a in call.args):
        return None
    short = name.rsplit(".", 1)[-1]
    fn = _function(short, signature)
    pos = [_ARG for a in call.args if a.keyword is None]
    kws = {a.keyword.value: _ARG for a in call.args if a.keyword is not None}
    if len(kws) != sum(a.keyword is not None for a in call.args):
        return f"{short}(): keyword argument repeated"
    try:
        if style == "triton":
            fn(*pos, **kws)
        else:
            inspect.signature(fn).bind(*pos, **kws)
    except TypeError as e:
        return str(e) if style == "triton" else f"{short}(): {e}"
    return None


def usage(name: str, signature: str) -> str:
    """``ct.load(array, /, index, shape, *, ...)``: for the hint."""
    return f"{name}({signature})"
