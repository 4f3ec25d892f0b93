"""``ctrs translate --llm`` on the typed Triton path: a ``tl.*`` call without a rule, or one whose rule refuses its
operands (``tl.abs`` of a dtype-generic tile), reaches the fallback's hook (Lowering.on_unsupported:
llm_fallback/splice.py's typed hook, as the cuTile front end's); its verified answer is a RUST_FRAGMENT op of the
IR. Without a hook the call's CTRS-E124 stands (:func:`no_rule`: with rules/triton.toml's hint for it)."""

from __future__ import annotations

from ... import errors
from . import source


def call(lw, handler, node, hint: str, fn: str | None):
    """The value of call ``node``: its handler's, else (no handler, or the handler refuses it with CTRS-E124 that is
    no dtype fact for the solver) the hook's; the refusal stands when the hook has no value."""
    if handler is not None:
        try:
            return handler(lw, lw.call_of(node, hint))
        except errors.CtrsError as e:
            if e.code != errors.IR_UNSUPPORTED or e.__cause__ is not None or lw.on_unsupported is None:
                raise
            refusal = e
    else:
        refusal = no_rule(lw, node, fn)
    got = lw.on_unsupported(lw, node, hint) if lw.on_unsupported is not None else None
    if got is None:
        raise refusal
    return got


def no_rule(lw, node, fn: str | None) -> errors.CtrsError:
    """CTRS-E124 for a call no handler lowers, with rules/triton.toml's ``[unsupported]`` hint when it has one
    (what to do instead: ``tl.randn`` from ``tl.rand`` values, atomics by hand ...)."""
    e = lw.err(node, f"call '{fn or type(node.func).__name__}'")
    hint = source.load_rules().get("unsupported", {}).get(fn or "", {}).get("hint")
    if hint:
        e.hint = hint
    return e
