"""A ``return`` inside a loop of a Triton kernel (``for ..: if found: tl.store(..); return``).

cutile-compiler lowers a ``return`` only at the top level of a function body (0.5.0 compile_block.rs; the cuTile
front end's early_return.py moves the rest of a body into the arms of an ``if`` that returns). A loop cannot be
cut that way, so the return becomes control flow on a flag, a rewrite of the kernel's statements before they are
lowered: ``_ctrs_returned = False`` before the loop; in the loop every ``return`` is ``_ctrs_returned = True``, the
statements after a statement that may return run under ``if not _ctrs_returned``, and so does each iteration's
body (the remaining iterations do nothing); the statements after the loop run under ``if not _ctrs_returned``.
The flag is a number the loop re-binds: an i1 the loop carries (Triton's to_tensor of ``False``). The result is
the same as Triton's (the program ends at the return: nothing after it stores or changes what is stored).
"""

from __future__ import annotations

import libcst as cst

FLAG = "_ctrs_returned"


def has_return(s) -> bool:
    found: list = []

    class V(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            found.append(node)

    s.visit(V())
    return bool(found)


def returns_in_loop(s) -> bool:
    """``s`` is a for / while loop with a ``return`` in its body."""
    return isinstance(s, (cst.For, cst.While)) and has_return(s.body)


def _bare_return(s) -> bool:
    return isinstance(s, cst.SimpleStatementLine) and any(isinstance(x, cst.Return) for x in s.body)


def _unless_returned(stmts: list) -> cst.If:
    return cst.If(test=cst.parse_expression(f"not {FLAG}"), body=cst.IndentedBlock(body=stmts))


def _guarded(stmts: list) -> list:
    """``stmts`` (inside a loop) with each ``return`` setting the flag and what follows a statement that may
    return guarded by it."""
    out: list = []
    for i, s in enumerate(stmts):
        if _bare_return(s):
            out.append(cst.parse_statement(f"{FLAG} = True"))
            return out
        if has_return(s) and isinstance(s, (cst.If, cst.For, cst.While)):
            out.append(_rewritten(s))
            rest = stmts[i + 1:]
            if rest:
                out.append(_unless_returned(_guarded(rest)))
            return out
        out.append(s)
    return out


def _rewritten(s):
    if isinstance(s, cst.If):
        orelse = s.orelse
        if isinstance(orelse, cst.Else):
            orelse = orelse.with_changes(body=orelse.body.with_changes(body=_guarded(list(orelse.body.body))))
        elif isinstance(orelse, cst.If):
            orelse = _rewritten(orelse)
        return s.with_changes(body=s.body.with_changes(body=_guarded(list(s.body.body))), orelse=orelse)
    body = _guarded(list(s.body.body))
    return s.with_changes(body=s.body.with_changes(body=[_unless_returned(body)]))


def lowered(s, rest: list) -> list:
    """The statements for loop ``s`` (``returns_in_loop``) followed by ``rest``: the flag, the rewritten loop,
    ``rest`` under ``if not`` the flag."""
    out = [cst.parse_statement(f"{FLAG} = False"), _rewritten(s)]
    if rest:
        out.append(_unless_returned(list(rest)))
    return out


__all__ = ["FLAG", "lowered", "returns_in_loop"]
