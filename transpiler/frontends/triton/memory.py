"""Memory family: ``tl.load`` / ``tl.store`` through pointer expressions (pointers.py) and block pointers
(``tl.make_block_ptr``), as partition-view loads/stores of the array parameters."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ...ir.ops import OpKind
from ...ir.types import Sym, TileType, ViewType
from ...ir.values import Value
from .element_types import stored as stored_as
from .gathers import FlatNeeded, gather as gathers_gather, same_lanes, scatter as gathers_scatter
from .addresses import load_latency
from .descriptors import is_masked, masked, masked_access, taken_stride
from .elements import element_store
from .pointers import Mask, NotView, Ptr, Range, access, tile_index
from .registry import Call, lowers
from .values import ArrayRef, BlockPtr, Desc, ScalarParam
from .source import literal as source_literal, padding_key

_PADDING = {"zero": "zero", "neg_inf": "neg_inf", "nan": "nan"}  # rules/ir.toml [padding] (no +inf padding)
_BLOCK_PTR_ARGS = ["base", "shape", "strides", "offsets", "block_shape", "order"]
_DESC_ARGS = ["base", "shape", "strides", "block_shape"]
_DROPPED_HINTS = ("cache_modifier", "eviction_policy", "volatile")


def _args(c: Call, names: list[str], lw) -> dict:
    out = dict(zip(names, c.pos))
    if len(c.pos) > len(names):
        raise lw.err(c.node, f"{c.fn} with {len(c.pos)} positional arguments")
    for k, v in c.kw.items():
        if k in out:
            raise lw.err(c.node, f"{c.fn}: '{k}' given twice")
        out[k] = v
    return out


def _static_dim(lw, node):
    v = lw.expr(node) if isinstance(node, (cst.Name, cst.Integer)) else None
    if isinstance(v, Sym) or (isinstance(v, int) and not isinstance(v, bool)):
        return v
    raise lw.err(node, "a block shape entry that is not a constexpr or an integer")


def _tuple(lw, node, what: str) -> list:
    if not isinstance(node, (cst.Tuple, cst.List)):
        raise lw.err(node, f"{what} is not a literal tuple")
    return [e.value for e in node.elements]


def prescan_block_ptrs(lw) -> None:
    """Every ``tl.make_block_ptr`` of the kernel, before lowering: its extents name array axes (dropped
    parameters, also for a ``tl.cdiv`` loop bound that precedes the block pointer) and its strides are dropped."""
    calls: list[cst.Call] = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if lw.dotted(node.func) in ("tl.make_block_ptr", "tl.make_tensor_descriptor"):
                calls.append(node)

    lw.fn.body.visit(V())
    for node in calls:
        desc = lw.dotted(node.func) == "tl.make_tensor_descriptor"
        names, what = (_DESC_ARGS, "tensor descriptor") if desc else (_BLOCK_PTR_ARGS, "block pointer")
        a = _args(lw.call_of(node, ""), names, lw)
        if set(names) - set(a):
            raise lw.err(node, f"{lw.dotted(node.func)} without " + ", ".join(sorted(set(names) - set(a))))
        base = a["base"]
        if not (isinstance(base, cst.Name) and base.value in lw.arrays):
            raise lw.err(base, "block pointer base is not a pointer parameter")
        arr = base.value
        block = tuple(_static_dim(lw, e) for e in _tuple(lw, a["block_shape"], "block_shape"))
        shape, strides = _tuple(lw, a["shape"], "shape"), _tuple(lw, a["strides"], "strides")
        order = [source_literal(e) for e in _tuple(lw, a["order"], "order")] if not desc else \
            list(range(len(block) - 1, -1, -1))
        if not len(shape) == len(strides) == len(block) or order != list(range(len(block) - 1, -1, -1)):
            raise lw.err(node, f"a {what} that is not row-major of one rank")
        if desc and masked(lw, node, arr, shape):
            lw.note(node, "view", f"tl.make_tensor_descriptor({arr}) with its own bounds -> a masked gather / "
                    f"scatter of the flat {arr} per access (descriptors.py)")
            continue
        if desc:
            lw.note(node, "view", f"tl.make_tensor_descriptor({arr}) -> a partition view of {arr} with tile "
                    f"({', '.join(str(b) for b in block)}{',' if len(block) == 1 else ''}), zero padding")
        lw.array(arr, len(block), node)
        for k, sh in enumerate(shape):
            v = lw.env.get(sh.value) if isinstance(sh, cst.Name) else None
            if isinstance(v, ScalarParam):
                lw.bind_extent(v.name, arr, k, block, sh)
            elif isinstance(v, Sym):
                lw.tie(v.name, "const", arr, k)
                lw.note(sh, "param", f"{what} extent '{v.name}' (a constexpr) is {arr}.shape[{k}]: the tensor "
                        "passed must have that extent")
            else:
                raise lw.err(sh, f"a {what} extent that is not a parameter or a constexpr")
        for k, st in enumerate(strides):
            v = lw.env.get(st.value) if isinstance(st, cst.Name) else None
            if isinstance(v, ScalarParam):
                lw.drop_stride(v.name, arr, k, st, f"a {what} stride: the tensor view carries its strides")
            elif source_literal(st) != 1:
                taken_stride(lw, st, arr, k, what)


@lowers("tl.make_block_ptr")
def make_block_ptr(lw, c: Call):
    a = _args(c, _BLOCK_PTR_ARGS, lw)
    arr = a["base"].value
    block = tuple(_static_dim(lw, e) for e in _tuple(lw, a["block_shape"], "block_shape"))
    index = []
    for off, b in zip(_tuple(lw, a["offsets"], "offsets"), block):
        try:
            index.append(tile_index(lw.value(lw.expr(off), off), b, lw.scaled))
        except NotView as e:
            raise lw.err(off, e.why) from None
    return BlockPtr(arr, tuple(index), block)


@lowers("tl.make_tensor_descriptor")
def make_tensor_descriptor(lw, c: Call):
    a = _args(c, _DESC_ARGS, lw)
    block = tuple(_static_dim(lw, e) for e in _tuple(lw, a["block_shape"], "block_shape"))
    if is_masked(lw, c.node):
        return Desc(a["base"].value, block, tuple(_tuple(lw, a["shape"], "shape")),
                    tuple(_tuple(lw, a["strides"], "strides")), c.node)
    return Desc(a["base"].value, block)


def _desc_index(lw, c: Call, d: Desc, node) -> list[Value]:
    offs = _tuple(lw, node, "descriptor offsets")
    if len(offs) != len(d.block):
        raise lw.err(node, "descriptor offsets do not match its block rank")
    out = []
    for off, b in zip(offs, d.block):
        try:
            out.append(_index(lw, (tile_index(lw.value(lw.expr(off), off), b, lw.scaled),), off))
        except NotView as e:
            raise lw.err(off, e.why) from None
    return out


@lowers(".desc_load")
def desc_load(lw, c: Call):
    """``desc.load([o0, o1])``: the tile at ``o / block``; lanes out of bounds read zero (as TMA does)."""
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, "desc.load([offsets])")
    d = lw.expr(c.pos[0])
    if d.made is not None:  # a masked descriptor (descriptors.py): a gather, masked lanes read 0
        if len(_tuple(lw, c.pos[1], "descriptor offsets")) != len(d.block):
            raise lw.err(c.pos[1], "descriptor offsets do not match its block rank")
        ptr, mask = masked_access(lw, d, _tuple(lw, c.pos[1], "descriptor offsets"), c.node)
        return gathers_gather(lw, d.base, ptr, mask, 0, c.node, c.hint or "dtile")
    index = _desc_index(lw, c, d, c.pos[1])
    v = view(lw, d.base, d.block, "zero", False, c.node)
    t = lw.emit(OpKind.LOAD_VIEW, [v, *index], [TileType(v.type.dtype, tuple(d.block))], c.node, c.hint).result
    lw.origin[t.id] = d.base
    return t


@lowers(".desc_store")
def desc_store(lw, c: Call):
    if len(c.pos) != 3 or c.kw:
        raise lw.err(c.node, "desc.store([offsets], value)")
    d = lw.expr(c.pos[0])
    val = lw.value(lw.expr(c.pos[2], "out"), c.pos[2])
    if not isinstance(val, Value) or not isinstance(val.type, TileType) or tuple(val.type.shape) != tuple(d.block):
        raise lw.err(c.pos[2], "desc.store of a tile of the descriptor's block shape")
    if d.made is not None:  # a masked descriptor (descriptors.py): a scatter, lanes out of bounds not written
        offs = _tuple(lw, c.pos[1], "descriptor offsets")
        if len(offs) != len(d.block):
            raise lw.err(c.pos[1], "descriptor offsets do not match its block rank")
        ptr, mask = masked_access(lw, d, offs, c.node)
        gathers_scatter(lw, d.base, ptr, mask, val, c.node)
        return None
    index = _desc_index(lw, c, d, c.pos[1])
    dt = lw.arrays[d.base].type.dtype
    if val.id in lw.dtype_casts:  # a tile cast to a dtype constexpr: stored
        val = stored_as(lw, val, dt, c.node, "out", d.base)  # into the descriptor's array, one variable
    if val.type.dtype != dt:
        val = lw.convert(val, dt, c.node, "out")
    v = view(lw, d.base, d.block, "none", True, c.node)
    lw.emit(OpKind.STORE_VIEW, [v, val, *index], [], c.node)
    return None


@dataclass(frozen=True)
class Flat:
    """A load/store of a flat array (gathers.py): base parameter, pointer expression, mask (or None)."""
    base: str
    ptr: Ptr
    mask: object


def _is_none(node) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _pad_value(lw, a: dict):
    """``other=`` of a gather: a number (0 when absent; Triton leaves masked lanes undefined)."""
    if "other" not in a or _is_none(a["other"]):
        return 0
    v = lw.expr(a["other"])
    if isinstance(v, (ScalarParam, Sym)) or isinstance(v, Value) and not isinstance(v.type, TileType):
        return lw.value(v, a["other"]) if not isinstance(v, Sym) else lw.i32(v, a["other"])  # a runtime scalar
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise lw.err(a["other"], "other= of a gather that is not a translate-time number or a scalar")
    return v


def view(lw, arr: str, tile: tuple, padding: str, mutable: bool, node) -> Value:
    a = lw.array(arr, len(tile), node)
    t = ViewType(a.type.dtype, tuple(tile), padding, mutable)
    return lw.emit(OpKind.MAKE_VIEW, [a], [t], node, "p" + arr, tile=tuple(tile), padding=padding,
                   mutable=mutable).result


def _index(lw, summands: tuple, node) -> Value:
    if not summands:
        return lw.i32(0, node)
    acc = summands[0]
    for s in summands[1:]:
        acc = lw.binary("+", acc, s, node)
    return lw.i32(acc, node)


def _access(lw, c: Call, a: dict, store: bool):
    """(array, index values, view tile, Triton tile shape) of a load/store, registering the parameters it drops."""
    for k in a:
        if k in _DROPPED_HINTS:
            lw.note(c.node, "hint", f"{c.fn}({k}=..) dropped (no cuTile counterpart)")
    p = lw.expr(a["pointer"])
    if isinstance(p, BlockPtr):
        return p.base, [_index(lw, (i,), c.node) for i in p.index], p.block, p.block
    if isinstance(p, ArrayRef):
        p = Ptr(p.name)
    if not isinstance(p, Ptr):
        raise lw.err(a["pointer"], "the address is not a pointer expression")
    mask = lw.expr(a["mask"]) if "mask" in a and not _is_none(a["mask"]) else None
    if p.base is not None and p.base in lw.flat:
        return Flat(p.base, p, mask)
    if p.elem is not None:  # through a pointer cast (pointer_casts.py): a gather/scatter of the flat array
        raise FlatNeeded(p.base, "it is accessed through a pointer cast to another element type")
    if mask is not None and not isinstance(mask, Mask):  # any other predicate: a gather/scatter's mask
        raise FlatNeeded(p.base, "a mask other than `offs < n`") if p.base is not None else \
            lw.err(c.node, "the address is not a pointer parameter plus offsets")
    try:
        acc = access(p, mask)
    except NotView as e:
        if p.base is None:
            raise lw.err(c.node, f"not a partition-view access ({e.why}): a gather/scatter") from None
        raise FlatNeeded(p.base, e.why) from None
    arr = acc.base
    lw.array(arr, len(acc.shape), c.node)
    for bound, kind, k in acc.extents:
        if kind == "param":
            lw.bind_extent(bound, arr, k, tuple(acc.shape), a["mask"])
        else:
            lw.tie(bound, "const", arr, k)
            lw.note(a["mask"], "param", f"mask bound '{bound}' (a constexpr) is the extent {arr}.shape[{k}]: the "
                    "tensor passed must have that extent")
    for stride, k in acc.strides:
        lw.drop_stride(stride, arr, k, a["pointer"], f"the axis-{k} stride of {arr}: the tensor view carries its "
                       "strides")
    return arr, [_index(lw, s, c.node) for s in acc.index], acc.shape, acc.tshape


@lowers("tl.load")
def load(lw, c: Call):
    a = _args(c, ["pointer", "mask", "other", "boundary_check", "padding_option"], lw)
    if set(a) - {"pointer", "mask", "other", "boundary_check", "padding_option", *_DROPPED_HINTS}:
        raise lw.err(c.node, f"tl.load({', '.join(sorted(a))})")
    acc = _access(lw, c, a, False)
    if isinstance(acc, Flat):
        return gathers_gather(lw, acc.base, acc.ptr, acc.mask, _pad_value(lw, a), c.node, c.hint)
    arr, index, shape, tshape = acc
    key = None
    if "mask" in a and "other" in a:
        key = padding_key(a["other"])
        if key is None:  # a padding value no view padding mode spells: a gather pads with any number
            raise FlatNeeded(arr, "other= without a padding mode")
    elif "padding_option" in a:
        opt = source_literal(a["padding_option"])
        key = opt or None
    if key is not None and key not in _PADDING:
        raise FlatNeeded(arr, f"padding {key}")
    v = view(lw, arr, shape, _PADDING.get(key, "none"), False, c.node)
    lat = load_latency(lw)  # tl.range(num_stages=S) around it
    t = lw.emit(OpKind.LOAD_VIEW, [v, *index], [TileType(v.type.dtype, tuple(shape))], c.node, c.hint,
                **({"latency": lat} if lat is not None else {})).result
    lw.origin[t.id] = arr
    if tuple(shape) != tuple(tshape):
        if len(tshape) == 1 and len(shape) == 2 and shape[0] == 1 and lw.lift_rows:
            lw.trank[t.id] = 1  # a row stays a (1, N) tile
        else:
            t = lw.emit(OpKind.RESHAPE, [t], [TileType(t.type.dtype, tuple(tshape))], c.node, c.hint,
                        shape=tuple(tshape)).result
            lw.origin[t.id] = arr
    return t


@lowers("tl.store")
def store(lw, c: Call):
    a = _args(c, ["pointer", "value", "mask", "boundary_check"], lw)
    if set(a) - {"pointer", "value", "mask", "boundary_check", *_DROPPED_HINTS} or "value" not in a:
        raise lw.err(c.node, f"tl.store({', '.join(sorted(a))})")
    if element_store(lw, c, a):
        return None
    val = lw.value(lw.expr(a["value"], "out"), a["value"])
    if not isinstance(val, Value) or not isinstance(val.type, TileType):
        raise lw.err(a["value"], "tl.store of something other than a tile")
    acc = _access(lw, c, a, True)
    if isinstance(acc, Flat):
        gathers_scatter(lw, acc.base, acc.ptr, acc.mask, val, c.node)
        return None
    arr, index, shape, _tshape = acc
    dt = lw.arrays[arr].type.dtype
    val = stored_as(lw, val, dt, c.node, "out", arr)  # Triton casts a stored value to the pointer's type
    if tuple(val.type.shape) != tuple(shape):
        same_lanes(lw, val, tuple(shape), c.node)
        val = lw.emit(OpKind.RESHAPE, [val], [TileType(dt, tuple(shape))], c.node, "out", shape=tuple(shape)).result
    v = view(lw, arr, shape, "none", True, c.node)
    lw.emit(OpKind.STORE_VIEW, [v, val, *index], [], c.node)
    return None


@lowers("tl.arange")
def arange(lw, c: Call):
    """``tl.arange(0, size)``: the lanes of a range (pointers.py), an offset until a load/store reads it."""
    if len(c.pos) != 2 or c.kw or lw.expr(c.pos[0]) != 0:
        raise lw.err(c.node, "tl.arange other than tl.arange(0, size)")
    return Range(lw.dim(lw.expr(c.pos[1]), c.pos[1]))
