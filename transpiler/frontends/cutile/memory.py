"""Memory family: ``ct.load``, ``ct.store``, ``ct.num_tiles`` (partition views of array parameters); ``ct.arange``;
``ct.gather`` / ``ct.scatter`` / ``ct.atomic_*`` (element-wise access through pointer tiles, as cuTile Python
lowers them: u64 offsets, an unsigned bounds mask, the user mask and'ed in, a padding constant of the array
dtype; emitters/ir_rust.py spells the chain)."""

from __future__ import annotations

import functools
import math

import libcst as cst

from ... import errors
from ...ir import typing as irtyping
from ...ir.ops import OpKind
from ...ir.types import BOOL, DTYPES, I32, PY_DTYPES, DType, DTypeParam, ScalarType, Sym, TileType, ViewType
from ...ir.values import Value
from ..pysource import PAD_PREFIX, PadMode  # the ct.PaddingMode marker of both front ends
from .control import const_test, flag_arms, in_flag_arm
from .recovery import record
from .registry import Call, lowers
from .values import ArrayRef, EnumRef

def per_flag(*keys: str):
    """A handler whose ``keys`` attributes (``check_bounds=``, ``allow_tma=``: a structural choice, literal in
    cutile's API) may be a ct.Constant test (``check_bounds=CHECK``, ``check = TILE != N``): known per
    specialisation, as cuTile Python folds it at JIT time. The call is lowered once per value of the attribute,
    as the arms of a constant-flag ``if`` on the test (control.flag_arms), which the cuTile JIT folds alike."""
    def wrap(handler):
        @functools.wraps(handler)
        def lower(lw, c: Call):
            for key in keys:
                node = c.kw.get(key)
                none = node is None or isinstance(node, cst.Name) and node.value == "None"
                flag = None if none else const_test(lw, lw.expr(node))
                if flag is None:
                    continue
                text = f"{key}={lw.info.module.code_for_node(node)}"
                if lw.loops and key == "allow_tma" and not (lw.flags.get(flag.name) == "bool"
                                                             and not isinstance(flag.value, Sym)):
                    # check_bounds= of any constant test is proven inside loops (tests/data/cf_flag_check.py);
                    # allow_tma= of a ct.Constant[bool] is too, a comparison of constants as allow_tma= is not yet
                    raise lw.err(node, f"{text} inside a loop: a ct.Constant comparison as allow_tma= is proven "
                                       "outside loops only")

                def lower_arm(value: bool, key=key):
                    kw = {**c.kw, key: cst.Name("True" if value else "False")}
                    return lower(lw, Call(c.node, c.fn, c.pos, kw, c.hint))

                v = flag_arms(lw, flag, lower_arm, c.node, text)
                if isinstance(v, Value) and c.hint:
                    v.hint = c.hint
                return v
            return handler(lw, c)
        return lower
    return wrap


_PADDING = {"ZERO": "zero", "NEG_ZERO": "neg_zero", "NEG_INF": "neg_inf", "POS_INF": "pos_inf", "NAN": "nan",
            "UNDETERMINED": "none"}


def array(lw, node) -> ArrayRef:
    a = lw.expr(node)
    if not isinstance(a, ArrayRef):
        raise lw.err(node, "expected an array parameter")
    return a


def view(lw, a: ArrayRef, tile: tuple, padding: str, mutable: bool, node, order: tuple | None = None) -> Value:
    t = ViewType(a.value.type.dtype, tile, padding, mutable)
    extra = {"order": order} if order is not None else {}
    return lw.emit(OpKind.MAKE_VIEW, [a.value], [t], node, "p" + a.name, tile=tile, padding=padding,
                   mutable=mutable, **extra).result


def index(lw, node, rank: int) -> list[Value]:
    idx = lw.expr(node)
    idx = idx if isinstance(idx, tuple) else (idx,)
    if len(idx) != rank:
        raise lw.err(node, f"index of {len(idx)} for a rank-{rank} array")
    return [lw.tile_index(v, node) for v in idx]


def pad_mode(lw, node) -> PadMode:
    """A ``ct.PaddingMode.X`` member: the translate-time marker both front ends use (pysource.PadMode, its
    dotted spelling), so a member bound to a name, a module constant or a helper parameter is the same value."""
    d = lw.info.dotted(node) or ""
    if not d.startswith(PAD_PREFIX) or d[len(PAD_PREFIX):] not in _PADDING:
        raise lw.err(node, f"padding mode '{d}'")
    return PadMode(d)


def padding_mode(lw, node) -> str:
    """``padding_mode=``: the IR's padding name of the member the argument stands for."""
    v = lw.expr(node)
    if isinstance(v, EnumRef):  # an enum member bound to a name (frontends/cutile/values.py)
        v = v.dotted
    if not (isinstance(v, str) and v.startswith(PAD_PREFIX) and v[len(PAD_PREFIX):] in _PADDING):
        raise lw.err(node, "padding_mode= must be a ct.PaddingMode member (directly, by a name or a module constant)")
    return _PADDING[v[len(PAD_PREFIX):]]


def order(lw, node, rank: int) -> tuple | None:
    """``order=``: a permutation of the array axes (None: absent or the identity, which the reference drops)."""
    if node is None:
        return None
    perm = lw.expr(node)
    perm = perm if isinstance(perm, tuple) else (perm,)
    if sorted(p for p in perm if isinstance(p, int)) != list(range(rank)) or len(perm) != rank:
        raise lw.err(node, f"order= must be a permutation of the {rank} axes")
    return None if perm == tuple(range(rank)) else perm


def hints(lw, kw) -> dict:
    """``latency=`` (a translate-time int, 1..10) and ``allow_tma=`` (a translate-time bool) of a view load/store."""
    out = {}
    lat = _latency(lw, kw, generic=True)
    if lat is not None:
        out["latency"] = lat
    if "allow_tma" in kw and not (isinstance(kw["allow_tma"], cst.Name) and kw["allow_tma"].value == "None"):
        out["allow_tma"] = const_flag(lw, kw["allow_tma"], "allow_tma")
    return out


@lowers("ct.load")
@per_flag("allow_tma")
def load(lw, c: Call):
    """``ct.load(array, index, shape[, order=, padding_mode=, latency=, allow_tma=])`` (index and shape by
    position or keyword); ``shape=()`` loads a 1x..x1 tile and reshapes it to 0-d, as cuTile Python does."""
    kw = dict(c.kw)
    for name, node in zip(("index", "shape"), c.pos[1:]):
        if name in kw:
            raise lw.err(c.node, f"ct.load: {name} given twice")
        kw[name] = node
    allowed = {"index", "shape", "padding_mode", "order", "latency", "allow_tma"}
    if not 1 <= len(c.pos) <= 3 or set(kw) - allowed or "index" not in kw or "shape" not in kw:
        raise lw.err(c.node, "ct.load(array, index, shape[, order=, padding_mode=, latency=, allow_tma=])")
    a = array(lw, c.pos[0])
    rank = a.value.type.rank
    shape = lw.shape(kw["shape"]) if not _empty_tuple(kw["shape"]) else ()
    pad = padding_mode(lw, kw["padding_mode"]) if "padding_mode" in kw else "none"
    tile = shape if shape else (1,) * rank
    if len(tile) != rank:
        raise lw.err(c.node, "tile rank differs from the array rank")
    idx = index(lw, kw["index"], rank)
    v = view(lw, a, tile, pad, False, c.node, order(lw, kw.get("order"), rank))
    t = lw.emit(OpKind.LOAD_VIEW, [v, *idx], [TileType(a.value.type.dtype, tile)], c.node,
                c.hint if shape else (c.hint or "t") + "_1", **hints(lw, kw)).result
    if shape:
        return t
    return lw.emit(OpKind.RESHAPE, [t], [TileType(a.value.type.dtype, ())], c.node, c.hint, shape=()).result


def _empty_tuple(node) -> bool:
    return isinstance(node, cst.Tuple) and not node.elements


@lowers("ct.store")
@per_flag("allow_tma")
def store(lw, c: Call):
    kw = dict(c.kw)
    for name, node in zip(("index", "tile"), c.pos[1:]):
        if name in kw:
            raise lw.err(c.node, f"ct.store: {name} given twice")
        kw[name] = node
    if not 1 <= len(c.pos) <= 3 or set(kw) - {"index", "tile", "order", "latency", "allow_tma"} \
            or not {"index", "tile"} <= set(kw):
        raise lw.err(c.node, "ct.store(array, index, tile[, order=, latency=, allow_tma=])")
    a = array(lw, c.pos[0])
    t = lw.expr(kw["tile"])
    if not isinstance(t, Value) or not isinstance(t.type, TileType) or len(t.type.shape) != a.value.type.rank:
        raise lw.err(c.node, "ct.store of a tile of the array's rank")
    t = stored(lw, t, a, c.node, "ct.store")  # cuTile Python's implicit_cast (tile_store_impl)
    # order=: the reference's partition view with a dim_map (emitters/ir_rust.py spells it per target)
    perm = order(lw, kw.get("order"), a.value.type.rank)
    idx = index(lw, kw["index"], a.value.type.rank)
    v = view(lw, a, t.type.shape, "none", True, c.node, perm)
    lw.emit(OpKind.STORE_VIEW, [v, t, *idx], [], c.node, **hints(lw, kw))
    return None


@lowers("ct.num_tiles")
def num_tiles(lw, c: Call):
    if len(c.pos) != 1 or set(c.kw) != {"axis", "shape"}:
        raise lw.err(c.node, "ct.num_tiles(array, axis=, shape=)")
    a = array(lw, c.pos[0])
    axis = lw.expr(c.kw["axis"])
    shape = lw.shape(c.kw["shape"])
    if not isinstance(axis, int) or not 0 <= axis < len(shape) or len(shape) != a.value.type.rank:
        raise lw.err(c.node, "ct.num_tiles axis / shape")
    v = view(lw, a, shape, "none", False, c.node)
    return lw.emit(OpKind.NUM_TILES, [v], [ScalarType(I32)], c.node, c.hint, axis=axis).result


# -- array metadata ----------------------------------------------------------------------------------------------

def array_attribute(lw, a: ArrayRef, node: cst.Attribute):
    """``A.shape`` (a tuple of the runtime extents, one ``array_dim`` each; unused ones are dead code), ``A.ndim``,
    ``A.strides`` (one ``array_stride`` each). cutile 0.3.1's ``&Tensor`` exposes its shape (``shape()``) and base
    pointer but no strides (cutile-0.3.1 src/_core.rs: ``get_tensor_shape_meta``, ``get_tensor_base``, no stride
    meta), so an array whose strides are read is a raw entry (``x_stride_<i>`` parameters)."""
    attr = node.attr.value
    rank = a.value.type.rank
    if attr == "ndim":
        return rank
    if attr == "shape":
        return tuple(lw.emit(OpKind.ARRAY_DIM, [a.value], [ScalarType(I32)], node, f"{a.name}_dim{i}", axis=i).result
                     for i in range(rank))
    if attr == "strides":  # the array becomes a raw entry (emitters/ir_rust.py): its strides are parameters
        return tuple(lw.emit(OpKind.ARRAY_STRIDE, [a.value], [ScalarType(I32)], node, f"{a.name}_st{i}", axis=i).result
                     for i in range(rank))
    raise lw.err(node, f"attribute '{a.name}.{attr}'")


def array_method(lw, a: ArrayRef, node: cst.Call):
    """A method call on an array parameter. ``A.slice(axis=, start=, stop=)`` is a view of a sub-range: cuTile
    Python offsets the base pointer by ``start * stride`` and sets the axis extent to ``stop - start``
    (_ir/ops.py array_slice_impl), so every later access goes through a tensor view of that new base; the port
    would read the array as a raw entry and spell ``make_tensor_view`` of the offset pointer, which the typed
    emitter does not do (CTRS-E401, with that reason). Other methods: not an Array method the port knows."""
    attr = node.func.attr.value
    if attr == "slice":
        raise _slice_error(lw, a.name, node)
    raise lw.err(node, f"method '{a.name}.{attr}' of an array")


def _slice_error(lw, name: str, node) -> errors.CtrsError:
    return errors.CtrsError(errors.IR_ARRAY_SLICE, f"'{name}.slice(..)': a view of a sub-range of an array is not "
                            "spelled by the typed path yet",
                            "cuTile Python's array_slice_impl offsets the base pointer by start * stride and makes "
                            "a tensor view of extent stop - start; a port needs the array as a raw entry and "
                            "cutile's make_tensor_view of the offset pointer (unsafe in cutile 0.3.1 and 0.5.0 "
                            "src/_core.rs), which the typed IR emitter does not write: load the sub-range with an "
                            "index offset instead", lw.info.loc(node))


def refuse_array_slice(lw, name: str) -> None:
    """A parameter whose only array uses are ``name.slice(..)`` (its rank is read from ct.load / ct.gather ...
    uses, which go to the slices): CTRS-E401 at the first slice, recorded as the reason."""
    uses: list = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            f = node.func
            if isinstance(f, cst.Attribute) and f.attr.value == "slice" and isinstance(f.value, cst.Name) \
                    and f.value.value == name:
                uses.append(node)

    lw.fn.body.visit(V())
    if uses:
        e = _slice_error(lw, name, uses[0])
        record(lw, e)
        raise e


def refuse_array_list(lw, name: str) -> None:
    """A parameter used as a list of arrays (``len(As)``, ``As[g]`` passed to ct.load/ct.num_tiles, as TileGym's
    group GEMM does): CTRS-E231, a translator gap. The reference's list is a ``tile<ptr<i64>>`` table base and an
    ``i32`` length, which cutile 0.5.0 can take and read (pointer-tile entry parameter, make_tensor_view,
    load_view_tko, extract, int_to_ptr, trunci); ctrs has no lowering, host marshalling or spec form for it yet
    (docs/porting.md "Lists of arrays" has the plan)."""
    uses: list = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value == "len" and len(node.args) == 1 \
                    and isinstance(node.args[0].value, cst.Name) and node.args[0].value.value == name:
                uses.append(node)

        def visit_Subscript(self, node: cst.Subscript) -> None:
            if isinstance(node.value, cst.Name) and node.value.value == name:
                uses.append(node)

    lw.fn.body.visit(V())
    if uses:
        e = errors.CtrsError(
            errors.IR_ARRAY_LIST, f"parameter '{name}' is a list of arrays: cuTile Python passes it as a device "
            "table of array descriptors (ListTy, cuda/tile/_ir/type.py: a tile<ptr<i64>> base and an i32 length; "
            "an item is a load_view_tko of one row of words, extract + reshape per word, inttoptr of the first, "
            "trunci of the extents/strides, cuda/tile/_ir/ops.py GetArrayListItem). cutile 0.5.0 has every op "
            "of that sequence (src/_core.rs make_tensor_view, load_view_tko, extract, int_to_ptr, trunci) and a "
            "PointerTile<*mut i64, {[]}> / i32 entry parameter (cutile-compiler-0.5.0 src/compiler/_type.rs "
            "compile_entry_param_type), but ctrs has no rule for it yet: no lowering of the item load, no host "
            "marshalling of the table, no spec form for a list argument (docs/porting.md \"Lists of arrays\")",
            "until then: launch one kernel per group, or pass the groups as one stacked array", lw.info.loc(uses[0]))
        record(lw, e)  # the reason, whatever else the uses of the parameter then fail on
        raise e


def subscript(lw, node: cst.Subscript):
    """``t[k]`` of a translate-time tuple (``A.shape[0]``, ``A.shape[-1]``) by a constant int."""
    base = lw.expr(node.value)
    sl = node.slice[0].slice if len(node.slice) == 1 else None
    if not isinstance(base, tuple) or not isinstance(sl, cst.Index):
        raise lw.err(node, "subscripts other than a constant index of a tuple (A.shape[i])")
    k = lw.expr(sl.value)
    if not isinstance(k, int) or isinstance(k, bool) or not -len(base) <= k < len(base):
        raise lw.err(node, f"index {k!r} of a {len(base)}-tuple")
    return base[k]


# -- element-wise pointer access: ct.gather / ct.scatter / atomics -----------------------------------------------

def number(lw, node):
    """A compile-time Python number: a literal / module constant / folded expression, ``math.inf``,
    ``float("inf")`` (and their negations)."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        v = number(lw, node.expression)
        return -v if v is not None else None
    d = lw.info.dotted(node)
    if d in ("math.inf", "float.inf"):
        return math.inf
    if d == "math.nan":
        return math.nan
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "float" \
            and len(node.args) == 1 and isinstance(node.args[0].value, cst.SimpleString):
        try:
            return float(node.args[0].value.evaluated_value)
        except ValueError:
            return None
    v = lw.expr(node)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def const_flag(lw, node, what: str) -> bool:
    """A keyword flag known at translate time (literal, module constant, folded constants)."""
    v = lw.expr(node)
    if not isinstance(v, (bool, int)):
        raise lw.err(node, f"{what}= must be a translate-time constant (True/False, a module constant)")
    return bool(v)


def _index(lw, node, arr: ArrayRef, fn: str):
    """The operands and attrs of an element-wise access of ``arr`` at ``node`` (one index per axis)."""
    rank = arr.value.type.rank
    idx = lw.expr(node)
    idx = idx if isinstance(idx, tuple) else (idx,)
    if len(idx) != rank:
        raise lw.err(node, f"{fn}: {len(idx)} indices for a rank-{rank} array")
    operands, lits, shape = [], [], ()
    for v in idx:
        if isinstance(v, int) and not isinstance(v, bool):
            lits.append(v)
            continue
        if isinstance(v, Value) and isinstance(v.type, (ScalarType, TileType)) and isinstance(v.type.dtype, DTypeParam):
            # an index read from an array of a launch dtype (an index table): lowered once per dtype of that
            # array, int32 first (frontends/cutile/dtypes.py); the float entries fail here and are left out
            e = irtyping.GenericMeetsConcrete(f"{fn} index of the dtype variable {v.type.dtype}: the result depends "
                                              "on the specialisation (lowered once per element type)",
                                              (v.type.dtype,), I32)
            raise lw.err(node, str(e)) from e
        if not isinstance(v, Value) or not isinstance(v.type, (ScalarType, TileType)) or v.type.dtype != I32:
            got = f" (got {v.type.dtype}: cuTile Python widens any integer index to u64; the port spells int32 " \
                  "indices only, cast with ct.astype)" if isinstance(v, Value) and hasattr(v.type, "dtype") else ""
            raise lw.err(node, f"{fn} index must be an int32 scalar or tile{got}")
        if isinstance(v.type, TileType):
            try:
                shape = irtyping.broadcast_shapes(shape, v.type.shape)
            except irtyping.PromotionError as e:
                raise lw.err(node, f"{fn} indices: {e}") from e
        lits.append(None)
        operands.append(v)
    return operands, tuple(lits), shape


def _cast(lw, v: Value, dtype, node, what: str) -> Value:
    """cuTile Python's implicit_cast of a stored / scattered value to the array dtype (ir/typing.py: a cast to
    a dtype the value promotes to; on dtype variables a fact the front end solves, frontends/cutile/dtypes.py)."""
    try:
        return lw.convert(v, irtyping.implicit_cast(v.type.dtype, dtype, what), node)
    except irtyping.PromotionError as e:
        if not isinstance(e, irtyping.DTypeFact):  # concrete dtypes that do not cast: per flag value, if in an arm
            in_flag_arm(lw, node, str(e))
        raise lw.err(node, str(e)) from e


def stored(lw, t: Value, a: ArrayRef, node, what: str) -> Value:
    """A tile stored into ``a``, cast to its element type as the reference's ``ct.store`` does."""
    return _cast(lw, t, a.value.type.dtype, node, f"{what} of a {t.type.dtype} tile into an array of "
                 f"{a.value.type.dtype}")


def _fit(lw, v, shape: tuple, dtype, node, what: str) -> Value:
    """``v`` (a tile / scalar / Python number) as a tile of ``shape`` and ``dtype``: numbers become constants of
    the array dtype, tiles cast (cuTile Python's implicit_cast: _cast) and broadcast."""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return lw.const(v, dtype, node, shape, what)
    if isinstance(v, Value) and isinstance(v.type, ScalarType):
        v = lw.to_tile(v, node)
    if not isinstance(v, Value) or not isinstance(v.type, TileType):
        raise lw.err(node, f"{what} must be a tile or a number")
    if v.type.dtype != dtype:
        v = _cast(lw, v, dtype, node, f"{what} of {v.type.dtype} into an array of {dtype}")
    try:
        irtyping.broadcast_shapes(shape, v.type.shape)
    except irtyping.PromotionError as e:
        raise lw.err(node, f"{what}: {e}") from e
    if len(v.type.shape) > len(shape) or irtyping.broadcast_shapes(shape, v.type.shape) != tuple(shape):
        raise errors.CtrsError(errors.TRANSLATE_TYPE, f"{what} of shape {_shape_text(v.type.shape)} does not broadcast "
                               f"to the index shape {_shape_text(shape)}", "give it the index's shape or one that "
                               "broadcasts to it", lw.info.loc(node))
    return lw.broadcast(v, tuple(shape), node)


def _shape_text(shape: tuple) -> str:
    return f"({', '.join(str(d) for d in shape)})"


def _mask(lw, node, shape: tuple, fn: str) -> Value | None:
    """``mask=``: a bool tile / scalar broadcast to the index shape (cuTile Python's _process_custom_mask)."""
    if node is None or (isinstance(node, cst.Name) and node.value == "None"):
        return None
    m = lw.expr(node)
    if isinstance(m, bool):  # cuTile Python refuses a constant mask too (a mask is a tile or a runtime scalar)
        raise lw.err(node, f"{fn}(mask=..) given the constant {m}")
    if not isinstance(m, Value) or m.type.dtype != BOOL:
        got = f"a {'tile' if isinstance(m.type, TileType) else 'scalar'} of type {m.type.dtype}" \
            if isinstance(m, Value) else type(m).__name__
        raise errors.CtrsError(errors.TRANSLATE_TYPE, f"{fn} mask must be bool, got {got}",
                               "compare to make a mask (offs < n)", lw.info.loc(node))
    return _fit(lw, m, shape, BOOL, node, "mask")


def _access(lw, c: Call, fn: str, names: list[str], extra: set[str]):
    pos, kw = c.pos, c.kw
    if len(pos) > len(names) or set(kw) - set(names) - extra:
        raise lw.err(c.node, f"{fn}({', '.join(names)}, {', '.join(sorted(extra))})")
    args = dict(zip(names, pos)) | {k: v for k, v in kw.items() if k in names}
    if set(names) - set(args):
        raise lw.err(c.node, f"{fn}: missing {', '.join(sorted(set(names) - set(args)))}")
    a = array(lw, args[names[0]])
    operands, lits, shape = _index(lw, args[names[1]], a, fn)
    check = const_flag(lw, kw["check_bounds"], "check_bounds") if "check_bounds" in kw else True
    attrs = {"index": lits, "shape": shape, "check_bounds": check}
    return a, args, operands, attrs


def _latency(lw, kw, generic: bool = False) -> int | Sym | None:
    """``latency=``: an int literal / module constant in 1..10, or a ``ct.Constant[int]`` parameter: known per
    specialisation (cuTile Python checks its range at JIT time), spelled as the const generic (cutile 0.3.1 reads
    ``Some(LAT)`` / ``Latency::<LAT>`` of a const generic: compile_cuda_tile_op.rs read_view_hint_params,
    extract_latency_cycles); ``generic``: the op takes a generic (a view load/store: ``Option<i32>``; a pointer
    op's ``Latency<const CYCLES: u32>`` cannot take an i32 const generic on stable Rust)."""
    if "latency" not in kw or (isinstance(kw["latency"], cst.Name) and kw["latency"].value == "None"):
        return None
    v = lw.expr(kw["latency"])
    if isinstance(v, Sym) and lw.flags.get(v.name) != "bool":
        if generic:
            return v
        raise lw.err(kw["latency"], f"latency={v.name} (a ct.Constant) of an element-wise access: cutile 0.3.1's "
                     "Latency<const CYCLES: u32> cannot take an i32 const generic (give a literal)")
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 10:
        raise lw.err(kw["latency"], "latency= must be a translate-time int in 1..10")
    return v


def padding(lw, c: Call, a: ArrayRef) -> Value:
    """``padding_value=`` of a gather as the 0-d tile of the array dtype cutile's ``load_ptr_tko`` takes
    (``padding_value: Option<E>``; its compiler reshapes and broadcasts the scalar to the result shape, the
    reference's ``broadcast_to``). A translate-time number is a constant of the array dtype; a ``ct.Constant[int]``
    is its const generic (an i32 array only: another dtype would cast the const generic at run time where the
    reference folds the cast into its constant); a runtime scalar / 0-d tile is cast to the array dtype as cuTile
    Python's implicit_cast does. A padding tile of rank >= 1 has no spelling: CTRS-E400."""
    dt, node = a.value.type.dtype, c.kw.get("padding_value")
    if node is None or (isinstance(node, cst.Name) and node.value == "None"):
        return lw.const(0, dt, c.node, (), a.name + "_zero_t")
    ctor = PY_DTYPES.get((lw.info.dotted(node.func) or "").removeprefix("ct.")) \
        if isinstance(node, cst.Call) and len(node.args) == 1 and not node.args[0].keyword else None
    pad = number(lw, node) if ctor is None else None
    if ctor is not None:  # ct.float8_e4m3fn(0.0): a constant of that dtype
        if isinstance(dt, DTypeParam):  # implicit_cast to the array dtype: lowered per dtype, that one first
            e = irtyping.GenericMeetsConcrete(f"a {ctor} padding value of a gather from the dtype variable {dt}: "
                                              "the result depends on the specialisation (lowered once per element "
                                              "type)", (dt,), ctor)
            raise lw.err(node, str(e)) from e
        if ctor != dt:
            raise lw.err(node, f"a {ctor} padding value for an array of {dt}")
        pad = number(lw, node.args[0].value)  # of the array dtype: the number in it
    if pad is not None:
        if isinstance(dt, DType) and not dt.is_float and isinstance(pad, float) and not pad.is_integer():
            raise lw.err(node, f"a float padding value for an array of {dt}")
        return lw.const(pad, dt, c.node, (), a.name + ("_zero_t" if pad == 0 else "_pad_t"))
    v = lw.expr(node)
    if isinstance(v, Sym):
        if not isinstance(dt, DType):  # lowered once per dtype of the array, i32 first (frontends/cutile/dtypes.py)
            e = irtyping.GenericMeetsConcrete(f"a ct.Constant padding value ({v.name}) of a gather from the dtype "
                                              f"variable {dt}: the result depends on the specialisation (lowered "
                                              "once per element type)", (dt,), I32)
            raise lw.err(node, str(e)) from e
        if dt != I32 and (dt.is_float or dt.bits < 32):
            raise lw.err(node, f"ct.gather padding_value={v.name} (a ct.Constant) for an array of {dt}: the "
                         "reference folds the cast into its constant; cutile would cast the const generic's i32 "
                         "value at run time")
        # an int64 array: the const generic's i32 value widened (exti), which the reference folds into its
        # constant and tileiras folds alike (the IR diff folds exti of a constant: verify/ircanon.py)
        v = lw.i32(v, node)
    if isinstance(v, Value) and isinstance(v.type, ScalarType):
        v = lw.to_tile(v, node)
    if not isinstance(v, Value) or not isinstance(v.type, TileType):
        raise lw.err(node, "ct.gather padding_value must be a number, a ct.Constant or a scalar value")
    if v.type.shape != ():
        raise errors.CtrsError(errors.IR_GATHER_PAD_TILE, f"ct.gather padding_value of type {v.type}: "
                               "cutile takes one scalar padding value",
                               "load_ptr_tko's padding_value is an Option<E> (cutile src/_core.rs); pad with a "
                               "scalar, or ct.where the gathered tile", lw.info.loc(node))
    return _cast(lw, v, dt, node, f"a padding value of {v.type.dtype} for an array of {dt}")


def _bounds(lw, a: ArrayRef, idx: list[Value], lits: tuple, shape: tuple, node) -> Value:
    """cuTile Python's check_bounds mask (_gather_scatter_pointer_and_mask) as IR: per axis the index widened to
    u64 and broadcast to the index shape (an int literal a u64 constant of it), compared ``index < extent``
    unsigned with the axis extent widened alike, and'ed over the axes. The emitter builds the same chain inside a
    gather (ir_rust.py pointer_chain); a rank >= 2 gather needs the mask as a value for its select."""
    u64, operands, mask = DTYPES["u64"], iter(idx), None
    for k, lit in enumerate(lits):
        if lit is not None:
            ix = lw.const(lit, u64, node, shape, f"{a.name}_i{k}")
        else:
            v = next(operands)
            v = lw.to_tile(v, node) if isinstance(v.type, ScalarType) else v
            ix = lw.broadcast(lw.convert(v, u64, node, f"{a.name}_i{k}"), shape, node)
        n = lw.emit(OpKind.ARRAY_DIM, [a.value], [ScalarType(I32)], node, f"{a.name}_dim{k}", axis=k).result
        ext = lw.broadcast(lw.convert(lw.to_tile(n, node), u64, node, f"{a.name}_n{k}"), shape, node)
        m = lw.compare("lt", ix, ext, node, f"{a.name}_m{k}")
        mask = m if mask is None else lw.binary("&", mask, m, node, f"{a.name}_mask")
    return mask


@lowers("ct.gather")
@per_flag("check_bounds")
def gather(lw, c: Call):
    """``ct.gather``: cuTile Python's load_pointer with its padding value. A rank >= 2 index shape is cutile's
    unpadded load_ptr_tko and a select of the padding (Builder.gather_select): the mask (bounds and the user's)
    is then built here as IR values."""
    a, args, idx, attrs = _access(lw, c, "ct.gather", ["array", "indices"],
                                  {"mask", "padding_value", "check_bounds", "latency"})
    shape, dt = attrs["shape"], a.value.type.dtype
    pad_v = padding(lw, c, a)
    mask = _mask(lw, c.kw.get("mask"), shape, "ct.gather")
    attrs |= {"has_mask": mask is not None, "latency": _latency(lw, c.kw)}
    if len(shape) >= 2 or (isinstance(dt, DTypeParam) and dt.name != "E"):
        # rank >= 2, or an element type the port keeps generic (passes/specialise.py makes only E concrete for a
        # gather): cutile cannot spell that padding scalar (tile_to_scalar of a Tile<E1, {[]}> fails its JIT)
        if attrs["check_bounds"]:
            bounds = _bounds(lw, a, idx, attrs["index"], shape, c.node)
            mask = bounds if mask is None else lw.binary("&", bounds, mask, c.node, a.name + "_mask")
        return lw.gather_select(a.value, idx, mask, pad_v, c.node, c.hint, **(attrs | {"check_bounds": False}))
    ops = [a.value, *idx, pad_v, *([mask] if mask is not None else [])]
    return lw.emit(OpKind.GATHER, ops, [TileType(dt, shape)], c.node, c.hint, **attrs).result


@lowers("ct.scatter")
@per_flag("check_bounds")
def scatter(lw, c: Call):
    a, args, idx, attrs = _access(lw, c, "ct.scatter", ["array", "indices", "value"],
                                  {"mask", "check_bounds", "latency"})
    shape = attrs["shape"]
    value = _fit(lw, lw.expr(args["value"]), shape, a.value.type.dtype, args["value"], "the scattered value")
    mask = _mask(lw, c.kw.get("mask"), shape, "ct.scatter")
    attrs |= {"has_mask": mask is not None, "latency": _latency(lw, c.kw)}
    lw.emit(OpKind.SCATTER, [a.value, *idx, value, *([mask] if mask is not None else [])], [], c.node, **attrs)
    return None


_MEMORY_ORDER = {"RELAXED": "relaxed", "ACQUIRE": "acquire", "RELEASE": "release", "ACQ_REL": "acq_rel"}
_MEMORY_SCOPE = {"BLOCK": "block", "DEVICE": "device", "SYS": "sys"}
_RMW = {"ct.atomic_add": "add", "ct.atomic_max": "max", "ct.atomic_min": "min", "ct.atomic_and": "and",
        "ct.atomic_or": "or", "ct.atomic_xor": "xor", "ct.atomic_xchg": "xchg"}
# cuTile Python's element types per atomic (_ATOMIC_RMW_SPECS): 32/64-bit ints and floats; add also f16/bf16
_INT_3264 = ("i32", "i64", "u32", "u64")


def _enum(lw, kw, key: str, prefix: str, table: dict, default: str) -> str:
    if key not in kw:
        return default
    d = lw.info.dotted(kw[key]) or ""
    if not d.startswith(prefix) or d[len(prefix):] not in table:
        raise lw.err(kw[key], f"{key}= must be a {prefix}X member")
    return table[d[len(prefix):]]


def _atomic_attrs(lw, c: Call, attrs: dict) -> dict:
    return attrs | {"has_mask": False,
                    "memory_order": _enum(lw, c.kw, "memory_order", "ct.MemoryOrder.", _MEMORY_ORDER, "acq_rel"),
                    "memory_scope": _enum(lw, c.kw, "memory_scope", "ct.MemoryScope.", _MEMORY_SCOPE, "device")}


def _atomic_dtype(lw, c: Call, dt, mode: str) -> None:
    if not isinstance(dt, DType):
        # the typed path makes the kernel's element type E concrete as f32 / f16 / bf16 (rules element_entries):
        # of the atomics only add takes all three (cuTile Python's _ATOMIC_RMW_SPECS)
        if mode != "add":
            raise lw.err(c.node, f"{c.fn} on the float element type E (f16 / bf16 entries have no {mode} atomic)")
        return
    ok = dt.name in _INT_3264 or (mode in ("add", "xchg") and dt.name in ("f32", "f64")) \
        or (mode == "add" and dt.name in ("f16", "bf16"))
    if not ok:
        raise lw.err(c.node, f"{c.fn} on an array of {dt} (cuTile Python refuses it)")


@lowers(*_RMW)
@per_flag("check_bounds")
def atomic_rmw(lw, c: Call):
    """``ct.atomic_add/max/min/and/or/xor/xchg(array, indices, update)``: the old values (tile_atomic_rmw)."""
    mode = _RMW[c.fn]
    a, args, idx, attrs = _access(lw, c, c.fn, ["array", "indices", "update"],
                                  {"check_bounds", "memory_order", "memory_scope"})
    dt = a.value.type.dtype
    _atomic_dtype(lw, c, dt, mode)
    update = _fit(lw, lw.expr(args["update"]), attrs["shape"], dt, args["update"], "the update")
    attrs = _atomic_attrs(lw, c, attrs) | {"mode": mode}
    return lw.emit(OpKind.ATOMIC_RMW, [a.value, *idx, update], [TileType(dt, attrs["shape"])], c.node,
                   c.hint or "old", **attrs).result


@lowers("ct.atomic_cas")
@per_flag("check_bounds")
def atomic_cas(lw, c: Call):
    """``ct.atomic_cas(array, indices, expected, desired)``: the old values (tile_atomic_cas)."""
    a, args, idx, attrs = _access(lw, c, c.fn, ["array", "indices", "expected", "desired"],
                                  {"check_bounds", "memory_order", "memory_scope"})
    dt = a.value.type.dtype
    if not isinstance(dt, DType) or dt.name not in (*_INT_3264, "f32", "f64"):
        raise lw.err(c.node, f"ct.atomic_cas on an array of {dt} (cuTile Python refuses it)")
    exp = _fit(lw, lw.expr(args["expected"]), attrs["shape"], dt, args["expected"], "the expected value")
    des = _fit(lw, lw.expr(args["desired"]), attrs["shape"], dt, args["desired"], "the desired value")
    attrs = _atomic_attrs(lw, c, attrs)
    return lw.emit(OpKind.ATOMIC_CAS, [a.value, *idx, exp, des], [TileType(dt, attrs["shape"])], c.node,
                   c.hint or "old", **attrs).result
