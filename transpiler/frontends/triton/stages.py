"""``tl.range(.., num_stages=S)``: Triton's software-pipelining depth of a loop's loads is cuTile's ``latency=S`` on the
loads of the loop (the counterpart a cuTile Python port writes, ``ct.load(.., latency=S)``)."""

from __future__ import annotations

import libcst as cst

from ...ir.ops import OpKind


def loop_stages(lw, it, fname: str | None) -> int | None:
    """S of ``tl.range(.., num_stages=S)`` (a literal int 1..10), else None."""
    if fname != "tl.range" or not isinstance(it, cst.Call):
        return None
    kw = [a for a in it.args if a.keyword is not None and a.keyword.value == "num_stages"]
    if not kw:
        return None
    v = lw.expr(kw[0].value)
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 10:
        raise lw.err(kw[0].value, "tl.range(num_stages=...) other than a literal 1..10 (cuTile's load latency)")
    lw.note(it, "hint", f"tl.range(num_stages={v}) -> latency={v} on the loop's loads")
    return v


def stage_loads(loop, stages: int) -> None:
    """Every view load in ``loop``'s body (nested regions too) without a latency of its own gets ``stages``."""
    for block in loop.regions:
        for op in block.ops:
            if op.kind == OpKind.LOAD_VIEW and op.attrs.get("latency") is None:
                op.attrs["latency"] = stages
            stage_loads(op, stages)
