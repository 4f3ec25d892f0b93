# ctrs test kernel (written for this repo): ct.pack_to_bytes of a 2-D float tile (reshape to rank 1, Tile IR pack)
# and of an 8-bit tile (a bitcast to uint8), stored as bytes.
import cuda.tile as ct


@ct.kernel
def ops_pack_bytes(x, out, qout):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid, 0), shape=(4, 32), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(pid,), tile=ct.pack_to_bytes(t * 2.0))
    q = ct.astype(ct.reshape(t, (128,)), ct.int8)
    ct.store(qout, index=(pid,), tile=ct.pack_to_bytes(q))
