"""Triton |x| per TILE-wide masked slice: tl.abs has no rule in rules/triton.toml, so `ctrs translate --llm` sends
the construct to the model (ctrs llm-fallback fixture, written for this repo; its cuTile counterpart is
reference.py)."""

try:  # source-only fixture: importable without Triton
    import triton
    import triton.language as tl
except ImportError:  # pragma: no cover
    triton = tl = None


@triton.jit
def abs_scale(x, y, n, TILE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * TILE + tl.arange(0, TILE)
    mask = offs < n
    t = tl.load(x + offs, mask=mask)
    a = tl.abs(t)
    tl.store(y + offs, a, mask=mask)
