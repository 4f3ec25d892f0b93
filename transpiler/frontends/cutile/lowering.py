"""cuTile Python -> typed tile IR, directly from libcst nodes (no Rust text anywhere).

Every ``@ct.kernel`` of a file becomes an :class:`ir.Kernel`: arrays are ``array<E>`` values of one dtype
parameter ``E``, ``ct.Constant[int]`` / ``[bool]`` parameters are const-generic symbols (usable in shapes and
as i32 values), ``int`` / ``float`` (and demoted ``ct.Constant[float]``) parameters runtime scalars (see
:meth:`Lowering.param`), Python numbers stay compile-time constants until they meet a tile (ir/typing.py),
``for .. in range(start, stop, step)`` is a structured ``for`` whose loop-carried values are the names it
re-binds, ``if`` / ``a if c else b`` are folded, constant-flag or runtime ``if`` s (control.py), helpers of
this or another module of the package are inlined (imports.py), and ``X if A.dtype == ct.float32 else
A.dtype`` is a :class:`ir.DTypeChoice` resolved by the specialise pass. A construct outside this subset is CTRS-E124 (``IR_UNSUPPORTED``). Statements and parameters are
lowered under recovery.guard: a blocker is recorded and lowering goes on (recovery.py), so every blocker of
a kernel is found in one run; the caller refuses a kernel with any (pipeline.py).
"""

from __future__ import annotations

import copy
import operator
from pathlib import Path

import libcst as cst

from ... import errors
from ...ir.floatexpr import FloatExpr
from ...ir.naming import dtype_flag_name
from ...ir_rules import cutile_rules
from ..pysource import const_eval, is_docstring, scalar_only_names
from ..signatures import check_call, usage
from .hints import read_hints
from ...ir.ops import Block, Family, Generic, Kernel, Op, OpKind, Param
from ...ir.types import BOOL, DTYPES, F32, I32, ArrayType, DType, DTypeChoice, DTypeParam, PY_DTYPES, ScalarType, Sym, TileType
from ...ir.values import Loc, Value
from ..builder import Builder
from .control import if_expr, if_stmt, remember_const, signal_one_armed
from .early_return import lower_to_end
from .imports import lookup
from .memory import PAD_PREFIX, array_attribute, array_method, pad_mode, refuse_array_list, refuse_array_slice
from .recovery import arg, bound_names, guard, parameter
from .recovery import live
from .registry import CALLS, POINTER_CALLS, Call
from .tiledview import METHODS as VIEW_METHODS, tiled_view, view_method
from .values import ELEMENT, ArrayRef, DT, EnumRef, TiledViewRef
from .variant_ranks import fold_flag_test, split_on_access_conflict, split_on_rank_conflict, tested_flag, view_access

_BINOPS = {cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//",
           cst.Modulo: "%", cst.Power: "**", cst.BitAnd: "&", cst.BitOr: "|", cst.BitXor: "^", cst.LeftShift: "<<",
           cst.RightShift: ">>"}
_AUGOPS = {cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*", cst.DivideAssign: "/",
           cst.FloorDivideAssign: "//", cst.ModuloAssign: "%", cst.PowerAssign: "**", cst.BitAndAssign: "&",
           cst.BitOrAssign: "|", cst.BitXorAssign: "^", cst.LeftShiftAssign: "<<", cst.RightShiftAssign: ">>"}
_UNOPS = {cst.Minus: "-", cst.Plus: "+", cst.BitInvert: "~", cst.Not: "not"}
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}  # `not` of a comparison
_CMPOPS = {cst.LessThan: "<", cst.LessThanEqual: "<=", cst.GreaterThan: ">", cst.GreaterThanEqual: ">=",
           cst.Equal: "==", cst.NotEqual: "!="}
# tile methods -> the handler that takes the tile as its first argument
_METHODS = {"reshape": "ct.reshape", "astype": "ct.astype", "permute": "ct.permute", "transpose": "ct.transpose",
            "extract": "ct.extract", "item": "Tile.item"}
# operators folded on compile-time ints (tiles and scalars go through Builder.binary)
_PYOPS = {"**": operator.pow, "<<": operator.lshift, ">>": operator.rshift, "&": operator.and_, "|": operator.or_,
          "^": operator.xor}


def unsupported(info, node, what: str) -> errors.CtrsError:
    return errors.CtrsError(errors.IR_UNSUPPORTED, f"typed-IR front end: {what}",
                            "not in the typed IR front end's subset yet (docs/ir.md)", info.loc(node))


def _compile_time_number(v) -> bool:
    """A Python int / float / bool or a ct.Constant symbol: folded at compile time until a loop changes it."""
    return isinstance(v, (int, float, Sym))


def _same_number(a, b) -> bool:
    return type(a) is type(b) and a == b


class Lowering(Builder):
    """Lowers one ``@ct.kernel`` function into an ir.Kernel; calls go to the handlers of registry.py."""

    scalars_meet_tiles = True  # a cuTile Python scalar is a 0-d tile: `bid * TILE + ct.arange(TILE)` broadcasts
    # constant-flag arms of two element types: a split per value before the dtypes are solved (control.two_arms)
    SPLIT_DTYPE_ARMS = True

    def __init__(self, info, fn: cst.FunctionDef, element=ELEMENT, on_unsupported=None):
        super().__init__()
        # (lowering, node, hint) -> a value for a statement / expression without a rule, or None (E124 stands):
        # ctrs translate --llm passes llm_fallback.splice's typed hook; nothing else does
        self.on_unsupported = on_unsupported
        # the arrays' element types: one dtype for all (the parameter E), or array name -> its dtype variable or
        # concrete dtype (dtypes.py solves them)
        self.element = element
        self.info = info
        self.fn = fn
        self.env: dict[str, object] = {}
        self.generics: list[Generic] = []
        self.params: list[Param] = []
        self.flags: dict[str, str] = {}
        self.returns: list | None = None  # inside an inlined helper: the value of its `return`
        self.inlining: list[str] = []  # the helpers being inlined (recursion guard)
        self.blockers: list[errors.CtrsError] = []  # every construct that failed to lower (recovery.py)
        self.pending: list[errors.CtrsError] = []  # blockers of parameters, counted on use (parameter)
        self.fixed: dict[str, int] = {}  # structural variant: flags lowered with a fixed value (control.py)
        self.other: dict[str, set[int]] = {}  # the "any other value" entry of an int flag: literals it is not
        self.one_armed: dict[str, tuple] = {}  # names bound in one arm of an if only -> (flag, line)
        self.notes: list[tuple[int, str, str]] = []  # --explain decisions (line, kind, text)
        self.loops: list[tuple] = []  # enclosing for loops: (induction variable, body block, step)
        # scalar values computed from ct.Constant symbols (and literals) only: cuTile Python folds them per launch
        self.sym_derived: set[int] = set()
        self._literal: set[int] = set()
        # i1 values that compare ct.Constant ints (``TILE != N``): (operator, a, b), a compile-time test per
        # specialisation (memory.py splits an attribute on it: control.const_test)
        self.const_tests: dict[int, tuple] = {}
        # scalar values computed from ct.Constant symbols only -> their expression (control.remember_const)
        self.const_exprs: dict = {}

        self.met_float: set[str] = set()  # dtype variables whose tiles met a concrete float (f32 wins): dtypes.py

    # -- helpers -----------------------------------------------------------------------------------
    def met(self, a, b, result) -> None:
        for x in (a, b):
            if isinstance(x, DTypeParam) and isinstance(result, DType):
                self.met_float.add(x.name)

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
        ps = fn.params
        if ps.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or ps.kwonly_params or ps.star_kwarg \
                or ps.posonly_params:
            raise self.err(fn, "*args / keyword-only parameters")
        ranks = self._array_ranks(strict=True)
        numbers = scalar_only_names(fn, {p.name.value for p in ps.params if p.annotation is None} - set(ranks),
                                    lambda call: self.info.dotted(call.func) == "ct.cdiv")  # ct.cdiv(n, T): ints
        for p in ps.params:
            with parameter(self, p):
                self.param(p, ranks, numbers)
        stmts = list(fn.body.body)
        if stmts and isinstance(stmts[-1], cst.SimpleStatementLine) and all(
                isinstance(x, cst.Return) and x.value is None for x in stmts[-1].body):
            stmts.pop()  # a bare `return` ending the kernel: nothing to lower
        lower_to_end(self, stmts)  # early returns: the rest of the body in the arms that do not return
        self.block.ops.append(Op(OpKind.YIELD, [], [], loc=self.loc(fn)))
        gens: list[Generic] = []
        arrays = [p for p in self.params if p.kind == "array"]
        for dt in dict.fromkeys(p.value.type.dtype for p in arrays if isinstance(p.value.type.dtype, DTypeParam)):
            of = [p.name for p in arrays if p.value.type.dtype == dt]
            gens.append(Generic(dt.name, "type", "array_dtype", "element type of every array" if len(of) == len(
                arrays) else f"element type of {', '.join(of)}"))
        gens += [Generic(p.name, "const", "constant", "ct.Constant[bool]" if self.flags.get(p.name) else "ct.Constant")
                 for p in self.params if p.kind == "constant"]
        gens += [Generic(p.name, "const", "float_bits", "ct.Constant[float]: its f32 bits")
                 for p in self.params if p.kind == "fconst"]
        gens += self.generics
        hints = self._hints()
        k = Kernel(fn.name.value, self.params, gens, self.block, self.loc(fn), hints)
        k.notes = sorted(set(self.notes))
        return k

    def emit(self, kind: OpKind, operands, result_types, node, hint: str = "", **attrs) -> Op:
        """Builder.emit, noting which scalars are computed from const-generic symbols alone (sym_derived)."""
        op = super().emit(kind, operands, result_types, node, hint, **attrs)
        if kind == OpKind.CONSTANT and isinstance(op.results[0].type, ScalarType):
            self._literal.add(op.results[0].id)
        elif kind == OpKind.CONST_SYM or (
                operands and kind.family in (Family.ELEMENTWISE, Family.COMPARE)
                and all(isinstance(r.type, ScalarType) for r in op.results)
                and all(v.id in self.sym_derived or v.id in self._literal for v in operands)
                and any(v.id in self.sym_derived for v in operands)):
            self.sym_derived.update(r.id for r in op.results)
        return op

    def note(self, node, kind: str, text: str) -> None:
        self.notes.append((self.info.span(node).line, kind, text))

    def param(self, p: cst.Param, ranks: dict[str, int], numbers: set[str]) -> None:
        """One kernel parameter, by its annotation, else by its use: ``ct.Constant[int]`` / ``[bool]`` (and
        aliases) are const generics (a bool is a 0/1 flag); ``float`` / ``ct.Constant[float]`` (demoted: no float
        const generics, docs/porting.md) are runtime f32 scalars, ``int`` a runtime i32; anything else (no
        annotation, ``ct.Array``, a type alias) is an array when calls give it a rank, else a runtime i32 when it
        is only used as a number."""
        name = p.name.value
        if name in self.fixed:  # a flag fixed by a structural variant: a compile-time value, not a parameter
            self.env[name] = self.fixed[name]
            return
        ann = p.annotation.annotation if p.annotation is not None else None
        kind = self._const_kind(ann) if ann is not None else None
        if kind is None and isinstance(ann, cst.Name) and ann.value in ("int", "float"):
            kind = "rt_" + ann.value
        if kind in ("int", "bool"):
            self.env[name] = Sym(name)
            if kind == "bool":
                self.flags[name] = "bool"
            self.params.append(Param(name, "constant", None, self.loc(p)))
            return
        if kind in ("float", "rt_float", "rt_int"):
            v = Value(ScalarType(I32 if kind == "rt_int" else F32), name)
            self.env[name] = v
            if kind == "float":  # an i32 const generic holding the f32 bits, bitcast at entry (docs/porting.md)
                self.note(p, "float-bits", f"ct.Constant[float] {name} -> i32 const generic of its f32 bits (no "
                                           "float const generics on stable Rust), bitcast to f32 at entry")
                self.params.append(Param(name, "fconst", v, self.loc(p)))
                self.loose.add(v.id)  # a Python float in the reference: loosely typed (Builder.loosely_typed)
                self.float_exprs[v.id] = FloatExpr.sym(name)  # its arithmetic is compile-time (ir/floatexpr.py)
                return
            self.params.append(Param(name, "scalar", v, self.loc(p)))
            return
        if kind is not None:
            raise self.err(p, f"parameter '{name}': ct.Constant[{kind}]")
        if name in ranks:
            dt = self.element.get(name, ELEMENT) if isinstance(self.element, dict) else self.element
            v = Value(ArrayType(dt, ranks[name]), name)
            self.env[name] = ArrayRef(name, v)
            self.params.append(Param(name, "array", v, self.loc(p)))
        elif name in numbers:
            self.note(p, "demotion", f"unannotated '{name}' is used only as an integer -> runtime i32 parameter "
                                     "(launch it with an int)")
            v = Value(ScalarType(I32), name)
            self.env[name] = v
            self.params.append(Param(name, "scalar", v, self.loc(p)))
        elif ann is None and not _mentioned(self.fn.body, name):
            # never read (TileGym moe's a_scale_ptr): cuTile Python passes the launch's array all the same (its
            # pointer, extents and strides are entry arguments the body does not use); kept in the signature as
            # an unused array, rank 1 (the rank no use gives: a launch passing another rank fails its entry)
            self.note(p, "unused", f"parameter '{name}' is never read: an unused rank-1 array argument")
            v = Value(ArrayType(self.element.get(name, ELEMENT) if isinstance(self.element, dict) else self.element,
                                1), name)
            self.env[name] = ArrayRef(name, v)
            self.params.append(Param(name, "array", v, self.loc(p)))
        else:
            refuse_array_list(self, name)
            refuse_array_slice(self, name)
            raise self.err(p, f"parameter '{name}': neither an array read by ct.load/ct.store/ct.num_tiles/"
                              "ct.gather/ct.scatter/ct.atomic_* nor used as a number")

    def _hints(self) -> dict:
        deco = next(d.decorator for d in self.fn.decorators if self.info._is_kernel_deco(d.decorator))

        def err(node, msg, hint):
            return errors.CtrsError(errors.KERNEL_HINT, msg, hint, self.info.loc(node))

        return dict(read_hints(self.info, deco, err, lambda node, text: self.note(node, "hint", text)))

    def _const_kind(self, ann) -> str | None:
        if isinstance(ann, cst.Name) and ann.value in self.info.const_aliases:
            return self.info.const_aliases[ann.value]
        if isinstance(ann, cst.Subscript) and self.info.dotted(ann.value) == "ct.Constant" and len(ann.slice) == 1:
            inner = ann.slice[0].slice
            if isinstance(inner, cst.Index) and isinstance(inner.value, cst.Name):
                return inner.value.value
        return None

    def _array_ranks(self, strict: bool = False) -> dict[str, int]:
        """Rank of each array parameter, from the index / shape tuples of the calls that take it, in the
        kernel or in a helper it is passed to (followed through helper parameters to a fixpoint)."""
        info = self.info

        lw = self
        sites: dict[str, list[tuple[int, int, tuple]]] = {}  # the kernel's: array -> (rank, line, flag tests)
        access: dict[str, list[tuple[str, int, tuple]]] = {}  # the kernel's: array -> ("raw"|"view", line, tests)
        unread: dict[str, int] = {}  # arrays read only in arms the variant folds away: their first rank
        lw_body = [False]  # whether the visitor walks the kernel's own body (not a helper's)

        def direct(fn: cst.FunctionDef) -> tuple[dict[str, int], list[tuple[str, list, dict]]]:
            ranks: dict[str, int] = {}
            calls: list[tuple[str, list, dict]] = []
            stack: list[str] = []
            pushed: set[int] = set()
            dead = [0]

            def note(name: str, rank: int, node) -> None:
                if dead[0]:  # in an arm the variant folds away: the rank only of an array no live arm reads
                    unread.setdefault(name, rank)
                    return
                ranks.setdefault(name, rank)
                if fn is lw.fn:
                    sites.setdefault(name, []).append((rank, info.span(node).line, tuple(stack)))

            class V(cst.CSTVisitor):
                def visit_If(self, node: cst.If) -> bool:
                    # an arm a structural variant folds away is not the kernel's (variant_ranks.py)
                    live = fold_flag_test(node.test, lw.fixed, lw.other, info.consts) if fn is lw.fn else None
                    if live is None:
                        return self.push(node)
                    for arm, alive in ((node.body, live), (node.orelse, not live)):
                        if arm is not None:
                            dead[0] += not alive
                            arm.visit(self)
                            dead[0] -= not alive
                    return False

                def push(self, node: cst.If) -> bool:
                    flag = tested_flag(node.test, lw.fn)
                    if flag is not None:
                        stack.append(flag)
                        pushed.add(id(node))
                    return True

                def leave_If(self, node: cst.If) -> None:
                    if id(node) in pushed:
                        pushed.discard(id(node))
                        stack.pop()

                def visit_Call(self, node: cst.Call) -> None:
                    if isinstance(node.func, cst.Name) and node.func.value in info.helpers:
                        calls.append((node.func.value, [a.value for a in node.args if a.keyword is None],
                                      {a.keyword.value: a.value for a in node.args if a.keyword is not None}))
                        return
                    if isinstance(node.func, cst.Attribute) and node.func.attr.value == "tiled_view" \
                            and isinstance(node.func.value, cst.Name) and node.args \
                            and isinstance(node.args[0].value, cst.Tuple):  # A.tiled_view(tile_shape)
                        note(node.func.value.value, len(node.args[0].value.elements), node)
                        return
                    fn = info.dotted(node.func)
                    if fn not in ("ct.load", "ct.store", "ct.num_tiles", *POINTER_CALLS) or not node.args:
                        return
                    a = node.args[0].value
                    kw = {x.keyword.value: x.value for x in node.args if x.keyword is not None}
                    pos = [x.value for x in node.args if x.keyword is None]
                    kind = view_access(fn, kw, info)
                    if kind is not None and isinstance(a, cst.Name) and not dead[0] and lw_body[0]:
                        access.setdefault(a.value, []).append((kind, info.span(node).line, tuple(stack)))
                    if fn in POINTER_CALLS:  # ct.gather(x, idx): a tuple per axis, else one index of a 1-D array
                        idx = pos[1] if len(pos) > 1 else kw.get("indices")
                        if isinstance(a, cst.Name) and idx is not None:
                            note(a.value, len(idx.elements) if isinstance(idx, cst.Tuple) else 1, node)
                        return
                    tup = kw.get("index", pos[1] if len(pos) > 1 else None) if fn != "ct.num_tiles" else kw.get("shape")
                    if isinstance(a, cst.Name) and isinstance(tup, cst.Tuple):
                        note(a.value, len(tup.elements), node)
                    elif isinstance(a, cst.Name) and fn == "ct.load" and tup is not None \
                            and not isinstance(tup, (cst.List, cst.Name)):
                        # ct.load(A, 0, shape=()): cuTile Python takes one index (not a tuple) for a rank-1 array
                        note(a.value, 1, node)

            lw_body[0] = fn is lw.fn
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
        for name, rank in unread.items():
            ranks.setdefault(name, rank)
        if strict:
            split_on_rank_conflict(sites, [p.name.value for p in self.fn.params.params], self.fixed, self.other)
            split_on_access_conflict(access, [p.name.value for p in self.fn.params.params], self.fixed, self.other)
        return ranks

    # -- statements --------------------------------------------------------------------------------
    def body(self, stmts) -> None:
        for i, s in enumerate(stmts):
            if i == 0 and is_docstring(s):
                continue
            with guard(self, s):  # a blocker is recorded; the names s binds become poison
                self.stmt(s)

    def stmt(self, s) -> None:
        self.info.fallback = self.info.span(s)
        if self.replaced(s):
            return
        if isinstance(s, cst.SimpleStatementLine):
            for small in s.body:
                self.small(small)
        elif isinstance(s, cst.For):
            self.for_(s)
        elif isinstance(s, cst.If):
            if_stmt(self, s)
        elif not self.hooked(s, ""):
            raise self.err(s, f"statement {type(s).__name__}")

    def small(self, s) -> None:
        if isinstance(s, cst.Assign):
            hint = s.targets[0].target.value if isinstance(s.targets[0].target, cst.Name) else ""
            v = self.expr(s.value, hint=hint)
            for t in s.targets:
                self.assign(t.target, v, s)
        elif isinstance(s, cst.AnnAssign) and s.value is not None:
            self.assign(s.target, self.expr(s.value, hint=getattr(s.target, "value", "")), s)
        elif isinstance(s, cst.AugAssign) and isinstance(s.target, cst.Name) and type(s.operator) in _AUGOPS:
            name = s.target.value
            if name not in self.env:
                raise self.err(s, f"'{name}' is not defined")
            self.bind(name, self.operator(_AUGOPS[type(s.operator)], live(self.env[name]), self.expr(s.value), s,
                                          name))
        elif isinstance(s, cst.Expr) and isinstance(s.value, cst.Call):
            self.expr(s.value)
        elif isinstance(s, cst.Pass):
            return
        elif isinstance(s, cst.Return) and self.returns is None:
            raise errors.CtrsError(errors.IR_NESTED_RETURN, "a return inside a kernel body's control flow",
                                   "a return inside a loop (an early return outside loops moves the rest of the body "
                                   "into the arms that do not return: early_return.py); cutile-compiler rejects a "
                                   "`return` below the function body's top level (src/compiler/compile_block.rs: "
                                   "\"`return` is only supported at the top level of a function body\")", self.loc(s))
        elif isinstance(s, cst.Return) and self.returns is not None:
            if self.returns:
                raise self.err(s, "a helper with more than one return")
            self.returns.append(self.expr(s.value) if s.value is not None else None)
        elif not self.hooked(s, ""):
            raise self.err(s, f"statement {type(s).__name__}")

    def assign(self, target, v, node) -> None:
        """``name = v`` / ``a, b = v`` (a tuple value: a Python tuple of values, unpacked element-wise)."""
        if isinstance(target, cst.Name):
            return self.bind(target.value, v)
        if isinstance(target, (cst.Tuple, cst.List)):
            elts = target.elements
            if not isinstance(v, tuple) or len(v) != len(elts) or any(isinstance(e, cst.StarredElement) for e in elts):
                raise self.err(node, f"unpacking {len(elts)} names from {type(v).__name__}")
            for e, x in zip(elts, v):
                self.assign(e.value, x, node)
            return None
        raise self.err(node, f"assignment to {type(target).__name__}")

    def emit_op(self, op: Op) -> Op:
        """Append a built op (structured control flow: control.py) to the current block."""
        self.block.ops.append(op)
        return op

    def operator(self, op: str, a, b, node, hint: str = ""):
        """A Python binary operator on lowered values (compile-time values fold, Python semantics)."""
        if op in _PYOPS and all(isinstance(x, int) and not isinstance(x, bool) for x in (a, b)):
            return _PYOPS[op](a, b)
        return self.binary(op, a, b, node, hint)
    scalar_of = Builder.scalar_0d  # cuTile Python's scalars are 0-d tiles (control.compare takes them as scalars)

    def const_expr_of(self, v: Value):
        """Builder.const_expr_of: the expression remember_const recorded (a derived shape dimension ``N * N``)."""
        return self.const_exprs.get(v.id)

    def binary(self, op: str, a, b, node, hint: str = "", **modes):
        """Builder.binary, remembering the expression of a scalar computed from ct.Constant values only."""
        result = super().binary(op, a, b, node, hint, **modes)
        remember_const(self, op, a, b, result)
        return result

    def replaced(self, s) -> bool:
        """Whether a verified answer for a statement (range) replaces ``s`` (``ctrs translate --llm`` only: the
        hook's ``replaces`` binds the names the answer defines, and skips the range's later statements)."""
        replaces = getattr(self.on_unsupported, "replaces", None)
        return bool(replaces is not None and replaces(self, s))

    def hooked(self, node, hint: str):
        """``on_unsupported``'s value for a construct without a rule (bound by the hook itself for a
        statement), or None."""
        return self.on_unsupported(self, node, hint) if self.on_unsupported is not None else None

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
        start, stop, step = self.loop_bounds(args, it)  # i32, or i64 over an i64 bound (the induction variable's)
        assigned = {n for st in s.body.body for n in bound_names(st)}  # tuple / annotated targets too
        static = [n for n in sorted(assigned) if _compile_time_number(self.env.get(n))]
        drift: list[str] = []
        if static:  # probe: which compile-time numbers does the body change? (lowered again below, carried)
            snapshot = {k: copy.copy(v) for k, v in vars(self).items() if isinstance(v, (list, dict, set))}
            outer_block = self.block
            end = self._for_body(s, args[2], [], start.type.dtype)[3]
            drift = [n for n in static if not _same_number(live(end.get(n)), snapshot["env"][n])]
            for k, v in snapshot.items():
                setattr(self, k, v)
            self.block = outer_block
        for n in drift:  # a loop-carried counter: `cnt = 0` .. `for ..: cnt += 1` (cuTile: an i32 carried value)
            self.env[n] = self._materialise(self.env[n], s)
        carried = [n for n in sorted(assigned) if isinstance(self.env.get(n), Value)]
        init = [self.env[n] for n in carried]
        iv, body, ys, _ = self._for_body(s, args[2], carried, start.type.dtype)
        results = [Value(a.type, n) for n, a in zip(carried, init)]
        self.block.ops.append(Op(OpKind.FOR, [start, stop, step, *init], results, {}, self.loc(s), [body]))
        for n, r in zip(carried, results):
            self.env[n] = r

    def _for_body(self, s: cst.For, step, carried: list[str], iv_dtype=I32) -> tuple[Value, Block, list[Value], dict]:
        """Lower a for loop's body into a new block whose arguments are the induction variable and the
        ``carried`` names; returns (induction variable, block ending in its yield, yielded values, the
        environment at the end of the body). The environment after it is the one before (a name the body binds
        and does not carry keeps its old value)."""
        iv = Value(ScalarType(iv_dtype), s.target.value)
        args_v = [Value(self.env[n].type, n) for n in carried]
        body = Block([iv, *args_v])
        outer_block, outer_env = self.block, dict(self.env)
        self.block = body
        self.env[s.target.value] = iv
        for n, a in zip(carried, args_v):
            self.env[n] = a
        self.loops.append((iv, body, step))  # the step as written: an int, a Sym or a runtime value
        try:
            self.body(s.body.body)
        finally:
            self.loops.pop()
        ys = []
        for n, a in zip(carried, args_v):
            y = live(self.env[n])
            if _compile_time_number(y):  # `x = 0` in the body of a loop that carries x
                y = self._materialise(y, s)
            if not isinstance(y, Value) or y.type != a.type:
                raise self.loop_type_change(s, n, a, y)
            ys.append(y)
        body.ops.append(Op(OpKind.YIELD, ys, [], loc=self.loc(s)))
        end = self.env
        self.block, self.env = outer_block, outer_env
        return iv, body, ys, end

    def _materialise(self, v, node) -> Value:
        """A compile-time number as a runtime scalar: an int or ct.Constant symbol an i32, a float an f32, a bool
        an i1 (cuTile Python's types for a loosely typed constant that becomes a loop-carried value)."""
        if isinstance(v, bool):
            return self.const(v, BOOL, node)
        if isinstance(v, float):
            return self.const(v, F32, node)
        return self.i32(v, node)

    # -- expressions -------------------------------------------------------------------------------
    def expr(self, node, hint: str = ""):
        if isinstance(node, cst.Name):
            if node.value in self.env:
                return live(self.env[node.value])
            if node.value in self.info.consts:
                return self.info.consts[node.value]
            found = lookup(self.info, node.value)
            if found is not None and isinstance(found[1], (int, float)):  # a constant of another module
                return found[1]
            if node.value in ("True", "False"):
                return node.value == "True"
            enum = self.module_enum(node.value)
            if enum is not None:
                return enum
            if node.value in self.one_armed:
                signal_one_armed(self, node.value, node)
            raise self.err(node, f"name '{node.value}'")
        if isinstance(node, (cst.Integer, cst.Float, cst.Tuple, cst.List)):
            return self.display(node)
        if isinstance(node, cst.UnaryOperation) and type(node.operator) in _UNOPS:
            x = self.expr(node.expression)
            if isinstance(x, Sym) and type(node.operator) is cst.Not:
                # `not FLAG` of a ct.Constant int / bool: cuTile Python folds it (Python's `not` of the constant)
                # at compile time; here the constant test FLAG == 0, known per specialisation like a comparison
                v = self.binary("==", x, 0, node, hint or "not_" + x.name.lower())
                self.const_tests[v.id] = ("==", x, 0)
                return v
            test = self.const_tests.get(x.id) if isinstance(x, Value) and type(node.operator) is cst.Not else None
            if test is not None:  # `not (TILE == N)`: the negated constant test (cuTile Python folds both)
                op, a, b = test
                v = self.binary(_NEGATED[op], a, b, node, hint)
                self.const_tests[v.id] = (_NEGATED[op], a, b)
                return v
            return self.unary(_UNOPS[type(node.operator)], x, node, hint)
        if isinstance(node, cst.BinaryOperation) and type(node.operator) in _BINOPS:
            return self.binary(_BINOPS[type(node.operator)], self.expr(node.left), self.expr(node.right), node, hint)
        if isinstance(node, cst.Comparison):
            if len(node.comparisons) != 1 or type(node.comparisons[0].operator) not in _CMPOPS:
                raise self.err(node, "chained comparisons and is / in")
            c = node.comparisons[0]
            a, b = self.expr(node.left), self.expr(c.comparator)
            v = self.binary(_CMPOPS[type(c.operator)], a, b, node, hint)
            if isinstance(v, Value) and all(isinstance(x, Sym) or isinstance(x, int) and not isinstance(x, bool)
                                            for x in (a, b)):
                self.const_tests[v.id] = (_CMPOPS[type(c.operator)], a, b)  # known per specialisation
            return v
        if isinstance(node, cst.Subscript):
            return self.subscript(node)
        if isinstance(node, cst.Attribute):
            return self.attribute(node)
        if isinstance(node, cst.IfExp):
            if self._is_dtype_test(node.test):
                return self.dtype_choice(node)
            return if_expr(self, node, hint)
        if isinstance(node, cst.Call):
            return self.call(node, hint)
        if (got := self.hooked(node, hint)) is not None:
            return got
        raise self.err(node, f"expression {type(node).__name__}")

    def attribute(self, node: cst.Attribute):
        d = self.info.dotted(node)
        if d and d.startswith("ct.") and d[3:] in PY_DTYPES:
            return DT(PY_DTYPES[d[3:]])
        if d and d.startswith(PAD_PREFIX):
            return pad_mode(self, node)
        if d and d.startswith("ct.RoundingMode."):
            return EnumRef(d)
        lit = const_eval(node, self.info.consts.get, self.info.dotted)  # math.inf / math.pi, module constants
        if lit is not None:
            return lit
        host = cutile_rules().get("host_dtypes", {})
        if d in host:  # torch.int32 / numpy.float16 as a dtype inside a kernel (cuTile Python accepts them)
            return DT(DTYPES[host[d]])
        if isinstance(node.value, cst.Name) and node.attr.value == "dtype":
            a = live(self.env.get(node.value.value))
            if isinstance(a, ArrayRef):
                return DT(a.value.type.dtype)
            if isinstance(a, Value) and isinstance(a.type, (TileType, ScalarType)):
                return DT(a.type.dtype)
        if isinstance(node.value, cst.Name) and isinstance(self.env.get(node.value.value), ArrayRef):
            return array_attribute(self, self.env[node.value.value], node)
        if node.attr.value in ("shape", "ndim") and not (d or "").startswith("ct."):
            v = self.expr(node.value)
            if isinstance(v, ArrayRef):  # the runtime extents: i32 scalars (dead ones are removed by dce)
                dims = tuple(self.emit(OpKind.ARRAY_DIM, [v.value], [ScalarType(I32)], node,
                                       f"{v.name}_d{i}", axis=i).result for i in range(v.value.type.rank))
                return dims if node.attr.value == "shape" else len(dims)
            if isinstance(v, Value) and isinstance(v.type, (TileType, ScalarType)):
                shape = getattr(v.type, "shape", ())
                return tuple(shape) if node.attr.value == "shape" else len(shape)
        raise self.err(node, f"attribute '{d or node.attr.value}'")

    def module_enum(self, name: str) -> EnumRef | None:
        """A module-level ``PAD_ZERO = ct.PaddingMode.ZERO``: the enum member the name stands for."""
        for stmt in self.info.module.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for s in stmt.body:
                    if isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name) \
                            and s.targets[0].target.value == name:
                        d = self.info.dotted(s.value) or ""
                        if d.startswith(("ct.PaddingMode.", "ct.RoundingMode.")):
                            return EnumRef(d)
        return None

    def subscript(self, node: cst.Subscript):
        """``t[i]`` of a compile-time tuple (``x.shape[0]``, ``TILES[1]``) with a constant index; ``tile[None, :]``
        (NumPy's new axes: a reshape with 1s where the Nones are)."""
        v = self.expr(node.value)
        if isinstance(v, Value) and isinstance(v.type, TileType):
            return self.new_axes(node, v)
        if not isinstance(v, tuple) or len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            raise self.err(node, "subscripts other than a constant index into a tuple")
        i = self.expr(node.slice[0].slice.value)
        if not isinstance(i, int) or isinstance(i, bool) or not -len(v) <= i < len(v):
            raise self.err(node, f"index {i!r} into a tuple of {len(v)}")
        return v[i]

    def new_axes(self, node: cst.Subscript, v: Value) -> Value:
        shape, dims = [], iter(v.type.shape)
        for el in node.slice:
            s = el.slice
            if isinstance(s, cst.Index) and isinstance(s.value, cst.Name) and s.value.value == "None":
                shape.append(1)
            elif isinstance(s, cst.Slice) and s.lower is None and s.upper is None and s.step is None:
                d = next(dims, None)
                if d is None:
                    raise self.err(node, f"more axes than {v.type} has")
                shape.append(d)
            else:
                raise self.err(node, "tile subscripts other than None and ':' (new axes)")
        shape += list(dims)
        shape = tuple(shape)
        return self.emit(OpKind.RESHAPE, [v], [TileType(v.type.dtype, shape)], node, "", shape=shape).result
    def _is_dtype_test(self, t) -> bool:
        return (isinstance(t, cst.Comparison) and len(t.comparisons) == 1 and isinstance(t.left, cst.Attribute)
                and t.left.attr.value == "dtype" and isinstance(self.expr(t.left), DT))

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

        array = t.left.value.value
        flag = dtype_flag_name(array, rhs.dtype.name, str(then.dtype))
        if all(g.name != flag for g in self.generics):
            self.generics.append(Generic(flag, "const", "dtype_flag",
                                         f"1 when {array}.dtype == {rhs.dtype.name} (host-computed)",
                                         (array, rhs.dtype.name)))
        return DT(DTypeChoice(flag, lhs.dtype, rhs.dtype, then.dtype, other.dtype))

    # -- calls -------------------------------------------------------------------------------------
    def call(self, node: cst.Call, hint: str):
        if isinstance(node.func, cst.Name) and node.func.value not in self.env:
            found = lookup(self.info, node.func.value)
            if found is not None and isinstance(found[1], cst.FunctionDef):
                return self.inline(found[1], node, found[0])
        fn = self.info.dotted(node.func)
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in _METHODS and not (fn or "").startswith("ct."):
            return self.method(node, hint)
        handler = CALLS.get(fn or "")
        if handler is None and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) \
                and node.func.value.value in self.env:  # a method of a name: an array's (A.slice), or poison
            recv = self.expr(node.func.value)
            if isinstance(recv, ArrayRef):
                if node.func.attr.value == "tiled_view":
                    return tiled_view(self, recv, node)
                return array_method(self, recv, node)
            if isinstance(recv, TiledViewRef):
                return view_method(self, recv, node)
        if handler is None and isinstance(node.func, cst.Attribute) and node.func.attr.value in VIEW_METHODS \
                and isinstance(node.func.value, cst.Call):  # A.tiled_view(..).atomic_store_add(..)
            recv = self.expr(node.func.value)
            if isinstance(recv, TiledViewRef):
                return view_method(self, recv, node)
        if handler is None:
            if (got := self.hooked(node, hint)) is not None:
                return got
            raise self.err(node, f"call '{fn or type(node.func).__name__}'")
        sig = cutile_rules()["functions"].get(fn, {}).get("signature")  # cuTile Python's binding, its message
        if (bad := check_call(fn, sig, node)) is not None:
            raise errors.CtrsError(errors.CALL_SIGNATURE, bad, f"cuTile Python signature: {usage(fn, sig)}",
                                   self.info.loc(node))
        pos = [a.value for a in node.args if a.keyword is None]
        kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        return handler(self, Call(node, fn, pos, kw, hint))

    def method(self, node: cst.Call, hint: str):
        """``t.reshape(..)``, ``t.astype(..)``, ``t.item()`` ...: the ct function (handler) taking the tile first;
        the receiver is lowered once and passed as a name bound to its value."""
        recv = self.expr(node.func.value)
        if not isinstance(recv, Value) or not isinstance(recv.type, (TileType, ScalarType)):
            raise self.err(node, f"method '{node.func.attr.value}' of {recv!r}")
        name = f"__recv{recv.id}"
        self.env[name] = recv
        try:
            pos = [cst.Name(name), *(a.value for a in node.args if a.keyword is None)]
            kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
            fn = _METHODS[node.func.attr.value]
            return CALLS[fn](self, Call(node, fn, pos, kw, hint))
        finally:
            del self.env[name]

    def inline(self, fn: cst.FunctionDef, node: cst.Call, module=None):
        """A call of a module-level helper: its body lowered in place, its parameters bound to the argument
        values (tiles, arrays, dtypes and compile-time numbers alike), as cuTile Python inlines helpers."""
        name = fn.name.value
        if name in self.inlining:
            raise self.err(node, f"recursive helper '{name}'")
        if not self.inlining:
            self._inline_line = self.info.span(node).line  # nested helpers are noted at the kernel's call
        where = "" if module is None or module is self.info else f" of {Path(module.path).name}"
        self.notes.append((self._inline_line, "inline",
                           f"helper {name}() (line {(module or self.info).span(fn).line}{where}) inlined"))
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
            bound[key] = arg(self, a.value)
        for p in ps.params:
            if p.name.value not in bound:
                if p.default is None:
                    raise self.err(node, f"helper '{name}': missing argument '{p.name.value}'")
                bound[p.name.value] = self.expr(p.default)
        saved = (self.env, self.returns, self.info)
        self.env, self.returns = dict(bound), []
        self.info = module or self.info  # a helper of another module: its own names and source positions
        self.inlining.append(name)
        try:
            stmts = list(fn.body.body)
            for i, st in enumerate(stmts):
                if i == 0 and is_docstring(st):
                    continue
                if self.returns:
                    raise self.err(st, f"helper '{name}': code after its return")
                with guard(self, st):  # reported once, at the helper's line, however often it is called
                    self.stmt(st)
            value = live(self.returns[0]) if self.returns else None
        finally:
            self.inlining.pop()
            self.env, self.returns, self.info = saved
        return value


def _mentioned(body: cst.CSTNode, name: str) -> bool:
    """Whether ``name`` occurs in ``body`` (a read, a store, an attribute base: anything but not at all)."""
    found = []

    class V(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            if node.value == name:
                found.append(node)

    body.visit(V())
    return bool(found)
