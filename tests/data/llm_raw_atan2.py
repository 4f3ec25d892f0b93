"""atan2(v, v) of each row of a 2-D array read by ct.gather (a raw-pointer entry: `x: *mut E` with its extents and
strides), scattered back (ctrs llm-fallback fixture, written for this repo): ct.atan2 has no rules entry, so
`ctrs translate --llm` asks for it, and the answer is proven against a raw-pointer port's IR (its assumed facts)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def row_atan2(x, y, TN: ConstInt):
    r = ct.bid(0)
    cols = ct.arange(TN, dtype=ct.int32)
    v = ct.gather(x, (r, cols), padding_value=0)
    a = ct.atan2(v, v)
    ct.scatter(y, (r, cols), a)
