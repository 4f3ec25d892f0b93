# Triton's random numbers (tl.randint / tl.rand), written for this repo in the Triton subset the typed front end
# lowers (frontends/triton/random.py inlines them where a kernel calls tl.rand / tl.randint, like a helper of the
# kernel's own file). Philox-4x32 with 10 rounds on the counter (offsets, 0, 0, 0) and the key (low, high 32 bits
# of the seed, sign-extended like Triton's seed.to(tl.uint64)); the first output word is tl.randint's value, and
# tl.rand makes it a float in [0, 1) the way Triton does (as int32, negatives folded to -x - 1, times
# 4.6566127342e-10). The 32x32 -> high-32 products go through uint64: (x widened) * M >> 32, narrowed (it fits:
# no wrap). The round / key constants are the published Philox constants (Salmon et al., SC'11).
try:  # source only: read by ctrs, never imported
    import triton
    import triton.language as tl
except ImportError:  # pragma: no cover
    triton = tl = None


@triton.jit
def _ctrs_philox_randint(seed, offsets):
    c0 = offsets.to(tl.uint32, bitcast=True)
    c1 = c0 * 0
    c2 = c0 * 0
    c3 = c0 * 0
    s = seed.to(tl.int32, bitcast=True)
    k0 = s.to(tl.uint32, bitcast=True)
    k1 = (s >> 31).to(tl.uint32, bitcast=True)
    for _ in range(10):
        p0 = c0
        p2 = c2
        c0 = ((p2.to(tl.uint64) * 0xCD9E8D57) >> 32).to(tl.uint32) ^ c1 ^ k0
        c2 = ((p0.to(tl.uint64) * 0xD2511F53) >> 32).to(tl.uint32) ^ c3 ^ k1
        c1 = p2 * 0xCD9E8D57
        c3 = p0 * 0xD2511F53
        k0 = k0 + 0x9E3779B9
        k1 = k1 + 0xBB67AE85
    return c0


@triton.jit
def _ctrs_philox_rand(seed, offsets):
    r = _ctrs_philox_randint(seed, offsets).to(tl.int32, bitcast=True)
    r = tl.where(r < 0, -r - 1, r)
    return r.to(tl.float32) * 4.6566127342e-10
