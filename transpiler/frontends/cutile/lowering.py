"""cuTile Python -> typed tile IR, directly from libcst nodes (no Rust text anywhere).

Every ``@ct.kernel`` of a file becomes an :class:`ir.Kernel`: arrays are ``array<E>`` values of one dtype
parameter ``E``, ``ct.Constant[int]`` parameters are const-generic symbols (usable in shapes and as i32
values), Python numbers stay compile-time constants until they meet a tile (ir/typing.py), ``for .. in
range(start, stop, step)`` is a structured ``for`` whose loop-carried values are the names it re-binds,
and ``X if A.dtype == ct.float32 else A.dtype`` is a :class:`ir.DTypeChoice` resolved by the specialise
pass. A construct outside this subset is CTRS-E124 (``IR_UNSUPPORTED``). Statements and parameters are
lowered under recovery.guard: a blocker is recorded and lowering goes on (recovery.py), so every blocker of
a kernel is found in one run; the caller refuses a kernel with any, and may take the whole file through the
older text-model front end instead (transpiler/frontend_cutile.py, pipeline.py).
"""

from __future__ import annotations

import math

import libcst as cst

from ... import errors, frontend_cutile
from ...cutile_base import _is_docstring, assigned_names
from ...ir.ops import Block, Generic, Kernel, Op, OpKind, Param
from ...ir.types import DTYPES, I32, ArrayType, DType, DTypeChoice, DTypeParam, PY_DTYPES, ScalarType, Sym, TileType
from ...ir.values import Loc, Value
from ..builder import Builder
from . import compare, memory, recovery
from .recovery import live
from .registry import CALLS, POINTER_CALLS, Call
from .values import ELEMENT, ArrayRef, DT

_MATH_CONSTS = {"math.inf": math.inf, "math.pi": math.pi, "math.e": math.e}
_BINOPS = {cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//",
           cst.Modulo: "%"}


def unsupported(info, node, what: str) -> errors.CtrsError:
    return errors.CtrsError(errors.IR_UNSUPPORTED, f"typed-IR front end: {what}",
                            "not in the typed IR front end's subset yet (docs/ir.md)", info.loc(node))


class Lowering(Builder):
    """Lowers one ``@ct.kernel`` function into an ir.Kernel; calls go to the handlers of registry.py."""

    scalars_meet_tiles = True  # a cuTile Python scalar is a 0-d tile: `bid * TILE + ct.arange(TILE)` broadcasts

    def __init__(self, info, fn: cst.FunctionDef, element=ELEMENT, on_unsupported=None):
        super().__init__()
        # (lowering, node, hint) -> a value for a statement / expression without a rule, or None (E124 stands):
        # ctrs translate --llm passes llm_fallback.splice's typed hook; nothing else does
        self.on_unsupported = on_unsupported
        self.element = element  # the arrays' element type: the parameter E, or one concrete dtype per entry
        self.info = info
        self.fn = fn
        self.env: dict[str, object] = {}
        self.generics: list[Generic] = []
        self.params: list[Param] = []
        self.flags: dict[str, str] = {}
        self.returns: list | None = None  # inside an inlined helper: the value of its `return`
        self.inlining: list[str] = []  # the helpers being inlined (recursion guard)
        self.blockers: list[errors.CtrsError] = []  # every construct that failed to lower (recovery.py)
        self.pending: list[errors.CtrsError] = []  # blockers of parameters, counted on use (recovery.parameter)

    # -- helpers -----------------------------------------------------------------------------------
    def loc(self, node) -> Loc:
        s = self.info.span(node)
        return Loc(str(self.info.path), s.line, s.col)

    def err(self, node, what: str) -> errors.CtrsError:
        return unsupported(self.info, node, what)

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
            with recovery.parameter(self, p):
                self.param(p, ranks)
        if fn.params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or fn.params.kwonly_params:
            raise self.err(fn, "*args / keyword-only parameters")
        self.body(fn.body.body)
        self.block.ops.append(Op(OpKind.YIELD, [], [], loc=self.loc(fn)))
        gens: list[Generic] = []
        if any(p.kind == "array" for p in self.params) and self.element == ELEMENT:
            gens.append(Generic("E", "type", "array_dtype", "element type of every array"))
        gens += [Generic(p.name, "const", "constant", "ct.Constant") for p in self.params if p.kind == "constant"]
        gens += self.generics
        hints = self._hints()
        return Kernel(fn.name.value, self.params, gens, self.block, self.loc(fn), hints)

    def param(self, p: cst.Param, ranks: dict[str, int]) -> None:
        name = p.name.value
        ann = p.annotation
        if ann is not None:
            kind = self._const_kind(ann.annotation)
            if kind != "int":
                raise self.err(p, f"parameter '{name}': only ct.Constant[int] annotations")
            self.env[name] = Sym(name)
            self.params.append(Param(name, "constant", None, self.loc(p)))
            return
        if name not in ranks:
            memory.refuse_array_list(self, name)
            raise self.err(p, f"parameter '{name}': only arrays read by ct.load/ct.store/ct.num_tiles/ct.gather/"
                                "ct.scatter/ct.atomic_*")
        v = Value(ArrayType(self.element, ranks[name]), name)
        self.env[name] = ArrayRef(name, v)
        self.params.append(Param(name, "array", v, self.loc(p)))

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
        """Rank of each array parameter, from the index / shape tuples of the calls that take it, in the
        kernel or in a helper it is passed to (followed through helper parameters to a fixpoint)."""
        info = self.info

        def direct(fn: cst.FunctionDef) -> tuple[dict[str, int], list[tuple[str, list, dict]]]:
            ranks: dict[str, int] = {}
            calls: list[tuple[str, list, dict]] = []

            class V(cst.CSTVisitor):
                def visit_Call(self, node: cst.Call) -> None:
                    if isinstance(node.func, cst.Name) and node.func.value in info.helpers:
                        calls.append((node.func.value, [a.value for a in node.args if a.keyword is None],
                                      {a.keyword.value: a.value for a in node.args if a.keyword is not None}))
                        return
                    fn = info.dotted(node.func)
                    if fn not in ("ct.load", "ct.store", "ct.num_tiles", *POINTER_CALLS) or not node.args:
                        return
                    a = node.args[0].value
                    kw = {x.keyword.value: x.value for x in node.args if x.keyword is not None}
                    pos = [x.value for x in node.args if x.keyword is None]
                    if fn in POINTER_CALLS:  # ct.gather(x, idx): a tuple per axis, else one index of a 1-D array
                        idx = pos[1] if len(pos) > 1 else kw.get("indices")
                        if isinstance(a, cst.Name) and idx is not None:
                            ranks.setdefault(a.value, len(idx.elements) if isinstance(idx, cst.Tuple) else 1)
                        return
                    tup = kw.get("index", pos[1] if len(pos) > 1 else None) if fn != "ct.num_tiles" else kw.get("shape")
                    if isinstance(a, cst.Name) and isinstance(tup, cst.Tuple):
                        ranks.setdefault(a.value, len(tup.elements))

            fn.body.visit(V())
            return ranks, calls

        facts = {name: direct(h) for name, h in info.helpers.items()}
        ranks, calls = direct(self.fn)
        for _ in range(len(facts) + 1):  # helper parameter ranks, propagated to what they are called with
            changed = False
            for name, (hr, hcalls) in facts.items():
                params = [p.name.value for p in info.helpers[name].params.params]
                for callee, pos, kw in hcalls:
                    cparams = [p.name.value for p in info.helpers[callee].params.params]
                    args = dict(zip(cparams, pos)) | kw
                    for p, a in args.items():
                        if isinstance(a, cst.Name) and a.value in params and p in facts[callee][0] \
                                and a.value not in hr:
                            hr[a.value] = facts[callee][0][p]
                            changed = True
            if not changed:
                break
        for callee, pos, kw in calls:
            cparams = [p.name.value for p in info.helpers[callee].params.params]
            for p, a in (dict(zip(cparams, pos)) | kw).items():
                if isinstance(a, cst.Name) and p in facts[callee][0]:
                    ranks.setdefault(a.value, facts[callee][0][p])
        return ranks

    # -- statements --------------------------------------------------------------------------------
    def body(self, stmts) -> None:
        for i, s in enumerate(stmts):
            if i == 0 and _is_docstring(s):
                continue
            with recovery.guard(self, s):  # a blocker is recorded; the names s binds become poison
                self.stmt(s)

    def stmt(self, s) -> None:
        self.info.fallback = self.info.span(s)
        if isinstance(s, cst.SimpleStatementLine):
            for small in s.body:
                self.small(small)
        elif isinstance(s, cst.For):
            self.for_(s)
        elif not self.hooked(s, ""):
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
            self.bind(name, self.binary(op, live(self.env[name]), self.expr(s.value), s, name))
        elif isinstance(s, cst.Expr) and isinstance(s.value, cst.Call):
            self.expr(s.value)
        elif isinstance(s, cst.Pass):
            return
        elif isinstance(s, cst.Return) and self.returns is not None:
            if self.returns:
                raise self.err(s, "a helper with more than one return")
            self.returns.append(self.expr(s.value) if s.value is not None else None)
        elif not self.hooked(s, ""):
            raise self.err(s, f"statement {type(s).__name__}")

    def hooked(self, node, hint: str):
        """``on_unsupported``'s value for a construct without a rule (bound by the hook itself for a
        statement), or None."""
        return self.on_unsupported(self, node, hint) if self.on_unsupported is not None else None

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
            y = live(self.env[n])
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
                return live(self.env[node.value])
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
            if (got := self.hooked(node, hint)) is not None:
                return got
            raise self.err(node, "unary minus on a tile")
        if isinstance(node, cst.BinaryOperation) and type(node.operator) in _BINOPS:
            return self.binary(_BINOPS[type(node.operator)], self.expr(node.left), self.expr(node.right), node, hint)
        if isinstance(node, cst.Attribute):
            return self.attribute(node)
        if isinstance(node, cst.IfExp):
            return self.dtype_choice(node)
        if isinstance(node, cst.Call):
            return self.call(node, hint)
        if isinstance(node, cst.Subscript):
            return memory.subscript(self, node)
        if isinstance(node, cst.Comparison):
            return compare.comparison(self, node, hint)
        if (got := self.hooked(node, hint)) is not None:
            return got
        raise self.err(node, f"expression {type(node).__name__}")

    def attribute(self, node: cst.Attribute):
        d = self.info.dotted(node)
        if d and d.startswith("ct.") and d[3:] in PY_DTYPES:
            return DT(PY_DTYPES[d[3:]])
        if d and d.startswith(memory.PAD_PREFIX):
            return memory.pad_mode(self, node)
        if d in _MATH_CONSTS:
            return _MATH_CONSTS[d]
        host = frontend_cutile.load_rules().get("host_dtypes", {})
        if d in host:  # torch.int32 / numpy.float16 as a dtype inside a kernel (cuTile Python accepts them)
            return DT(DTYPES[host[d]])
        if isinstance(node.value, cst.Name) and node.attr.value == "dtype":
            a = live(self.env.get(node.value.value))
            if isinstance(a, ArrayRef):
                return DT(a.value.type.dtype)
        if isinstance(node.value, cst.Name) and isinstance(self.env.get(node.value.value), ArrayRef):
            return memory.array_attribute(self, self.env[node.value.value], node)
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
        if all(isinstance(x, DT) and isinstance(x.dtype, DType) for x in (lhs, rhs)):  # a concrete entry: folded
            return then if lhs.dtype == rhs.dtype else other
        if not all(isinstance(x, DT) for x in (lhs, rhs, then, other)) or not isinstance(lhs.dtype, DTypeParam) \
                or not isinstance(rhs.dtype, DType) or not isinstance(t.left, cst.Attribute):
            raise self.err(node, "conditional expressions other than `X if A.dtype == ct.<dtype> else Y`")
        from ...specialise import dtype_flag_name  # noqa: PLC0415 - one naming rule for both pipelines

        array = t.left.value.value
        flag = dtype_flag_name(array, rhs.dtype.name, str(then.dtype))
        if all(g.name != flag for g in self.generics):
            self.generics.append(Generic(flag, "const", "dtype_flag",
                                         f"1 when {array}.dtype == {rhs.dtype.name} (host-computed)",
                                         (array, rhs.dtype.name)))
        return DT(DTypeChoice(flag, lhs.dtype, rhs.dtype, then.dtype, other.dtype))

    # -- calls -------------------------------------------------------------------------------------
    def call(self, node: cst.Call, hint: str):
        if isinstance(node.func, cst.Name) and node.func.value in self.info.helpers \
                and node.func.value not in self.env:
            return self.inline(self.info.helpers[node.func.value], node)
        fn = self.info.dotted(node.func)
        handler = CALLS.get(fn or "")
        if handler is None:
            if (got := self.hooked(node, hint)) is not None:
                return got
            raise self.err(node, f"call '{fn or type(node.func).__name__}'")
        pos = [a.value for a in node.args if a.keyword is None]
        kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        return handler(self, Call(node, fn, pos, kw, hint))

    def inline(self, fn: cst.FunctionDef, node: cst.Call):
        """A call of a module-level helper: its body lowered in place, its parameters bound to the argument
        values (tiles, arrays, dtypes and compile-time numbers alike), as cuTile Python inlines helpers."""
        name = fn.name.value
        if name in self.inlining:
            raise self.err(node, f"recursive helper '{name}'")
        ps = fn.params
        if ps.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or ps.kwonly_params or ps.star_kwarg or ps.posonly_params:
            raise self.err(fn, f"helper '{name}': only plain parameters")
        names = [p.name.value for p in ps.params]
        bound: dict[str, object] = {}
        for i, a in enumerate(node.args):
            if a.star:
                raise self.err(a, "*args / **kwargs in a helper call")
            key = a.keyword.value if a.keyword is not None else (names[i] if i < len(names) else None)
            if key not in names or key in bound:
                raise self.err(a, f"argument {i} of helper '{name}'")
            bound[key] = recovery.arg(self, a.value)
        for p in ps.params:
            if p.name.value not in bound:
                if p.default is None:
                    raise self.err(node, f"helper '{name}': missing argument '{p.name.value}'")
                bound[p.name.value] = self.expr(p.default)
        saved = (self.env, self.returns)
        self.env, self.returns = dict(bound), []
        self.inlining.append(name)
        try:
            stmts = list(fn.body.body)
            for i, st in enumerate(stmts):
                if i == 0 and _is_docstring(st):
                    continue
                if self.returns:
                    raise self.err(st, f"helper '{name}': code after its return")
                with recovery.guard(self, st):  # reported once, at the helper's line, however often it is called
                    self.stmt(st)
            value = live(self.returns[0]) if self.returns else None
        finally:
            self.inlining.pop()
            self.env, self.returns = saved
        return value
