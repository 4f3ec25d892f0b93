# ctrs test kernel (written for this repo): a ct.Constant fill of an index array's dtype (dtype=c.dtype), the
# block round-up of expert counts (lowered once per dtype of that array: i32 here).
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def ir_int_fill(cnts, out, BLOCK: ConstInt, N: ConstInt):
    acc = ct.zeros((1,), dtype=ct.int32)
    for i in range(0, N):
        c = ct.gather(cnts, i + ct.arange(1, dtype=ct.int32), padding_value=0)
        blk = ct.full((1,), BLOCK, dtype=c.dtype)
        acc = acc + (c + (blk - ct.ones((1,), dtype=c.dtype))) // blk * blk
    ct.scatter(out, ct.bid(0) + ct.arange(1, dtype=ct.int32), acc)
