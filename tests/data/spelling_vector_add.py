"""vector_add written with other import/alias spellings (ctrs translate test data)."""

from cuda import tile as cut

ConstInt = cut.Constant[int]


@cut.kernel
def vector_add(x, y, z, TILE: ConstInt):
    """Docstrings are skipped."""
    pid = cut.bid(0)
    lhs = cut.load(x, index=(pid,), shape=(TILE,))
    rhs = cut.load(y, index=(pid,), shape=(TILE,))
    cut.store(z, index=(pid,), tile=cut.add(lhs, rhs))
