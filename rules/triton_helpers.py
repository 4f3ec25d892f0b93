# cuTile Python spellings of Triton constructs that are whole algorithms (tl.rand: Philox), written
# for this repo: the cuTile counterpart fixtures/triton_dropout/reference.py compiles. The typed Triton front end
# lowers the Triton spelling of the same algorithm (rules/triton_philox.py); ctrs check proves the two equal.
#
# _ctrs_philox_rand(seed, offsets) == tl.rand(seed, offsets): Philox-4x32 with 10 rounds on the counter
# (offsets, 0, 0, 0) and the key (low, high 32 bits of the seed, sign-extended like Triton's
# seed.to(tl.uint64)); the first output word becomes a float in [0, 1) the way Triton does it (as int32,
# negatives folded to -x - 1, times 4.6566127342e-10). The 32x32 -> high-32 products go through uint64:
# (x widened) * M >> 32, narrowed (it fits: no wrap). The round / key constants are the published Philox
# constants (Salmon et al., SC'11).
import cuda.tile as ct


def _ctrs_philox_rand(seed, offsets):
    c0 = ct.bitcast(offsets, ct.uint32)
    c1 = c0 * 0
    c2 = c0 * 0
    c3 = c0 * 0
    s = ct.bitcast(seed, ct.int32)
    k0 = ct.bitcast(s, ct.uint32)
    k1 = ct.bitcast(s >> 31, ct.uint32)
    for _ in range(10):
        p0 = c0
        p2 = c2
        c0 = ct.astype((ct.astype(p2, ct.uint64) * 0xCD9E8D57) >> 32, ct.uint32) ^ c1 ^ k0
        c2 = ct.astype((ct.astype(p0, ct.uint64) * 0xD2511F53) >> 32, ct.uint32) ^ c3 ^ k1
        c1 = p2 * 0xCD9E8D57
        c3 = p0 * 0xD2511F53
        k0 = k0 + 0x9E3779B9
        k1 = k1 + 0xBB67AE85
    r = ct.bitcast(c0, ct.int32)
    r = ct.where(r < 0, -r - 1, r)
    return ct.astype(r, ct.float32) * 4.6566127342e-10
