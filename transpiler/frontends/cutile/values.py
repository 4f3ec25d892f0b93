"""Compile-time values of the cuTile Python environment that are not IR values."""

from __future__ import annotations

from ...ir.types import DTypeLike, DTypeParam
from ...ir.values import Value

ELEMENT = DTypeParam("E")


class DT:
    """A compile-time dtype value in the environment (``A.dtype``, ``ct.float32``, a dtype choice)."""

    def __init__(self, dtype: DTypeLike):
        self.dtype = dtype


class ArrayRef:
    """An array parameter (its IR value is the kernel argument)."""

    def __init__(self, name: str, value: Value):
        self.name = name
        self.value = value


class Poison:
    """What a name is bound to after the statement that assigns it failed to lower (its blocker is already
    recorded): any later use raises :class:`PoisonUse`, which recovery swallows, so one unsupported construct
    is reported once, at the construct, and not again at every use of what it would have produced."""

    def __init__(self, name: str, pending=None):
        self.name = name
        self.pending = pending  # a parameter's own blocker, reported at its first use (recovery.parameter)

    def __repr__(self) -> str:
        return f"<poison {self.name}>"


class PoisonUse(Exception):
    """A poison value was used: the statement fails silently (its cause was reported where it happened)."""
