"""Which function lowers which Triton call: ``@lowers("tl.load")`` registers a handler.

Handlers take ``(lw, call)`` like the cuTile front end's (frontends/registry.py's :class:`Call`) and live in one module per op family (grid.py, memory.py, tiles.py). Besides IR values they may return
the compile-time values of values.py and pointers.py (ranges, masks, pointers, block pointers).
"""

from __future__ import annotations

from typing import Callable

from ..registry import Call, registrar

CALLS: dict[str, Callable] = {}

__all__ = ["CALLS", "Call", "lowers"]

lowers = registrar(CALLS)
