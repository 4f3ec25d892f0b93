# ctrs test data written for this repo: a runtime `if` in a loop (the ragged last column block) re-binds `pos`,
# a tile defined before it, and the only later code that touches `pos` is a constant-flag arm that binds it
# afresh before reading it. Under SHIFT == 0 nothing reads the `if`'s `pos`: cuTile Python's dead code
# elimination drops that result and its `if` yields `t` alone; the port's dce pass drops it too.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def ragged_row_sum(x, out, n_cols, TILE: ConstInt, SHIFT: ConstInt):
    r = ct.bid(0)
    offs = ct.arange(TILE, dtype=ct.int32)
    acc = ct.full((TILE,), 0.0, dtype=ct.float32)
    for j in range(ct.cdiv(n_cols, TILE)):
        t = ct.astype(ct.reshape(ct.load(x, index=(r, j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO),
                                 (TILE,)), ct.float32)
        pos = offs + j * TILE
        if j * TILE + TILE > n_cols:
            pos = offs + j * TILE
            t = ct.where(pos < n_cols, t, ct.full((TILE,), 0.0, dtype=ct.float32))
        if SHIFT > 0:
            pos = offs + SHIFT
            t = t * ct.astype(pos, ct.float32)
        acc = acc + t
    ct.store(out, index=(r,), tile=ct.reshape(ct.sum(acc), (1,)))
