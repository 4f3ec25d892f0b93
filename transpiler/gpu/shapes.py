"""Fuzz plans from host calls: new array extents for a captured launch, with its grid and constants recomputed.

A spec captured by ``ctrs specs FILE --call EXPR`` records the grid and the ``ct.Constant`` values the host
code computed for that call (``grid: ["256", "1", "1"]``, ``N_ELEMENTS: 524288``) -- constants of that shape.
Resizing the spec's arrays alone would launch the old grid over the new data. The host code is what knows
how grid and constants follow from the extents (``cdiv(n, BLOCK)``, ``next_power_of_2(n_cols)``,
``min(NUM_SM * occupancy, n_rows)``, EVEN_K = ``seq % TILE_N == 0`` ...), so a fuzz plan changes the
*call*, not the spec: the integer extents of the call expression (the sizes of its ``torch.randn(...)`` /
``torch.empty(...)`` calls and its int tuples, e.g. a normalized shape ``(768,)``) are drawn anew, equal
extents staying tied (q, k and v share their sequence length), and the host code is captured again at the
drawn sizes. Every drawn spec is then exactly what the host code launches there, for any kernel, with no
per-kernel grid formula.

    groups = extent_groups("relu(torch.randn(256, 2048))")      # {256: [...], 2048: [...]}
    draws = draw("relu(torch.randn(256, 2048))", 8, tiles=[1024], max_elements=1 << 22, seed=1)
    call = with_sizes("relu(torch.randn(256, 2048))", draws[0])   # "relu(torch.randn(17, 1023))"

A call with explicit data (``torch.tensor([512, 512])``: varlen lengths) is not drawn: its data may describe sizes.

Drawing is hypothesis (derandomised by an explicit seed: the same call and seed give the same list on every
machine, so the drawn list can be computed here and shipped to a GPU host without hypothesis). Sizes come
from ``gpu.size_strategy``: tile tails (t-1, t+1, 2t+1), small odd sizes, the base size, random sizes.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass

from .. import errors

# torch factories whose positional ints / int tuples are tensor sizes (randint: only its size tuple)
SIZE_FACTORIES = ("randn", "rand", "empty", "zeros", "ones")


@dataclass(frozen=True)
class Extent:
    value: int
    start: int  # character offsets of the literal in the expression
    end: int
    array: int  # index of the tensor-creating call (or int tuple) it sizes


def _factory(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
            and node.func.value.id == "torch":
        return node.func.attr
    return None


def _int_literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _offsets(expr: str) -> list[int]:
    starts, pos = [], 0
    for line in expr.splitlines(keepends=True):
        starts.append(pos)
        pos += len(line)
    return starts or [0]


def extents(expr: str) -> list[Extent]:
    """The integer extents of a host-call expression, in source order: the int sizes of torch.randn / rand /
    empty / zeros / ones (positional, or one int tuple), the size tuple of torch.randint, and any other tuple or
    list made only of ints (a normalized shape). Raises CTRS-E360 when ``expr`` is not an expression."""
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as e:
        raise errors.CtrsError(errors.SHAPE_CALL, f"host call {expr!r} is not a Python expression: {e.msg}",
                               "give a call expression like 'relu(torch.randn(256, 2048))'") from None
    lines = _offsets(expr)
    found: list[tuple[int, int, int, int]] = []  # (start, end, value, array)
    taken: set[int] = set()  # id() of tuple nodes already read as a size
    arrays = 0

    def add(group: list[ast.AST]) -> None:
        nonlocal arrays
        for n in group:
            start = lines[n.lineno - 1] + n.col_offset
            end = lines[n.end_lineno - 1] + n.end_col_offset
            found.append((start, end, n.value, arrays))
        arrays += 1

    for node in ast.walk(tree):
        kind = _factory(node)
        if kind in SIZE_FACTORIES:
            ints = [a for a in node.args if _int_literal(a)]
            tup = [a for a in node.args if isinstance(a, (ast.Tuple, ast.List)) and a.elts
                   and all(_int_literal(e) for e in a.elts)]
            if ints and len(ints) == len(node.args):
                add(ints)
            elif tup:
                taken.add(id(tup[0]))
                add(tup[0].elts)
        elif kind == "randint":
            tup = [a for a in node.args if isinstance(a, (ast.Tuple, ast.List))]
            if tup and all(_int_literal(e) for e in tup[0].elts):
                taken.add(id(tup[0]))
                add(tup[0].elts)
            for a in node.args:  # its bounds are values, not sizes
                if isinstance(a, (ast.Tuple, ast.List)):
                    taken.add(id(a))
        elif kind is not None:  # another torch call (torch.tensor([512, 512])): data, never sizes
            for a in ast.walk(node):
                if isinstance(a, (ast.Tuple, ast.List)):
                    taken.add(id(a))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List)) and id(node) not in taken and node.elts \
                and all(_int_literal(e) for e in node.elts):
            add(node.elts)
    first: dict[int, int] = {}
    for s, _, _, a in sorted(found):
        first.setdefault(a, len(first))  # arrays numbered in source order
    return [Extent(v, s, e, first[a]) for s, e, v, a in sorted(found)]


def data_calls(expr: str) -> list[str]:
    """The ``torch.tensor(...)`` (explicit data) calls of ``expr``: data that may describe sizes (varlen sequence
    lengths, offsets) ties them to values a draw cannot see, so ``draw`` leaves such calls alone."""
    tree = ast.parse(expr, mode="eval") if expr.strip() else None
    return [ast.unparse(n) for n in ast.walk(tree) if _factory(n) in ("tensor", "as_tensor")] if tree else []


def extent_groups(expr: str) -> dict[int, list[Extent]]:
    """Extents tied by equal value (one drawn size per group), keyed by that base value, ascending."""
    out: dict[int, list[Extent]] = {}
    for x in extents(expr):
        out.setdefault(x.value, []).append(x)
    return dict(sorted(out.items()))


def with_sizes(expr: str, sizes: dict[int, int]) -> str:
    """``expr`` with every extent of base value ``b`` replaced by ``sizes[b]`` (groups not in ``sizes`` kept)."""
    out, pos = [], 0
    for x in extents(expr):
        out.append(expr[pos:x.start])
        out.append(str(sizes.get(x.value, x.value)))
        pos = x.end
    out.append(expr[pos:])
    return "".join(out)


def largest_array(expr: str, sizes: dict[int, int] | None = None) -> int:
    """Elements of the largest tensor the call creates at ``sizes`` (default: its own)."""
    per: dict[int, int] = {}
    for x in extents(expr):
        per[x.array] = per.get(x.array, 1) * (sizes or {}).get(x.value, x.value)
    return max(per.values(), default=0)


def label(base: dict[int, int] | list[int], sizes: dict[int, int]) -> str:
    """Spec-name suffix of one draw: the drawn sizes in base-value order, ``17x1023``."""
    return "x".join(str(sizes[b]) for b in sorted(base))


def size_limit(base: int) -> int:
    """How far a group may grow: four times its base size, at least 64 (small batch / head counts move too)."""
    return max(64, 4 * base)


def draw(expr: str, n: int, *, tiles: list[int] = (), max_elements: int = 1 << 24, seed: int = 0,
         examples: int | None = None) -> list[dict[int, int]]:
    """``n`` distinct draws of new sizes for ``expr``'s extent groups (base value -> drawn size): hypothesis,
    seeded (deterministic), every group drawn from ``gpu.size_strategy`` (tile tails around ``tiles``), no
    tensor above ``max_elements``, never the call's own sizes. Fewer than ``n`` when the space is smaller."""
    from hypothesis import HealthCheck, Phase, given, settings  # noqa: PLC0415
    from hypothesis import seed as hseed  # noqa: PLC0415
    from hypothesis import strategies as st  # noqa: PLC0415

    from .proof import size_strategy  # noqa: PLC0415

    groups = extent_groups(expr)
    if not groups or data_calls(expr):
        return []
    tiles = sorted({int(t) for t in tiles if int(t) > 1})
    # each group keeps its base size or takes a new one (st.just first: hypothesis leans towards changing few
    # groups at a time, so a draw moves the sequence length of an attention call, not every extent to 1)
    strat = st.fixed_dictionaries({b: st.one_of(st.just(b), size_strategy(b, size_limit(b), tiles))
                                   for b in groups}).filter(
        lambda d: any(d[b] != b for b in d) and largest_array(expr, d) <= max_elements)
    seen: list[dict[int, int]] = []

    @hseed(seed)
    @settings(max_examples=examples or 20 * n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strat)
    def collect(d):
        if len(seen) < n and d not in seen:
            seen.append(dict(d))

    collect()
    return seen


def tile_constants(spec_json: dict) -> list[int]:
    """The int ``ct.Constant`` values of a spec (its tile sizes among them): where draws put tile tails."""
    return sorted({int(v) for v in spec_json.get("args", {}).values()
                   if type(v) is int and v > 1 and math.log2(v).is_integer()})
