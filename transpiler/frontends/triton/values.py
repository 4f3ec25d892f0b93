"""Compile-time values of a Triton kernel that are not IR values (pointers, ranges and masks: pointers.py)."""

from __future__ import annotations

from dataclasses import dataclass

from ..cutile.values import DT, ELEMENT, ArrayRef

__all__ = ["DT", "ELEMENT", "ArrayRef", "BlockPtr", "Desc", "Moved", "ScalarParam"]


@dataclass(frozen=True)
class ScalarParam:
    """A runtime scalar parameter not yet used as a value: a mask bound or stride (then the tensor view replaces
    it and the port drops it), or a runtime value (an IR parameter made at its first use)."""
    name: str


@dataclass(frozen=True)
class BlockPtr:
    """``tl.make_block_ptr(base, ..., offsets, block_shape)`` (row-major): tile ``index`` of a view of ``base``
    with tile ``block``; ``padding`` from the load's padding_option."""
    base: str
    index: tuple  # per dim: tile index (IR value or int)
    block: tuple


@dataclass(frozen=True)
class Moved:
    """A block pointer after the loop that advances it (its value there is not modelled)."""
    name: str


@dataclass(frozen=True)
class Desc:
    """A tensor descriptor over array ``base`` (a descriptor parameter or ``tl.make_tensor_descriptor``) with tile
    ``block``: ``desc.load([offsets])`` / ``desc.store([offsets], v)`` are view accesses at ``offset / block``."""
    base: str
    block: tuple
    # a descriptor whose extents are not the tensor's (descriptors.py): its source ``shape=`` / ``strides=``
    # entries, the statement that made it; loads and stores gather / scatter with the bounds as masks
    shape: tuple = ()
    strides: tuple = ()
    made: object = None
