"""Which function lowers which cuTile Python call: ``@lowers("ct.load")`` registers a handler.

A handler is ``fn(lw, call) -> value`` where ``lw`` is the :class:`~.lowering.Lowering` of the kernel and
``call`` a :class:`Call` (the libcst node, the dotted name, positional and keyword argument nodes, the name
hint of the value being bound). Handlers live in one module per op family (grid.py, memory.py, tiles.py, ...);
adding a construct is a new handler in its family's module, never a branch in the lowering core.
Values a handler returns: an IR ``Value``, a Python number / tuple (compile-time), a ``DT`` / ``ArrayRef``
(values.py), or ``None`` (statements such as ``ct.store``).
"""

from __future__ import annotations

from typing import Callable

from ..registry import Call, registrar

__all__ = ["CALLS", "POINTER_CALLS", "Call", "lowers"]

CALLS: dict[str, Callable] = {}
# calls whose first argument is an array indexed element-wise (pointer tiles): the rank of the array is the length
# of the index tuple (1 for a single index); frontends/cutile/memory.py lowers them
POINTER_CALLS = ("ct.gather", "ct.scatter", "ct.atomic_add", "ct.atomic_max", "ct.atomic_min", "ct.atomic_and",
                 "ct.atomic_or", "ct.atomic_xor", "ct.atomic_xchg", "ct.atomic_cas")

lowers = registrar(CALLS)
