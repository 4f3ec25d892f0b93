"""A ``@triton.jit`` helper that ends in an ``if`` whose every arm returns (``if USE_MUL_RN: return
libdevice.mul_rn(a, b) else: return a * b``): its value is the ``if``'s, as Triton's code generator builds it (a
tl.constexpr test folds, a runtime one yields the arms' values, which must have one type). Any other ``return``
before the end of a helper stays refused (inline.py).
"""

from __future__ import annotations

import libcst as cst

from ..cutile.control import else_statements
from .loop_returns import has_return


def _body(s) -> list:
    return list(s.body.body) if isinstance(s, cst.If) else []


def _return(s):
    if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Return):
        return s.body[0]
    return None


def always_returns(s) -> bool:
    """``s`` is an ``if`` / ``elif`` / ``else`` chain each of whose arms ends in ``return <value>`` and holds no
    other ``return``."""
    if not isinstance(s, cst.If) or s.orelse is None:
        return False
    return all(_ends(stmts) for stmts in (_body(s), else_statements(s)))


def _ends(stmts: list) -> bool:
    if not stmts:
        return False
    last = stmts[-1]
    r = _return(last)
    ok = (r is not None and r.value is not None) or always_returns(last)
    return ok and not any(has_return(x) for x in stmts[:-1])


def value(lw, s: cst.If, hint: str):
    """The value of helper statement ``s`` (``always_returns``), lowered in the caller's block."""
    from .control import branch  # noqa: PLC0415 - control imports the lowering's modules

    tmp = f"\0return{id(s)}"

    def arm(stmts):
        def run():
            for x in stmts[:-1]:
                lw.stmt(x)
            last = stmts[-1]
            r = _return(last)
            lw.env[tmp] = lw.value(lw.expr(r.value, hint), r.value) if r is not None else value(lw, last, hint)
        return run

    branch(lw, s.test, arm(_body(s)), arm(else_statements(s)), s)
    v = lw.env.pop(tmp, None)
    if v is None:
        raise lw.err(s, "a helper's returning if without a value")
    return v
