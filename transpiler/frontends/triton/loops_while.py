"""A Python ``while`` in a Triton kernel: a structured WHILE op (ir/ops.py) whose carried values are the names the body
re-binds (as a ``for``'s are: Lowering.carried_names); the test is lowered in the loop's cond region over them each
iteration (a runtime bool: Triton's scf.while; Tile IR ``loop`` whose head is ``if cond {} else {break}``)."""

from __future__ import annotations

import libcst as cst

from ... import errors
from ...ir.types import BOOL, ScalarType, TileType
from ...ir.values import Value
from ..pysource import assigned_names
from .control import _flag_expr, condition


def while_(lw, s: cst.While) -> None:
    if s.orelse is not None:
        raise errors.CtrsError(errors.WHILE_UNSUPPORTED, "a `while` with an `else:` clause (no Tile IR counterpart)",
                               "move the else body after the loop", lw.tf.loc(s))
    carried = lw.carried_names(s, assigned_names(s.body))
    init = [lw.env[n] for n in carried]
    outer_env = dict(lw.env)

    def bind(args: list[Value]) -> None:
        lw.env = dict(outer_env)
        for n, a, i in zip(carried, args, init):
            lw.env[n] = a
            if i.id in lw.trank:
                lw.trank[a.id] = lw.trank[i.id]

    def lower_cond(args: list[Value]) -> list:
        bind(args)
        c = condition(lw, s.test)
        if isinstance(c, Value) and c.type == TileType(BOOL, ()):
            c = lw.scalar_0d(c, s.test)
        if not (isinstance(c, Value) and c.type == ScalarType(BOOL)):
            raise errors.CtrsError(errors.WHILE_UNSUPPORTED, f"a `while` test that is not a runtime bool scalar "
                                   f"({type(c).__name__}): a compile-time test loops never or forever",
                                   "test a runtime value", lw.tf.loc(s.test))
        return [c]

    def lower_body(args: list[Value]) -> list:
        bind(args)
        lw.body(s.body.body)
        return lw.carried_out(s, carried, init)

    results = lw.while_loop(init, s, lower_cond, lower_body)
    lw.env = outer_env
    for n, r, v0 in zip(carried, results, init):
        lw.env[n] = r
        if v0.id in lw.trank:
            lw.trank[r.id] = lw.trank[v0.id]


_CODE = cst.Module([])


def names_in(stmts) -> list[str]:
    """Every name the statements mention, in order."""
    out: list[str] = []

    class V(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            out.append(node.value)

    for st in stmts:
        st.visit(V())
    return out


def flag_guarded(lw, st):
    """``st`` when it is ``if <flags>: p += ...`` (one statement, no else, a test of tl.constexpr flags only)."""
    if not (isinstance(st, cst.If) and st.orelse is None and len(st.body.body) == 1 and _flag_expr(lw, st.test)):
        return None
    inner = st.body.body[0]
    ok = isinstance(inner, cst.SimpleStatementLine) and len(inner.body) == 1 and isinstance(inner.body[0], cst.AugAssign)
    return st if ok else None


def only_under(stmts, guard, name: str, test) -> bool:
    """Whether every statement of ``stmts`` but ``guard`` that reads ``name`` is an ``if`` of the same ``test``
    reading it in its then-arm only: a pointer moved under a constexpr test is then moved exactly when it is read
    (the moved value, entry + iv * step, is right wherever it is used)."""
    want = _CODE.code_for_node(test)
    for st in stmts:
        if st is guard or name not in names_in([st]):
            continue
        if not (isinstance(st, cst.If) and _CODE.code_for_node(st.test) == want and name not in names_in([st.test])
                and (st.orelse is None or name not in names_in([st.orelse]))):
            return False
    return True
