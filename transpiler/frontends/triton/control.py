"""Control flow and statements of the typed Triton front end: ``if`` / ``elif`` / ``else``, early return,
annotated assignment, and the keep-going recovery of every statement.

A condition is classified as Triton's code generator sees it:

* **compile-time** (literals, Python values; ``not``/``and``/``or``/comparisons of those): folded, only the taken
  arm is lowered (Triton does not even type-check the other);
* **constexpr flag** (a ``tl.constexpr`` parameter, or one compared with an integer literal): a constant-flag ``if``
  (attrs ``flag``, ``test``) folded per specialisation, as cuTile's ``ct.Constant`` flags (the cuTile front end's
  control.py builds the ``if``; arms that cannot share one body split the kernel into structural entries,
  ``<kernel>__<FLAG>_<v>``); ``not`` flips the test, ``and``/``or`` of flags nest the ``if``s;
* **runtime** (an i1 scalar: comparisons of scalar values): a runtime ``if``; ``a and b`` / ``a or b`` of runtime
  conditions are ``andi`` / ``ori`` of both sides (Triton evaluates both operands of a ``BoolOp``; no short
  circuit), ``not c`` is ``c xor true``.

``if c: return`` (no ``else``) directly in the kernel body is an early return: the rest of the kernel runs under
``if not c`` (Triton ends the program there). Any other ``return`` or a ``raise`` that is lowered (not in a folded arm)
is a blocker. A blocker in a statement is recorded and lowering goes on (the cuTile front end's recovery.py):
every blocker of a kernel is reported, one per construct.
"""

from __future__ import annotations

from types import SimpleNamespace

import libcst as cst

from ..pysource import is_docstring
from ...ir import typing as irtyping
from ...ir.ops import Op, OpKind
from ...ir.types import BOOL, F32, I32, I64, DType, ScalarType, Sym, TileType
from ...ir.values import Value
from ..cutile.control import Flag, else_statements, truth_of_constant, two_arms
from ..cutile.early_return import returns_early
from .descriptors import names_in
from .loop_returns import lowered as loop_lowered, returns_in_loop
from ..cutile.recovery import guard, live
from .pointers import Mask, Range

_CMP = {cst.Equal: "eq", cst.NotEqual: "ne", cst.LessThan: "lt", cst.LessThanEqual: "le", cst.GreaterThan: "gt",
        cst.GreaterThanEqual: "ge"}
_FLIP = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}
_NOT = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "le": "gt", "gt": "le"}
_PY = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b, "le": lambda a, b: a <= b,
       "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}


class Control:
    """Mixed into the Triton Lowering: the state the cuTile front end's control.py and recovery.py read."""

    def setup_control(self) -> None:
        tf = self.tf
        self.info = SimpleNamespace(module=tf.module, span=lambda node: SimpleNamespace(line=tf.line(node)))
        self.flags: dict[str, str] = _bool_flags(tf, self.fn)
        self.fixed: dict[str, int] = {}  # structural variant: flags lowered with a fixed value
        self.other: dict[str, set[int]] = {}  # the "any other value" entry of an int flag
        self.one_armed: dict[str, tuple] = {}
        self.loops: list = []  # the cuTile loop_split check does not apply to Triton references
        self.returns = None
        self.blockers: list = []
        self.pending: list = []  # blockers of parameters (recovery.py; none in Triton)
        self.ties: dict[tuple, list] = {}  # (mask bound, "param" / "const") -> the array axes it limits
        self.float_consts: dict[str, Value] = {}  # tl.constexpr parameters that are floats (constexprs.py)

    def tie(self, bound: str, kind: str, arr: str, axis: int) -> None:
        """Mask bound ``bound`` (a parameter or a constexpr) limits ``arr``'s axis ``axis`` (host.py's ``ties``)."""
        axes = self.ties.setdefault((bound, kind), [])
        if [arr, axis] not in axes:
            axes.append([arr, axis])

    def emit_op(self, op: Op) -> Op:
        self.block.ops.append(op)
        return op

    def lookup(self, node: cst.Name):
        """A name's value (live: a name a failed statement bound is poison, recovery.py)."""
        if node.value in self.one_armed and node.value not in self.env:
            from ..cutile.control import signal_one_armed  # noqa: PLC0415
            signal_one_armed(self, node.value, node)
        return live(self.env[node.value])

    def statements(self, stmts, top: bool = False) -> None:
        """A block of statements, each guarded (a blocker is recorded, lowering goes on); in the kernel body an
        ``if c: return`` makes the rest of the body its ``else`` arm."""
        stmts = list(stmts)
        for i, s in enumerate(stmts):
            if i == 0 and top and is_docstring(s):
                continue
            if top and _is_guard_return(s):
                rest = stmts[i + 1:]
                with guard(self, s, _bound(rest)):
                    self.note(s, "control", "early return -> the rest of the kernel runs under the negated condition")
                    branch(self, s.test, lambda: self.statements(rest, top=True), lambda: None, s, negate=True)
                return
            if top and returns_in_loop(s):  # a return inside a loop: a flag (loop_returns.py)
                self.note(s, "control", "a return inside the loop -> a flag: the rest of each iteration and the "
                          "statements after the loop run while no return was reached (loop_returns.py)")
                return self.statements([*stmts[:i], *loop_lowered(s, stmts[i + 1:])][i:], top=True)
            if top and _bare_return(s):
                self.note(s, "control", "return: the end of the kernel on this path (what follows is not reached)")
                return
            if top and returns_early(s):  # a return in a nested if / elif / else (cuTile front end's rule)
                rest = stmts[i + 1:]
                with guard(self, s, _bound(rest)):
                    self.note(s, "control", "an if that returns early (in a nested arm) -> the statements after it "
                              "move into its arms (cutile lowers a return only at a function body's top level)")
                    branch(self, s.test, self._to_end([*s.body.body, *rest]),
                           self._to_end([*else_statements(s), *rest]), s, tail=True)
                return
            with guard(self, s):
                self.stmt(s)

    def _to_end(self, stmts):
        return lambda: self.statements(stmts, top=True)

    def control_stmt(self, s) -> bool:
        """Lower a statement this module owns; False when it is not one."""
        if isinstance(s, cst.If):
            if_stmt(self, s)
            return True
        return False

    def control_small(self, s) -> bool:
        if isinstance(s, cst.AnnAssign) and isinstance(s.target, cst.Name) and s.value is not None:
            if self.dotted(s.annotation.annotation) == "tl.constexpr" and isinstance(s.value, cst.BooleanOperation) \
                    and _flag_expr(self, s.value):
                self.env[s.target.value] = FlagAlias(_expand(self, s.value))  # `BOTH: tl.constexpr = A and B`
                return True
            self.bind(s.target.value, self.expr(s.value, hint=s.target.value))  # `x: tl.constexpr = ..`
            return True
        if isinstance(s, cst.Return):
            raise self.err(s, "a return other than `if cond: return` directly in the kernel body")
        if isinstance(s, cst.Raise):
            raise self.err(s, "a raise that is reached (only one in an arm folded away at translate time is dropped)")
        if isinstance(s, cst.Assert):
            raise self.err(s, "an assert")
        return False


def _bound(stmts) -> list[str]:
    from ..cutile.recovery import bound_names  # noqa: PLC0415
    out: list[str] = []
    for s in stmts:
        out += [n for n in bound_names(s) if n not in out]
    return out


class FlagAlias:
    """``NAME: tl.constexpr = <and / or / not of constexpr flags>`` (unsloth's ``TMA_LOAD_BOTH: tl.constexpr =
    USE_TMA_LOAD_X and USE_TMA_LOAD_dY``): a condition naming it is the expression (``node``, aliases expanded),
    so ``if USE_X and not BOTH`` nests the flags' ifs as any and / or / not of flags does (:func:`branch`)."""

    def __init__(self, node):
        self.node = node


def _flag_expr(lw, node) -> bool:
    """``node`` is an and / or / not of tl.constexpr flags (or aliases of such)."""
    if isinstance(node, cst.BooleanOperation):
        return _flag_expr(lw, node.left) and _flag_expr(lw, node.right)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return _flag_expr(lw, node.expression)
    if isinstance(node, cst.Name):
        v = lw.env.get(node.value)
        return isinstance(v, (FlagAlias, Sym, bool, int))
    return False


def _expand(lw, node):
    """``node`` with every flag alias replaced by its (parenthesised) expression."""
    class T(cst.CSTTransformer):
        def leave_Name(self, orig, new):
            v = lw.env.get(orig.value)
            if isinstance(v, FlagAlias):
                return v.node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
            return new

    return node.visit(T())


def _bare_return(s) -> bool:
    return isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Return) \
        and s.body[0].value is None


def _is_guard_return(st) -> bool:
    """``if cond: return`` (no else)."""
    if not isinstance(st, cst.If) or st.orelse is not None:
        return False
    body = st.body.body
    return (len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1
            and isinstance(body[0].body[0], cst.Return) and body[0].body[0].value is None)


def _bool_flags(tf, fn: cst.FunctionDef) -> dict[str, str]:
    """``tl.constexpr`` parameters that are flags: a bool default, or only ever tested for truth (``if F``,
    ``not F``, ``F and G``)."""
    consts = {p.name.value: p for p in fn.params.params
              if p.annotation and tf.dotted(p.annotation.annotation) == "tl.constexpr"}
    out = {n: "bool" for n, p in consts.items()
           if isinstance(p.default, cst.Name) and p.default.value in ("True", "False")}
    tests: set[int] = set()
    uses: dict[str, int] = {}

    class V(cst.CSTVisitor):
        def visit_If(self, n: cst.If) -> None:
            tests.add(id(n.test))

        def visit_IfExp(self, n: cst.IfExp) -> None:
            tests.add(id(n.test))

        def visit_UnaryOperation(self, n: cst.UnaryOperation) -> None:
            if isinstance(n.operator, cst.Not):
                tests.add(id(n.expression))

        def visit_BooleanOperation(self, n: cst.BooleanOperation) -> None:
            tests.update((id(n.left), id(n.right)))

        def visit_Name(self, n: cst.Name) -> None:
            if n.value in consts:
                uses[n.value] = uses.get(n.value, 0) + (0 if id(n) in tests else 1)

    fn.body.visit(V())
    out.update({n: "bool" for n, k in uses.items() if k == 0})
    return out


# -- conditions --------------------------------------------------------------------------------------------


def _number(v) -> bool:
    return isinstance(v, (int, float, bool))


def condition(lw, node):
    """A Python bool (compile-time), a :class:`Flag` (constexpr test) or an i1 Value (runtime)."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return negated(lw, condition(lw, node.expression), node)
    if isinstance(node, cst.BooleanOperation):
        is_and = isinstance(node.operator, cst.And)
        a, b = condition(lw, node.left), condition(lw, node.right)
        for x, y in ((a, b), (b, a)):
            if isinstance(x, bool):
                return y if x == is_and else x
        if isinstance(a, Flag) or isinstance(b, Flag):
            raise lw.err(node, "a tl.constexpr flag and a runtime condition in one and/or")
        if a.type != b.type:  # a Triton scalar that is a 0-d tile meets an i1 scalar: both 0-d tiles
            a, b = lw.unify(a, b, node)
        return lw.emit(OpKind.ANDI if is_and else OpKind.ORI, [a, b], [a.type], node, "cond").result
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        c = node.comparisons[0]
        if isinstance(c.operator, (cst.Is, cst.IsNot)):
            return _is_none(lw, node)
        op = _CMP.get(type(c.operator))
        if op is None:
            raise lw.err(node, f"comparison {type(c.operator).__name__} in a condition")
        a, b = lw.expr(node.left), lw.expr(c.comparator)
        if isinstance(a, Sym) and isinstance(b, Sym) and a == b:
            return op in ("eq", "le", "ge")
        for x, y, o in ((a, b, op), (b, a, _FLIP[op])):
            if isinstance(x, Sym) and isinstance(y, int) and not isinstance(y, bool):
                other = lw.other.get(x.name)
                if other is not None and o in ("eq", "ne") and y in other:
                    return o == "ne"
                return Flag(x.name, o, y)
        if _number(a) and _number(b):
            return bool(_PY[op](a, b))
        r = lw.comparison(node)
        return r if isinstance(r, bool) else truth(lw, r, node)  # a dtype test (lowering.dtype_test)
    v = lw.expr(node)
    known = truth_of_constant(lw, v)
    if known is not None:
        return known
    v = lw.value(v, node)
    if isinstance(v, Value) and isinstance(v.type, ScalarType) and v.type.dtype == I32:
        return lw.compare("ne", v, 0, node, "cond")
    return truth(lw, v, node)


def negated(lw, c, node):
    if isinstance(c, bool):
        return not c
    if isinstance(c, Flag):
        return Flag(c.name, _NOT[c.op], c.value)
    shape = c.type.shape if isinstance(c.type, TileType) else None  # a 0-d bool tile (truth) stays one
    return lw.emit(OpKind.XORI, [c, lw.const(True, BOOL, node, shape)], [c.type], node, "ncond").result


def truth(lw, v, node) -> Value:
    """A runtime condition as Triton's ``if`` takes it: a scalar, ``cond.to(tl.int1)``. A Triton scalar that is a
    0-d tile here (``tl.load`` of one element, a reduction over every axis, a comparison of those) is one: a bool
    is the condition itself (the emitter reads it with ``tile_to_scalar``), a number is ``x != 0``. A tile with
    lanes is refused as Triton refuses it (scf.if takes one i1)."""
    if isinstance(v, Value) and v.type == ScalarType(BOOL):
        return v
    if isinstance(v, Value) and isinstance(v.type, TileType) and v.type.shape == () and isinstance(v.type.dtype, DType):
        if v.type.dtype == BOOL:
            return v
        return lw.compare("ne", v, 0, node, "cond")
    raise lw.err(node, "an if-condition that is not a scalar (a tile condition: use tl.where)")


def _is_none(lw, node):
    """``X is None`` / ``X is not None``: compile-time when X is a value of the kernel (never None); a
    constexpr that may be None at launch cannot be a const generic."""
    c = node.comparisons[0]
    if not (isinstance(c.comparator, cst.Name) and c.comparator.value == "None"):
        raise lw.err(node, "`is` other than `is None` / `is not None`")
    v = lw.expr(node.left)
    if isinstance(v, Sym):
        raise lw.err(node, f"'{v.name} is None': a tl.constexpr that may be None (pass a flag instead)")
    return isinstance(c.operator, cst.IsNot) == (v is not None)


# -- branches ----------------------------------------------------------------------------------------------


def _runtime(lw, node) -> bool:
    """Whether ``node`` mentions a runtime value (a call, or a name bound to anything but a compile-time value)."""
    found = []

    class V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            v = lw.env.get(n.value)
            if v is not None and not isinstance(v, (Sym, bool, int, float)):
                found.append(n)

        def visit_Call(self, n: cst.Call) -> None:
            found.append(n)

    node.visit(V())
    return bool(found)


def branch(lw, test, then_fn, else_fn, node, negate: bool = False, tail: bool = False) -> None:
    """Lower ``if test: then_fn() else: else_fn()`` (the arms are callables that lower their statements);
    ``negate``: ``if not test``; ``tail``: nothing follows the ``if`` (an early return's arms), so its arms
    re-bind names without results."""
    if any(isinstance(lw.env.get(n), FlagAlias) for n in names_in(test)):
        test = _expand(lw, test)
    if negate and not _runtime(lw, test):
        return branch(lw, test, else_fn, then_fn, node, tail=tail)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) \
            and isinstance(test.expression, cst.BooleanOperation) and not _runtime(lw, test):
        return branch(lw, test.expression, else_fn, then_fn, node, tail=tail)  # not (A and B): arms swapped
    if isinstance(test, cst.BooleanOperation) and not _runtime(lw, test):
        a, b = test.left, test.right
        if isinstance(test.operator, cst.And):
            return branch(lw, a, lambda: branch(lw, b, then_fn, else_fn, node, tail=tail), else_fn, node, tail=tail)
        return branch(lw, a, then_fn, lambda: branch(lw, b, then_fn, else_fn, node, tail=tail), node, tail=tail)
    c = condition(lw, test)
    text = lw.tf.module.code_for_node(test)
    if negate:
        c, text = negated(lw, c, test), f"not ({text})"
    if isinstance(c, bool):
        fixed = sorted(f for f in lw.fixed if f in text)
        why = f"fixed by the variant ({', '.join(fixed)})" if fixed else "known at translate time"
        lw.note(node, "branch", f"if {text} -> {c}, {why}: folded, {'then' if c else 'else'} arm kept")
        return (then_fn if c else else_fn)()
    envs: list[dict] = []
    ends: list = []  # (block, env) of each arm as it ends

    def arm(fn):
        def run():
            fn()
            ends.append((lw.block, lw.env))
            if len(ends) == 2 and not isinstance(c, Flag):
                numbers_as_scalars(lw, pre, ends, node)
            envs.append(dict(lw.env))
        return run

    pre = dict(lw.env)
    two_arms(lw, c, arm(then_fn), arm(else_fn), node, text, tail)
    for n, r in lw.env.items():  # a merged result keeps its arm's Triton rank (a (1, N) row tile stays 1-D)
        if isinstance(r, Value) and r is not pre.get(n):
            src = next((e[n] for e in envs if isinstance(e.get(n), Value) and e[n].id in lw.trank), None)
            if src is not None:
                lw.trank[r.id] = lw.trank[src.id]


def _to_tensor_dtype(x) -> DType | None:
    """The dtype Triton's ``to_tensor`` gives a Python number (bool i1, int i32 / i64 by range, float f32)."""
    if isinstance(x, bool):
        return BOOL
    if isinstance(x, int):
        return I32 if -2**31 <= x < 2**31 else (I64 if -2**63 <= x < 2**63 else None)
    if isinstance(x, float):
        return F32
    return None


def numbers_as_scalars(lw, pre: dict, ends: list, node) -> None:
    """A name a runtime ``if`` binds to a Python number in one arm (``loss = 0.0``) and to a value in the other, or
    to two different numbers: Triton assigns numbers as scalar tensors (``to_tensor``: f32, i32, i1) and the arms
    must agree on the type, so the number becomes a constant of the other arm's type in its arm (two numbers: one
    constant each, a scalar of their ``to_tensor`` dtype). A dtype that differs is Triton's error too. Offsets or
    masks (pointers.py's ranges, compile-time here) that differ between the arms are the i32 / bool tiles they are
    in Triton (``heads = h * B + tl.arange(0, B)`` per arm), each made in its arm."""
    (tb, te), (eb, ee) = ends
    outer = lw.block
    try:
        for name in [n for n in te if n in ee]:
            tv, ev = te[name], ee[name]
            if tv is pre.get(name) and ev is pre.get(name):
                continue
            lanes = [isinstance(v, (Range, Mask)) for v in (tv, ev)]  # offsets / masks: tensors in Triton
            if any(lanes) and all(isinstance(v, (Range, Mask, Value)) for v in (tv, ev)) and not (
                    type(tv) is type(ev) and tv == ev):
                for i, (blk, env) in enumerate(ends):
                    if lanes[i]:
                        lw.block = blk
                        env[name] = lw.value(env[name], node)
                continue
            nums = [isinstance(v, (int, float)) for v in (tv, ev)]
            if not any(nums) or (all(nums) and tv == ev and type(tv) is type(ev)):
                continue
            like = tv if not nums[0] else ev if not nums[1] else None
            if like is not None and not (isinstance(like, Value) and (isinstance(like.type, ScalarType) or (
                    isinstance(like.type, TileType) and like.type.shape == ()))):
                continue  # a tile with lanes (Triton: a block type, not the scalar), a pointer ...: two_arms reports it
            for i, (blk, env) in enumerate(ends):
                x = env[name]
                if not nums[i]:
                    continue
                dt = _to_tensor_dtype(x)
                want = like.type.dtype if like is not None else dt
                if dt is None or dt != want:
                    e = lw.err(node, f"runtime if: '{name}' is {x!r} ({dt}) in one arm and a {like.type} in the "
                               "other (Triton: mismatched type between then and else block)")
                    if dt is not None:  # a load of a dtype variable: the arms agree in its f32 entry only
                        e.__cause__ = irtyping.depends_on([like.type], f"runtime if: '{name}' in each arm")
                    raise e
                shape = like.type.shape if like is not None and isinstance(like.type, TileType) else None
                lw.block = blk
                env[name] = lw.const(x, dt, node, shape, name if not name.startswith("\0") else "sel")
    finally:
        lw.block = outer


def if_stmt(lw, s: cst.If) -> None:
    def arm(stmts):
        return lambda: lw.statements(stmts)

    branch(lw, s.test, arm(s.body.body), arm(else_statements(s)), s)


def if_expr(lw, node: cst.IfExp, hint: str):
    """``a if c else b``: folded when ``c`` is compile-time, else an ``if`` yielding the value (a constexpr test
    choosing between two compile-time values splits the kernel into structural entries)."""
    tmp = f"\0ifexp{id(node)}"

    def arm(expr):
        def run():
            lw.env[tmp] = lw.value(lw.expr(expr, hint), expr)
        return run

    branch(lw, node.test, arm(node.body), arm(node.orelse), node)
    v = lw.env.pop(tmp, None)
    if v is None:
        raise lw.err(node, "a conditional expression without a value")
    return v


__all__ = ["Control", "branch", "condition", "if_expr", "if_stmt"]
