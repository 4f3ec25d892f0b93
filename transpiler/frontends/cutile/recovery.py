"""Error recovery of the typed cuTile front end: the lowering keeps going after a blocker.

A statement (or a kernel parameter) whose lowering raises a CtrsError has its diagnostic recorded once per
construct (an inlined helper's blocker is reported at the helper's line, once, however often it is called),
its partly emitted ops dropped, the environment restored, and every name it binds bound to a
:class:`~.values.Poison`. A later use of a poison value raises :class:`~.values.PoisonUse`, which is
swallowed here without a diagnostic: one blocker, one line. A kernel with any recorded blocker is refused
(``lower_file``); the other kernels of the file are lowered, specialised and emitted. See docs/ir.md.
"""

from __future__ import annotations

import contextlib

import libcst as cst

from ... import errors
from .values import Poison, PoisonUse


def record(lw, e: errors.CtrsError) -> None:
    """Record a blocker of the kernel being lowered (once per location, code and message)."""
    key = (str(e.loc), e.code, e.message)
    if all((str(b.loc), b.code, b.message) != key for b in lw.blockers):
        lw.blockers.append(e)


def bound_names(node) -> list[str]:
    """Every name a statement binds: assignment / augmented-assignment / ``for`` / ``with .. as`` targets,
    tuple targets element by element (the names a failed statement leaves poisoned)."""
    out: dict[str, None] = {}

    def targets(t) -> None:
        if isinstance(t, cst.Name):
            out[t.value] = None
        elif isinstance(t, (cst.Tuple, cst.List)):
            for e in t.elements:
                targets(e.value)
        elif isinstance(t, cst.StarredElement):
            targets(t.value)

    class V(cst.CSTVisitor):
        def visit_AssignTarget(self, n: cst.AssignTarget) -> None:
            targets(n.target)

        def visit_AugAssign(self, n: cst.AugAssign) -> None:
            targets(n.target)

        def visit_AnnAssign(self, n: cst.AnnAssign) -> None:
            targets(n.target)

        def visit_For(self, n: cst.For) -> None:
            targets(n.target)

        def visit_AsName(self, n: cst.AsName) -> None:
            targets(n.name)

        def visit_NamedExpr(self, n: cst.NamedExpr) -> None:
            targets(n.target)

    node.visit(V())
    return list(out)


def read_names(node) -> set[str]:
    """Every name ``node`` reads: each Name except the targets of plain / annotated assignments and ``for`` loops
    (an augmented assignment's target is read too)."""
    out: set[str] = set()
    written: set[int] = set()

    def mark(t) -> None:
        if isinstance(t, cst.Name):
            written.add(id(t))
        elif isinstance(t, (cst.Tuple, cst.List)):
            for e in t.elements:
                mark(e.value)

    class V(cst.CSTVisitor):
        def visit_AssignTarget(self, n: cst.AssignTarget) -> None:
            mark(n.target)

        def visit_AnnAssign(self, n: cst.AnnAssign) -> None:
            mark(n.target)

        def visit_For(self, n: cst.For) -> None:
            mark(n.target)

        def visit_Name(self, n: cst.Name) -> None:
            if id(n) not in written:
                out.add(n.value)

        def visit_Attribute(self, n: cst.Attribute) -> bool:  # `a.shape`: a is read, `shape` is not a name
            n.value.visit(self)
            return False

    node.visit(V())
    return out


def _returns(node) -> bool:
    return isinstance(node, cst.SimpleStatementLine) and any(isinstance(s, cst.Return) for s in node.body)


@contextlib.contextmanager
def guard(lw, node, names: list[str] | None = None):
    """``with guard(lw, stmt): lw.stmt(stmt)``: a blocker inside is recorded and lowering goes on after it."""
    block, n_ops, env = lw.block, len(lw.block.ops), dict(lw.env)
    try:
        yield
        return
    except PoisonUse:  # failed on what an earlier blocker left: silent, but a failed parameter it names counts
        if isinstance(node, cst.SimpleStatementLine):
            for n in _names(node):
                v = lw.env.get(n.value)
                if isinstance(v, Poison) and v.pending is not None:
                    record(lw, v.pending)
    except errors.CtrsError as e:
        record(lw, e)
    lw.block = block
    del block.ops[n_ops:]
    lw.env = env
    for n in bound_names(node) if names is None else names:
        lw.env[n] = Poison(n)
    if lw.returns is not None and not lw.returns and _returns(node):
        lw.returns.append(Poison("return"))  # the helper's value: poison, not a silent None


@contextlib.contextmanager
def parameter(lw, p: cst.Param):
    """``with parameter(lw, p): lw.param(p, ..)``: a parameter that fails to lower becomes poison carrying its
    blocker, reported at the parameter when the body uses it, right away when the body never names it, and
    at the end (:func:`finish`) when nothing else blocks the kernel; not when its only uses are statements
    that fail anyway (``ct.atomic_add(out, ..)``: the parameter is unknown because the call is)."""
    name = p.name.value
    try:
        yield
    except errors.CtrsError as e:
        lw.env[name] = Poison(name, pending=e)
        if any(isinstance(n, cst.Name) and n.value == name for n in _names(lw.fn.body)):
            lw.pending.append(e)
        else:
            record(lw, e)


def _names(node) -> list[cst.Name]:
    out: list[cst.Name] = []

    class V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            out.append(n)

    node.visit(V())
    return out


def finish(lw) -> None:
    """After the kernel: a parameter's pending blocker counts when nothing else blocked the kernel."""
    if not lw.blockers:
        for e in lw.pending:
            record(lw, e)


def live(v):
    """``v`` itself; for a poison value (a use of what a failed statement bound) PoisonUse, or the parameter's
    own blocker on a use of a parameter that failed to lower."""
    if isinstance(v, Poison):
        if v.pending is not None:
            raise v.pending
        raise PoisonUse(v.name)
    return v


def arg(lw, node):
    """An argument of an inlined helper: its value, or poison with its blocker recorded (the helper body is
    still lowered, so its own blockers are reported even when every call passes it something that failed)."""
    try:
        return lw.expr(node)
    except PoisonUse as p:
        return Poison(str(p))
    except errors.CtrsError as e:
        record(lw, e)
        return Poison("argument")
