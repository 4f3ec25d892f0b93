"""y = x * w per TILE-wide slice, w the gate g's value on even slices, else 0.0 (ctrs llm-fallback fixture,
written for this repo): `w = 0.0` then `if ..: w = <a scalar read from g>` leaves `w` a compile-time number on one
path of a runtime `if` and a value of g's dtype variable on the other (CTRS-E124 at the `if`, no statement an
answer replaces), so `ctrs translate --llm` asks for `w = 0.0`: an answer binding it as a runtime value."""

import cuda.tile as ct

TileSize = ct.Constant[int]


@ct.kernel
def gate_rows(x, g, y, TILE: TileSize):
    pid = ct.bid(0)
    odd = pid % 2
    w = 0.0
    if odd == 0:
        w = ct.gather(g, (pid,), padding_value=0).item()
    t = ct.astype(ct.load(x, index=(pid,), shape=(TILE,)), ct.float32)
    ct.store(y, index=(pid,), tile=ct.astype(t * w, y.dtype))
