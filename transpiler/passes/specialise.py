"""Specialisation on the IR (lowered once, split here; the front end never runs again):

* **dtype choices** (``ct.tfloat32 if A.dtype == ct.float32 else A.dtype``): the ops typed by a
  :class:`DTypeChoice` (from the first to the last op that makes or uses such a value, in one block) move
  into a constant-flag ``if`` on the choice's host-computed flag: the then arm with the choice's first
  dtype, the else arm with the other. cuTile's JIT folds the flag per launch, so each arm is exactly the
  reference's code for that dtype (the else arm's ``E -> E`` casts fold away in constfold).
* **element entries**: a kernel whose float contraction depends on its dtype parameter ``E`` (a
  ``mulf`` of ``E`` tiles feeding an ``addf``/``subf``: the reference contracts it only when ``E`` is a
  float) becomes one entry per dtype of rules/cutile.toml ``[element_entries]`` (``<kernel>_<dtype>``),
  one entry per concrete dtype; a generic every use of which an integer has too (loads, stores, + - *,
  compares, sums, cumsum ...: :func:`int_capable`) also gets the integer entries ``<kernel>_i32`` / ``_i64``
  (``[element_entries] int_dtypes``), its float ops renamed to their integer counterparts.
"""

from __future__ import annotations

import dataclasses
import itertools

from .. import errors
from .constfold import run as fold_constants
from ..ir.constexpr import ConstExpr
from ..ir.naming import variant_entry
from .loopsplit import candidates as split_candidates
from ..ir.ops import READS_MEMORY, Block, Kernel, Op, OpKind
from ..ir.types import DTYPES, DType, DTypeParam, Sym, element, mentions_choice, subst_type
from ..ir.values import Value
from .util import clone_block, clone_ops, defined_in, replace_uses, walk_blocks


def _choice_flag(op: Op) -> str | None:
    for v in [*op.results, *op.operands]:
        if mentions_choice(v.type):
            return element(v.type).flag
    return None


def _split(block: Block) -> None:
    while True:
        idx = [i for i, op in enumerate(block.ops) if _choice_flag(op)]
        if not idx:
            break
        lo, hi = idx[0], idx[-1]
        region = block.ops[lo:hi + 1]
        flag = _choice_flag(region[0])
        inner = set()
        for op in region:
            inner |= {r.id for r in op.results}
        later = Block([], block.ops[hi + 1:])
        used_after = []
        for b in walk_blocks(later):
            for op in b.ops:
                for v in op.operands:
                    if v.id in inner and v not in used_after:
                        used_after.append(v)
        if any(mentions_choice(v.type) for v in used_after):
            raise errors.CtrsError(errors.IR_UNSUPPORTED, "typed-IR specialise: a dtype-choice value outlives its "
                                   "region", "", errors.Loc(region[0].loc.file, region[0].loc.line, region[0].loc.col))
        arms = []
        for value in (True, False):
            vmap: dict = {}
            ops = clone_ops(region, vmap, {flag: value})
            ops.append(Op(OpKind.YIELD, [vmap[v.id] for v in used_after], [], loc=region[-1].loc))
            arms.append(Block([], ops))
        results = [Value(v.type, v.hint) for v in used_after]
        iff = Op(OpKind.IF, [], results, {"flag": flag}, region[0].loc, arms)
        replace_uses(later, {v.id: r for v, r in zip(used_after, results)})
        block.ops = [*block.ops[:lo], iff, *later.ops]
    for op in block.ops:
        for r in op.regions:
            _split(r)


def split_choices(kernel: Kernel) -> Kernel:
    _split(kernel.body)
    return kernel


def concrete_elements(kernel: Kernel) -> list[str]:
    """The type generics (``E``, ``E1`` ...) the kernel needs concrete, in declaration order: a gather's padding is
    a scalar of the element type (cutile's JIT cannot tile_to_scalar a ``Tile<E1, {[]}>``: its
    get_element_type_structured knows element type names only), an atomic's mode depends on it (addf / addi), and
    an fma contraction needs a concrete float type."""
    uses: dict[int, list[Op]] = {}
    for b in walk_blocks(kernel.body):
        for op in b.ops:
            for v in op.operands:
                uses.setdefault(v.id, []).append(op)
    need: set[str] = set()
    for b in walk_blocks(kernel.body):
        for op in b.ops:
            el = element(op.results[0].type) if len(op.results) == 1 else None
            if not isinstance(el, DTypeParam):
                continue
            if op.kind in (OpKind.GATHER, OpKind.ATOMIC_RMW):
                need.add(el.name)
            if op.kind == OpKind.MULF:
                u = uses.get(op.result.id, [])
                while len(u) == 1 and u[0].kind == OpKind.CONVERT and len(u[0].results) == 1:
                    # a promotion (``out_f32 + d * x`` of an E-typed ``d * x``): when E is the target dtype the
                    # convert folds away and the reference contracts the mulf into the add
                    u = uses.get(u[0].result.id, [])
                if len(u) == 1 and u[0].kind in (OpKind.ADDF, OpKind.SUBF):
                    need.add(el.name)
    return [g.name for g in kernel.generics if g.kind == "type" and g.name in need]


def needs_concrete_element(kernel: Kernel) -> bool:
    return bool(concrete_elements(kernel))


def element_entries(kernel: Kernel, dtypes: list[str], ints: dict | None = None) -> list[Kernel]:
    """One entry per dtype of each type generic the kernel needs concrete (:func:`concrete_elements`):
    ``<kernel>_<dtype>`` for ``E`` alone, ``<kernel>_<dtype>_<dtype>..`` (in generic order) for several.
    ``ints``: rules/cutile.toml ``[element_entries]`` (``int_dtypes``, ``int_ops``, ``float_only``, ``int_attrs``,
    ``max_entries``): a generic every use of which an integer has too (:func:`int_capable`) also gets the integer
    dtypes, as long as the entries stay within ``max_entries``."""
    names = concrete_elements(kernel)
    if not names:
        return [kernel]
    lists = [list(dtypes) + [d for d in (ints or {}).get("int_dtypes", ()) if d not in dtypes
                             and int_capable(kernel, n, ints)] for n in names]
    if ints and len(list(itertools.product(*lists))) > ints.get("max_entries", 16):
        lists = [list(dtypes) for _ in names]  # the float entries as before (each integer entry one more)
    out = []
    for combo in itertools.product(*lists):
        binding = {n: DTYPES[dt] for n, dt in zip(names, combo)}
        vmap: dict = {}
        params = []
        for p in kernel.params:
            if p.value is not None:
                nv = Value(subst_type(p.value.type, binding), p.value.hint)
                vmap[p.value.id] = nv
                p = dataclasses.replace(p, value=nv)
            params.append(p)
        body = clone_block(kernel.body, binding, vmap)
        if any(not DTYPES[dt].is_float for dt in combo):
            _to_int_ops(body, ints)
        gens = [g for g in kernel.generics if g.name not in binding]
        out.append(dataclasses.replace(kernel, name=f"{kernel.name}_{'_'.join(combo)}", params=params, generics=gens,
                                       body=body, python_name=kernel.python_name or kernel.name,
                                       optional=kernel.optional or not all(DTYPES[dt].is_float for dt in combo)))
    return out


def int_capable(kernel: Kernel, name: str, ints: dict) -> bool:
    """Whether an integer dtype can stand for the type generic ``name``: no op of its values is float-only (rules
    ``float_only``: a true division, a float function, an fma, an mma ...) and every constant of it is an integer
    (a ``0`` padding, ``ct.zeros(dtype=A.dtype)``; ``0.5`` is not). The float ops it has (``addf`` of two of its
    tiles: a generic's arithmetic is lowered as a float's) have an integer counterpart (``int_ops``)."""
    float_only = set(ints.get("float_only", ()))
    param = DTypeParam(name)
    for b in walk_blocks(kernel.body):
        for op in b.ops:
            vals = [*op.operands, *op.results]
            if not any(element(v.type) == param for v in vals):
                continue
            if op.kind.mnemonic in float_only:
                return False
            if op.kind == OpKind.CONSTANT and not _integral(op.attrs.get("value")):
                return False
    return True


def _integral(v) -> bool:
    """An integer value every integer entry holds: a ``-1e30`` padding (a float's stand-in for -inf: TileGym's
    cross-entropy logits) is integral but fits no i32 / i64 element, so it keeps the generic float-only."""
    return (isinstance(v, (bool, int)) or isinstance(v, float) and v.is_integer()) and -2**31 <= v < 2**31


def _to_int_ops(block: Block, ints: dict) -> None:
    """An integer entry's body: the float ops of the generic's values (now an integer dtype) become their integer
    counterparts (rules ``int_ops``, keeping the ``int_attrs``), its constants integers."""
    kinds = {k.mnemonic: k for k in OpKind}
    ren = {kinds[f]: kinds[i] for f, i in ints.get("int_ops", {}).items()}
    keep = set(ints.get("int_attrs", ()))
    for b in walk_blocks(block):
        for op in b.ops:
            dt = element(op.operands[0].type) if op.operands else None
            if op.kind in ren and isinstance(dt, DType) and dt.kind == "int":
                op.kind = ren[op.kind]
                op.attrs = {k: v for k, v in op.attrs.items() if k in keep}
            elif op.kind == OpKind.CONSTANT and op.results and getattr(element(op.result.type), "kind", "") == "int" \
                    and isinstance(op.attrs.get("value"), float):
                op.attrs = {**op.attrs, "value": int(op.attrs["value"])}


# -- constant flags an fma contraction crosses ------------------------------------------------------------

def _crossing_flags(kernel: Kernel) -> list[str]:
    """Bool ct.Constant flags of constant ``if`` s that an fma contraction would cross: a ``mulf`` from
    outside feeding an ``addf``/``subf`` in an arm, or an arm yielding its ``mulf`` into an ``addf``/``subf``
    after the ``if``. The reference folds the flag before contracting (``fuse_mul_addsub`` sees straight-line
    code), a structured ``if`` would keep the two apart."""
    bools = {g.name for g in kernel.generics if g.origin == "constant" and g.note == "ct.Constant[bool]"}
    out: list[str] = []
    for op, crossing in _crossed_ifs(kernel):
        flag = op.attrs.get("flag")
        if crossing and flag in bools and flag not in out and "expr" not in op.attrs:
            out.append(flag)
    for flag in _hoisting_flags(kernel.body, [], bools) + _loop_split_flags(kernel.body, bools):
        if flag not in out:
            out.append(flag)
    return out


def _loop_split_flags(block: Block, bools: set[str]) -> list[str]:
    """Bool flags of constant ``if`` s at a loop body's top level whose arm holds a runtime ``if`` on the loop
    index against a loop-invariant bound (``if CAUSAL: if j >= mask_start``): the reference folds the flag,
    then its loop_split splits the loop there (passes/loopsplit.py); one entry per value lets the port split
    the same loop (instead of CTRS-E325)."""
    out: list[str] = []
    for op in block.ops:
        if op.kind == OpKind.FOR:
            for inner in op.regions[0].ops:
                if (inner.kind == OpKind.IF and not inner.operands and inner.attrs.get("flag") in bools
                        and any(split_candidates(op, r) for r in inner.regions)):
                    out.append(inner.attrs["flag"])
        for r in op.regions:
            out += _loop_split_flags(r, bools)
    return out


def _crossed_ifs(kernel: Kernel):
    """(constant ``if``, whether an fma contraction crosses it) for every constant ``if`` of the kernel."""
    defs: dict[int, Op] = {}
    for b in walk_blocks(kernel.body):
        for op in b.ops:
            for r in op.results:
                defs[r.id] = op
    for b in walk_blocks(kernel.body):
        for i, op in enumerate(b.ops):
            if op.kind != OpKind.IF or op.operands or "flag" not in op.attrs:
                continue
            inner = {r.id for arm in op.regions for ab in walk_blocks(arm) for o in ab.ops for r in o.results}
            crossing = False
            for arm in op.regions:
                for ab in walk_blocks(arm):
                    for o in ab.ops:
                        if o.kind in (OpKind.ADDF, OpKind.SUBF) and any(
                                v.id not in inner and defs.get(v.id) is not None and defs[v.id].kind == OpKind.MULF
                                for v in o.operands):
                            crossing = True
                yielded = {r.id for r, y in zip(op.results, arm.ops[-1].operands)
                           if defs.get(y.id) is not None and defs[y.id].kind == OpKind.MULF and y.id in inner}
                for later in walk_blocks(Block([], b.ops[i + 1:])):
                    for o in later.ops:
                        if o.kind in (OpKind.ADDF, OpKind.SUBF) and any(v.id in yielded for v in o.operands):
                            crossing = True
            yield op, crossing


def refuse_crossed_exprs(kernel: Kernel) -> None:
    """An ``if`` on an expression of const generics (``if STAGE & 1``) that an fma contraction would cross:
    the reference folds the condition, then contracts the straight-line code; the port's ``if`` keeps the two
    apart and, unlike a bool flag, the expression has no finite set of values to split entries on."""
    for op, crossing in _crossed_ifs(kernel):
        if crossing and isinstance(op.attrs.get("test", (None, None))[1], Sym):
            pred, other = op.attrs["test"]
            raise errors.CtrsError(
                errors.IR_CONST_COMPARE_FMA, f"an fma contraction crosses the constant if {op.attrs['flag']} {pred} "
                f"{other.name} (a comparison of two ct.Constant ints)", "cuTile Python folds the comparison "
                "per launch, then contracts the mulf into the addf/subf; the port keeps the if (one entry per "
                "flag value is possible for a ct.Constant[bool] only): bind the test to a ct.Constant[bool] "
                "computed on the host", op.loc)
        if crossing and "expr" in op.attrs:
            raise errors.CtrsError(errors.IR_CONST_EXPR_FMA, f"an fma contraction crosses `if {op.attrs['flag']}` "
                                   "(a condition computed from ct.Constant values)", "cuTile Python folds the "
                                   "condition, then fuses the mulf and addf around it into one fma; the port's if "
                                   "keeps them apart: move the multiply and the add into one arm",
                                   op.loc)


def _hoisting_flags(block: Block, loops: list[set[int]], bools: set[str]) -> list[str]:
    """Bool flags of constant ``if`` s inside a loop whose arms hold a loop-invariant pure op: the reference
    folds the flag, then hoists that op out of the loop (passes/hoist.py leaves arms alone)."""
    out: list[str] = []
    for op in block.ops:
        if op.kind == OpKind.FOR:
            out += _hoisting_flags(op.regions[0], [*loops, defined_in(op.regions[0])], bools)
            continue
        if op.kind == OpKind.IF and not op.operands and op.attrs.get("flag") in bools and loops:
            inside = loops[-1]
            for arm in op.regions:
                for o in arm.ops:
                    if (o.pure and not o.regions and o.kind not in READS_MEMORY and o.kind != OpKind.YIELD
                            and not any(v.id in inside for v in o.operands)):
                        out.append(op.attrs["flag"])
        for r in op.regions:
            out += _hoisting_flags(r, loops, bools)
    return out


def split_flags(kernel: Kernel, order: list[str] | None = None) -> list[Kernel]:
    """One entry per value of each bool flag an fma contraction crosses (``<kernel>__<FLAG>_<v>``,
    ir/naming.py): the flag leaves the parameters and generics, Kernel.variant records it
    and constfold keeps the taken arm of its ``if`` s."""

    flags = _crossing_flags(kernel)
    if not flags:
        return [kernel]
    order = order or [p.name for p in kernel.params]  # the kernel's parameter order names the entries
    out = [kernel]
    for flag in flags[:1]:  # one flag, then again on each entry: a split can make another flag crossed
        nxt = []
        for k in out:
            for v in (0, 1):
                vmap: dict = {}
                body = clone_block(k.body, {}, vmap)
                for b in walk_blocks(body):
                    b.ops = [Op(OpKind.CONSTANT, [], o.results, {"value": v}, o.loc)
                             if o.kind == OpKind.CONST_SYM and o.attrs.get("sym") == flag else o for o in b.ops]
                variant = tuple(sorted([*k.variant, (flag, v)], key=lambda fv: order.index(fv[0])
                                       if fv[0] in order else len(order)))
                py = k.python_name or k.name
                # the entry's own name less its variant suffix: a per-dtype entry (``<kernel>_f32``,
                # frontends/cutile/dtypes.py) keeps its dtype, else two entries of one flag value share a name
                base = k.name.removesuffix(variant_entry("", list(k.variant))) if k.variant else k.name
                params = [dataclasses.replace(p, value=vmap.get(p.value.id, p.value)) if p.value is not None else p
                          for p in k.params if p.name != flag]
                nxt.append(dataclasses.replace(k, name=variant_entry(base, list(variant)), python_name=py,
                                               variant=variant, body=body, params=params,
                                               generics=[_fixed_generic(g, flag, v) for g in k.generics
                                                         if g.name != flag]))
        out = nxt
    return [e for k in out for e in split_flags(fold_constants(k), order)]  # the taken arm, before looking again


def _fixed_generic(g, flag: str, v: int):
    """A derived const generic (frontends/derived.py) of an entry that fixes ``flag`` to ``v``: its expression
    takes the value (the flag is no generic of the entry); any other generic unchanged."""
    if g.expr is None or flag not in g.expr.syms():
        return g
    e = g.expr.substitute({flag: ConstExpr.literal(v)})
    return dataclasses.replace(g, expr=e, note=f"{e.python()} (host-computed)")
