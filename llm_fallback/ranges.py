"""Statements and statement ranges the fallback can ask for as a whole (typed IR path, cuTile Python and Triton).

A statement whose lowering stops with a blocker the typed front end reports inside a rule (CTRS-E124 "outside
the subset", CTRS-E125 "no Rust spelling", ...) never reaches the expression hook: the fallback asks for the
whole statement instead, when it is a simple assignment (``x = ..``, ``a, b = ..``, ``x: T = ..``, ``x op= ..``).
Consecutive statements of one block that all stop (an expression without a rule, or such a blocker) form one
*range* when two or more of the names they bind are read elsewhere in the kernel: the answer defines those names
(its other ``let``s are temporaries), and is spliced as one RUST_FRAGMENT op with one result per name.

A runtime ``if`` after which a name is a compile-time value (a Python number) on one path and a runtime value on
the other (``x = 0.0`` then ``if cond: x = ct.load(..).item()``, the typed front end's "different compile-time
value in each arm", frontends/cutile/control.py) stops at the ``if``, no statement an answer replaces: the
fallback asks for the simple assignment that bound the number before the ``if`` instead (``ask_for_binding``); its
answer binds the name as a runtime value, which the ``if`` merges like any other.
"""

from __future__ import annotations

import re
from pathlib import Path

import libcst as cst

from .splice import Ask


def _simple_binding(s) -> bool:
    if not isinstance(s, cst.SimpleStatementLine) or len(s.body) != 1:
        return False
    small = s.body[0]
    return isinstance(small, (cst.Assign, cst.AugAssign)) or (isinstance(small, cst.AnnAssign) and small.value)


def _blocks(module: cst.Module) -> list[tuple[cst.FunctionDef | None, list]]:
    """Every statement list of the module (module body, function / loop / if bodies) with its top-level function."""
    out: list[tuple[cst.FunctionDef | None, list]] = [(None, list(module.body))]

    class V(cst.CSTVisitor):
        def __init__(self):
            self.fn: list[cst.FunctionDef] = []

        def visit_FunctionDef(self, n: cst.FunctionDef) -> None:
            self.fn.append(n)

        def leave_FunctionDef(self, n: cst.FunctionDef) -> None:
            self.fn.pop()

        def visit_IndentedBlock(self, n: cst.IndentedBlock) -> None:
            out.append((self.fn[0] if self.fn else None, list(n.body)))

    module.visit(V())
    return out


def _reads(fn: cst.FunctionDef, info) -> list[tuple[str, int]]:
    """(name, line) of every Name in ``fn``."""
    found: list[tuple[str, int]] = []

    class V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            try:
                found.append((n.value, info.positions[n].start.line))
            except KeyError:
                pass

    fn.visit(V())
    return found


def _parsed(kernel: Path):
    """The kernel file parsed with positions, by the front end that lowers it (Triton or cuTile Python)."""
    from ctrs import pipeline  # noqa: PLC0415
    from ctrs.frontends.triton import source  # noqa: PLC0415

    return source.load(kernel) if source.is_triton_file(kernel) else pipeline._info(kernel)


def ask_for(kernel: Path, loc, code: str, message: str, stopped: set[int]) -> Ask | None:
    """The Ask for the statement holding ``loc`` (a blocker of the typed front end), extended over the following
    statements of its block whose first line is in ``stopped`` (lines where the same lowering stopped) when the
    range binds two or more names read elsewhere; None when that statement is not a simple assignment."""
    from ctrs.frontends.cutile.recovery import bound_names  # noqa: PLC0415

    info = _parsed(Path(kernel))
    line, col = int(loc.line), int(loc.col)
    best = None
    for fn, stmts in _blocks(info.module):
        for i, s in enumerate(stmts):
            p = info.positions[s]
            if (p.start.line, p.start.column + 1) <= (line, col) <= (p.end.line, p.end.column + 1) and (
                    best is None or p.start.line >= info.positions[best[1][best[2]]].start.line):
                best = (fn, stmts, i)
    if best is None or best[0] is None or not _simple_binding(best[1][best[2]]):
        return None
    fn, stmts, i = best
    j = i
    while j + 1 < len(stmts) and _simple_binding(stmts[j + 1]) and info.positions[stmts[j + 1]].start.line in stopped:
        j += 1
    reads = _reads(fn, info)

    def outputs(first: int, last: int) -> list[str]:
        lo, hi = info.positions[stmts[first]].start.line, info.positions[stmts[last]].end.line
        names = [n for s in stmts[first:last + 1] for n in bound_names(s)]
        names = list(dict.fromkeys(names))
        return [n for n in names if any(r == n and not lo <= ln <= hi for r, ln in reads)]

    outs = outputs(i, j) if j > i else []
    if len(outs) < 2:
        j, outs = i, list(dict.fromkeys(bound_names(stmts[i])))
    if not outs:
        return None
    start = info.loc(stmts[i])
    bare = cst.TrailingWhitespace()  # the construct's text: no comment lines, no trailing comments
    python = "; ".join(" ".join(info.module.code_for_node(s.with_changes(leading_lines=(), trailing_whitespace=bare))
                                .split()) for s in stmts[i:j + 1])
    return Ask((str(start.file), int(start.line), int(start.col)), info.positions[stmts[j]].end.line, tuple(outs),
               python, code, message)


# the typed front end's message for a name that is a compile-time value on one path of a runtime `if` and a runtime
# value on the other (frontends/cutile/control.py); the name is the one it quotes
_COMPILE_TIME_ARM = re.compile(r"'([A-Za-z_]\w*)' is a different compile-time value in each arm")


def ask_for_binding(kernel: Path, loc, code: str, message: str) -> Ask | None:
    """The Ask for the statement that binds the name a runtime ``if`` at ``loc`` leaves a compile-time value on one
    path (``message`` names it): the last statement before the ``if`` in its block that binds that name, when it is
    a simple assignment (``x = 0.0``) in a function; else None (nothing an answer replaces)."""
    from ctrs.frontends.cutile.recovery import bound_names  # noqa: PLC0415

    m = _COMPILE_TIME_ARM.search(message or "")
    if m is None or loc is None or not loc.line:
        return None
    name = m.group(1)
    info = _parsed(Path(kernel))
    for fn, stmts in _blocks(info.module):
        for i, s in enumerate(stmts):
            p = info.positions[s]
            if not isinstance(s, cst.If) or (p.start.line, p.start.column + 1) != (int(loc.line), int(loc.col)):
                continue
            prev = next((t for t in reversed(stmts[:i]) if name in bound_names(t)), None)
            if fn is None or prev is None or not _simple_binding(prev) or bound_names(prev) != [name]:
                return None
            at = info.loc(prev)
            return ask_for(kernel, at, code, message, set())
    return None
