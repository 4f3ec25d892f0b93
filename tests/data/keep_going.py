"""Keep-going test data: six kernels, three of them with blockers (tests/test_keep_going.py).

Not a real kernel library: every construct here is chosen for where its diagnostic lands."""

import cuda.tile as ct

TILE = 64


def twice_rolled(t):
    r = ct.roll_it(t)
    return r + r


@ct.kernel
def add(a, b, c, n: ct.Constant[int]):
    bid = ct.bid(0)
    ta = ct.load(a, index=(bid,), shape=(n,))
    tb = ct.load(b, index=(bid,), shape=(n,))
    ct.store(c, index=(bid,), tile=ta + tb)


@ct.kernel
def two_blockers(a, c, n: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(n,))
    u = ct.mystery(t)
    v = u * 2
    w = t[0]
    ct.store(c, index=(bid,), tile=v + w)


@ct.kernel
def helper_twice(a, c, n: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(n,))
    r = twice_rolled(t)
    s = twice_rolled(r)
    ct.store(c, index=(bid,), tile=s)


@ct.kernel
def double(a, c, n: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(n,))
    ct.store(c, index=(bid,), tile=t + t)


@ct.kernel
def loop_and_scalar(a, c, scale, n: ct.Constant[int], k: ct.Constant[int]):
    bid = ct.bid(0)
    acc = ct.load(a, index=(bid,), shape=(n,))
    for i in range(k):
        acc = acc + ct.mystery(acc)
        acc = acc * 2
    ct.store(c, index=(bid,), tile=acc * scale)


@ct.kernel
def helper_again(a, c, n: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(n,))
    ct.store(c, index=(bid,), tile=twice_rolled(t))
