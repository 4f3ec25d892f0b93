import cuda.tile as ct


@ct.kernel
def count_ids(ids, counts, N: ct.Constant[int], NB: ct.Constant[int], T: ct.Constant[int]):
    """Per program, how many of its T ids hit each of NB buckets; ids past N read as NB (no bucket)."""
    offs = ct.bid(0) * T + ct.arange(T, dtype=ct.int32)
    v = ct.gather(ids, offs, mask=offs < N, padding_value=NB)
    e = ct.arange(NB, dtype=ct.int32)
    hits = (v[:, None] == e[None, :]).astype(ct.int32)
    ct.scatter(counts, ct.bid(0) * NB + e, ct.sum(hits, axis=0))
