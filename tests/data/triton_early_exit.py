import triton
import triton.language as tl


@triton.jit
def clipped_rows(x, y, counts, n, SKIP_EMPTY: tl.constexpr, B: tl.constexpr):
    """Row r keeps its first counts[r] entries: an empty row returns inside a constexpr arm (a nested if), a row
    longer than n stores doubled values and returns from one arm of an if / else; the rest is the other path."""
    row = tl.program_id(0)
    c = tl.load(counts + row)
    if SKIP_EMPTY:
        if c == 0:
            return
    cols = tl.arange(0, B)
    v = tl.load(x + row * n + cols, mask=cols < c, other=0.0)
    if c > n:
        tl.store(y + row * n + cols, v * 2, mask=cols < n)
        return
    else:
        v = v + 1
    tl.store(y + row * n + cols, v, mask=cols < n)




@triton.jit
def copy_until_negative(x, y, n, B: tl.constexpr):
    """Copy row r of x into y block by block; the first block that starts with a negative value is written as
    zeros and the program returns there (a return inside the loop's if): the later blocks of y are untouched."""
    row = tl.program_id(0)
    for start in range(0, n, B):
        cols = start + tl.arange(0, B)
        v = tl.load(x + row * n + cols, mask=cols < n, other=0.0)
        first = tl.load(x + row * n + start)
        if first < 0:
            tl.store(y + row * n + cols, v * 0, mask=cols < n)
            return
        tl.store(y + row * n + cols, v, mask=cols < n)
    tl.store(y + row * n, tl.load(x + row * n) + 1)
