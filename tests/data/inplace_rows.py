import cuda.tile as ct


@ct.kernel
def center_rows(x, N_ROWS: ct.Constant[int], N_CHUNKS: ct.Constant[int], T: ct.Constant[int]):
    """Subtract each row's maximum from the row, in place: a persistent loop over the rows, a first pass that
    reads the row chunk by chunk, a second that reads each chunk again and writes it back."""
    for row in range(ct.bid(0), N_ROWS, ct.num_blocks(0)):
        m = ct.full((1,), -1.0e30, dtype=ct.float32)
        for c in range(N_CHUNKS):
            cols = c * T + ct.arange(T, dtype=ct.int32)
            v = ct.gather(x, (row, cols))
            m = ct.maximum(m, ct.max(v, axis=0, keepdims=True))
        for c in range(N_CHUNKS):
            cols = c * T + ct.arange(T, dtype=ct.int32)
            v = ct.gather(x, (row, cols))
            ct.scatter(x, (row, cols), v - m)
