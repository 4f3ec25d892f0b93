import triton
import triton.language as tl


@triton.jit
def segment_scale(src, dst, bounds, scale, N: tl.constexpr, SEGS: tl.constexpr, BM: tl.constexpr,
                  BN: tl.constexpr):
    """Rows [bounds[s], bounds[s + 1]) of segment s are scaled by scale[s]; each segment's descriptor ends at its
    own last row, so a tile that runs past it neither reads nor writes the next segment."""
    pid = tl.program_id(0)
    for s in range(SEGS):
        lo = tl.load(bounds + s)
        hi = tl.load(bounds + s + 1)
        f = tl.load(scale + s)
        d_in = tl.make_tensor_descriptor(src, shape=[hi, N], strides=[N, 1], block_shape=[BM, BN])
        d_out = tl.make_tensor_descriptor(dst, shape=[hi, N], strides=[N, 1], block_shape=[BM, BN])
        n = hi - lo
        for t in range(0, n, BM):
            row = lo + t
            tile = d_in.load([row, pid * BN])
            d_out.store([row, pid * BN], tile * f)
