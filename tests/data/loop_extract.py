# ctrs test data written for this repo: a loop over a ct.Constant count that extracts one column of a small
# matrix per step (a mixing matrix applied to N rows). cuTile Python's loop index carries no fact, so tileiras
# unrolls the loop and every extract reads a constant column; cutile bounds the iterand of a loop whose bounds it
# knows (`assume bounded<0, N-1>`), which tileiras does not fold after unrolling, so the extract stays dynamic and
# goes through local memory. The port starts the bounds from a zero cutile does not know.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def mix_rows(w, x, out, N: ConstInt, TILE: ConstInt):
    b = ct.bid(0)
    t = ct.bid(1)
    m = ct.reshape(ct.load(w, index=(b, 0, 0), shape=(1, N, N)), (N, N))
    acc = ct.full((N, TILE), 0.0, dtype=ct.float32)
    for j in range(N):
        xr = ct.reshape(ct.load(x, index=(b, j, t), shape=(1, 1, TILE)), (1, TILE))
        col = ct.extract(m, (0, j), shape=(N, 1))
        acc = acc + ct.astype(ct.broadcast_to(col, (N, TILE)), ct.float32) * ct.astype(
            ct.broadcast_to(xr, (N, TILE)), ct.float32)
    ct.store(out, index=(b, 0, t), tile=ct.reshape(ct.astype(acc, out.dtype), (1, N, TILE)))
