"""Statements binding several names (ctrs llm-fallback fixture, written for this repo): in `angles` two consecutive
statements without a rule (ct.atan2) define `a` and `b`, both read later, so they go to the model as one statement
range; in `angles_tuple` one tuple assignment binds both names."""

import cuda.tile as ct

TileSize = ct.Constant[int]


@ct.kernel
def angles(x, w, y, z, TILE: TileSize):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    u = ct.load(w, index=(pid,), shape=(TILE,))
    a = ct.atan2(t, u)
    b = ct.atan2(u, t)
    ct.store(y, index=(pid,), tile=a + b)
    ct.store(z, index=(pid,), tile=a * b)


@ct.kernel
def angles_tuple(x, w, y, z, TILE: TileSize):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    u = ct.load(w, index=(pid,), shape=(TILE,))
    c, d = ct.atan2(t, u), ct.atan2(t, t)
    ct.store(y, index=(pid,), tile=c - d)
    ct.store(z, index=(pid,), tile=d)
