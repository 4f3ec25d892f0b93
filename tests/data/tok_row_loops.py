# ctrs test kernels written for this repo: stores in loops whose memory tokens cuTile Python carries across
# iterations (transpiler/passes/tokens.py).
"""grid_rows: a grid-stride loop over rows, each row gathered, scaled by its max and scattered (a scatter is never
a loop-parallel store: its token goes from one iteration's store to the next). chunk_rows: the same rows in
column chunks, stored from an inner loop (the outer loop's token feeds the inner one). tiles_par: a plain
store_view indexed by the loop variable (loop-parallel: nothing carried) next to one that is not (carried)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def grid_rows(y, x, N: ConstInt, TILE: ConstInt):
    cols = ct.arange(TILE, dtype=ct.int32)
    for r in range(ct.bid(0), N, ct.num_blocks(0)):
        t = ct.astype(ct.gather(x, (r, cols), check_bounds=True, padding_value=0), ct.float32)
        m = ct.max(ct.abs(t), 0, keepdims=True) + 1.0
        ct.scatter(y, (r, cols), ct.astype(t / m, y.dtype), check_bounds=True)


@ct.kernel
def chunk_rows(y, x, N: ConstInt, TILE: ConstInt, CHUNKS: ConstInt):
    cols = ct.arange(TILE, dtype=ct.int32)
    for r in range(ct.bid(0), N, ct.num_blocks(0)):
        for c in range(CHUNKS):
            idx = cols + c * TILE
            t = ct.gather(x, (r, idx), check_bounds=True, padding_value=0)
            ct.scatter(y, (r, idx), t * 2, check_bounds=True)


@ct.kernel
def tiles_par(y, s, x, TILE: ConstInt):
    r = ct.bid(0)
    n = ct.num_tiles(x, axis=1, shape=(1, TILE))
    acc = ct.full((1, TILE), 0.0, dtype=ct.float32)
    for j in range(n):
        t = ct.astype(ct.load(x, index=(r, j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
        acc = acc + t
        ct.store(y, index=(r, j), tile=ct.astype(t * 2.0, y.dtype))
        ct.store(s, index=(r, 0), tile=ct.astype(acc, s.dtype))


@ct.kernel
def prefix_rows(a_out, best_out, x, N: ConstInt, TILE: ConstInt):
    # carried: run, best and a_out's token; cutile orders a loop's carried values by name (a_out_token first),
    # cuTile Python puts the token last: the diff numbers the values without the tokens (verify/ircanon.py)
    cols = ct.arange(TILE, dtype=ct.int32)
    run = ct.zeros((TILE,), dtype=ct.float32)
    best = ct.zeros((TILE,), dtype=ct.float32)
    for i in range(N):
        t = ct.astype(ct.gather(x, (i, cols), padding_value=0), ct.float32)
        best = ct.maximum(best, t)
        run = run + t
        ct.scatter(a_out, (i, cols), ct.astype(run, a_out.dtype))
    ct.scatter(best_out, (0, cols), ct.astype(best, best_out.dtype))
