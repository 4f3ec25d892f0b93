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


class TiledViewRef:
    """``A.tiled_view(tile_shape)`` (cuTile Python's TiledView: an array and a tile shape; a partition view is
    made at each use, as its ops materialise one): frontends/cutile/tiledview.py."""

    def __init__(self, array: ArrayRef, tile: tuple, padding: str):
        self.array = array
        self.tile = tile
        self.padding = padding

    def __repr__(self) -> str:
        return f"<tiled view of {self.array.name} {self.tile}>"
