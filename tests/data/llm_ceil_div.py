"""Per-expert counts rounded up to whole blocks (ctrs fixture, written for this repo): `//` of two int32 tiles has
no text-model rule; the typed IR takes the kernel (the gathered counts' array gets its own dtype variable), so the
rules translate it and the LLM fallback is never asked."""

import cuda.tile as ct


@ct.kernel
def ceil_blocks(cnts, out, N: ct.Constant[int], BLOCK: ct.Constant[int]):
    i = ct.arange(N, dtype=ct.int32)
    c = ct.maximum(ct.zeros((N,), dtype=ct.int32), ct.gather(cnts, i, padding_value=0))
    b = ct.full((N,), BLOCK, dtype=ct.int32)
    q = (c + (b - 1)) // b
    ct.scatter(out, i, q)
