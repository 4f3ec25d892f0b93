"""cuTile Python -> typed tile IR, directly from libcst nodes (no Rust text anywhere).

Every ``@ct.kernel`` of a file becomes an :class:`ir.Kernel`: arrays are ``array<E>`` values of one dtype
parameter ``E``, ``ct.Constant[int]`` parameters are const-generic symbols (usable in shapes and as i32
values), Python numbers stay compile-time constants until they meet a tile (ir/typing.py), ``for .. in
range(start, stop, step)`` is a structured ``for`` whose loop-carried values are the names it re-binds,
and ``X if A.dtype == ct.float32 else A.dtype`` is a :class:`ir.DTypeChoice` resolved by the specialise
pass. A construct outside this subset raises CTRS-E124 (``IR_UNSUPPORTED``): the caller then takes the
file through the older text-model front end (transpiler/frontend_cutile.py).
"""

from __future__ import annotations

import libcst as cst

from .. import errors, ir
from ..ir_rules import ir_rules
from ..cutile_base import _is_docstring, assigned_names
from ..ir import typing as irtyping
from ..ir.ops import Block, Generic, Kernel, Op, OpKind, Param
from ..ir.types import (BOOL, I32, ArrayType, DType, DTypeChoice, DTypeLike, DTypeParam, PY_DTYPES,
                        ScalarType, Sym, TileType, ViewType)
from ..ir.values import Loc, Value

ELEMENT = DTypeParam("E")
_PADDING = {"ZERO": "zero", "NEG_INF": "neg_inf", "NAN": "nan", "UNDETERMINED": "none"}
_BINOPS = {cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//",
           cst.Modulo: "%"}
_FLOAT_KIND = {"+": OpKind.ADDF, "-": OpKind.SUBF, "*": OpKind.MULF, "/": OpKind.DIVF}
_INT_KIND = {"+": OpKind.ADDI, "-": OpKind.SUBI, "*": OpKind.MULI}
_FN_BINOPS = {"ct.add": "+", "ct.sub": "-", "ct.mul": "*", "ct.truediv": "/"}
_REDUCE = {"ct.sum": OpKind.REDUCE_SUM, "ct.max": OpKind.REDUCE_MAX, "ct.min": OpKind.REDUCE_MIN}


class DT:
    """A compile-time dtype value in the environment (``A.dtype``, ``ct.float32``, a dtype choice)."""

    def __init__(self, dtype: DTypeLike):
        self.dtype = dtype


class ArrayRef:
    def __init__(self, name: str, value: Value):
        self.name = name
        self.value = value


def unsupported(info, node, what: str) -> errors.CtrsError:
    return errors.CtrsError(errors.IR_UNSUPPORTED, f"typed-IR front end: {what}",
                            "the file goes through the text-model front end", info.loc(node))


class Lowering:
    """Lowers one ``@ct.kernel`` function into an ir.Kernel."""

    def __init__(self, info, fn: cst.FunctionDef):
        self.info = info
        self.fn = fn
        self.block = Block()
        self.env: dict[str, object] = {}
        self.generics: list[Generic] = []
        self.params: list[Param] = []
        self.flags: dict[str, str] = {}

    # -- helpers -----------------------------------------------------------------------------------
    def loc(self, node) -> Loc:
        s = self.info.span(node)
        return Loc(str(self.info.path), s.line, s.col)

    def err(self, node, what: str) -> errors.CtrsError:
        return unsupported(self.info, node, what)

    def emit(self, kind: OpKind, operands, result_types, node, hint: str = "", **attrs) -> Op:
        results = [Value(t, hint) for t in result_types]
        op = Op(kind, list(operands), results, attrs, self.loc(node))
        self.block.ops.append(op)
        return op

    def const(self, value, dtype: DType, node, shape=None, hint: str = "c") -> Value:
        t = ScalarType(dtype) if shape is None else TileType(dtype, tuple(shape))
        if isinstance(dtype, DType) and dtype.is_float:
            value = float(value)
        elif isinstance(dtype, DType) and dtype != BOOL:
            value = int(value)
        return self.emit(OpKind.CONSTANT, [], [t], node, hint, value=value).result

    def i32(self, v, node) -> Value:
        """An index / loop bound: an i32 Value (Python ints and const symbols become constants)."""
        if isinstance(v, Value) and v.type == ScalarType(I32):
            return v
        if isinstance(v, int) and not isinstance(v, bool):
            return self.const(v, I32, node)
        if isinstance(v, Sym):
            return self.emit(OpKind.CONST_SYM, [], [ScalarType(I32)], node, v.name.lower(), sym=v.name).result
        raise self.err(node, "an index / loop bound must be an i32 value")

    def dim(self, v, node):
        if isinstance(v, Sym) or (isinstance(v, int) and not isinstance(v, bool)):
            return v
        raise self.err(node, "a shape dimension must be an integer or a ct.Constant")

    def shape(self, node) -> tuple:
        v = self.expr(node)
        if not isinstance(v, tuple):
            v = (v,)
        return tuple(self.dim(d, node) for d in v)

    # -- kernel ------------------------------------------------------------------------------------
    def kernel(self) -> Kernel:
        fn = self.fn
        ranks = self._array_ranks()
        for p in fn.params.params:
            name = p.name.value
            ann = p.annotation
            if ann is not None:
                kind = self._const_kind(ann.annotation)
                if kind != "int":
                    raise self.err(p, f"parameter '{name}': only ct.Constant[int] annotations")
                self.env[name] = Sym(name)
                self.params.append(Param(name, "constant", None, self.loc(p)))
                continue
            if name not in ranks:
                raise self.err(p, f"parameter '{name}': only arrays read by ct.load/ct.store/ct.num_tiles")
            v = Value(ArrayType(ELEMENT, ranks[name]), name)
            self.env[name] = ArrayRef(name, v)
            self.params.append(Param(name, "array", v, self.loc(p)))
        if fn.params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or fn.params.kwonly_params:
            raise self.err(fn, "*args / keyword-only parameters")
        self.body(fn.body.body)
        self.block.ops.append(Op(OpKind.YIELD, [], [], loc=self.loc(fn)))
        gens: list[Generic] = []
        if any(p.kind == "array" for p in self.params):
            gens.append(Generic("E", "type", "array_dtype", "element type of every array"))
        gens += [Generic(p.name, "const", "constant", "ct.Constant") for p in self.params if p.kind == "constant"]
        gens += self.generics
        hints = self._hints()
        return Kernel(fn.name.value, self.params, gens, self.block, self.loc(fn), hints)

    def _hints(self) -> dict:
        for d in self.fn.decorators:
            if isinstance(d.decorator, cst.Call):
                raise self.err(d, "@ct.kernel(...) options")
        return {}

    def _const_kind(self, ann) -> str | None:
        if isinstance(ann, cst.Name) and ann.value in self.info.const_aliases:
            return self.info.const_aliases[ann.value]
        if isinstance(ann, cst.Subscript) and self.info.dotted(ann.value) == "ct.Constant" and len(ann.slice) == 1:
            inner = ann.slice[0].slice
            if isinstance(inner, cst.Index) and isinstance(inner.value, cst.Name):
                return inner.value.value
        return None

    def _array_ranks(self) -> dict[str, int]:
        """Rank of each array parameter, from the index / shape tuples of the calls that take it."""
        ranks: dict[str, int] = {}
        lowering = self

        class V(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                fn = lowering.info.dotted(node.func)
                if fn not in ("ct.load", "ct.store", "ct.num_tiles") or not node.args:
                    return
                a = node.args[0].value
                kw = {x.keyword.value: x.value for x in node.args if x.keyword is not None}
                tup = kw.get("index") if fn != "ct.num_tiles" else kw.get("shape")
                if isinstance(a, cst.Name) and isinstance(tup, cst.Tuple):
                    ranks.setdefault(a.value, len(tup.elements))

        self.fn.body.visit(V())
        return ranks

    # -- statements --------------------------------------------------------------------------------
    def body(self, stmts) -> None:
        for i, s in enumerate(stmts):
            if i == 0 and _is_docstring(s):
                continue
            self.stmt(s)

    def stmt(self, s) -> None:
        self.info.fallback = self.info.span(s)
        if isinstance(s, cst.SimpleStatementLine):
            for small in s.body:
                self.small(small)
        elif isinstance(s, cst.For):
            self.for_(s)
        else:
            raise self.err(s, f"statement {type(s).__name__}")

    def small(self, s) -> None:
        if isinstance(s, cst.Assign):
            if len(s.targets) != 1 or not isinstance(s.targets[0].target, cst.Name):
                raise self.err(s, "assignment to anything but one name")
            self.bind(s.targets[0].target.value, self.expr(s.value, hint=s.targets[0].target.value))
        elif isinstance(s, cst.AugAssign) and isinstance(s.target, cst.Name) and type(s.operator) in {
                cst.AddAssign: 1, cst.SubtractAssign: 1, cst.MultiplyAssign: 1}:
            op = {cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*"}[type(s.operator)]
            name = s.target.value
            if name not in self.env:
                raise self.err(s, f"'{name}' is not defined")
            self.bind(name, self.binary(op, self.env[name], self.expr(s.value), s, name))
        elif isinstance(s, cst.Expr) and isinstance(s.value, cst.Call):
            self.expr(s.value)
        elif isinstance(s, cst.Pass):
            return
        else:
            raise self.err(s, f"statement {type(s).__name__}")

    def bind(self, name: str, v) -> None:
        if isinstance(v, Value) and not v.hint:
            v.hint = name
        self.env[name] = v

    def for_(self, s: cst.For) -> None:
        if not isinstance(s.target, cst.Name) or s.orelse is not None:
            raise self.err(s, "for loops other than `for i in range(...)`")
        it = s.iter
        if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range"
                and 1 <= len(it.args) <= 3 and all(a.keyword is None for a in it.args)):
            raise self.err(it, "for loops other than `for i in range(...)`")
        args = [self.expr(a.value) for a in it.args]
        if len(args) == 1:
            args = [0, *args]
        if len(args) == 2:
            args.append(1)
        start, stop, step = (self.i32(a, it) for a in args)
        assigned = assigned_names(s.body)
        carried = [n for n in sorted(assigned) if isinstance(self.env.get(n), Value)]
        init = [self.env[n] for n in carried]
        iv = Value(ScalarType(I32), s.target.value)
        args_v = [Value(v.type, n) for n, v in zip(carried, init)]
        body = Block([iv, *args_v])
        outer_block, outer_env = self.block, dict(self.env)
        self.block = body
        self.env[s.target.value] = iv
        for n, a in zip(carried, args_v):
            self.env[n] = a
        self.body(s.body.body)
        ys = []
        for n, a in zip(carried, args_v):
            y = self.env[n]
            if not isinstance(y, Value) or y.type != a.type:
                raise self.err(s, f"'{n}' changes type in the loop body")
            ys.append(y)
        body.ops.append(Op(OpKind.YIELD, ys, [], loc=self.loc(s)))
        self.block, self.env = outer_block, outer_env
        results = [Value(a.type, n) for n, a in zip(carried, args_v)]
        self.block.ops.append(Op(OpKind.FOR, [start, stop, step, *init], results, {}, self.loc(s), [body]))
        for n, r in zip(carried, results):
            self.env[n] = r

    # -- expressions -------------------------------------------------------------------------------
    def expr(self, node, hint: str = ""):
        if isinstance(node, cst.Name):
            if node.value in self.env:
                return self.env[node.value]
            if node.value in self.info.consts:
                return self.info.consts[node.value]
            if node.value in ("True", "False"):
                return node.value == "True"
            raise self.err(node, f"name '{node.value}'")
        if isinstance(node, cst.Integer):
            return int(node.value, 0)
        if isinstance(node, cst.Float):
            return float(node.value)
        if isinstance(node, (cst.Tuple, cst.List)):
            return tuple(self.expr(e.value) for e in node.elements)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            v = self.expr(node.expression)
            if isinstance(v, (int, float)):
                return -v
            raise self.err(node, "unary minus on a tile")
        if isinstance(node, cst.BinaryOperation) and type(node.operator) in _BINOPS:
            return self.binary(_BINOPS[type(node.operator)], self.expr(node.left), self.expr(node.right), node, hint)
        if isinstance(node, cst.Attribute):
            return self.attribute(node)
        if isinstance(node, cst.IfExp):
            return self.dtype_choice(node)
        if isinstance(node, cst.Call):
            return self.call(node, hint)
        raise self.err(node, f"expression {type(node).__name__}")

    def attribute(self, node: cst.Attribute):
        d = self.info.dotted(node)
        if d and d.startswith("ct.") and d[3:] in PY_DTYPES:
            return DT(PY_DTYPES[d[3:]])
        if isinstance(node.value, cst.Name) and node.attr.value == "dtype":
            a = self.env.get(node.value.value)
            if isinstance(a, ArrayRef):
                return DT(a.value.type.dtype)
            if isinstance(a, Value) and isinstance(a.type, (TileType, ScalarType)):
                return DT(a.type.dtype)
        raise self.err(node, f"attribute '{d or node.attr.value}'")

    def dtype_choice(self, node: cst.IfExp):
        """``X if A.dtype == ct.<dt> else A.dtype`` -> a DTypeChoice on a host-computed const flag."""
        t = node.test
        if not (isinstance(t, cst.Comparison) and len(t.comparisons) == 1
                and isinstance(t.comparisons[0].operator, cst.Equal)):
            raise self.err(node, "conditional expressions other than a dtype test")
        lhs, rhs = self.expr(t.left), self.expr(t.comparisons[0].comparator)
        then, other = self.expr(node.body), self.expr(node.orelse)
        if not all(isinstance(x, DT) for x in (lhs, rhs, then, other)) or not isinstance(lhs.dtype, DTypeParam) \
                or not isinstance(rhs.dtype, DType) or not isinstance(t.left, cst.Attribute):
            raise self.err(node, "conditional expressions other than `X if A.dtype == ct.<dtype> else Y`")
        from ..specialise import dtype_flag_name  # noqa: PLC0415 - one naming rule for both pipelines

        array = t.left.value.value
        flag = dtype_flag_name(array, rhs.dtype.name, str(then.dtype))
        if all(g.name != flag for g in self.generics):
            self.generics.append(Generic(flag, "const", "dtype_flag",
                                         f"1 when {array}.dtype == {rhs.dtype.name} (host-computed)"))
        return DT(DTypeChoice(flag, lhs.dtype, rhs.dtype, then.dtype, other.dtype))

    # -- arithmetic --------------------------------------------------------------------------------
    def tile_of(self, v, like: Value, node) -> Value:
        """A Python number meeting a tile/scalar value: a constant of its dtype (cuTile's promotion)."""
        if isinstance(v, Value):
            return v
        if isinstance(v, Sym):
            v = self.i32(v, node)
            return v
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            try:
                dt = irtyping.literal_dtype(like.type.dtype, v)
            except irtyping.PromotionError as e:
                raise self.err(node, str(e)) from e
            shape = () if isinstance(like.type, TileType) else None  # a 0-d constant, broadcast by unify
            return self.const(v, dt, node, shape)
        raise self.err(node, f"operand {v!r}")

    def binary(self, op: str, a, b, node, hint: str = ""):
        folded = irtyping.fold(op, a, b)
        if folded is not None:
            return folded
        a0, b0 = a, b
        if isinstance(a, Sym) or isinstance(b, Sym):
            a = self.i32(a, node) if isinstance(a, Sym) else a
            b = self.i32(b, node) if isinstance(b, Sym) else b
        if not isinstance(a, Value) and not isinstance(b, Value):
            raise self.err(node, f"operator {op} on {a!r} and {b!r}")
        a = self.tile_of(a, b if isinstance(b, Value) else a, node)
        b = self.tile_of(b, a, node)
        a, b = self.unify(a, b, node)
        dt = a.type.dtype
        if op in ("//", "%"):
            if not all(isinstance(x, Value) and x.type == ScalarType(I32) for x in (a0, b0)):
                raise self.err(node, f"{op} with a constant operand (the reference folds its sign tests)")
            if a.type != ScalarType(I32):
                raise self.err(node, f"{op} on {a.type}")
            return self.floor_divmod(op, a, b, node, hint)
        if isinstance(dt, DType) and dt.kind in ("int", "uint") and op in _INT_KIND:
            kind = _INT_KIND[op]
        elif op in _FLOAT_KIND and (isinstance(dt, DTypeChoice) or isinstance(dt, DTypeParam)
                                    or (isinstance(dt, DType) and dt.is_float)):
            if isinstance(dt, (DTypeParam, DTypeChoice)) and op == "/":
                raise self.err(node, "true division of a dtype-generic tile")
            kind = _FLOAT_KIND[op]
        else:
            raise self.err(node, f"operator {op} on {a.type}")
        if isinstance(a.type, ScalarType) and kind not in _INT_KIND.values():
            raise self.err(node, "float scalar arithmetic")
        return self.emit(kind, [a, b], [a.type], node, hint or "t").result

    def unify(self, a: Value, b: Value, node) -> tuple[Value, Value]:
        ta, tb = a.type, b.type
        if isinstance(ta, ScalarType) != isinstance(tb, ScalarType):
            raise self.err(node, "a runtime scalar meeting a tile")
        try:
            dt = irtyping.promote(ta.dtype, tb.dtype)
        except irtyping.PromotionError as e:
            raise self.err(node, str(e)) from e
        a, b = self.convert(a, dt, node), self.convert(b, dt, node)
        if isinstance(ta, TileType):
            try:
                shape = irtyping.broadcast_shapes(ta.shape, tb.shape)
            except irtyping.PromotionError as e:
                raise self.err(node, str(e)) from e
            a, b = self.broadcast(a, shape, node), self.broadcast(b, shape, node)
        return a, b

    def broadcast(self, v: Value, shape: tuple, node) -> Value:
        if v.type.shape == shape:
            return v
        if len(v.type.shape) < len(shape):
            new = (1,) * (len(shape) - len(v.type.shape)) + tuple(v.type.shape)
            v = self.emit(OpKind.RESHAPE, [v], [TileType(v.type.dtype, new)], node, (v.hint or "t") + "_r",
                          shape=new).result
        return self.emit(OpKind.BROADCAST, [v], [TileType(v.type.dtype, shape)], node, (v.hint or "t") + "_b",
                         shape=shape).result

    def convert(self, v: Value, dt: DTypeLike, node, hint: str = "") -> Value:
        if v.type.dtype == dt:
            return v
        t = TileType(dt, v.type.shape) if isinstance(v.type, TileType) else ScalarType(dt)
        return self.emit(OpKind.CONVERT, [v], [t], node, hint or (v.hint or "t") + "_c").result

    def floor_divmod(self, op: str, a: Value, b: Value, node, hint: str) -> Value:
        """Python's flooring ``//`` / ``%`` on i32, as cuTile Python lowers them (divi rounding to -inf;
        remi plus the sign fix-up)."""
        if op == "//":
            return self.emit(OpKind.DIVI, [a, b], [a.type], node, hint, rounding="negative_inf").result
        b_t = ScalarType(BOOL)
        rem = self.emit(OpKind.REMI, [a, b], [a.type], node, (hint or "m") + "_rem").result
        zero = self.const(0, I32, node)
        rneg = self.emit(OpKind.CMPI, [rem, zero], [b_t], node, (hint or "m") + "_rneg", predicate="lt").result
        bneg = self.emit(OpKind.CMPI, [b, zero], [b_t], node, (hint or "m") + "_bneg", predicate="lt").result
        sgn = self.emit(OpKind.XORI, [rneg, bneg], [b_t], node, (hint or "m") + "_sgn").result
        nz = self.emit(OpKind.CMPI, [rem, zero], [b_t], node, (hint or "m") + "_nz", predicate="ne").result
        fix = self.emit(OpKind.ANDI, [sgn, nz], [b_t], node, (hint or "m") + "_fix").result
        rb = self.emit(OpKind.ADDI, [rem, b], [a.type], node, (hint or "m") + "_rb").result
        return self.emit(OpKind.SELECT, [fix, rb, rem], [a.type], node, hint).result

    # -- calls -------------------------------------------------------------------------------------
    def call(self, node: cst.Call, hint: str):
        fn = self.info.dotted(node.func)
        pos = [a.value for a in node.args if a.keyword is None]
        kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if fn in ("ct.bid", "ct.num_blocks") and len(pos) == 1 and not kw:
            axis = self.expr(pos[0])
            if axis not in (0, 1, 2):
                raise self.err(node, f"{fn} axis must be 0, 1 or 2")
            kind = OpKind.BLOCK_ID if fn == "ct.bid" else OpKind.NUM_BLOCKS
            default = "bid" if kind == OpKind.BLOCK_ID else "nblocks"
            return self.emit(kind, [], [ScalarType(I32)], node, hint or default,
                             axis=axis).result
        if fn == "ct.load":
            return self.load(node, pos, kw, hint)
        if fn == "ct.store":
            return self.store(node, pos, kw)
        if fn == "ct.num_tiles":
            return self.num_tiles(node, pos, kw, hint)
        if fn in ("ct.full", "ct.zeros", "ct.ones"):
            return self.full(fn, node, pos, kw, hint)
        if fn == "ct.astype" and len(pos) == 2 and not kw:
            x, dt = self.expr(pos[0]), self.expr(pos[1])
            if not isinstance(x, Value) or not isinstance(x.type, TileType) or not isinstance(dt, DT):
                raise self.err(node, "ct.astype(tile, dtype)")
            return self.convert(x, dt.dtype, node, hint)
        if fn == "ct.reshape" and len(pos) == 2 and not kw:
            x = self.expr(pos[0])
            shape = self.shape(pos[1])
            if not isinstance(x, Value) or not isinstance(x.type, TileType):
                raise self.err(node, "ct.reshape(tile, shape)")
            return self.emit(OpKind.RESHAPE, [x], [TileType(x.type.dtype, shape)], node, hint, shape=shape).result
        if fn == "ct.mma" and len(pos) == 3 and not kw:
            a, b, acc = (self.expr(p) for p in pos)
            if not all(isinstance(v, Value) and isinstance(v.type, TileType) for v in (a, b, acc)):
                raise self.err(node, "ct.mma(tile, tile, acc)")
            return self.emit(OpKind.MMA, [a, b, acc], [acc.type], node, hint).result
        if fn in _FN_BINOPS and len(pos) == 2 and not kw:  # ct.add(a, b) without math modes is a + b
            return self.binary(_FN_BINOPS[fn], self.expr(pos[0]), self.expr(pos[1]), node, hint)
        if fn in _REDUCE:
            return self.reduce(_REDUCE[fn], node, pos, kw, hint)
        math = ir_rules()["math"].get(fn or "")
        if math is not None and len(pos) == 1 and not kw:
            x = self.expr(pos[0])
            if not isinstance(x, Value) or not isinstance(x.type, TileType) or not (
                    isinstance(x.type.dtype, DType) and x.type.dtype.is_float):
                raise self.err(node, f"{fn} of a non-float tile")
            return self.emit(OpKind.MATH, [x], [x.type], node, hint or fn.removeprefix("ct."),
                             fn=fn.removeprefix("ct.")).result
        raise self.err(node, f"call '{fn or type(node.func).__name__}'")

    def reduce(self, kind: OpKind, node, pos, kw, hint):
        """``ct.sum/max/min(tile, axis=k[, keepdims=True])`` on a float tile: a reduce, then a reshape
        that puts the 1 back for keepdims."""
        if len(pos) != 1 or not set(kw) <= {"axis", "keepdims"} or "axis" not in kw:
            raise self.err(node, "reductions other than (tile, axis=k[, keepdims=])")
        x = self.expr(pos[0])
        axis, keep = self.expr(kw["axis"]), self.expr(kw["keepdims"]) if "keepdims" in kw else False
        if not isinstance(x, Value) or not isinstance(x.type, TileType) or not (
                isinstance(x.type.dtype, DType) and x.type.dtype.is_float):
            raise self.err(node, "a reduction of a non-float tile")
        if not isinstance(axis, int) or isinstance(axis, bool) or not 0 <= axis < len(x.type.shape) \
                or not isinstance(keep, bool):
            raise self.err(node, "reduction axis / keepdims must be constants")
        shape = tuple(d for i, d in enumerate(x.type.shape) if i != axis)
        red = self.emit(kind, [x], [TileType(x.type.dtype, shape)], node, (hint or "t") + ("_red" if keep else ""),
                        axis=axis).result
        if not keep:
            return red
        full = tuple(1 if i == axis else d for i, d in enumerate(x.type.shape))
        return self.emit(OpKind.RESHAPE, [red], [TileType(x.type.dtype, full)], node, hint, shape=full).result

    def _array(self, node) -> ArrayRef:
        a = self.expr(node)
        if not isinstance(a, ArrayRef):
            raise self.err(node, "expected an array parameter")
        return a

    def view(self, a: ArrayRef, tile: tuple, padding: str, mutable: bool, node) -> Value:
        t = ViewType(a.value.type.dtype, tile, padding, mutable)
        return self.emit(OpKind.MAKE_VIEW, [a.value], [t], node, "p" + a.name, tile=tile, padding=padding,
                         mutable=mutable).result

    def _index(self, node, rank: int) -> list[Value]:
        idx = self.expr(node)
        idx = idx if isinstance(idx, tuple) else (idx,)
        if len(idx) != rank:
            raise self.err(node, f"index of {len(idx)} for a rank-{rank} array")
        return [self.i32(v, node) for v in idx]

    def load(self, node, pos, kw, hint):
        extra = set(kw) - {"index", "shape", "padding_mode"}
        if len(pos) != 1 or extra or "index" not in kw or "shape" not in kw:
            raise self.err(node, "ct.load(array, index=, shape=[, padding_mode=])")
        a = self._array(pos[0])
        shape = self.shape(kw["shape"])
        pad = "none"
        if "padding_mode" in kw:
            d = self.info.dotted(kw["padding_mode"]) or ""
            if not d.startswith("ct.PaddingMode.") or d.rsplit(".", 1)[1] not in _PADDING:
                raise self.err(kw["padding_mode"], "padding_mode")
            pad = _PADDING[d.rsplit(".", 1)[1]]
        if len(shape) != a.value.type.rank:
            raise self.err(node, "tile rank differs from the array rank")
        idx = self._index(kw["index"], a.value.type.rank)
        v = self.view(a, shape, pad, False, node)
        return self.emit(OpKind.LOAD_VIEW, [v, *idx], [TileType(a.value.type.dtype, shape)], node, hint).result

    def store(self, node, pos, kw):
        if len(pos) != 1 or set(kw) != {"index", "tile"}:
            raise self.err(node, "ct.store(array, index=, tile=)")
        a = self._array(pos[0])
        t = self.expr(kw["tile"])
        if not isinstance(t, Value) or not isinstance(t.type, TileType) or len(t.type.shape) != a.value.type.rank:
            raise self.err(node, "ct.store of a tile of the array's rank")
        if t.type.dtype != a.value.type.dtype:  # cuTile Python does not cast a stored tile implicitly
            raise self.err(node, f"ct.store of a {t.type.dtype} tile into an array of {a.value.type.dtype}")
        idx = self._index(kw["index"], a.value.type.rank)
        v = self.view(a, t.type.shape, "none", True, node)
        self.emit(OpKind.STORE_VIEW, [v, t, *idx], [], node)
        return None

    def num_tiles(self, node, pos, kw, hint):
        if len(pos) != 1 or set(kw) != {"axis", "shape"}:
            raise self.err(node, "ct.num_tiles(array, axis=, shape=)")
        a = self._array(pos[0])
        axis = self.expr(kw["axis"])
        shape = self.shape(kw["shape"])
        if not isinstance(axis, int) or not 0 <= axis < len(shape) or len(shape) != a.value.type.rank:
            raise self.err(node, "ct.num_tiles axis / shape")
        v = self.view(a, shape, "none", False, node)
        return self.emit(OpKind.NUM_TILES, [v], [ScalarType(I32)], node, hint, axis=axis).result

    def full(self, fn, node, pos, kw, hint):
        shape_node = pos[0] if pos else kw.get("shape")
        if shape_node is None:
            raise self.err(node, f"{fn} without a shape")
        shape = self.shape(shape_node)
        fill = {"ct.zeros": 0, "ct.ones": 1}.get(fn)
        if fill is None:
            vnode = pos[1] if len(pos) > 1 else kw.get("fill_value")
            if vnode is None:
                raise self.err(node, "ct.full without a fill value")
            fill = self.expr(vnode)
        dnode = kw.get("dtype") or (pos[2] if len(pos) > 2 else None)
        dt = self.expr(dnode) if dnode is not None else None
        if not isinstance(fill, (int, float)) or isinstance(fill, bool):
            raise self.err(node, f"{fn} fill value must be a number")
        if dt is None:
            dt = DT(irtyping.default_dtype(fill))
        if not isinstance(dt, DT) or not isinstance(dt.dtype, DType):
            raise self.err(node, f"{fn} of a generic dtype")
        return self.const(fill, dt.dtype, node, shape, hint or "c")




def lower_file(info) -> ir.Module:
    """Every @ct.kernel of a parsed file (frontend_cutile.ModuleInfo) as typed IR, verified."""
    if info.helpers:
        name, fn = next(iter(info.helpers.items()))
        raise unsupported(info, fn, f"helper function '{name}' (inlining is not on the typed-IR path yet)")
    kernels = []
    for fn in info.kernels:
        k = Lowering(info, fn).kernel()
        kernels.append(ir.verify(k))
    return ir.Module(str(info.path), kernels)
