"""Triton -> typed tile IR, directly from libcst nodes (no cuTile Python text, no second parse).

Every ``@triton.jit`` kernel of a file becomes an :class:`ir.Kernel` with the parameters the text-model Triton
front end's port has (the host side, host.mine_sites / typed_map, feeds them): pointer parameters
are ``array<E>`` values of one dtype parameter ``E``; ``tl.constexpr`` parameters are const-generic symbols;
a runtime scalar parameter is a :class:`ScalarParam` until it is used: as a mask bound (``offs < n``) or a
block-pointer extent it names an array extent (dropped; read with ``array_dim`` where a value needs it), as a
stride it is dropped (the view carries strides), as a value it becomes a runtime parameter. Pointer
arithmetic builds compile-time pointer expressions (pointers.py); a load/store through one is a partition
view load/store when the lanes are a tile at a block offset. ``pid * BLOCK`` is emitted as an i32 ``muli``
(dce removes it when only the pointer analysis reads it) and remembered as "``pid`` whole blocks".

A row of a 2-D array accessed as a 1-D Triton tile stays a ``(1, N)`` tile (the cuTile idiom the text-model
front end also used): ``trank`` keeps the Triton rank of such values and reductions map Triton axes onto it.

Anything outside this subset raises CTRS-E124 (``IR_UNSUPPORTED``): the kernel is refused with every blocker
(``ctrs translate --llm`` hands a call without a rule to the fallback, llm_hook.py).
"""

from __future__ import annotations

import math

import libcst as cst

from ... import errors
from ..pysource import assigned_names, slice_kinds
from ...ir import typing as irtyping
from ...ir.ops import Generic, Kernel, Op, OpKind, Param
from ...ir.types import DTYPES, F32, I32, ArrayType, DType, DTypeParam, ScalarType, Sym, TileType, ViewType
from ...ir.values import Loc, Value
from .. import derived
from ...ir.constexpr import ConstExpr
from ..builder import Builder
from .gathers import FlatNeeded, offsets as gathers_offsets
from .inline import global_value, helper_def, imported_alias, inline as inline_helper, pointer_args
from .inline import unpack as inline_unpack
from ..cutile.recovery import live
from ..cutile.values import Poison, PoisonUse
from .constexprs import as_float, floaty
from .llm_hook import call as llm_hook_call
from .element_types import array_generics, offsets_of_variable
from .control import Control, _to_tensor_dtype, if_expr
from .memory import prescan_block_ptrs
from .descriptors import body_local_desc
from .loops_while import flag_guarded, names_in as _names, only_under, while_
from .dtype_params import defaulted as defaulted_dtype, tied_array, used_as_dtype
from .masks import flags_as_bools
from .flag_names import unbound as unbound_name
from .addresses import is_pointer, loop_args, minus as pointer_minus, scalar_step
from .pointers import Mask, MaskPart, NotView, Ptr, Range, Term, tile_index
from .high_rank import CITATION as HIGH_RANK_CITATION, HighRank, refusal as high_rank_refusal
from .tiles import dot
from .cdivs import resolve_as_ceil_div
from .registry import CALLS, Call
from .values import DT, ELEMENT, ArrayRef, BlockPtr, Desc, Moved, ScalarParam
from .source import builds_rank1, descriptor_params, pointer_params

MAX_TILE_RANK = 6  # cutile 0.5.0's variadic tile ops (N = 6)
_BINOPS = {cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//",
           cst.Modulo: "%", cst.BitAnd: "&", cst.BitOr: "|", cst.BitXor: "^", cst.LeftShift: "<<",
           cst.RightShift: ">>"}
_CMP = {cst.LessThan: "lt", cst.LessThanEqual: "le", cst.GreaterThan: "gt", cst.GreaterThanEqual: "ge",
        cst.Equal: "eq", cst.NotEqual: "ne"}
_AUG = {cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*"}
_TL_DTYPES = {"tl.float16": "f16", "tl.bfloat16": "bf16", "tl.float32": "f32", "tl.float64": "f64",
              "tl.int8": "i8", "tl.int16": "i16", "tl.int32": "i32", "tl.int64": "i64", "tl.uint8": "u8", "tl.uint16": "u16",
              "tl.uint32": "u32", "tl.uint64": "u64", "tl.int1": "bool"}


def _descriptor_bases(tf, fn) -> set[str]:
    """Parameters that are the base of a ``tl.make_tensor_descriptor`` (arrays of the port)."""
    out: set[str] = set()

    class V(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if tf.dotted(node.func) == "tl.make_tensor_descriptor":
                base = next((a.value for a in node.args if a.keyword is None or a.keyword.value == "base"), None)
                if isinstance(base, cst.Name):
                    out.add(base.value)

    fn.body.visit(V())
    return out


def unsupported(tf, node, what: str) -> errors.CtrsError:
    return errors.CtrsError(errors.IR_UNSUPPORTED, f"typed-IR Triton front end: {what}",
                            "not in the Triton front end's subset yet (docs/ir.md); ctrs translate --llm asks for "
                            "a call without a rule", tf.loc(node))


class Lowering(Control, Builder):
    """Lowers one ``@triton.jit`` function into an ir.Kernel; ``tl.*`` calls go to the handlers of registry.py."""

    scalars_meet_tiles = True

    def __init__(self, tf, fn: cst.FunctionDef, flat=(), element=ELEMENT, on_unsupported=None):
        super().__init__()
        # (lowering, node, hint) -> a value for a construct without a rule, or None: ctrs translate --llm's hook
        # (llm_fallback/splice.py, llm_hook.py); nothing else passes one
        self.on_unsupported = on_unsupported
        # the arrays' element types: one dtype for all, or array name -> its dtype variable or concrete dtype
        # (element_types.py solves them with the cuTile front end's dtypes.py)
        self.element = element
        self.flat: set[str] = set(flat)  # pointer parameters accessed by gather/scatter (gathers.py): 1-D arrays
        self.tf = tf
        self.fn = fn
        self.env: dict[str, object] = {}
        self.notes: dict[tuple[int, str, str], None] = {}
        self.generics: list[Generic] = []
        self.arrays: dict[str, Value] = {}
        self.dtype_consts: dict[str, cst.Param] = {}  # dtype constexprs lowered as solver variables
        self.dtype_stores: dict[str, str] = {}  # dtype constexpr -> the array a tile of its type is stored into
        self.dtype_casts: dict[int, str] = {}  # value id of a tile cast to a dtype constexpr -> the constexpr
        self.runtime: dict[str, Value] = {}  # scalar parameters used as values
        self.extents: dict[str, tuple] = {}  # scalar parameter -> (array, axis, block shape or None)
        self.strides: dict[str, tuple] = {}  # scalar parameter -> (array, axis)
        self.scaled: dict[Value, tuple] = {}  # i32 value -> (i, block): it is i * block
        self.trank: dict[int, int] = {}  # value id -> its Triton rank where the IR tile has extra leading 1s
        self.origin: dict[int, str] = {}  # value id -> the array parameter a tile was loaded from
        self.skip: set = set()  # statements lowered elsewhere (tl.advance of a loop's block pointer)
        self.cdivs: list = []  # tl.cdiv(n, BLOCK) before the mask that names n's extent (cdiv)
        self.const_exprs: dict = {}  # i32 value id -> the ConstExpr of tl.constexprs it is (frontends/derived.py)
        self.descs = descriptor_params(tf, fn)  # descriptor parameter -> block shape texts
        self.pointers = pointer_params(tf, fn) | set(self.descs) | _descriptor_bases(tf, fn) \
            | pointer_args(tf, fn)
        self.lift_rows = not builds_rank1(tf, fn)
        self.setup_control()

    # -- helpers -----------------------------------------------------------------------------------
    def loc(self, node) -> Loc:
        e = self.tf.loc(node)
        return Loc(e.file, e.line or 0, e.col or 0)

    def err(self, node, what: str) -> errors.CtrsError:
        return unsupported(self.tf, node, what)

    def emit(self, kind: OpKind, operands, result_types, node, hint: str = "", **attrs) -> Op:
        for t in result_types:  # cutile's tile ops stop at rank 6 (errors.TRITON_TILE_RANK)
            if isinstance(t, TileType) and len(t.shape) > MAX_TILE_RANK:
                raise errors.CtrsError(errors.TRITON_TILE_RANK, f"a tile of rank {len(t.shape)} ({t}): "
                                       f"{HIGH_RANK_CITATION}, so the port would not compile",
                                       "split the computation into tiles of rank 6 or less", self.tf.loc(node))
        return super().emit(kind, operands, result_types, node, hint, **attrs)

    def note(self, node, kind: str, text: str) -> None:
        self.notes.setdefault((self.tf.line(node), kind, text), None)

    def dotted(self, node) -> str | None:
        return self.tf.dotted(node)

    def rank_of(self, v: Value) -> int:
        return self.trank.get(v.id, len(getattr(v.type, "shape", ())))

    def shape(self, node) -> tuple:
        v = self.expr(node)
        if not isinstance(v, tuple):
            v = (v,)
        return tuple(self.dim(d, node) for d in v)

    def const_expr_of(self, v: Value):
        return self.const_exprs.get(v.id)

    def dim(self, v, node):
        """A shape dimension: a literal, a tl.constexpr, or an integer expression of tl.constexprs (``HEAD_DIM //
        2``, ``BLOCK_KP * PF``: cutile's shapes take a literal or a const-generic name, so it becomes a derived const
        generic the host computes, frontends/derived.py; Builder.dim)."""
        if isinstance(v, Value) and v.type == ScalarType(I32) and not derived.is_dim_expr(self.const_expr_of(v)):
            raise self.err(node, "a shape dimension must be an integer or a ct.Constant: one computed from "
                           "tl.constexprs has no cutile spelling (shapes take a literal or a const-generic name; "
                           "a derived const generic the host computes is not implemented)")
        return super().dim(v, node)

    # -- parameters ----------------------------------------------------------------------------------
    def array(self, name: str, rank: int, node) -> Value:
        v = self.arrays[name]
        if v.type.rank == 0:
            v.type = ArrayType(v.type.dtype, rank)
        elif v.type.rank != rank and name not in self.flat:  # views of two ranks: a flat array (gathers.py)
            raise FlatNeeded(name, f"'{name}' accessed with rank {rank} and rank {v.type.rank}")
        elif v.type.rank != rank:
            raise self.err(node, f"'{name}' accessed with rank {rank} and rank {v.type.rank}")
        return v

    def bind_extent(self, name: str, arr: str, axis: int, block, node, what: str = "") -> None:
        self.tie(name, "param", arr, axis)
        if name in self.runtime and name not in self.extents:  # used as a value (a loop bound) before the mask:
            v = self.runtime.pop(name)  # the value becomes the extent, read at the kernel's start
            at = self.loc(node)
            if v.type == ScalarType(I32):
                self.top.ops.insert(0, Op(OpKind.ARRAY_DIM, [self.arrays[arr]], [v], {"axis": axis}, at))
            elif v.type == ScalarType(F32):  # an int argument that met a float first: Triton promotes it to f32
                d = Value(ScalarType(I32), name)
                self.top.ops[0:0] = [Op(OpKind.ARRAY_DIM, [self.arrays[arr]], [d], {"axis": axis}, at),
                                     Op(OpKind.CONVERT, [d], [v], {}, at)]
            else:
                raise self.err(node, f"'{name}' is used as a {v.type} value and as the extent {arr}.shape[{axis}]")
        if name not in self.extents:
            self.extents[name] = (arr, axis, block)
            self.note(node, "param", f"'{name}' is the extent {arr}.shape[{axis}]: parameter dropped, read from the "
                      "tensor")

    def drop_stride(self, name: str, arr: str, axis: int, node, why: str) -> None:
        if name in self.runtime and arr not in self.flat:  # a stride read as a value: this access gathers too
            raise FlatNeeded(arr, f"'{name}' is used as a value and as a stride")
        if name in self.runtime:
            raise self.err(node, f"'{name}' is used as a value and as a stride")
        if name not in self.strides:
            self.strides[name] = (arr, axis)
            self.note(node, "param", f"'{name}' is {why}: parameter dropped")

    def desc_param(self, name: str, p) -> Desc:
        """A tensor-descriptor parameter: its block shape comes from the launch code (descriptor_params)."""
        block = self.descs[name]
        if block is None:
            raise self.err(p, f"tensor descriptor parameter '{name}': block shape unknown")
        dims = []
        for b in block:
            v = self.env.get(b) if not b.isdigit() else int(b)
            if not (isinstance(v, Sym) or isinstance(v, int)):
                raise self.err(p, f"tensor descriptor parameter '{name}': block entry '{b}'")
            dims.append(v)
        self.array(name, len(dims), p)
        return Desc(name, tuple(dims))

    def scalar(self, p: ScalarParam, node, like=None) -> Value:
        """A scalar parameter used as a value: an array extent, or a runtime parameter (f32 when it first meets
        a float value, else i32)."""
        if p.name in self.extents:
            arr, axis, _block = self.extents[p.name]
            a = self.arrays[arr]
            return self.emit(OpKind.ARRAY_DIM, [a], [ScalarType(I32)], node, p.name, axis=axis).result
        if p.name in self.strides:
            self.restart_flat(p.name, node, "a value")
        if p.name not in self.runtime:
            floaty = isinstance(like, Value) and (isinstance(like.type.dtype, DType) and like.type.dtype.is_float or
                                                  isinstance(like.type, TileType) and isinstance(like.type.dtype, DTypeParam))
            # a runtime argument meeting a tile of the arrays' element type is a float argument (f32 wins over E)
            self.runtime[p.name] = Value(ScalarType(F32 if floaty or isinstance(like, float) else I32), p.name)
        return self.runtime[p.name]

    def value(self, v, node, like=None):
        """``v`` as an operand of arithmetic: scalar parameters become values; pointers/ranges are refused."""
        if isinstance(v, ScalarParam):
            return self.scalar(v, node, like)
        if isinstance(v, Range):
            return self.range_value(v, node)
        if isinstance(v, Mask):
            return self.mask_value(v, node)
        if isinstance(v, Ptr) and v.base is None:  # an offset expression used as a value (offs * 2, offs + 1 < n)
            return gathers_offsets(self, v, node)
        if isinstance(v, (Ptr, ArrayRef, BlockPtr, DT)):
            raise self.err(node, f"{type(v).__name__.lower()} used as a tile value")
        if isinstance(v, HighRank):  # a reshape to rank > 6 used other than by permute / reshape (high_rank.py)
            raise high_rank_refusal(self, node, f"a tile of rank {len(v.shape)} {v.shape}")
        return v

    def range_value(self, rng: Range, node) -> Value:
        """The lanes of a range as an i32 tile: ``iota`` (+ its block offset), placed on its Triton axis."""
        v = self.emit(OpKind.IOTA, [], [TileType(I32, (rng.size,))], node, "offs", shape=(rng.size,)).result
        if rng.base:
            start = rng.base[0]
            for b in rng.base[1:]:
                start = self.binary("+", start, b, node)
            v = self.binary("+", v, self.binary("*", self.i32(start, node), rng.size, node), node, "offs")
        if rng.ndim >= 2:  # offs[:, None], offs[None, :, None], ...: unit axes around the range's axis
            shape = tuple(rng.size if k == rng.axis else 1 for k in range(rng.ndim))
            v = self.emit(OpKind.RESHAPE, [v], [TileType(I32, shape)], node, "offs", shape=shape).result
        return v

    def mask_value(self, mask: Mask, node) -> Value:
        """``offs < n [& ...]`` as a bool tile (for tl.where; a load/store mask is the view's bounds check)."""
        out = None
        for part in mask.parts:
            bound = self.scalar(ScalarParam(part.bound), node) if part.kind == "param" else Sym(part.bound)
            c = self.compare("lt", self.range_value(part.rng, node), bound, node, "mask")
            if out is not None:
                out, c = self.unify(out, c, node)
                c = self.emit(OpKind.ANDI, [out, c], [c.type], node, "mask").result
            out = c
        return out

    # -- kernel ------------------------------------------------------------------------------------
    def kernel(self) -> Kernel:
        fn = self.fn
        ps = fn.params
        if ps.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or ps.star_kwarg or ps.kwonly_params:
            raise self.err(ps, "*args / **kwargs / keyword-only parameters")
        order = []
        for p in ps.params:
            name = p.name.value
            ann = p.annotation.annotation if p.annotation else None
            if ann is not None and self.dotted(ann) == "tl.constexpr" and name in self.fixed:
                self.env[name] = self.fixed[name]  # a flag fixed by a structural entry (control.py): not a parameter
            elif ann is not None and self.dotted(ann) == "tl.constexpr" and isinstance(self.element, dict) \
                    and name in self.element:
                self.env[name] = DT(self.element[name])  # a dtype variable of the solver (dtype_params.py)
                self.dtype_consts[name] = p
            elif ann is not None and self.dotted(ann) == "tl.constexpr" and defaulted_dtype(self, p) is not None:
                self.env[name] = defaulted_dtype(self, p)  # a dtype default no call passes (dtype_params.py)
            elif ann is not None and self.dotted(ann) == "tl.constexpr":
                self.env[name] = Sym(name)
                order.append((name, "constant", p))
            elif name in self.pointers:
                v = Value(ArrayType(self.element.get(name, ELEMENT) if isinstance(self.element, dict) else self.element,
                                    0), name)
                self.arrays[name] = v
                self.env[name] = ArrayRef(name, v)
                order.append((name, "array", p))
            else:
                if p.default is not None or ann is not None:
                    raise self.err(p, f"parameter '{name}' with a default or an annotation")
                self.env[name] = ScalarParam(name)
                order.append((name, "scalar", p))
        for name, kind, p in order:
            if kind == "array" and name in self.descs:
                self.env[name] = self.desc_param(name, p)
        prescan_block_ptrs(self)
        self.top = self.block
        self.statements(fn.body.body, top=True)
        if self.blockers:  # what follows (parameters never viewed, cdiv bounds) only echoes those blockers
            raise PoisonUse("kernel")
        self.block.ops.append(Op(OpKind.YIELD, [], [], loc=self.loc(fn)))
        self.dtype_consts_tied()
        self.resolve_pending()
        params: list[Param] = []
        for name, kind, p in order:
            if kind == "constant" and name in self.float_consts:  # a float constexpr: runtime f32 (constexprs.py)
                params.append(Param(name, "scalar", self.float_consts[name], self.loc(p)))
            elif kind == "constant":
                params.append(Param(name, "constant", None, self.loc(p)))
            elif kind == "array":
                if self.arrays[name].type.rank == 0:  # never read nor written (an arm folded away): Triton
                    # memory is flat, so the pointer is a 1-D array of the port, as a gathered one is (gathers.py)
                    self.arrays[name].type = ArrayType(self.arrays[name].type.dtype, 1)
                    self.note(p, "param", f"pointer parameter '{name}' is not accessed (in this entry): a 1-D array")
                params.append(Param(name, "array", self.arrays[name], self.loc(p)))
            elif name in self.extents or name in self.strides:
                continue
            else:
                if name not in self.runtime:
                    self.note(p, "param", f"'{name}' is unused after the conversion: kept as a runtime parameter")
                    self.runtime[name] = Value(ScalarType(I32), name)
                params.append(Param(name, "scalar", self.runtime[name], self.loc(p)))
        gens: list[Generic] = []
        gens += array_generics([p for p in params if p.kind == "array"])
        gens += [Generic(p.name, "const", "constant", "tl.constexpr") for p in params if p.kind == "constant"]
        gens += self.generics
        for d in fn.decorators:
            name = self.dotted(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator)
            if name not in ("triton.jit", "jit", "triton.autotune", "triton.heuristics"):
                # a Python wrapper of the launcher (the rewrite path dropped it too): the kernel body is unchanged
                self.note(d, "hint", f"decorator @{name or self.tf.module.code_for_node(d.decorator)} dropped "
                          "(host-side: it wraps the launcher, not the kernel body)")
        return Kernel(fn.name.value, params, gens, self.block, self.loc(fn), {})

    def dtype_consts_tied(self) -> None:
        """A dtype constexpr still a variable no array has: its value is not implied by an array's dtype, so the
        lowering depends on it (an entry per dtype, dtype_params.py)."""
        for name, p in self.dtype_consts.items():
            dt = self.element[name]
            if isinstance(dt, DTypeParam) and tied_array(self, name) is None \
                    and any(a.type.dtype == dt for a in self.arrays.values()):
                raise errors.CtrsError(
                    errors.TRITON_DTYPE_CONSTEXPR_MET, f"'{name}', a tl.constexpr dtype, met an array's tiles "
                    f"({dt}) other than by a cast to it stored into that array: the port cannot take its value from "
                    "the array's dtype, and an entry per dtype of it beside the array's generic is not built yet",
                    "store name.to(D) into the output array, or name the dtype through the array "
                    "(out_ptr.dtype.element_ty)", self.loc(p))
            if isinstance(dt, DTypeParam) and tied_array(self, name) is None:
                e = self.err(p, f"'{name}', a tl.constexpr dtype tied to no array (lowered per dtype)")
                e.__cause__ = irtyping.GenericMeetsConcrete(f"{dt} (the dtype constexpr '{name}') tied to no array",
                                                            (dt,))
                raise e
            self.note(p, "param", f"'{name}' (a tl.constexpr dtype) is "
                      + (f"the element type of array '{tied_array(self, name)}': implied by it, parameter dropped"
                         if tied_array(self, name) else f"{dt} in this entry: parameter dropped"))

    def resolve_pending(self) -> None:
        """Each ``tl.cdiv(n, BLOCK)`` lowered before ``n`` was known: ``n`` must now be the extent of an array axis
        whose views have block ``BLOCK`` there; its placeholder view becomes that view, the count its tiles."""
        for name, b, view_op, tiles_op, node in self.cdivs:
            arr, axis, block = self.extents.get(name, (None, None, None))
            if (arr is None or block is None or block[axis] != b) and resolve_as_ceil_div(self, name, b, view_op,
                                                                                          tiles_op, node):
                continue  # not a tile count: the scalar ceil-division of n's value (cdivs.py)
            if arr is None or block is None or block[axis] != b:
                raise self.err(node, f"tl.cdiv({name}, {b}): '{name}' is not the extent of an axis tiled by {b}")
            a = self.arrays[arr]
            view_op.operands = [a]
            view_op.attrs = {"tile": tuple(block), "padding": "none", "mutable": False}
            view_op.result.type = ViewType(a.type.dtype, tuple(block), "none", False)
            view_op.result.hint = "p" + arr
            tiles_op.attrs = {"axis": axis}

    # -- statements --------------------------------------------------------------------------------
    def body(self, stmts) -> None:
        self.statements(stmts)

    def stmt(self, s) -> None:
        if s in self.skip:
            return
        if self.replaced(s):
            return
        if isinstance(s, cst.SimpleStatementLine):
            for small in s.body:
                self.small(small)
        elif isinstance(s, cst.For):
            self.for_(s)
        elif isinstance(s, cst.While):
            while_(self, s)
        elif not self.control_stmt(s):
            raise self.err(s, f"statement {type(s).__name__}")

    def replaced(self, s) -> bool:
        """Whether a verified answer for a statement (range) replaces ``s`` (``ctrs translate --llm`` only: the
        hook's ``replaces`` binds the names the answer defines, and skips the range's later statements)."""
        replaces = getattr(self.on_unsupported, "replaces", None)
        return bool(replaces is not None and replaces(self, s))

    def small(self, s) -> None:
        if isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Tuple):
            inline_unpack(self, s)  # a, b = helper(...) / a, b = x, y
        elif isinstance(s, cst.Assign):
            if len(s.targets) != 1 or not isinstance(s.targets[0].target, cst.Name):
                raise self.err(s, "assignment to anything but one name")
            name = s.targets[0].target.value
            self.bind(name, self.expr(s.value, hint=name))
        elif isinstance(s, cst.AugAssign) and isinstance(s.target, cst.Name) and type(s.operator) in _AUG:
            name = s.target.value
            if name not in self.env:
                raise self.err(s, f"'{name}' is not defined")
            op = _AUG[type(s.operator)]
            v = s.value
            if op == "+" and isinstance(v, cst.Call) and self.dotted(v.func) == "tl.dot":
                self.bind(name, dot(self, self.call_of(v, name), acc=self.env[name]))
                return
            self.bind(name, self.binop(op, self.env[name], self.expr(v), s, name))
        elif isinstance(s, cst.Expr) and isinstance(s.value, cst.Call):
            self.expr(s.value)
        elif isinstance(s, cst.Pass):
            return
        elif not self.control_small(s):
            raise self.err(s, f"statement {type(s).__name__}")

    def for_(self, s: cst.For) -> None:
        if not isinstance(s.target, cst.Name) or s.orelse is not None:
            raise self.err(s, "for loops other than `for i in range(...)`")
        it = s.iter
        fname = self.dotted(it.func) if isinstance(it, cst.Call) else None
        if fname is None and isinstance(it, cst.Call) and isinstance(it.func, cst.Name):
            fname = it.func.value
        positional = loop_args(self, it) if fname in ("range", "tl.range", "tl.static_range") else None
        if positional is None or not 1 <= len(positional) <= 3:
            raise self.err(it, "for loops other than `for i in range(...)` / tl.range / tl.static_range")
        args = [self.value(self.expr(a.value), a.value) for a in positional]
        if len(args) == 1:
            args = [0, *args]
        if len(args) == 2:
            args.append(1)
        counted = args[0] == 0 and args[2] == 1  # the induction variable counts iterations
        stepped = args[2] if isinstance(args[0], int) and args[0] == 0 and (
            isinstance(args[2], Sym) or isinstance(args[2], int) and not isinstance(args[2], bool) and args[2] > 1) \
            else None  # the induction variable steps by whole blocks of this size
        start, stop, step = (self.i32(a, it) for a in args)
        advances = self.advances(s)
        if advances and not (counted or stepped):
            raise self.err(it, "a pointer advanced in a loop whose range does not start at 0 with step 1")
        carried = self.carried_names(s, assigned_names(s.body) - set(advances))
        init = [self.env[n] for n in carried]
        iv = Value(ScalarType(I32), s.target.value)
        outer_env = dict(self.env)

        def lower_body(args: list[Value]) -> list:
            self.env[s.target.value] = iv
            if stepped:  # `for off in range(0, N, BLOCK)`: off is tile off // BLOCK at a block offset (dce drops it)
                self.scaled[iv] = (self.binop("//", iv, stepped, s, s.target.value + "_t"), stepped)
            it = iv if counted or not advances else self.scaled[iv][0]  # iterations so far (stepped: off // BLOCK)
            for n, (bp, steps) in advances.items():
                if isinstance(bp, BlockPtr):
                    idx = tuple(i if st == 0 else it if (i == 0 and st == 1) else
                                self.binary("+", i, self.binary("*", it, st, s), s) for i, st in zip(bp.index, steps))
                    self.env[n] = BlockPtr(bp.base, idx, bp.block)
                else:  # p += BLOCK * stride: `it` whole blocks on that stride's axis
                    terms = tuple(Term(idx=it if t.block == 1 else self.binary("*", it, t.block, s),
                                         stride=t.stride, tiles=it, block=t.block) for t in steps.terms)
                    self.env[n] = self.as_ptr(bp, s).plus(Ptr(None, terms))
            for n, a in zip(carried, args):
                self.env[n] = a
                if init[carried.index(n)].id in self.trank:
                    self.trank[a.id] = self.trank[init[carried.index(n)].id]
            self.body(s.body.body)
            return self.carried_out(s, carried, init)

        outer_latency = self.__dict__.get("body_latency")
        self.body_latency = self.loop_latency or outer_latency  # num_stages= of this loop (addresses.loop_args)
        try:
            results = self.for_loop(start, stop, step, iv, init, s, lower_body)
        finally:
            self.body_latency = outer_latency
        self.env = outer_env
        for n in advances:
            self.env[n] = Moved(n)
        for n, r, v0 in zip(carried, results, init):
            self.env[n] = r
            if v0.id in self.trank:
                self.trank[r.id] = self.trank[v0.id]

    def carried_names(self, s, assigned: set) -> list[str]:
        """The names a loop (``for`` / ``while`` ``s``) carries: those its body re-binds that hold a Value before it
        (a number it re-binds becomes the scalar tensor Triton's to_tensor makes of it)."""
        for n in sorted(assigned):
            x = self.env.get(n)
            if isinstance(x, (bool, int, float)) and _to_tensor_dtype(x) is not None:
                # a number the loop re-binds (`m_end = 0` then `m_end = m_start + m_size`): Triton's loop carries
                # it as the scalar tensor to_tensor makes of it (i1 / i32 / f32), the body's value must match
                self.env[n] = self.const(x, _to_tensor_dtype(x), s, None, n)
                self.note(s, "control", f"'{n}' = {x!r} re-bound in the loop body: carried as a "
                          f"{_to_tensor_dtype(x)} scalar (Triton's to_tensor)")
            elif isinstance(x, Desc) and body_local_desc(self, s, n):
                continue  # re-made in the body before any use there, unused after the loop (descriptors.py)
            elif n in self.env and not isinstance(self.env[n], (Value, Poison)):
                raise self.err(s, f"'{n}' (a {type(self.env[n]).__name__}) is re-bound in the loop body")
        return [n for n in sorted(assigned) if isinstance(self.env.get(n), Value)]

    def carried_out(self, s, carried: list[str], init: list[Value]) -> list:
        """The values a loop body yields for its ``carried`` names (``init`` their values before the loop)."""
        out = [live(self.env[n]) for n in carried]
        # a Triton scalar is a 0-d tensor: a 0-d tile the body makes of a carried scalar (`m_end = m_start +
        # m_size`, m_size loaded) is that scalar
        return [self.scalar_0d(v, s) if isinstance(v, Value) and isinstance(v.type, TileType) and v.type.shape == ()
                and isinstance(i.type, ScalarType) and v.type.dtype == i.type.dtype else v
                for v, i in zip(out, init)]

    def advances(self, s: cst.For) -> dict:
        """Block pointers the loop body advances by whole blocks as its last use (``p = tl.advance(p, (0, TK))``):
        name -> (block pointer at loop entry, tile steps per iteration). In the body the pointer is its entry
        tile index plus the induction variable times the step; the advance statements are skipped."""
        out: dict = {}
        stmts = list(s.body.body)
        for i, st in enumerate(stmts):
            small = st.body[0] if isinstance(st, cst.SimpleStatementLine) and len(st.body) == 1 else None
            guard = flag_guarded(self, st)  # `if not USE_TMA: p += BLOCK`: an advance under a constexpr flag test
            if guard is not None:
                small = guard.body.body[0].body[0]
            if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name) \
                    and isinstance(self.env.get(small.target.value), (Ptr, ArrayRef)):
                n = small.target.value
                if guard is not None and not only_under(stmts, st, n, guard.test):
                    raise self.err(small, f"'{n}' moved under a tl.constexpr test and used outside such a test: "
                                   "its moved value would be wrong when the test fails")
                step = self.expr(small.value) if isinstance(small.operator, cst.AddAssign) else None
                if isinstance(step, Sym) or isinstance(step, int) and not isinstance(step, bool) and step > 0:
                    step = Ptr(None, (Term(idx=step, tiles=1, block=step),))  # p += BLOCK: a block on unit stride
                if not set(_names([small.value])) & assigned_names(s.body):  # a step the loop does not re-bind
                    step = scalar_step(step)  # p += BLOCK * K, a runtime scalar step (addresses.py)
                if not (isinstance(step, Ptr) and step.base is None and step.terms
                        and all(t.rng is None and t.tiles == 1 and (t.stride or t.block == t.idx) for t in step.terms)) \
                        or n in out:
                    raise self.err(small, "a pointer moved in a loop by other than `p += BLOCK * stride`")
                if any(tok == n for tok in _names(stmts[i + 1:])):
                    raise self.err(small, f"'{n}' used after it is moved in the loop body")
                out[n] = (self.env[n], step)
                self.skip.add(st)
                continue
            if not (isinstance(small, cst.Assign) and len(small.targets) == 1
                    and isinstance(small.targets[0].target, cst.Name) and isinstance(small.value, cst.Call)
                    and self.dotted(small.value.func) == "tl.advance"):
                continue
            n = small.targets[0].target.value
            args = [a.value for a in small.value.args]
            bp = self.env.get(n)
            if not (isinstance(bp, BlockPtr) and len(args) == 2 and isinstance(args[0], cst.Name)
                    and args[0].value == n and isinstance(args[1], (cst.Tuple, cst.List))
                    and len(args[1].elements) == len(bp.block) and n not in out):
                raise self.err(small, "tl.advance other than `p = tl.advance(p, (offsets))` of a block pointer")
            if any(tok == n for tok in _names(stmts[i + 1:])):
                raise self.err(small, f"'{n}' used after it is advanced in the loop body")
            steps = []
            for e, b in zip(args[1].elements, bp.block):
                try:
                    steps.append(tile_index(self.value(self.expr(e.value), e.value), b, self.scaled))
                except NotView as err:
                    raise self.err(e.value, err.why) from None
            out[n] = (bp, tuple(steps))
            self.skip.add(st)
        return out

    # -- expressions -------------------------------------------------------------------------------
    def expr(self, node, hint: str = ""):
        if isinstance(node, cst.Name):
            if isinstance(self.env.get(node.value), Moved):
                raise self.err(node, f"block pointer '{node.value}' used after the loop that advances it")
            if node.value in self.env or node.value in self.one_armed:
                return self.lookup(node)
            if node.value in ("True", "False"):
                return node.value == "True"
            g = global_value(self, node)  # a module constant (Triton folds globals)
            if g is not None:
                return g
            raise unbound_name(self, node) or self.err(node, f"name '{node.value}'")
        if isinstance(node, (cst.Integer, cst.Float, cst.Tuple, cst.List)):
            return self.display(node)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            v = self.expr(node.expression)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return -v
            v = self.value(v, node)
            if isinstance(v, Value) and isinstance(v.type, TileType) and isinstance(v.type.dtype, DType) \
                    and v.type.dtype.is_float:
                return self.keep_rank(self.emit(OpKind.NEGF, [v], [v.type], node, hint).result, v)
            if isinstance(v, (Value, Sym)):  # ints, scalars: negi / negf (builder.unary, cuTile Python's lowering)
                r = self.unary("-", v, node, hint)
                return self.keep_rank(r, v) if isinstance(r, Value) and isinstance(v, Value) else r
            raise self.err(node, "unary minus on a non-float value")
        if isinstance(node, cst.BinaryOperation) and type(node.operator) in _BINOPS:
            return self.binop(_BINOPS[type(node.operator)], self.expr(node.left), self.expr(node.right), node, hint)
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            return self.comparison(node)
        if isinstance(node, cst.Attribute):
            return self.attribute(node)
        if isinstance(node, cst.Subscript):
            return self.subscript(node)
        if isinstance(node, cst.Call):
            return self.call(node, hint)
        if isinstance(node, cst.IfExp):
            return if_expr(self, node, hint)
        raise self.err(node, f"expression {type(node).__name__}")

    def keep_rank(self, r: Value, *srcs) -> Value:
        """``r`` (an elementwise result) keeps the highest Triton rank of its operands where it differs."""
        ranks = [self.rank_of(s) for s in srcs if isinstance(s, Value)]
        if ranks and isinstance(r.type, TileType) and max(ranks) != len(r.type.shape):
            self.trank[r.id] = max(ranks)
        return r

    def binop(self, op: str, a, b, node, hint: str = ""):
        if op == "+" and any(isinstance(x, (Ptr, Range, ArrayRef)) for x in (a, b)):
            return self.offset_sum(a, b, node)
        if op == "-" and is_pointer(a):  # p - k: p + (-k) (addresses.py)
            return pointer_minus(self, a, b, node)
        if op == "*":
            for x, y in ((a, b), (b, a)):
                if isinstance(y, ScalarParam) and (isinstance(x, Sym) or isinstance(x, int) and not isinstance(x, bool)):
                    return Ptr(None, (Term(idx=x, stride=y.name, tiles=1, block=x),))  # BLOCK * stride
                if isinstance(y, ScalarParam) and isinstance(x, Range):
                    return Ptr(None, (Term(rng=x, stride=y.name),))
                if isinstance(y, ScalarParam) and isinstance(x, Value) and x.type == ScalarType(I32):
                    return Ptr(None, (Term(idx=x, stride=y.name),))
        if op == "&" and isinstance(a, Mask) and isinstance(b, Mask):
            return Mask(a.parts + b.parts)
        a, b = flags_as_bools(self, op, a, b, node)  # mask | FLAG (masks.py)
        if op in ("&", "|") and any(isinstance(x, Mask) for x in (a, b)):  # a mask with any other predicate
            a, b = (self.value(x, node) for x in (a, b))
        if isinstance(a, Sym) and floaty(b):  # a constexpr meeting a float (constexprs.py)
            a = as_float(self, a, node)
        if isinstance(b, Sym) and floaty(a):
            b = as_float(self, b, node)
        a2 = self.value(a, node, like=b)
        b2 = self.value(b, node, like=a2)
        r = self.binary(op, a2, b2, node, hint)
        if isinstance(r, Value):
            derived.remember(self.const_exprs, op, a, b, r)  # a constexpr expression (a derived shape dimension)
            self.keep_rank(r, a2, b2)
            if op == "*" and r.type == ScalarType(I32):
                for x, y in ((a, b), (b, a)):
                    if isinstance(x, Value) and isinstance(y, (Sym, int)) and not isinstance(y, bool):
                        self.scaled[r] = (x, y)
        return r

    def offset_sum(self, a, b, node):
        """``+`` with a pointer, a pointer parameter or a range: a pointer expression (or a shifted range)."""
        for x, y in ((a, b), (b, a)):
            if isinstance(x, Range) and isinstance(y, Value) and y in self.scaled and self.scaled[y][1] == x.size:
                return x.shifted(self.scaled[y][0])
        try:
            return self.as_ptr(a, node).plus(self.as_ptr(b, node))
        except NotView as e:
            raise self.err(node, e.why) from None

    def as_ptr(self, x, node) -> Ptr:
        if isinstance(x, Ptr):
            return x
        if isinstance(x, ArrayRef):
            return Ptr(x.name)
        if isinstance(x, Range):
            return Ptr(None, (Term(rng=x),))
        if isinstance(x, Value) and x.type == ScalarType(I32):
            t, blk = self.scaled.get(x, (None, None))
            return Ptr(None, (Term(idx=x, tiles=t, block=blk),))
        if isinstance(x, Value) and isinstance(x.type, (TileType, ScalarType)) and isinstance(x.type.dtype, DType) \
                and x.type.dtype.kind in ("int", "uint"):
            return Ptr(None, (Term(idx=x, lanes=True),))  # offsets computed per lane (a gather/scatter)
        if isinstance(x, Value) and isinstance(x.type, TileType) and isinstance(x.type.dtype, DTypeParam):
            raise offsets_of_variable(self, x, node)  # an index array's tile: lowered once per integer dtype
        if isinstance(x, Sym):
            return Ptr(None, (Term(idx=self.i32(x, node)),))
        if isinstance(x, ScalarParam) and x.name not in self.strides:  # p + off: a runtime offset parameter
            return Ptr(None, (Term(idx=self.scalar(x, node)),))
        if isinstance(x, int) and not isinstance(x, bool):
            return Ptr(None, (Term(idx=x),) if x else ())
        raise self.err(node, f"'{type(x).__name__}' added to a pointer")

    def comparison(self, node: cst.Comparison):
        c = node.comparisons[0]
        left = self.expr(node.left)
        if isinstance(left, Range):
            if not isinstance(c.operator, cst.LessThan) or type(c.operator) not in _CMP:
                return self.predicate(node)
            cmp = c.comparator
            if isinstance(cmp, cst.BinaryOperation) and isinstance(cmp.operator, cst.Subtract):
                bound, shift = self.expr(cmp.left), self.expr(cmp.right)  # offs < K - k * BLOCK: offs + k * BLOCK < K
                kind = "param" if isinstance(bound, ScalarParam) else "const" if isinstance(bound, Sym) else None
                if kind and isinstance(shift, Value) and shift in self.scaled and self.scaled[shift][1] == left.size:
                    return Mask((MaskPart(left.shifted(self.scaled[shift][0]), bound.name, kind),))
                return self.predicate(node)
            right = self.expr(cmp)
            if isinstance(right, ScalarParam):
                return Mask((MaskPart(left, right.name, "param"),))
            if isinstance(right, Sym):
                return Mask((MaskPart(left, right.name, "const"),))
            return self.predicate(node)
        pred = _CMP.get(type(c.operator))
        if pred is None:
            raise self.err(node, f"comparison {type(c.operator).__name__}")
        right = self.expr(c.comparator)
        if isinstance(left, DT) and isinstance(right, DT) and pred in ("eq", "ne"):
            return self.dtype_test(pred, left, right, node)
        a = self.value(left, node.left, like=right)
        b = self.value(right, c.comparator, like=a)
        return self.keep_rank(self.compare(pred, a, b, node), a, b)

    def dtype_test(self, pred: str, a: DT, b: DT, node) -> bool:
        """``C.dtype.element_ty == tl.bfloat16``: a translate-time bool; of an array's dtype variable, the kernel
        is lowered once per element type (each entry folds the test)."""
        for x, y in ((a, b), (b, a)):
            if isinstance(x.dtype, DTypeParam) and x.dtype != y.dtype:
                e = self.err(node, f"a dtype test of the array element type {x.dtype} (lowered per element type)")
                e.__cause__ = irtyping.GenericMeetsConcrete(f"{x.dtype} compared with {y.dtype}", (x.dtype,),
                                                             y.dtype if isinstance(y.dtype, DType) else None)
                raise e
        return (a.dtype == b.dtype) == (pred == "eq")

    def predicate(self, node: cst.Comparison) -> Value:
        """A comparison of offsets that is not a view's bound (``offs >= lo``, ``offs < HI + tl.minimum(..)``,
        ``offs < n`` after ``n`` was used as a value): a bool tile (a gather/scatter mask, a tl.where condition)."""
        c = node.comparisons[0]
        pred = _CMP[type(c.operator)]
        left, right = self.expr(node.left), self.expr(c.comparator)
        a = self.value(left, node.left, like=right)
        b = self.value(right, c.comparator, like=a)
        return self.keep_rank(self.compare(pred, a, b, node), a, b)

    def stride_value(self, name: str, node) -> Value:
        """A stride parameter of a flat array's offsets: a runtime i32 parameter of the port."""
        if name in self.strides:  # the view that dropped it gathers too: the stride stays a runtime value
            self.restart_flat(name, node, "a gather offset's stride")
        return self.scalar(ScalarParam(name), node)

    def restart_flat(self, name: str, node, why: str) -> None:
        """Stride parameter ``name`` is needed as a value (Triton passes it as a scalar), but a partition view
        dropped it: that view's array is accessed flat (gathers.py), lowering restarts, the stride stays a
        runtime parameter. A stride of an array already flat has no view to give up: refused."""
        arr = self.strides[name][0]
        if arr in self.flat:
            raise self.err(node, f"'{name}' is a view's dropped stride and {why}")
        raise FlatNeeded(arr, f"'{name}' is the view's stride and {why}")

    def subscript(self, node: cst.Subscript):
        v = self.expr(node.value)
        kinds = slice_kinds(node)
        if kinds is None:
            raise self.err(node, "subscripts other than [:, None] / [None, :]")
        if isinstance(v, (Range, Mask)):
            if kinds.count(":") != 1 or (isinstance(v, Range) and v.ndim != 1) or (
                    isinstance(v, Mask) and any(p.rng.ndim != 1 for p in v.parts)):
                raise self.err(node, "subscript of offsets other than [:, None] / [None, :] of 1-D offsets")
            return v.placed(kinds.index(":"), len(kinds))
        v = self.value(v, node.value)
        if isinstance(v, Value) and isinstance(v.type, TileType) and kinds.count(":") == len(v.type.shape) \
                and self.rank_of(v) == len(v.type.shape):
            dims = iter(v.type.shape)
            shape = tuple(next(dims) if k == ":" else 1 for k in kinds)
            return self.emit(OpKind.RESHAPE, [v], [TileType(v.type.dtype, shape)], node, (v.hint or "t") + "_x",
                             shape=shape).result
        if isinstance(v, Value) and isinstance(v.type, TileType) and kinds.count(":") == self.rank_of(v) \
                and all(d == 1 for d in v.type.shape[:len(v.type.shape) - self.rank_of(v)]):
            # a row kept as a (1, N) tile (Triton rank 1): its Triton dims are the trailing ones
            dims = iter(v.type.shape[len(v.type.shape) - self.rank_of(v):])
            shape = tuple(next(dims) if k == ":" else 1 for k in kinds)
            return self.emit(OpKind.RESHAPE, [v], [TileType(v.type.dtype, shape)], node, (v.hint or "t") + "_x",
                             shape=shape).result
        raise self.err(node, "subscript of a tile other than [:, None] / [None, :]")

    def attribute(self, node: cst.Attribute):
        d = self.dotted(node)
        if d in _TL_DTYPES:
            return DT(DTYPES[_TL_DTYPES[d]])
        if d and d.endswith(".type.block_type.element_ty") and isinstance(self.env.get(d.split(".")[0]), Desc):
            return DT(self.arrays[self.env[d.split(".")[0]].base].type.dtype)  # a descriptor's element type
        if isinstance(node.value, cst.Attribute) and node.attr.value == "element_ty" \
                and node.value.attr.value == "dtype" and isinstance(node.value.value, cst.Name):
            a = self.env.get(node.value.value.value)
            if isinstance(a, ArrayRef):
                return DT(a.value.type.dtype)
            if isinstance(a, Ptr) and a.base is not None:  # a moved pointer (`Y += row * stride`): its array's
                return DT(self.arrays[a.base].type.dtype)
        if node.attr.value == "dtype" and isinstance(node.value, cst.Name):
            a = self.env.get(node.value.value)
            if isinstance(a, Value) and isinstance(a.type, TileType):
                return DT(a.type.dtype)
            if isinstance(a, Desc):
                return DT(self.arrays[a.base].type.dtype)
        if node.attr.value in ("shape", "numel") and isinstance(node.value, cst.Name) \
                and isinstance(self.env.get(node.value.value), Value) \
                and isinstance(self.env[node.value.value].type, TileType):  # x.shape / x.numel: compile-time ints
            v = self.env[node.value.value]
            dims = tuple(v.type.shape[len(v.type.shape) - self.rank_of(v):])
            if all(isinstance(x, int) for x in dims):
                return dims if node.attr.value == "shape" else math.prod(dims)
            if node.attr.value == "shape":
                return dims
            e = derived.as_const({}, 1)
            for x in dims:  # a product of const generics: a derived one the host computes (derived.py)
                e = ConstExpr.binary("*", e, derived.as_const({}, x))
            return derived.derived_generic(self, e, node)
        if node.attr.value == "T" and not (d or "").startswith("tl."):
            return CALLS["tl.trans"](self, Call(node, "tl.trans", [node.value], {}, ""))  # x.T: Triton's trans
        raise self.err(node, f"attribute '{d or node.attr.value}'")

    # -- calls -------------------------------------------------------------------------------------
    def call_of(self, node: cst.Call, hint: str) -> Call:
        pos = [a.value for a in node.args if a.keyword is None]
        kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        return Call(node, self.dotted(node.func) or "", pos, kw, hint)

    def call(self, node: cst.Call, hint: str):
        fn = self.dotted(node.func)
        f = node.func
        if isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.value.value in self.one_armed \
                and f.value.value not in self.env:
            self.lookup(f.value)  # a descriptor made in one arm of a constexpr if: lowered per flag value
        if isinstance(f, cst.Attribute) and f.attr.value in ("load", "store") and isinstance(f.value, cst.Call) \
                and self.dotted(f.value.func) == "tl.make_tensor_descriptor":  # tl.make_tensor_descriptor(..).load
            d = self.expr(f.value, hint)
            c = self.call_of(node, hint)
            tmp = f"_ctrs_desc_{id(node)}"
            self.env[tmp] = d
            try:
                return CALLS[".desc_" + f.attr.value](self, Call(node, "." + f.attr.value, [cst.Name(tmp), *c.pos],
                                                                 c.kw, hint))
            finally:
                self.env.pop(tmp, None)
        if isinstance(f, cst.Attribute) and f.attr.value in ("load", "store") and isinstance(f.value, cst.Name) \
                and isinstance(self.env.get(f.value.value), Desc):
            c = self.call_of(node, hint)
            return CALLS[".desc_" + f.attr.value](self, Call(node, "." + f.attr.value, [f.value, *c.pos], c.kw, hint))
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "to" and not (fn or "").startswith("tl."):
            return CALLS[".to"](self, Call(node, ".to", [node.func.value] + [a.value for a in node.args
                                                                              if a.keyword is None],
                                           {a.keyword.value: a.value for a in node.args if a.keyword}, hint))
        if isinstance(f, cst.Attribute) and not (fn or "").startswith("tl.") and "." + f.attr.value in CALLS:
            c = self.call_of(node, hint)  # a tile method (t.reshape(..)): its handler, the tile first
            return CALLS["." + f.attr.value](self, Call(node, "." + f.attr.value, [f.value, *c.pos], c.kw, hint))
        if isinstance(node.func, cst.Name) and node.func.value in ("float", "min", "max") \
                and node.func.value not in self.env:
            fn = node.func.value
        if isinstance(node.func, cst.Name) and node.func.value not in self.env:
            helper = helper_def(self, node.func.value)
            if helper is not None:  # a @triton.jit helper of the file: inlined (inline.py)
                return inline_helper(self, helper, self.call_of(node, hint))
            alias = imported_alias(self, node.func.value)
            if alias is not None and alias in CALLS:  # from .utils import triton_tanh (= libdevice.tanh)
                c = self.call_of(node, hint)
                return CALLS[alias](self, Call(node, alias, c.pos, c.kw, hint))
        handler = CALLS.get(fn or "")
        if handler is None or self.on_unsupported is not None:
            return llm_hook_call(self, handler, node, hint, fn)
        return handler(self, self.call_of(node, hint))

