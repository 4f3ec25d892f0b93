"""Control flow of the typed cuTile front end: ``if`` statements, conditional expressions and conditions.

A condition is classified as cuTile Python's compiler sees it:

* **compile-time** (literals, module constants, Python values in the environment, a flag fixed by a structural
  variant; ``not``/``and``/``or``/comparisons of those): folded, only the taken arm is lowered (the JIT does so);
* **constant flag** (a ``ct.Constant[bool]`` parameter, or a ``ct.Constant[int]`` compared with an integer): a
  constant-flag ``if`` (attrs ``flag``, ``test``) the cuTile JIT folds per launch; ``not`` swaps the arms,
  ``and``/``or`` nest them. Arms that give a name different types (or bind a name in one arm only that is used
  later) cannot share one body: :class:`~ctrs.frontends.cutile.module.Structural` is raised and ``lower_file`` lowers the
  kernel once per flag value (entries ``<kernel>__<FLAG>_<v>``, ir/naming.py ``variant_entry``);
* **runtime** (an ``i1`` value: comparisons of i32 / f32 scalars, ``and``/``or``/``not`` of those): a runtime
  ``if`` on that value. ``a and b`` / ``a or b`` are an ``if`` yielding the ``i1`` (cuTile Python's ast2hir
  short-circuit), ``not c`` is ``c xor true``.

Names re-bound in either arm are the ``if``'s results (each arm yields its value; an arm that does not touch a
name yields the value from before the ``if``).
"""

from __future__ import annotations

import operator

import libcst as cst

from ... import errors
from .module import Structural
from ...ir import typing as irtyping
from ...ir.constexpr import ConstExpr
from ...ir.floatexpr import FloatExpr
from ...ir.ops import Block, Op, OpKind
from ...ir.types import BOOL, F32, I32, DType, ScalarType, Sym, TileType
from ...ir.values import Value
from ...ir.typing import GenericMeetsConcrete
from ..builder import PREDICATES
from .values import DT, EnumRef, Poison

_CMP = {cst.Equal: "eq", cst.NotEqual: "ne", cst.LessThan: "lt", cst.LessThanEqual: "le", cst.GreaterThan: "gt",
        cst.GreaterThanEqual: "ge"}
_PY = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
       "ge": operator.ge}
_SYM = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_FLIP = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class FlagDType(Exception):
    """A stored value's dtype cast fails inside an arm of a constant-flag ``if`` (``if INTER_BF16: store a bf16 tile
    else: store an f32 tile`` into one array): the arrays' dtypes depend on the flag, as cuTile Python types only the
    arm it keeps per launch. ``lower_file`` lowers the kernel once per flag value, each entry with dtype variables
    of its own (a Structural split inside one dtype solution would force one dtype on both values)."""

    def __init__(self, flag: str, kind: str, line: int, why: str, literals: set[int]):
        super().__init__(f"{flag}: {why}")
        self.flag, self.kind, self.line, self.why, self.literals = flag, kind, line, why, literals


def in_flag_arm(lw, node, why: str) -> None:
    """Raise :class:`FlagDType` when lowering inside an arm of a constant-flag ``if`` (the innermost flag)."""
    arms = getattr(lw, "flag_stack", [])
    if arms:
        flag = arms[-1]
        raise FlagDType(flag.name, lw.flags.get(flag.name, "int"), lw.info.span(node).line, why, _tested(flag))


def _tested(flag) -> set[int]:
    """The literal a constant-flag test compares with (``if N:`` is ``N != 0``): an entry of its own in a split."""
    return {flag.value} if isinstance(flag.value, int) else set()


def dead_in_reference(lw, node, why: str) -> None:
    """A construct the reference compiler rejects (``why``), met in an arm of a constant-flag ``if``: cuTile Python
    types only the arm it keeps per launch, so the launches that fold the arm away compile. Raise
    :class:`~ctrs.frontends.cutile.module.Structural` on the innermost flag (one entry per value; ``lower_kernel`` leaves out
    the entries whose only blockers are such constructs: no launch of theirs compiles in the reference)."""
    arms = getattr(lw, "flag_stack", [])
    if arms:
        flag = arms[-1]
        s = Structural(flag.name, lw.info.span(node).line, f"{why} in one arm (the reference folds it per launch)")
        s.literals = _tested(flag)
        raise s


class Flag:
    """A constant-flag test: ``FLAG <op> value`` on a const-generic parameter (``value``: an int, or another
    const generic, a :class:`Sym`: ``TILE != N``)."""

    def __init__(self, name: str, op: str, value):
        self.name, self.op, self.value = name, op, value

    def python(self) -> str:
        """The test as cuTile Python spells it (notes; the emitter spells the port's)."""
        v = self.value.name if isinstance(self.value, Sym) else str(self.value)
        return f"{self.name} {_SYM[self.op]} {v}"


class ExprFlag:
    """A condition computed from ct.Constant values only that is not a :class:`Flag` (``STAGE & 1``,
    ``BLOCK % 16 == 0``, ``A == B + 1``): cuTile Python folds it per launch; the port's ``if`` spells it over
    the const generics and cutile folds it alike (ir/constexpr.py)."""

    def __init__(self, expr: ConstExpr):
        self.expr = expr
        self.name = expr.python()

    def python(self) -> str:
        return self.expr.python()


_ARITH_OPS = {cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.FloorDivide: "//", cst.Modulo: "%",
              cst.BitAnd: "&", cst.BitOr: "|", cst.BitXor: "^"}


def const_condition(lw, node) -> ExprFlag | None:
    """``node`` as an expression over ct.Constant symbols and integer literals / module constants (at least one
    symbol), as a condition; None when any part of it is something else (a runtime value, a call, a float)."""
    e = _const_operand(lw, node)
    return ExprFlag(e.condition()) if e is not None and e.syms() else None


def _const_operand(lw, node) -> ConstExpr | None:
    if isinstance(node, cst.Comparison):
        if len(node.comparisons) != 1 or type(node.comparisons[0].operator) not in _CMP:
            return None
        a, b = _const_operand(lw, node.left), _const_operand(lw, node.comparisons[0].comparator)
        op = _SYM[_CMP[type(node.comparisons[0].operator)]]
        return ConstExpr.binary(op, a, b) if a is not None and b is not None else None
    if isinstance(node, cst.BinaryOperation):
        op = _ARITH_OPS.get(type(node.operator))
        a, b = _const_operand(lw, node.left), _const_operand(lw, node.right)
        return ConstExpr.binary(op, a, b) if op and a is not None and b is not None else None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        a = _const_operand(lw, node.expression)
        if a is not None and a.op == "int":
            return ConstExpr.literal(-a.args[0])
        return ConstExpr("neg", (a,)) if a is not None and a.op not in ("truth", *_SYM.values()) else None
    if isinstance(node, (cst.Name, cst.Attribute, cst.Integer)):
        return _as_const(lw, lw.expr(node))
    return None


def _as_const(lw, v) -> ConstExpr | None:
    if isinstance(v, Sym):
        return ConstExpr.sym(v.name)
    if isinstance(v, Value):  # a name bound to arithmetic of ct.Constant values (remember_const)
        return lw.const_exprs.get(v.id)
    return ConstExpr.literal(v) if isinstance(v, (bool, int)) else None


def remember_const(lw, op: str, a, b, result) -> None:
    """Record the expression of a scalar computed by ``a <op> b`` from ct.Constant values only (``inner = 4 -
    STAGE``), so that a later condition on it (in the kernel or an inlined helper) is a const-generic test."""
    if not isinstance(result, Value) or result.id not in lw.sym_derived:
        return
    ea, eb = _as_const(lw, a), _as_const(lw, b)
    e = ConstExpr.binary(op, ea, eb) if ea is not None and eb is not None else None
    if e is not None:
        lw.const_exprs[result.id] = e


# -- conditions --------------------------------------------------------------------------------------------


def atom(lw, node):
    """A condition without ``not``/``and``/``or``: a Python bool, a :class:`Flag`, or an i1 Value."""
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1 and type(node.comparisons[0].operator) in _CMP:
        op = _CMP[type(node.comparisons[0].operator)]
        a, b = lw.expr(node.left), lw.expr(node.comparisons[0].comparator)
        if isinstance(a, Sym) and isinstance(b, Sym):  # two const generics: folded per launch (TILE != N)
            return op in ("eq", "le", "ge") if a == b else Flag(a.name, op, b)
        for x, y, o in ((a, b, op), (b, a, _FLIP[op])):
            if isinstance(x, Sym) and isinstance(y, int):
                other = lw.other.get(x.name)
                if other is not None and o in ("eq", "ne") and int(y) in other:
                    return o == "ne"  # the "any other value" entry of a structural int flag
                return Flag(x.name, o, int(y))
        if (isinstance(a, bool) or _number(a)) and (isinstance(b, bool) or _number(b)):
            return bool(_PY[op](a, b))
        folded = fold_compile_time(lw, op, a, b, node)
        if folded is not None:
            return folded
        flag = float_flag(lw, FloatExpr.binary(_SYM[op], lw.float_expr_of(a), lw.float_expr_of(b)), (a, b), node)
        if flag is not None:
            return flag
        return compare(lw, op, a, b, node)
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1 \
            and isinstance(node.comparisons[0].operator, (cst.Is, cst.IsNot)):
        a, b = _operand(lw, node.left), _operand(lw, node.comparisons[0].comparator)
        folded = fold_compile_time(lw, "eq", a, b, node)
        if folded is None:
            raise lw.err(node, "`is` / `is not` of values that are not known at translate time")
        return folded == isinstance(node.comparisons[0].operator, cst.Is)
    v = lw.expr(node)
    known = truth_of_constant(lw, v)
    if known is not None:
        return known
    if isinstance(v, Value) and isinstance(v.type, ScalarType):
        test = const_test(lw, v)  # a name bound to a comparison of ct.Constant ints (`big = G != 4`)
        if test is not None:
            return test
        flag = float_flag(lw, lw.float_exprs.get(v.id), (v,), node)  # `drop_all = P >= 1.0` ... `if drop_all:`
        if flag is not None:
            return flag
        if v.type.dtype == BOOL:
            return v
        if v.type.dtype == I32:
            return compare(lw, "ne", v, 0, node)
    raise lw.err(node, "a condition other than a compile-time value, a ct.Constant flag or a scalar comparison")


def float_flag(lw, e: FloatExpr | None, operands: tuple, node) -> Flag | None:
    """A comparison computed from ct.Constant[float] values (``P >= 1.0``, ir/floatexpr.py) as a constant-flag
    test: cuTile Python decides it at compile time in double precision, so the port tests a host-computed 0/1
    const generic (``RATE_GE_1 == 1``) that cutile folds per launch like the reference."""
    if e is None or not e.compare() or not e.floating() or not any(
            isinstance(x, Value) and x.id in lw.float_exprs for x in operands):
        return None
    g = lw.float_generic(e, node)
    lw.note(node, "float-const", f"if {e.python()}: a compile-time comparison of ct.Constant[float] values (double "
                                 f"precision in the reference) -> host-computed 0/1 const generic {g.name}")
    return Flag(g.name, "eq", 1)


def fold_compile_time(lw, op: str, a, b, node) -> bool | None:
    """``==`` / ``!=`` of two compile-time values that are not numbers, folded as cuTile Python folds them at JIT
    time: dtypes (``a.dtype == ct.float32``), None, strings, enum members. A dtype test on the arrays' element type
    ``E`` depends on the launch: its blocker asks for one entry per element type (lower_file), where it folds.
    None when ``a`` / ``b`` are not such values."""
    if op not in ("eq", "ne") or any(isinstance(x, (Value, Sym)) for x in (a, b)):
        return None
    if isinstance(a, DT) and isinstance(b, DT):
        if a.dtype == b.dtype:
            return op == "eq"
        if isinstance(a.dtype, DType) and isinstance(b.dtype, DType):
            return op == "ne"
        cause = GenericMeetsConcrete(f"a dtype test of {a.dtype} against {b.dtype} depends on the element type")
        raise lw.err(node, "a dtype test on the arrays' element type E (lowered once per element type)") from cause
    if a is None or b is None or all(isinstance(x, (str, EnumRef)) for x in (a, b)):  # PadMode is a str
        same = _key(a) == _key(b) if a is not None and b is not None else a is b
        return same if op == "eq" else not same
    return None


def _operand(lw, node):
    """An operand of ``is`` / ``is not``: ``None`` itself, else the expression's value."""
    return None if isinstance(node, cst.Name) and node.value == "None" else lw.expr(node)


def _key(v):
    return v.dotted if isinstance(v, EnumRef) else v


def compare(lw, op: str, a, b, node) -> Value:
    """A runtime comparison of two scalars (i32 / float; Python numbers take the other side's dtype)."""
    if isinstance(a, Sym):
        a = lw.i32(a, node)
    if isinstance(b, Sym):
        b = lw.i32(b, node)
    if not isinstance(a, Value) and not isinstance(b, Value):
        raise lw.err(node, "a comparison of two compile-time values that are not numbers")
    a = lw.tile_of(a, b if isinstance(b, Value) else a, node)
    b = lw.tile_of(b, a, node)
    if hasattr(lw, "scalar_of"):  # cuTile: a 0-d tile is a scalar (`if x < ct.gather(n_ptr, 0)`)
        a, b = lw.scalar_of(a, node), lw.scalar_of(b, node)
    if not (isinstance(a.type, ScalarType) and isinstance(b.type, ScalarType)):
        raise lw.err(node, "an if-condition on a tile (only scalar comparisons are conditions)")
    a, b = lw.unify(a, b, node)
    dt = a.type.dtype
    if not isinstance(dt, DType):  # cmpf or cmpi: depends on the dtype variable
        try:
            irtyping.depends(dt, "a comparison of scalars")
        except irtyping.PromotionError as e:
            raise lw.err(node, str(e)) from e
    if not isinstance(dt, DType) or dt == BOOL:
        raise lw.err(node, f"a comparison of {a.type} scalars")
    if not dt.is_float:
        return lw.emit(OpKind.CMPI, [a, b], [ScalarType(BOOL)], node, "cond", predicate=op).result
    # floats compare ordered except `!=` (NaN != x is true), as Builder.compare and cuTile Python's lowering
    return lw.emit(OpKind.CMPF, [a, b], [ScalarType(BOOL)], node, "cond", predicate=op,
                   ordering="unordered" if op == "ne" else "ordered").result


def runtime_bool(lw, node) -> Value | bool:
    """A condition evaluated to an i1 value (or a Python bool when it folds), as cuTile Python's ast2hir does:
    ``a and b`` -> ``if a { yield b } else { yield a }``; a constant flag inside is not supported here."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        c = runtime_bool(lw, node.expression)
        if isinstance(c, bool):
            return not c
        true = lw.const(True, BOOL, node)
        return lw.emit(OpKind.XORI, [c, true], [ScalarType(BOOL)], node, "ncond").result
    if isinstance(node, cst.BooleanOperation):
        is_and = isinstance(node.operator, cst.And)
        c0 = runtime_bool(lw, node.left)
        if isinstance(c0, bool):
            return runtime_bool(lw, node.right) if c0 == is_and else c0
        outer = lw.block
        arms = []
        for first in (True, False):
            lw.block = Block()
            if first == is_and:
                c1 = runtime_bool(lw, node.right)
                if isinstance(c1, bool):
                    c1 = lw.const(c1, BOOL, node)
            else:
                c1 = c0
            lw.block.ops.append(Op(OpKind.YIELD, [c1], [], loc=lw.loc(node)))
            arms.append(lw.block)
        lw.block = outer
        return lw.emit_op(Op(OpKind.IF, [c0], [Value(ScalarType(BOOL), "cond")], {}, lw.loc(node), arms)).result
    c = atom(lw, node)
    if isinstance(c, Flag):
        raise lw.err(node, "a ct.Constant flag inside a runtime and/or")
    return c


def _mentions_runtime(lw, node) -> bool:
    """Whether ``node`` (an and/or operand) is a runtime condition, without lowering anything."""
    names = set()

    class V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            names.add(n.value)

        def visit_Call(self, n: cst.Call) -> None:
            names.add("<call>")

    node.visit(V())
    derived = getattr(lw, "sym_derived", ())  # a value computed from ct.Constant parameters only is not runtime
    return "<call>" in names or any(isinstance(lw.env.get(n), Value) and lw.env[n].id not in derived for n in names)


# -- branches ----------------------------------------------------------------------------------------------


def branch(lw, test, then_fn, else_fn, node, tail: bool = False) -> None:
    """Lower ``if test: then_fn() else: else_fn()`` (the arms are callables that lower their statements).
    ``tail``: nothing follows the ``if`` (early_return.py), so its arms re-bind names without results."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) \
            and not _mentions_runtime(lw, test.expression):
        return branch(lw, test.expression, else_fn, then_fn, node, tail)
    if isinstance(test, cst.BooleanOperation) and not _mentions_runtime(lw, test.left):
        a, b = test.left, test.right
        if isinstance(test.operator, cst.And):
            return branch(lw, a, lambda: branch(lw, b, then_fn, else_fn, node, tail), else_fn, node, tail)
        return branch(lw, a, then_fn, lambda: branch(lw, b, then_fn, else_fn, node, tail), node, tail)
    if isinstance(test, (cst.BooleanOperation, cst.UnaryOperation)):
        c = runtime_bool(lw, test)
    else:
        c = atom(lw, test)
        if isinstance(c, Value) and c.id in lw.sym_derived:  # the ops computing c are left to dce
            c = const_condition(lw, test) or c
    if isinstance(c, bool):
        fixed = sorted(f for f in lw.fixed if f in _code(lw, test))
        why = f"fixed by the variant ({', '.join(fixed)})" if fixed else "known at translate time"
        lw.note(node, "branch", f"if {_code(lw, test)} -> {c}, {why}: folded, {'then' if c else 'else'} arm kept")
        return (then_fn if c else else_fn)()
    two_arms(lw, c, then_fn, else_fn, node, _code(lw, test), tail)


def _code(lw, node) -> str:
    return lw.info.module.code_for_node(node)


def _splits_on_a_constant(lw, c: Value) -> bool:
    """Whether cuTile Python's loop_split would split the enclosing loop on this runtime ``if`` (directly in
    the body, on ``iv <op> bound`` with lt le gt ge and ``bound`` defined before the loop) depending on the
    value of a ct.Constant step: it splits a loop whose step is the constant 1 only (passes/loopsplit.py
    splits the loops whose step is the literal 1; a symbolic step is decided per launch by the reference)."""
    if not lw.loops:
        return False
    iv, body, step = lw.loops[-1]
    if lw.block is not body or not isinstance(step, Sym):
        return False
    d = next((op for op in body.ops if c in op.results), None)
    if d is None or d.kind != OpKind.CMPI or d.attrs.get("predicate") not in ("lt", "le", "gt", "ge"):
        return False
    inside = {r.id for op in body.ops for r in op.results} | {a.id for a in body.args}
    a, b = d.operands
    return (a is iv and b.id not in inside) or (b is iv and a.id not in inside)


def two_arms(lw, c, then_fn, else_fn, node, text: str = "", tail: bool = False) -> None:
    expr = c if isinstance(c, ExprFlag) else None
    flag = c.name if isinstance(c, Flag) else None
    if flag is None and expr is None and c.id in getattr(lw, "sym_derived", ()):
        raise errors.CtrsError(errors.IR_CONST_CONDITION, f"a runtime if on '{text}', a value computed from "
                               "ct.Constant parameters", "cuTile Python folds it per launch (a compile-time "
                               "condition: one arm in its IR); the typed path folds a constant-flag test only as "
                               "`FLAG <op> literal` or a ct.Constant[bool], and a runtime if is not the reference's "
                               "IR", lw.loc(node))
    if flag is None and expr is None and _splits_on_a_constant(lw, c):
        raise errors.CtrsError(errors.IR_LOOP_SPLIT_STEP, "a runtime if on the loop index against a loop bound in a "
                               "loop whose step is a ct.Constant", "cuTile Python's loop_split splits the loop in two "
                               "when the step's value is 1 (cuda/tile/_passes/loop_split.py); the port cannot know "
                               "the step at translate time: write the step as a literal", lw.loc(node))
    line = lw.info.span(node).line
    pre = dict(lw.env)
    outer = lw.block
    arms = []
    arms_of = lw.__dict__.setdefault("flag_stack", [])  # the constant-flag tests whose arm is lowered
    for fn in (then_fn, else_fn):
        lw.env, lw.block = dict(pre), Block()
        if flag is not None:
            arms_of.append(c)
        try:
            fn()
        finally:
            if flag is not None:
                arms_of.pop()
        arms.append((lw.block, lw.env))
    lw.block, lw.env = outer, dict(pre)
    (tb, te), (eb, ee) = arms
    merged: list[str] = []
    for name in [] if tail else [*te, *(n for n in ee if n not in te)]:
        tv, ev, pv = te.get(name), ee.get(name), pre.get(name)
        if tv is pv and ev is pv:
            continue
        if isinstance(tv, Poison) or isinstance(ev, Poison):  # an arm's statement failed (recovery.py)
            lw.env[name] = tv if isinstance(tv, Poison) else ev
            continue
        if tv is None or ev is None:  # bound in one arm only: local to it (an error if read after the if)
            lw.env.pop(name, None)
            lw.one_armed[name] = (flag, line)
            continue
        if not isinstance(tv, Value) or not isinstance(ev, Value):
            if type(tv) is type(ev) and not isinstance(tv, Value) and _same(tv, ev):
                lw.env[name] = tv
                continue
            made = _number_as_runtime(lw, tv, ev, tb, te, node) or _number_as_runtime(lw, ev, tv, eb, ee, node)
            if made is not None:
                (te if made[0] is tb else ee)[name] = made[1]
                merged.append(name)
                continue
            why = f"'{name}' is a different compile-time value in each arm"
        elif tv.type != ev.type:
            lifted = _scalar_as_tile(lw, tv, ev, tb, te, node) or _scalar_as_tile(lw, ev, tv, eb, ee, node)
            if lifted is not None:
                (te if lifted[0] is tb else ee)[name] = lifted[1]
                merged.append(name)
                continue
            why = f"'{name}' is {tv.type} in one arm and {ev.type} in the other"
        else:
            merged.append(name)
            continue
        if flag is not None and _dtypes_differ(tv, ev) and getattr(lw, "SPLIT_DTYPE_ARMS", False):
            # a value of another element type per arm (`c = ct.astype(acc, ct.float16)` under OUTPUT_DTYPE == 1):
            # what the arrays it reaches are depends on the flag, so each value gets dtype variables of its own
            raise FlagDType(flag, lw.flags.get(flag, "int"), line, why, _tested(c))
        if flag is not None:  # one entry per value: the literal the test compares with gets an entry of its own
            s = Structural(flag, line, why)
            s.literals = _tested(c)
            raise s
        e = lw.err(node, f"{'if on ' + expr.name if expr else 'runtime if'}: {why}")
        if isinstance(tv, Value) and isinstance(ev, Value):  # types that agree for some dtypes of a variable
            e.__cause__ = irtyping.depends_on([tv.type, ev.type], f"'{name}' in each arm of an if")
        raise e
    tb.ops.append(Op(OpKind.YIELD, [te[n] for n in merged], [], loc=lw.loc(node)))
    eb.ops.append(Op(OpKind.YIELD, [ee[n] for n in merged], [], loc=lw.loc(node)))
    results = [Value(te[n].type, n if not n.startswith("\0") else "sel") for n in merged]
    if expr is not None:
        op = Op(OpKind.IF, [], results, {"flag": expr.name, "expr": expr.expr}, lw.loc(node), [tb, eb])
    elif flag is not None:
        op = Op(OpKind.IF, [], results, {"flag": flag, "test": (c.op, c.value)}, lw.loc(node), [tb, eb])
    else:
        op = Op(OpKind.IF, [c], results, {}, lw.loc(node), [tb, eb])
    lw.emit_op(op)
    for n, r in zip(merged, results):
        lw.env[n] = r
    how = f"const-generic if {c.python()} (folded by the cuTile JIT)" if flag or expr else "runtime if"
    names = [n for n in merged if not n.startswith("\0")]
    lw.note(node, "branch", f"if {text} -> {how}" + (f"; re-binds {', '.join(names)} in both arms" if names else ""))


def _dtypes_differ(a, b) -> bool:
    """Whether two arm values are tiles of one shape and two concrete element types (``ct.astype(acc, ct.float16)``
    against ``acc``). 0-d tiles and scalars are not (a length loaded from an array of a dtype variable against a
    runtime int: its dtype is a trial of the dtype solver's, dtypes.entries, which handles it)."""
    ta, tb = getattr(a, "type", None), getattr(b, "type", None)
    return isinstance(ta, TileType) and isinstance(tb, TileType) and ta.shape == tb.shape and len(ta.shape) >= 1 \
        and isinstance(ta.dtype, DType) and isinstance(tb.dtype, DType) and ta.dtype != tb.dtype


def _number_as_runtime(lw, v, other, block: Block, env: dict, node):
    """An arm that binds a Python number where the other arm binds a runtime scalar of a matching type
    (``lo = 0`` / ``lo = ct.maximum(0, start - W)``): cuTile Python's ``if`` yields the number as a constant of
    that type from its arm (folded with the arm when the condition is a ct.Constant test). Returns ``(block,
    constant)`` emitted at the end of ``block`` (the arm's, before its yield), or None when ``v`` is not such a
    number (a value computed from ct.Constant parameters only keeps the compile-time split)."""
    if not isinstance(other, Value) or other.id in getattr(lw, "sym_derived", ()) or isinstance(v, bool):
        return None
    t = other.type
    if not (isinstance(t, ScalarType) or (isinstance(t, TileType) and t.shape == ())) \
            or not isinstance(t.dtype, DType):
        return None
    if not (isinstance(v, int) and t.dtype == I32) and not (isinstance(v, float) and t.dtype == F32):
        return None
    saved = lw.block, lw.env
    lw.block, lw.env = block, env
    try:
        c = lw.const(v, t.dtype, node, shape=() if isinstance(t, TileType) else None, hint="c")
    finally:
        lw.block, lw.env = saved
    lw.note(node, "branch", f"an arm binds {v!r} where the other binds a runtime {t}: yielded as a constant")
    return block, c


def _scalar_as_tile(lw, v, other, block: Block, env: dict, node):
    """An arm that binds a runtime scalar where the other binds a 0-d tile of its dtype (``kv_end = n`` /
    ``kv_end = min(n, ..)``): one type in cuTile Python (a scalar is a 0-d tile), so the arm yields the scalar
    lifted to a 0-d tile (to_tile: no Tile IR op). Returns ``(block, tile)`` emitted at the end of ``block``, or
    None when the two are not such a pair."""
    if not (isinstance(v, Value) and isinstance(other, Value) and isinstance(v.type, ScalarType)
            and isinstance(other.type, TileType) and other.type.shape == () and other.type.dtype == v.type.dtype):
        return None
    saved = lw.block, lw.env
    lw.block, lw.env = block, env
    try:
        t = lw.to_tile(v, node)
    finally:
        lw.block, lw.env = saved
    return block, t


def _same(a, b) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - values without a meaningful equality are different
        return False


def if_stmt(lw, s: cst.If) -> None:
    def arm(stmts):
        def run():
            for st in stmts:
                lw.stmt(st)
        return run

    branch(lw, s.test, arm(s.body.body), arm(else_statements(s)), s)


def else_statements(s: cst.If) -> tuple:
    """The statements of an ``if``'s else arm: none, the ``elif`` as one nested ``if``, or the else block's."""
    if s.orelse is None:
        return ()
    if isinstance(s.orelse, cst.If):  # elif
        return (s.orelse,)
    return tuple(s.orelse.body.body)


def if_expr(lw, node: cst.IfExp, hint: str):
    """``a if c else b``: folded when ``c`` is compile-time, else an ``if`` yielding the value."""
    tmp = f"\0ifexp{id(node)}"

    def arm(expr):
        def run():
            lw.env[tmp] = lw.expr(expr, hint)
        return run

    branch(lw, node.test, arm(node.body), arm(node.orelse), node)
    v = lw.env.pop(tmp, None)
    if v is None:
        raise lw.err(node, "a conditional expression without a value")
    return v


def const_test(lw, v) -> Flag | ExprFlag | None:
    """The ct.Constant test a compile-time-per-specialisation value ``v`` stands for: a ``ct.Constant[bool]``
    (``check_bounds=CHECK``), a ``ct.Constant[int]`` (true when non-zero) or a comparison of ct.Constant ints
    (``check = TILE != N``, Lowering.const_tests); None for anything else."""
    if isinstance(v, Sym):
        return Flag(v.name, "eq", 1) if lw.flags.get(v.name) == "bool" else Flag(v.name, "ne", 0)
    test = lw.const_tests.get(v.id) if isinstance(v, Value) else None
    if test is None:  # other arithmetic of ct.Constant values (`ct.cdiv(N, T) * T != N`): an expression test
        e = lw.const_exprs.get(v.id) if isinstance(v, Value) else None
        return ExprFlag(e.condition()) if e is not None and e.syms() else None
    op, a, b = test
    pred = PREDICATES[op]
    if isinstance(a, Sym):
        return Flag(a.name, pred, b)
    return Flag(b.name, _FLIP[pred], a)


def flag_arms(lw, flag: Flag, lower_arm, node, text: str):
    """``lower_arm(True)`` and ``lower_arm(False)`` (a call whose attribute follows ``flag``) as the arms of a
    constant-flag ``if`` on ``flag``: the cuTile JIT folds it per launch, as cuTile Python folds the attribute.
    Returns the arms' value (None for a statement such as ct.store)."""
    tmp = f"\0flagarm{id(node)}"

    def arm(value: bool):
        def run():
            lw.env[tmp] = lower_arm(value)
        return run

    two_arms(lw, flag, arm(True), arm(False), node, text)
    return lw.env.pop(tmp, None)


def signal_one_armed(lw, name: str, node) -> None:
    """Reading a name bound in one arm of an ``if`` only: a structural flag (lowered per value), else an error."""
    flag, line = lw.one_armed[name]
    if flag is not None:
        raise Structural(flag, line, f"'{name}' is bound in one arm only and used after the if")
    raise lw.err(node, f"'{name}' is bound in one arm of a runtime if only")


__all__ = ["ExprFlag", "Flag", "FlagDType", "dead_in_reference", "in_flag_arm", "atom", "const_condition", "remember_const", "branch", "compare", "const_test", "flag_arms", "if_expr", "if_stmt", "runtime_bool",
           "signal_one_armed", "two_arms"]


def truth_of_constant(lw, v):
    """A compile-time value used as a condition: a number's truth, a const-generic flag test (a bool flag `== 1`,
    an int flag `!= 0`, True in the entry where the flag stands for values other than 0); None otherwise."""
    if isinstance(v, (bool, int, float)):
        return bool(v)
    if isinstance(v, Sym):
        if lw.flags.get(v.name) == "bool":
            return Flag(v.name, "eq", 1)
        other = lw.other.get(v.name)
        if other is not None and 0 in other:
            return True
        return Flag(v.name, "ne", 0)
    return None
