"""``A.tiled_view(shape).atomic_store_add(index, tile)`` on the typed IR path (written for this repo): cuTile
Python reduces a tile into a partition view (atomic_red_view_tko, relaxed / device, bytecode >= 13.3); a
tile broadcast to the view's tile shape and cast to the array dtype first; a view bound to a name, used twice."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def rows_accumulate(x, acc, ROWS: ConstInt, COLS: ConstInt):
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(ROWS, COLS), padding_mode=ct.PaddingMode.ZERO)
    acc.tiled_view((1, ROWS, COLS)).atomic_store_add((0, 0, 0), t.reshape((1, ROWS, COLS)))
    part = acc.tiled_view((1, ROWS, COLS))
    part.atomic_store_add((1, 0, 0), ct.sum(t, axis=0, keepdims=True).reshape((1, 1, COLS)))
