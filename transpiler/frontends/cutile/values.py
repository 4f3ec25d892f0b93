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


class EnumRef:
    """A cuTile Python enum member bound to a name (``zero_pad = ct.PaddingMode.ZERO``): its dotted spelling."""

    def __init__(self, dotted: str):
        self.dotted = dotted
