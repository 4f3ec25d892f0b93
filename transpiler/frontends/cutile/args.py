"""Binding a handler's call to the cuTile Python 1.7.0 signature of its function (inspect.Signature.bind), so
positional and keyword spellings, defaults and arity errors are handled once for every family module."""

from __future__ import annotations

import inspect

import libcst as cst

from ..signatures import _function
from .registry import Call
from .values import EnumRef


def bind(lw, c: Call, signature: str) -> dict:
    """Parameter name -> argument node (or the default, a Python value) of ``c`` under ``signature``."""
    fn = _function(c.fn.rsplit(".", 1)[-1], signature)
    try:
        bound = inspect.signature(fn).bind(*c.pos, **c.kw)
    except TypeError as e:
        raise lw.err(c.node, f"{c.fn}(): {e}") from e
    bound.apply_defaults()
    return dict(bound.arguments)


def value(lw, v):
    """An argument's value: a node lowered, a default as it is."""
    return lw.expr(v) if isinstance(v, cst.CSTNode) else v


def constant(lw, c: Call, args: dict, name: str, types: tuple, what: str):
    """A compile-time argument of one of ``types`` (bools are not ints here)."""
    v = value(lw, args[name])
    if not isinstance(v, types) or (isinstance(v, bool) and bool not in types):
        raise lw.err(c.node, f"{c.fn}: {name}= must be {what}")
    return v


def enum_member(lw, node) -> str:
    """The member name of an enum argument (``ct.RoundingMode.APPROX``, an alias of it, or a name bound to it)."""
    v = (lw.env.get(node.value) or lw.module_enum(node.value)) if isinstance(node, cst.Name) else None
    d = v.dotted if isinstance(v, EnumRef) else lw.info.dotted(node) or "?"
    return d.rsplit(".", 1)[-1]
