"""Which function lowers which Triton call: ``@lowers("tl.load")`` registers a handler.

Handlers take ``(lw, call)`` like the cuTile front end's (frontends/cutile/registry.py, whose :class:`Call` they
share) and live in one module per op family (grid.py, memory.py, tiles.py). Besides IR values they may return
the compile-time values of values.py and pointers.py (ranges, masks, pointers, block pointers).
"""

from __future__ import annotations

from typing import Callable

from ..cutile.registry import Call

CALLS: dict[str, Callable] = {}

__all__ = ["CALLS", "Call", "lowers"]


def lowers(*names: str):
    def register(f):
        for n in names:
            if n in CALLS:
                raise ValueError(f"two lowerings for {n}")
            CALLS[n] = f
        return f
    return register
