"""A Triton statement range (ctrs llm-fallback fixture, written for this repo): `a = +t` (an operator the Triton
front end has no rule for: the statement stops) and `b = tl.cumsum(t, 0)` (a call without a rule) stop one after
the other and both names are read later, so `ctrs translate --llm` asks for the two lines as one statement range;
reference.py is the cuTile counterpart the answer is proven against (specs.json)."""

try:  # source-only fixture: importable without Triton
    import triton
    import triton.language as tl
except ImportError:  # pragma: no cover
    triton = tl = None


@triton.jit
def scan_pair(x, y, z, n, TILE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * TILE + tl.arange(0, TILE)
    mask = offs < n
    t = tl.load(x + offs, mask=mask)
    a = +t
    b = tl.cumsum(t, 0)
    tl.store(y + offs, a + b, mask=mask)
    tl.store(z + offs, a * b, mask=mask)
