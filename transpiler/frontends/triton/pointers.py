"""Triton pointer expressions as compile-time values, and when an access through one is a partition view.

A Triton kernel addresses memory with pointer arithmetic: ``x + row * stride_x + pid * BLOCK + tl.arange(0,
BLOCK)``. The front end never materialises such a pointer: it builds a :class:`Ptr` (the base array parameter
plus summands, each a :class:`Range` or an opaque scalar offset, times a stride parameter or unit stride) and,
at ``tl.load`` / ``tl.store``, :func:`access` decides whether the lanes form one tile at a block offset of the
array (docs/porting.md §5): then the access is a partition-view load/store whose view dimensions are the
stride-parameter dims first (scalar ones, then tiles in Triton axis order) and the unit-stride dim last, the
tile index of a range dim is its block offset and the one of a scalar dim (block 1) is the scalar, and the
mask ``offs < n`` on a range names the extent ``n`` of that array axis (the view's bounds check replaces it).

Everything here is pure: scalar offsets and tile indices are opaque objects (IR values or ints) compared by
identity, so the analysis is unit-tested without building IR (tests/test_triton_ir.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace


class NotView(Exception):
    """An access through a pointer that is not one tile at a block offset (``why`` says what breaks it)."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


@dataclass(frozen=True)
class Range:
    """``tl.arange(0, size)`` shifted by whole blocks: lanes ``(sum(base)) * size + [0, size)``, placed on
    ``axis`` of an ``ndim``-d Triton tile (``offs[:, None]`` is axis 0 of 2, ``offs[None, :]`` axis 1 of 2)."""
    size: object  # int or ir Sym
    base: tuple = ()  # tile-index summands (IR values or ints); () is 0
    axis: int = 0
    ndim: int = 1

    def placed(self, axis: int, ndim: int) -> Range:
        return replace(self, axis=axis, ndim=ndim)

    def shifted(self, tiles) -> Range:
        return replace(self, base=(*self.base, tiles))


@dataclass(frozen=True)
class Term:
    """One summand of a pointer offset: the lanes of ``rng``, or the scalar ``idx``, times ``stride`` (a
    stride parameter's name; "" is unit stride). ``tiles``: ``idx`` is that many whole ``block`` s."""
    rng: Range | None = None
    idx: object = None
    stride: str = ""
    tiles: object = None
    block: object = None
    lanes: bool = False  # ``idx`` is a tile of per-lane offsets (computed, loaded): never a view's tile index


@dataclass(frozen=True)
class Ptr:
    """``base + sum(terms)``; base None: an offset not yet added to a pointer parameter. ``elem``: the element
    type the base pointer was cast to (``p.to(tl.pointer_type(T))``, pointer_casts.py): the terms count elements of
    that type; None: the array's own."""
    base: str | None
    terms: tuple = ()
    elem: object = None

    def plus(self, other: Ptr) -> Ptr:
        if self.base is not None and other.base is not None:
            raise NotView("two pointers added")
        lead = self if self.base is not None else other
        return Ptr(lead.base, self.terms + other.terms, lead.elem)


@dataclass(frozen=True)
class MaskPart:
    """``rng < bound``: ``kind`` "param" (a runtime scalar parameter: an extent) or "const" (a constexpr)."""
    rng: Range
    bound: str
    kind: str


@dataclass(frozen=True)
class Mask:
    parts: tuple  # MaskPart, ... (``m0 & m1``)

    def placed(self, axis: int, ndim: int) -> Mask:
        return Mask(tuple(MaskPart(p.rng.placed(axis, ndim), p.bound, p.kind) for p in self.parts))


@dataclass(frozen=True)
class Dim:
    """One array dimension of an access: its stride parameter ("" = unit), and either a range or scalars."""
    stride: str
    rng: Range | None
    scalars: tuple = ()


@dataclass(frozen=True)
class Access:
    """A pointer access as a partition view: per view dimension the tile-index summands and the block size;
    ``tshape`` the Triton tile's shape (the range sizes in axis order); ``extents`` (mask bound, kind, array
    axis) and ``strides`` (stride parameter, array axis) name the parameters the view replaces."""
    base: str
    index: tuple  # per dim: tuple of summands
    shape: tuple
    tshape: tuple
    extents: tuple = ()
    strides: tuple = ()


def dims(p: Ptr) -> list[Dim]:
    """The array dimensions of a pointer: summands grouped by stride, stride-parameter dims first (scalar ones,
    then tiles in Triton axis order), the unit-stride dim last."""
    groups: dict[str, list[Term]] = {}
    if any(t.lanes for t in p.terms):
        raise NotView("offsets computed per lane")
    for t in p.terms:
        groups.setdefault(t.stride, []).append(t)
    out = []
    for stride, ts in groups.items():
        rng = [t.rng for t in ts if t.rng is not None]
        if len(rng) > 1:
            raise NotView(f"two tile offsets on one axis (stride '{stride or 1}')")
        if rng:  # whole blocks of the range's size fold into its tile index
            r = rng[0]
            rest = []
            for t in ts:
                if t.rng is not None:
                    continue
                if t.tiles is not None and t.block == r.size:
                    r = r.shifted(t.tiles)
                else:
                    rest.append(t)
            if rest:
                raise NotView(f"an offset on the axis of the {r.size}-lane range is not a whole number of blocks")
            out.append(Dim(stride, r))
        else:
            out.append(Dim(stride, None, tuple(t.idx for t in ts)))
    nd = {d.rng.ndim for d in out if d.rng is not None}
    if len(nd) > 1:
        raise NotView("offsets of different ranks")
    if nd and sorted(d.rng.axis for d in out if d.rng is not None) != list(range(nd.pop())):
        raise NotView("a tile axis without offsets")
    unit = [d for d in out if not d.stride]
    rest = [d for d in out if d.stride]
    rest.sort(key=lambda d: (d.rng is not None, d.rng.axis if d.rng is not None else 0))
    axes = [d.rng.axis for d in rest + unit if d.rng is not None]
    if axes != sorted(axes):
        raise NotView("the contiguous axis is not the tile's last axis (a transposed access)")
    return rest + unit


def access(p: Ptr, mask: Mask | None) -> Access:
    """The partition-view form of a load/store through ``p`` masked by ``mask``; raises :class:`NotView`."""
    if p.base is None:
        raise NotView("the address is not a pointer parameter plus offsets")
    ds = dims(p)
    extents = []
    for part in (mask.parts if mask is not None else ()):
        hit = [k for k, d in enumerate(ds) if d.rng is not None and (d.rng.size, d.rng.axis, d.rng.ndim) == (
            part.rng.size, part.rng.axis, part.rng.ndim)]
        if not hit or not _same_summands(ds[hit[0]].rng.base, part.rng.base):
            raise NotView("the mask is not on this access's offsets")
        extents.append((part.bound, part.kind, hit[0]))
    strides = tuple((d.stride, k) for k, d in enumerate(ds) if d.stride)
    index = tuple(d.rng.base if d.rng is not None else d.scalars for d in ds)
    shape = tuple(d.rng.size if d.rng is not None else 1 for d in ds)
    tshape = tuple(r.size for r in sorted((d.rng for d in ds if d.rng is not None), key=lambda r: r.axis))
    if not tshape:
        raise NotView("a single element (a 0-d gather/scatter)")
    return Access(p.base, index, shape, tshape, tuple(extents), strides)


def _same_summands(a: tuple, b: tuple) -> bool:
    return len(a) == len(b) and all(x is y or (isinstance(x, int) and x == y) for x, y in zip(a, b))


def tile_index(offset, block, scaled: dict) -> object:
    """An element offset of a block pointer / descriptor -> its tile index (docs/porting.md §5): 0 -> 0, the
    block itself -> 1, ``i * block`` (``scaled[offset] == (i, block)``) -> i, anything with block 1 -> itself."""
    if isinstance(offset, int) and offset == 0:
        return 0
    if offset == block and not isinstance(offset, int):
        return 1
    if block == 1:
        return offset
    s = scaled.get(offset)
    if s is not None and s[1] == block:
        return s[0]
    raise NotView(f"offset is not a multiple of the block {block}")
