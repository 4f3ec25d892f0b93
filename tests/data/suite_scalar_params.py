# ctrs test kernel (written for this repo): a rank-1 array read as one element (`ct.load(A, 0, shape=())`) and an
# unannotated parameter used only as ct.cdiv's operand (a runtime integer).
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def suite_scalar_params(x, alpha, y, n, TILE: ConstInt):
    a = ct.astype(ct.load(alpha, 0, shape=()), ct.float32)
    blocks = ct.cdiv(n, TILE)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for j in range(blocks):
        acc = acc + ct.astype(ct.load(x, index=(j,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    ct.store(y, index=(0,), tile=ct.astype(acc * a, y.dtype))
