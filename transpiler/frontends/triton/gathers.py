"""Triton pointers as base + offset tensor: a load/store that is not one tile at a block offset (pointers.py
raises NotView) is a gather/scatter of a *flat* array.

Triton memory is flat: ``p + offs`` addresses element ``offs`` of the buffer ``p`` points to, whatever the tensor's
shape. A pointer parameter accessed that way is a 1-D array of the port (every access to it then goes through
``gather`` / ``scatter`` with the element offsets, :class:`FlatNeeded` restarts the kernel's lowering with the
parameter flat, so no access of it is a view of another rank). The offset is the pointer expression's sum as an
i32 tile: ranges become ``iota`` (+ block offset), strides the runtime scalars (a stride of a flat array is a
parameter of the port), offsets computed from loaded values stay what they are (int64 ones are narrowed to i32:
cuTile indices are i32, a note says so). The mask is any bool tile (``offs < n``, ``&``, ``|``, ``offs >= lo``,
2-D masks ...); ``other=`` is the padding value. No bounds check beyond Triton's own mask (``check_bounds=False``,
as Triton reads whatever the mask lets through).

cutile's ``load_ptr_tko`` (0.3.1 and 0.5.0) widens a scalar padding value through a rank-1 reshape, invalid
Tile IR for a rank >= 2 result (CTRS-E230 in the cuTile front end): a 2-D access with static extents is flattened
(``reshape`` of offsets and mask to 1-D, gather, ``reshape`` back; a scatter the same way). One with symbolic
extents (``BLOCK_M x BLOCK_K``: no const shape spells their product) keeps its rank-n index tile and gathers
*unpadded* (``padding_value`` None: the op takes any rank then); a masked one then pads with ``select(mask,
gathered, other)``, which is what Triton's ``other=`` means (masked lanes read nothing). store_ptr_tko has no
padding: a rank-n scatter is the op as it is.

A stride parameter is a scalar argument in Triton. A partition view drops it (the tensor view carries the
stride); when the same parameter is also needed as a value (a factor of a gather's per-lane offsets, a mask
bound ``offs < 2 * half_cols``, arithmetic) the view's array is made flat as well (``Lowering.restart_flat``), so
the parameter stays a runtime argument and both accesses read the flat buffer with the same element offsets. A
pointer parameter no access reaches (its only load is in an arm a constexpr flag folds away) is a 1-D array too.
"""

from __future__ import annotations

from ... import errors
from ...ir.ops import OpKind
from ...ir.types import BOOL, I32, DType, ScalarType, Sym, TileType
from ...ir.values import Value
from .element_types import stored as stored_as
from .addresses import load_latency
from .pointers import Mask, Ptr
from .registry import lowers


class FlatNeeded(Exception):
    """Raised while lowering a kernel: ``name`` must be a flat (1-D) array; the kernel is lowered again."""

    def __init__(self, name: str, why: str):
        super().__init__(name)
        self.name = name
        self.why = why


def offsets(lw, p: Ptr, node) -> Value:
    """The element offsets of ``p``'s terms: an i32 scalar or tile (lanes broadcast together)."""
    acc = None
    for t in p.terms:
        if t.rng is not None:
            v = lw.range_value(t.rng, node)
        else:
            v = t.idx
            if isinstance(v, Sym) or isinstance(v, int):
                v = lw.i32(v, node)
            if isinstance(v, Value) and isinstance(v.type.dtype, DType) and v.type.dtype != I32 \
                    and not v.type.dtype.is_float:
                lw.note(node, "gather", f"{v.type.dtype} offsets narrowed to i32 (cuTile gather indices are i32)")
                ty = TileType(I32, v.type.shape) if isinstance(v.type, TileType) else ScalarType(I32)
                # the offsets fit i32 (they index the array): a narrowing that does not wrap (trunci nsw)
                v = lw.emit(OpKind.CONVERT, [v], [ty], node, "offs", no_wrap=True).result
        if t.stride:
            v = lw.binary("*", v, lw.stride_value(t.stride, node), node, "offs")
        acc = v if acc is None else lw.binary("+", acc, v, node, "offs")
    return acc if acc is not None else lw.i32(0, node)


def _flat_shape(lw, shape: tuple, node):
    if len(shape) <= 1:
        return None
    if not all(isinstance(d, int) for d in shape):
        return None  # a rank-n index tile: an unpadded gather (the module's docstring)
    n = 1
    for d in shape:
        n *= d
    return (n,)


def _reshape(lw, v: Value, shape: tuple, node, hint: str) -> Value:
    return lw.emit(OpKind.RESHAPE, [v], [TileType(v.type.dtype, tuple(shape))], node, hint, shape=tuple(shape)).result


def _mask(lw, mask, shape: tuple, node):
    if mask is None:
        return None
    m = lw.mask_value(mask, node) if isinstance(mask, Mask) else lw.value(mask, node)
    if not isinstance(m, Value) or m.type.dtype != BOOL:
        raise lw.err(node, "a load/store mask that is not a bool tile")
    if isinstance(m.type, ScalarType):
        m = lw.to_tile(m, node)
    return lw.broadcast(m, tuple(shape), node)


def _index(lw, p: Ptr, mask, node):
    off = offsets(lw, p, node)
    if isinstance(off.type, ScalarType):
        shape: tuple = ()
    else:
        shape = tuple(off.type.shape)
    m = _mask(lw, mask, shape, node) if shape or mask is not None else None
    if m is not None and tuple(m.type.shape) != shape:  # a mask of higher rank widens the offsets
        shape = tuple(m.type.shape)
        off = lw.broadcast(off if isinstance(off.type, TileType) else lw.to_tile(off, node), shape, node)
    flat = _flat_shape(lw, shape, node)
    if flat is not None:
        off = _reshape(lw, off, flat, node, "offs_flat")
        m = _reshape(lw, m, flat, node, "mask_flat") if m is not None else None
    return off, m, shape, flat


def same_lanes(lw, val: Value, shape: tuple, node) -> None:
    """A stored tile of higher rank than its pointers must be the same lanes with unit axes ((1, N) for (N,));
    otherwise Triton broadcasts the pointers and several values race for each address: refused."""
    if tuple(d for d in val.type.shape if d != 1) != tuple(d for d in shape if d != 1):
        def text(sh) -> str:
            return " x ".join(d.name if isinstance(d, Sym) else str(d) for d in sh)

        raise lw.err(node, f"tl.store of a {text(val.type.shape)} tile through {text(shape)} pointers (the pointers "
                     "would broadcast: several values per address)")


def gather(lw, arr: str, p: Ptr, mask, pad, node, hint: str) -> Value:
    a = lw.array(arr, 1, node)
    off, m, shape, flat = _index(lw, p, mask, node)
    dt = p.elem or a.type.dtype  # a pointer cast (pointer_casts.py): the elements of its type
    cast = {"elem": p.elem} if p.elem is not None else {}
    if isinstance(pad, Value):  # other= a runtime scalar: cast to the element type, a 0-d tile
        pad_v = lw.to_tile(lw.convert(pad, dt, node, arr + "_pad"), node)
    else:
        pad_v = lw.const(pad, dt, node, (), arr + ("_zero_t" if pad == 0 else "_pad_t"))
    attrs = {"index": (None,), "shape": flat or shape, "check_bounds": False, "has_mask": m is not None,
             "latency": load_latency(lw), **cast}
    if flat is None and len(shape) >= 2:  # rank-n: no padding operand; the mask's lanes padded by a select
        t = lw.gather_select(a, [off], m, pad_v, node, hint, **attrs)
    else:
        t = lw.emit(OpKind.GATHER, [a, off, pad_v, *([m] if m is not None else [])], [TileType(dt, flat or shape)],
                    node, hint, **attrs).result
        if flat is not None:
            t = _reshape(lw, t, shape, node, hint)
    if not cast:  # the array's elements (its tf32 flag ...); a cast pointer's are of another type
        lw.origin[t.id] = arr
    return t


def scatter(lw, arr: str, p: Ptr, mask, val: Value, node) -> None:
    a = lw.array(arr, 1, node)
    off, m, shape, flat = _index(lw, p, mask, node)
    dt = p.elem or a.type.dtype  # a pointer cast (pointer_casts.py): Triton stores elements of its type
    val = stored_as(lw, val, dt, node, "out", arr)
    if isinstance(val.type, ScalarType):
        val = lw.to_tile(val, node)
    if tuple(val.type.shape) != shape:
        if len(val.type.shape) > len(shape):  # a lifted row or a tile of unit axes
            same_lanes(lw, val, shape, node)
            val = _reshape(lw, val, shape, node, "out")
        else:
            val = lw.broadcast(val, shape, node)
    if flat is not None:
        val = _reshape(lw, val, flat, node, "out_flat")
    attrs = {"index": (None,), "shape": flat or shape, "check_bounds": False, "has_mask": m is not None,
             "latency": None, **({"elem": p.elem} if p.elem is not None else {})}
    lw.emit(OpKind.SCATTER, [a, off, val, *([m] if m is not None else [])], [], node, **attrs)


@lowers("tl.gather")
def tile_gather(lw, c):
    """``tl.gather(src, index, axis)``: out[i] = src[index[i]] along ``axis``, within registers. cutile 0.5.0 has
    no tile op that indexes a tile by a tile (its gathers load through a tile of pointers): refused."""
    raise errors.CtrsError(errors.TRITON_TILE_GATHER, "tl.gather (a gather of a register tile along an axis)",
                           "cutile 0.5.0 has no tile-by-tile gather: its only gathers dereference a tile of pointers "
                           "(PointerTile, cutile-0.5.0 src/_core.rs:517; load through it); Triton versions without "
                           "tl.gather take the helper's other arm, which loads from memory", lw.tf.loc(c.node))
