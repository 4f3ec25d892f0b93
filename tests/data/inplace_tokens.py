"""Straight-line memory tokens (written for this repo): an in-place update that reads two tiles of x, writes them
back swapped and scaled, reads one of them again after the store, and writes a sum to y; w is only read. cuTile
Python orders x's stores after x's loads (a join of their tokens), chains the two stores, and makes the last load
wait for the stores; w's and y's accesses wait for nothing. passes/memtokens.py threads the same graph."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def swap_halves(x, y, w, TILE: ConstInt):
    bid = ct.bid(0)
    a = ct.load(x, index=(bid, 0), shape=(1, TILE))
    b = ct.load(x, index=(bid, 1), shape=(1, TILE))
    s = ct.load(w, index=(0, 0), shape=(1, TILE))
    ct.store(x, index=(bid, 0), tile=b * s)
    ct.store(x, index=(bid, 1), tile=a)
    c = ct.load(x, index=(bid, 0), shape=(1, TILE))
    ct.store(y, index=(bid, 0), tile=c + a)


@ct.kernel
def bump_pairs(x, TILE: ConstInt):
    bid = ct.bid(0)
    offs = bid * TILE + ct.arange(TILE, dtype=ct.int32)
    v = ct.gather(x, offs)
    ct.scatter(x, offs, v * 2)
    w = ct.gather(x, offs)
    ct.scatter(x, offs, w + 1)
