"""Python builtins a cuTile kernel may call on compile-time values: ``len`` of a tuple (``len(x.shape)``, a tuple
literal or a name bound to one). cuTile Python evaluates them at compile time (no Tile IR); so does the port."""

from __future__ import annotations

from .args import bind, value
from .registry import Call, lowers


@lowers("len")
def length(lw, c: Call):
    """``len(t)`` of a tuple: a Python int (cuTile Python's tuples have a compile-time length)."""
    t = value(lw, bind(lw, c, "obj, /")["obj"])
    if not isinstance(t, tuple):
        raise lw.err(c.node, f"len() of {type(t).__name__} (a tuple only: its length is known at compile time)")
    return len(t)
