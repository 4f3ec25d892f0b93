# ctrs test kernel written for this repo: ct.matmul on the typed-IR path (frontends/cutile/tiles.py matmul).
"""c[i] = a[i] @ b three ways: f16 operands (an f16 accumulator), bf16 operands (f32 accumulator, cast back),
tf32 operands (f32 accumulator, cast back), summed in f32."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def mm3(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    i = ct.bid(0)
    x = ct.astype(ct.load(a, index=(i, 0), shape=(TM, TK)), ct.float16)
    y = ct.astype(ct.load(b, index=(0, 0), shape=(TK, TN)), ct.float16)
    p = ct.matmul(x, y)
    q = ct.matmul(ct.astype(x, ct.bfloat16), ct.astype(y, ct.bfloat16))
    r = ct.matmul(ct.astype(ct.astype(x, ct.float32), ct.tfloat32), ct.astype(ct.astype(y, ct.float32), ct.tfloat32))
    out = ct.astype(p, ct.float32) + ct.astype(q, ct.float32) + ct.astype(r, ct.float32)
    ct.store(c, index=(i, 0), tile=ct.astype(out, c.dtype))
