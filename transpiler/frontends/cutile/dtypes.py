"""The arrays' dtype variables of a cuTile kernel (docs/ir.md "Array dtype variables").

cuTile Python's JIT sees every array's concrete dtype at launch, so every array parameter starts with a dtype
variable of its own. Lowering with those variables meets the typing rules of ir/typing.py, which answer with
facts instead of types where the reference would decide per launch:

* :class:`~ctrs.ir.typing.Unify` -- two variables' tiles meet (``a + b``, a tile of one stored into the other):
  one variable (the port is generic in it);
* :class:`~ctrs.ir.typing.Bind` -- a use forces a concrete dtype (``ct.store`` of an f32 tile: the reference casts
  a stored tile only to a dtype it promotes to, so that array is f32 in every launch that compiles);
* :class:`~ctrs.ir.typing.GenericMeetsConcrete` -- the lowering depends on the variable's value (``i32`` meets
  it, ``ct.exp`` of its tile, a constant of it the crate cannot spell generically): the kernel is lowered once
  per dtype of that variable (``<kernel>_<dtype>`` entries; several variables: one suffix each, in order).

:func:`solve` lowers, applies the facts and lowers again until none is left (each round merges or binds a
class, so it ends); :func:`entries` then specialises the variables that need it. The variables left are the
port's type generics, named ``E`` (the class of the first array), ``E1``, ``E2`` ... in parameter order.
"""

from __future__ import annotations

import itertools

import libcst as cst

from ... import errors
from ...ir import typing as irtyping
from ...ir.types import DTYPES, DType, DTypeParam

MAX_ROUNDS = 64
MAX_ENTRY_LOWERINGS = 16  # per-dtype lowerings of one kernel (each costs a full lowering)
MAX_SPECIALISED = 4  # dtype variables one entry may fix (each multiplies the lowerings by its candidates)
# the integer dtypes of an index array (one meeting i32: an index, a loop bound, a length compared with a position):
# cuTile Python keeps an integer's width (i32 meeting i64 is i64, a range over an i64 bound an i64 loop), so an
# int64 array (torch's default integer dtype: TileGym's Q_lens / KV_lens) is an entry of its own
INDEX_DTYPES = ("i32", "i64")


class Classes:
    """Union-find of array names with an optional concrete dtype per class."""

    def __init__(self, arrays: list[str], fixed: dict[str, DType] | None = None):
        self.arrays = arrays
        self.parent = {a: a for a in arrays}
        self.bound: dict[str, DType] = {}
        self.why: dict[str, tuple[int, str]] = {}  # a bound class -> (line, the fact that bound it): --explain
        for a, d in (fixed or {}).items():
            self.bound[self.find(a)] = d

    def find(self, a: str) -> str:
        while self.parent[a] != a:
            a = self.parent[a]
        return a

    def reps(self) -> list[str]:
        """Class representatives in parameter order (of each class's first array)."""
        out: list[str] = []
        for a in self.arrays:
            r = self.find(a)
            if r not in out:
                out.append(r)
        return out

    def names(self) -> dict[str, str]:
        """Each unbound class's variable name: ``E``, ``E1``, ``E2`` ... in parameter order."""
        free = [r for r in self.reps() if r not in self.bound]
        return {r: "E" if i == 0 else f"E{i}" for i, r in enumerate(free)}

    def mapping(self) -> dict[str, object]:
        names = self.names()
        return {a: self.bound.get(self.find(a)) or DTypeParam(names[self.find(a)]) for a in self.arrays}

    def by_param(self) -> dict[str, str]:
        """Variable name -> its class representative."""
        return {n: r for r, n in self.names().items()}

    def bind(self, rep: str, dt: DType) -> bool:
        """``rep``'s class is ``dt`` (merged with a dtype it already has: the wider of two that promote, since a
        narrower store into the wider array is an implicit cast). Raises PromotionError on a conflict."""
        old = self.bound.get(rep)
        new = dt if old is None else irtyping.promote(old, dt)
        self.bound[rep] = new
        return new != old

    def union(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        first, second = sorted((ra, rb), key=self.arrays.index)
        self.parent[second] = first
        if second in self.bound:
            d = self.bound.pop(second)
            self.bind(first, d)
        return True


def arrays_of(classes: Classes, rep: str) -> list[str]:
    return [a for a in classes.arrays if classes.find(a) == rep]


def array_names(lw_cls, info, fn: cst.FunctionDef) -> list[str]:
    """The array parameters of ``fn`` in parameter order (as Lowering.param decides them: by rank)."""
    ranks = lw_cls(info, fn)._array_ranks()
    return [p.name.value for p in fn.params.params if p.name.value in ranks]


def _facts(blockers) -> list:
    return [b.__cause__ for b in blockers if isinstance(b.__cause__, irtyping.DTypeFact)]


def solve(lower, classes: Classes, loc: errors.Loc, met: set | None = None):
    """Lower with the classes' variables, apply the dtype facts, again until none is left. ``lower(mapping, met)``
    returns (entries, blockers) and adds to ``met`` the variables whose tiles met a concrete float (of the last
    round). Returns (entries, blockers, classes)."""
    for _ in range(MAX_ROUNDS):
        by_param = classes.by_param()
        if met is not None:
            met.clear()
        ks, blockers = lower(classes.mapping(), met)
        facts = _facts(blockers)
        if not facts:
            return ks, blockers, classes
        changed = False
        for f in facts:  # binds first: a variable's tile stored into an array a use makes f32 is a cast, not a unify
            if isinstance(f, irtyping.Bind) and f.param.name in by_param:
                rep = classes.find(by_param[f.param.name])
                b = next(b for b in blockers if b.__cause__ is f)
                try:
                    if classes.bind(rep, f.dtype):
                        changed = True
                        classes.why[rep] = (b.loc.line if b.loc else 0, f.why)
                except irtyping.PromotionError as e:
                    arrays = arrays_of(classes, rep)
                    return [], [errors.CtrsError(
                        errors.IR_DTYPE_CONFLICT, f"typed-IR front end: array {', '.join(arrays)} would have to be "
                        f"{classes.bound[rep]} and {f.dtype} ({e}): no launch compiles",
                        "cast the tile (ct.astype) to the array's dtype", b.loc)], classes
        for f in facts:  # then the meetings of variables still free (the next round sees the bound ones concrete)
            if isinstance(f, irtyping.Unify) and f.a.name in by_param and f.b.name in by_param:
                a, b = classes.find(by_param[f.a.name]), classes.find(by_param[f.b.name])
                if a not in classes.bound and b not in classes.bound:
                    changed |= classes.union(a, b)
        if not changed:
            break
    return [], [errors.CtrsError(errors.IR_DTYPE_UNSOLVED, "typed-IR front end: the arrays' dtype facts do not "
                                 "settle", "a translator bug: report the kernel", loc)], classes


def candidates(blockers, element_dtypes, ints_only: bool = False, index_dtypes=("i32",)) -> dict[str, list[str]]:
    """Variable name -> the dtypes to specialise it to: the integer dtypes it met first (an index array meeting
    ``i32``, an index / loop bound read from it; meeting the first of ``index_dtypes``, the others after it: an
    int64 index array), then the element dtypes of the rules (f32, f16, bf16); with ``ints_only`` a variable that
    met an integer gets only those (its float entries would be left out: fewer lowerings). ``"*"``: every variable
    (a fact without one)."""
    out: dict[str, list[str]] = {}
    for b in blockers:
        c = b.__cause__
        params = [p.name for p in c.params] or ["*"]
        for p in params:
            lst = out.setdefault(p, [])
            # an integer met first; a float the rules' element dtypes lack (a ct.float8_e4m3fn padding) too
            if c.met is not None and (not c.met.is_float or c.met.name not in element_dtypes) \
                    and c.met.name not in lst:
                lst.insert(0, c.met.name)
                if c.met.name == index_dtypes[0]:
                    lst[1:1] = [d for d in index_dtypes[1:] if d not in lst]
    for lst in out.values():
        if not lst or not ints_only:  # ints_only: a variable that met an integer is an index array
            lst += [d for d in element_dtypes if d not in lst]
    return out


def entries(lower, arrays: list[str], name: str, element_dtypes, loc: errors.Loc, fixed=None, suffix=(), budget=None,
            strict_in: bool = False, apart: int = 0, index_dtypes=("i32",), launches=(), per_launch: bool = True):
    """The kernel's entries: solved, then one entry per combination of dtypes of the variables whose lowering
    depends on their value (named ``<name>_<dt>...``, an entry whose lowering fails is left out). ``apart``: the
    most type generics a port may have for its independent variables to stay apart (``keep_apart``; 0: the
    variables no use forces apart are one generic E). ``index_dtypes``: an index array's integer dtypes
    (:func:`candidates`). ``launches``: the launches the port must serve, each {array: IR dtype name} (the
    specs given to ``ctrs translate`` / ``ctrs check``): free variables whose arrays one of them passes in
    different dtypes stay apart (:func:`launch_groups`), and a launch passing two arrays of one solved variable in
    different dtypes gets an entry of its concrete dtypes (:func:`mixed_launches`; ``per_launch``: look for such
    launches). Returns (entries, blockers of the generic lowering when
    no entry is left)."""
    budget = budget if budget is not None else [MAX_ENTRY_LOWERINGS]
    classes = Classes(arrays, fixed)
    met: set[str] = set()
    ks, blockers, classes = solve(lower, classes, loc, met)
    # at every level: a lowering that stops at a dtype-dependent blocker sees the facts past it only in the entries
    # that fix that variable (TileGym's attention-sink decode unifies its f32 LSE_Out with the bf16 arrays there)
    mixed = mixed_launches(classes, _serving(launches, fixed), (*element_dtypes, *index_dtypes)) if per_launch else []
    if mixed:  # launches the generic typing cannot serve: an entry of their concrete dtypes each, before the others
        own: list = []
        served = []
        for fix in mixed:
            es, bs = entries(lower, arrays, name, element_dtypes, loc, fix, launch_suffix(arrays, fix, own), budget,
                             strict_in, apart, index_dtypes)
            if not bs:  # a launch whose entry does not lower (the reference does not compile it either) stays below
                own += es
                served.append(fix)
        rest = [ln for ln in launches if not any(all(ln.get(a) == d.name for a, d in f.items()) for f in served)]
        es, bs = entries(lower, arrays, name, element_dtypes, loc, fixed, suffix, budget, strict_in, apart,
                         index_dtypes, rest, per_launch=False)  # the generic entries (the other launches)
        return own + es, (bs if not own else [])
    names = classes.names()
    # the port's policy: the variables no use forces apart are one generic E (the arrays a launch passes share one
    # element type, as every port so far; merging only adds equalities, so what lowered still does), except a
    # variable whose tiles meet a concrete float (f32 wins whatever it is: f32 statistics read next to half-precision
    # data keep a type generic of their own, E1 ...) and one whose lowering depends on its value (specialised per
    # dtype: an index array meeting i32, a reduced array; the arrays beside it stay generic)
    limit, apart = apart, set(met) | {p.name for b in blockers
                                      if isinstance(b.__cause__, irtyping.GenericMeetsConcrete) for p in b.__cause__.params}
    free = [r for r in classes.reps() if r not in classes.bound and names[r] not in apart]
    split: tuple = ()  # the launches that kept some free variables apart
    if len(free) > 1 and all(b.code != errors.IR_DTYPE_CONFLICT for b in blockers) \
            and not keep_apart(classes, limit, blockers, ks):
        serving = _serving(launches, fixed)
        groups = launch_groups(classes, free, serving)
        for group in groups:
            for r in group[1:]:
                classes.union(group[0], r)
        if len(groups) > 1:
            split = tuple(tuple(sorted(ln.items())) for ln in serving)
        ks, blockers, classes = solve(lower, classes, loc)
    depend = [b for b in blockers if isinstance(b.__cause__, irtyping.GenericMeetsConcrete)]
    if not depend or len(suffix) >= MAX_SPECIALISED or any(b.code == errors.IR_DTYPE_CONFLICT for b in blockers):
        for k in ks:
            if suffix:
                k.python_name, k.name = name, f"{k.name}_{'_'.join(suffix)}"
            if split:
                k.launches = split
            for r, (line, why) in classes.why.items():
                k.notes.append((line, "dtype", f"array {', '.join(arrays_of(classes, r))}: {classes.bound[r]} in "
                                f"every launch ({why})"))
        return ks, blockers
    # the lowering depends on the value of some variables (an i32 meeting one, a comparison / reduction / index of
    # one, ...): lowered once per dtype of each, as the reference's JIT does per launch. Other blockers may be
    # consequences of the generic typing (a name whose type changes in a loop once a tile of !E1 meets i32), so the
    # entries are tried whatever else failed; an entry whose lowering fails is left out
    # ints only for an index array when the kernel needs the newer dtype-dependent facts (a loop bound, a loop type
    # change ... : ir/typing.depends_on) or failed otherwise too; a kernel all of whose blockers are meetings keeps
    # its float entries of such a variable beside the int ones (the entries ports had before)
    strict = strict_in or len(depend) < len(blockers) or any(getattr(b.__cause__, "strict", False) for b in depend)
    want = candidates(depend, element_dtypes, strict, index_dtypes)
    reps = [r for r in classes.reps() if r not in classes.bound and (
        "*" in want or classes.names()[r] in want)]
    if not reps:
        return [], blockers
    lists = [want.get(classes.names()[r]) or want["*"] for r in reps]
    out, tried = [], []
    base = {a: d for a, d in ((a, classes.bound.get(classes.find(a))) for a in arrays) if d is not None}
    for combo in itertools.product(*lists):
        if strict:  # bounded (the kernels all of whose blockers are meetings keep every combination, as before)
            if budget[0] <= 0:  # too many combinations: the entries found so far, else the furthest one's blockers
                break
            budget[0] -= 1
        fix = dict(base)
        for r, d in zip(reps, combo):
            for a in arrays:
                if classes.find(a) == r:
                    fix[a] = DTYPES[d]
        es, bs = entries(lower, arrays, name, element_dtypes, loc, fix, (*suffix, *combo), budget, strict, limit,
                         index_dtypes, launches)
        if not bs:
            out += es
        else:
            tried.append((combo, bs))
            if strict and _independent(blockers, bs):
                break
    if out:
        return out, []
    return [], _entry_blockers(name, tried, blockers, suffix)


def mixed_launches(classes: Classes, launches, generic=()) -> list[dict[str, DType]]:
    """The launches (each as {array: concrete dtype}, distinct, in order) that pass two arrays of one solved class
    in different dtypes: a use made their variables one (``b_tile * dt_tile``, an mma's operands and accumulator),
    which is right when a launch passes them alike; cuTile Python types each array by its tensor, so with bf16 ``x``
    beside f32 ``dt`` (TileGym's mamba2 chunk-state kernels) the reference promotes where the generic port would
    not compile (an mma with a bf16 accumulator). Also those passing a free class's arrays in a dtype outside
    ``generic`` (the dtypes a type generic is dispatched over, and the index dtypes the solver specialises itself):
    an int8 mask (TileGym's attention variants) that a generic entry would neither dispatch nor spell constants of
    (``E::ZERO`` of i8: "Unsupported constant type" in the cuTile JIT). Such a launch gets an entry of its own,
    every array at its dtype."""
    out: list[dict[str, DType]] = []
    for ln in launches:
        def needs(r) -> bool:
            seen = {ln[a] for a in arrays_of(classes, r) if a in ln}
            return len(seen) > 1 or bool(generic) and r not in classes.bound and not seen <= set(generic)

        if not any(needs(r) for r in classes.reps()):
            continue
        fix = {a: DTYPES[ln[a]] for a in classes.arrays if ln.get(a) in DTYPES}
        if fix not in out:
            out.append(fix)
    return out


def launch_suffix(arrays: list[str], fix: dict[str, DType], taken: list) -> tuple[str, ...]:
    """An entry name suffix for the launch dtypes ``fix``: the arrays' dtypes in parameter order, runs of one dtype
    spelled once (``bf16_f32`` for bf16 x, b then f32 dt, state ...), every array's where that name is taken."""
    dts = [fix[a].name for a in arrays if a in fix]
    short = tuple(d for i, d in enumerate(dts) if i == 0 or dts[i - 1] != d)
    names = {k.name for k in taken}
    return tuple(dts) if any(n.endswith("_" + "_".join(short)) for n in names) else short


def _serving(launches, fixed) -> list[dict[str, str]]:
    """The launches an entry whose ``fixed`` arrays have those dtypes serves (those passing them in them)."""
    return [ln for ln in launches if all(ln.get(a, d.name) == d.name for a, d in (fixed or {}).items())]


def launch_groups(classes: Classes, free: list[str], launches) -> list[list[str]]:
    """The free variables ``free`` (class representatives, parameter order) in the groups that become one type
    generic each: all of them, as every port had (policy "fewest generics"), unless a launch the port must serve
    passes two of their arrays in different dtypes (cuTile Python types each array by its tensor: TileGym's
    gated-delta-rule kernels take bf16 q / k / v beside f32 gate / state arrays). Each variable joins the first group
    whose dtype in every launch is its own (or unknown on either side: an array a launch does not name), so the
    variables whose arrays differ stay apart and the others stay one. A variable whose own arrays differ in a launch
    (unified by a use) has no single dtype there: unknown. Deterministic: parameter order."""
    groups: list[tuple[list[str], list]] = []
    for r in free:
        mine = []
        for ln in launches:
            seen = {ln[a] for a in arrays_of(classes, r) if a in ln}
            mine.append(seen.pop() if len(seen) == 1 else None)
        for members, sig in groups:
            if all(a is None or b is None or a == b for a, b in zip(sig, mine)):
                members.append(r)
                sig[:] = [a if a is not None else b for a, b in zip(sig, mine)]
                break
        else:
            groups.append(([r], mine))
    return [members for members, _ in groups]


def keep_apart(classes: Classes, limit: int, blockers=(), kernels=()) -> bool:
    """Whether the free variables stay apart, each its own type generic: the solved classes are the arrays whose
    values never meet without a cast (a Triton kernel's f32 partials read into an f32 accumulator and the bf16 dW it
    stores ``.to(dW.dtype.element_ty)``: a launch passes them in different dtypes), and the port may have ``limit``
    type generics (its C entries dispatch over every combination of their dtypes: 3 ** n match arms, each one
    instantiation of the launcher). Not when a variable's lowering depends on its value (``blockers`` has a
    GenericMeetsConcrete), nor when more than one of the lowered ``kernels``' type generics must be concrete
    (passes/specialise.concrete_elements: an fma contraction, a gather padding): their entries would multiply by 3
    per variable kept apart (a kernel lowered per dtype of each). Otherwise they are one generic E, as before."""
    from ...passes.specialise import concrete_elements  # noqa: PLC0415 - the pass decides which generics split

    if any(isinstance(b.__cause__, irtyping.GenericMeetsConcrete) for b in blockers):
        return False
    if any(len(concrete_elements(k)) > 1 for k in kernels):
        return False
    return 1 < len([r for r in classes.reps() if r not in classes.bound]) <= limit


def _independent(generic: list, entry: list) -> bool:
    """Whether every blocker of the generic lowering that does not depend on a dtype variable fails the entry too (same
    code and place): it does not depend on the variables, so no other combination lowers either."""
    own = {(b.code, b.loc and (b.loc.line, b.loc.col)) for b in generic
           if not isinstance(b.__cause__, irtyping.GenericMeetsConcrete)}
    return bool(own) and own <= {(b.code, b.loc and (b.loc.line, b.loc.col)) for b in entry}


def _entry_blockers(name: str, tried: list, generic: list, suffix=()) -> list:
    """The blockers of a kernel none of whose per-dtype entries lowers: those of the entry that got furthest (the
    fewest blockers that do not depend on a dtype variable; the first candidate on a tie: i32 for an index, f32 for
    data), each naming that entry; the generic lowering's when no entry was tried."""
    if not tried:
        return generic

    def rank(t):
        combo, bs = t
        return (sum(not isinstance(b.__cause__, irtyping.GenericMeetsConcrete) for b in bs), len(bs))

    combo, bs = min(tried, key=rank)
    entry = f"{name}_{'_'.join((*suffix, *combo))}"
    out = []
    for b in bs:
        if f"(entry {entry}" in b.message or "(entry " in b.message:
            out.append(b)
            continue
        e = errors.CtrsError(b.code, f"{b.message} (entry {entry}: the kernel lowered per dtype of the arrays' dtype "
                             "variables its typing depends on)", b.hint, b.loc)
        e.__cause__ = b.__cause__
        out.append(e)
    return out
