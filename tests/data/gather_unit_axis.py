# ctrs test data written for this repo: ct.gather on an array with a size-1 axis, indexed there with the literal 0,
# and a batch axis that is 1 at some launches. cuTile Python specialises a launch's size-1 extent to the constant 1
# (calling convention v2), so the gather's bounds check on that axis compares with `constant 1`; the port reads the
# extent argument (the verifier reads it as 1 where the reference's entry symbol says the axis was specialised).
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def pick_rows(table, idx, out, TILE: ConstInt):
    b = ct.bid(0)
    t = ct.bid(1)
    i = ct.load(idx, index=(b, t), shape=(1, TILE))
    i = ct.reshape(i, (TILE,))
    g = ct.gather(table, (b, 0, i), padding_value=0)
    ct.store(out, index=(b, t), tile=ct.reshape(g, (1, TILE)))
