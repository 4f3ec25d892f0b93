# ctrs test data written for this repo: a length read from an index array drives a range loop and a tile index.
# cuTile Python keeps an integer scalar's width through arithmetic (i32 meeting i64 is i64), types a range over
# an i64 bound as an i64 loop (bounds, step and induction variable), and narrows an i64 tile index to i32 with
# trunci at the load / store (a view of an array whose extents fit i32). Launched with int32 and int64 lengths.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def segment_sum(X, Lens, Out, TILE: ConstInt):
    row = ct.bid(0)
    n = ct.load(Lens, index=(row,), shape=(1,)).reshape(())
    acc = ct.full((1, TILE), 0.0, dtype=ct.float32)
    for j in range(0, ct.cdiv(n, TILE)):
        t = ct.astype(ct.load(X, index=(row, j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
        offs = j * TILE + ct.arange(TILE, dtype=ct.int32)
        acc = acc + ct.where(offs[None, :] < n, t, 0.0)
    ct.store(Out, index=(row, 0), tile=ct.astype(acc, Out.dtype))
