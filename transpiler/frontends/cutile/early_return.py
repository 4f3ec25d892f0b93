"""Early returns of a kernel body: ``if c: <stores>; return`` followed by the rest of the kernel.

cuTile Python keeps the ``return`` inside the ``if`` (``if %c { ..; return } else { yield }`` and the rest of the
body after it); cutile-compiler lowers a ``return`` only at the top level of a function body (0.3.1 and 0.5.0,
compile_block.rs). Both mean "the rest runs when no arm returned", so the port moves the statements after such
an ``if`` into its arms that do not return: ``if c { <stores> } else { <rest> }``. ircanon.py reads the
reference's ``if`` with a returning arm the same way (the rest of its block moved into the other arm), so the
two are compared as one structure.

The rule, for a statement list whose end is the kernel's end (the kernel body, and recursively every arm of an
``if`` rewritten here): an ``if`` with a ``return`` in an arm (directly or in a nested ``if``, not in a loop)
takes the statements after it into each of its arms (lowered again as lists that end the kernel: what follows
a ``return`` is not reached, so an arm that returns drops them). Such an ``if`` is the last statement of its
list, so its arms re-bind names without results (nothing reads them after it). A ``return`` inside a loop is
still CTRS-E321.
"""

from __future__ import annotations

import libcst as cst

from ..pysource import is_docstring
from .control import branch, else_statements
from .recovery import guard


def _return_line(s) -> bool:
    return isinstance(s, cst.SimpleStatementLine) and any(isinstance(x, cst.Return) for x in s.body)


def returns_early(s) -> bool:
    """An ``if`` with a ``return`` in an arm (directly, or in an ``if`` of the arm that returns early; not in a
    loop): the statements after it run only on the paths that do not return."""
    return isinstance(s, cst.If) and any(_return_line(x) or returns_early(x)
                                         for arm in (s.body.body, else_statements(s)) for x in arm)


def lower_to_end(lw, stmts) -> None:
    """Lower a statement list that ends the kernel (module doc): each statement under ``guard`` (a blocker is
    recorded and lowering goes on), an ``if`` that returns early with the rest of the list in its arms."""
    stmts = list(stmts)
    for i, s in enumerate(stmts):
        if i == 0 and is_docstring(s):
            continue
        if _return_line(s) and all(isinstance(x, cst.Return) and x.value is None for x in s.body):
            lw.note(s, "branch", "return: the end of the kernel on this path (the statements after it are not "
                                 "reached)")
            return
        if returns_early(s):
            rest = stmts[i + 1:]
            with guard(lw, s):
                lw.note(s, "branch", "an if that returns early: the statements after it move into its arms that "
                                     "do not return (cutile lowers a return only at a function body's top level)")
                branch(lw, s.test, _arm(lw, [*s.body.body, *rest]), _arm(lw, [*else_statements(s), *rest]), s,
                       tail=True)
            return
        with guard(lw, s):
            lw.stmt(s)


def _arm(lw, stmts):
    return lambda: lower_to_end(lw, stmts)


__all__ = ["lower_to_end", "returns_early"]
