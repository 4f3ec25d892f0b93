"""ct.gather padding values that are not literals (written for this repo): a ct.Constant[int] padding of an int32
array (a histogram of ids, the masked lanes padded with an out-of-range id), a reduced 0-d value (and an
expression of it) as padding of a float array, the block id as padding of an int32 array;
and the index tile of a gather loaded from an index table (an array of a launch dtype: int32 entries)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def histogram_pad_sym(ids, counts, NUM: ConstInt, N: ConstInt, TILE: ConstInt, BINS: ConstInt):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    got = ct.gather(ids, offs, mask=offs < N, padding_value=NUM)
    bins = ct.arange(BINS, dtype=ct.int32)
    hits = (got[:, None] == bins[None, :]).astype(ct.int32)
    ct.scatter(counts, ct.bid(0) * BINS + bins, ct.sum(hits, axis=0), mask=bins < NUM)


@ct.kernel
def pad_runtime(x, y, TILE: ConstInt):
    idx = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    first = ct.max(ct.gather(x, idx), axis=0)
    a = ct.gather(x, idx, padding_value=first)
    b = ct.gather(x, idx, mask=idx > 5, padding_value=first + first)
    ct.scatter(y, idx, a + b)


@ct.kernel
def pad_block_id(ids, out, TILE: ConstInt):
    idx = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.scatter(out, idx, ct.gather(ids, idx, padding_value=ct.bid(0)) + 1)


@ct.kernel
def gather_by_table(table, x, y, TILE: ConstInt):
    b = ct.bid(0)
    rows = ct.load(table, (b,), (TILE,))
    ct.store(y, (b,), ct.gather(x, rows, mask=rows >= 0))
