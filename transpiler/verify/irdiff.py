"""Structural comparison of reference vs port Tile IR, with findings classified per the IR-diff checklist.

Verdict: equivalent when the canonical value graphs (ircanon) are equal. Otherwise findings come
from two sources:
  * gates (checklist, docs/porting.md §13.2): op-family counts, memory ops, mma operand/accumulator
    types, reduce/scan axes and identities, layout attributes (strides / dim_map / tile / padding),
    math modes (flush_to_zero, rounding, propagate_nan), hints (latency, allow_tma, entry hints);
  * the divergence frontier: the first ops whose operands match on both sides but which themselves
    do not — each names the op and the source line of both sides.
Exit code: 0 equivalent (info findings allowed), 1 any critical, 2 warnings only.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .. import errors
from . import ircanon, irparse, tileir_tools

CRITICAL, WARNING, INFO = "critical", "warning", "info"
CRITICAL_FAMILY = {"load_ptr_tko", "store_ptr_tko", "load_view_tko", "store_view_tko", "reduce", "scan", "exp",
                   "exp2", "rsqrt", "sqrt", "fma", "mmaf", "mmai", "for", "loop", "if", "atomic_rmw_tko",
                   "atomic_cas_tko", "make_partition_view", "make_tensor_view", "log", "log2", "tanh"}
ARITH_FAMILY = {"addf", "subf", "mulf", "divf", "maxf", "minf", "negf", "addi", "subi", "muli", "divi", "remi"}
INFO_FAMILY = {"select", "iota", "cmpi", "cmpf", "ftof", "itof", "ftoi", "exti", "trunci", "constant", "reshape",
               "broadcast", "get_tile_block_id", "get_num_tile_blocks", "get_index_space_shape", "andi", "ori",
               "offset", "permute", "return", "yield", "continue"}
MASK_OPS = {"select", "cmpi", "cmpf", "andi", "ori"}  # bounds masks: never noise when they diverge
VIEW_OPS = {"make_partition_view", "make_tensor_view"}
LAYOUT_CODES = {"IRD-LAYOUT-TILE", "IRD-LAYOUT-PAD", "IRD-LAYOUT-DIMMAP", "IRD-LAYOUT-STRIDES"}
MEMORY = {"load_ptr_tko", "store_ptr_tko", "load_view_tko", "store_view_tko"}

# (finding code, attribute regex over an op signature, what it is)
ATTRS = [
    ("IRD-LAYOUT-TILE", r"tile = \( [^)]* \)", "partition tile shape"),
    ("IRD-LAYOUT-PAD", r"padding_value = \w+", "padding value"),
    ("IRD-LAYOUT-DIMMAP", r"dim_map = \[ [^\]]* \]", "dim_map"),
    ("IRD-LAYOUT-STRIDES", r"strides = \[ [^\]]* \]", "view strides"),
    ("IRD-REDUCE-DIM", r"\bdim = \S+", "reduction axis"),
    ("IRD-REDUCE-IDENT", r"identities = \[ [^\]]* \]", "reduction identity"),
    ("IRD-MATH-FTZ", r"\bflush_to_zero\b", "flush_to_zero"),
    ("IRD-MATH-ROUND", r"rounding < \w+ >", "rounding mode"),
    ("IRD-MATH-NAN", r"\bpropagate_nan\b", "propagate_nan"),
    ("IRD-HINT-LATENCY", r"latency = \S+", "latency hint"),
    ("IRD-HINT-TMA", r"allow_tma = \S+", "allow_tma hint"),
    ("IRD-CMP-PRED", r"^cmp[if] \w+", "comparison predicate"),
]
TILE_TYPE = re.compile(r"tile < [^<>]*(?:< [^<>]* >)? [^<>]*>")


# The one warning a proven port may still show: a port reading arrays through raw pointers (`*mut E`: gathers /
# scatters on the flat tensor) states the reference's facts (passes/assume.py: extents and strides >= 0, a
# one-element pointer's element alignment), but not a one-element pointer's alignment that the reference derives
# from the launch's strides or an even literal index, a specialisation fact kernel text cannot state: the port
# assumes a smaller divisor (performance, never values). Every other warning (a weaker bounds fact,
# IRD-ASSUME-WEAKER, included) is a difference the port must not have.
RAW_POINTER_TOLERATED = frozenset({"IRD-ASSUME-DIV"})


def raw_pointer_port(kernel_rs: str) -> bool:
    """Whether a port's kernel.rs reads some array through a raw pointer (an entry parameter ``*mut E``)."""
    return "*mut " in kernel_rs


def tolerated_warnings(kernel_rs: str) -> frozenset[str]:
    """The warning codes a diff of this port may show and still prove it (``Report.proves``)."""
    return RAW_POINTER_TOLERATED if raw_pointer_port(kernel_rs) else frozenset()


@dataclass
class Finding:
    severity: str
    code: str
    op: str
    message: str
    ref_loc: str = ""
    gen_loc: str = ""

    def to_json(self) -> dict:
        return {"severity": self.severity, "code": self.code, "op": self.op, "message": self.message,
                "ref_loc": self.ref_loc, "gen_loc": self.gen_loc}


@dataclass
class Report:
    ref: str
    gen: str
    equivalent: bool
    findings: list[Finding] = field(default_factory=list)
    stats: dict = field(default_factory=dict)

    def exit_code(self) -> int:
        sev = {f.severity for f in self.findings}
        if CRITICAL in sev:
            return 1
        if WARNING in sev:
            return 2
        return 0

    def verdict(self) -> str:
        return {0: "EQUIVALENT", 1: "CRITICAL", 2: "WARNINGS"}[self.exit_code()]

    def proves(self, kernel_rs: str, known: frozenset[str] = frozenset()) -> bool:
        """Whether this diff proves the port whose kernel.rs text is ``kernel_rs``: the one notion of EQUIVALENT
        that ``ctrs check`` (a row's verdict), an LLM answer (llm_fallback/verify.py) and the tests
        (tests/conftest.py assert_equivalent_report) share. No critical finding, and every warning tolerated for
        this port (``tolerated_warnings``; ``known``: a test's documented gap on top), the value graphs equal."""
        allowed = tolerated_warnings(kernel_rs) | set(known)
        left = [f for f in self.findings if f.severity == CRITICAL or (f.severity == WARNING and f.code not in allowed)]
        return not left and (self.equivalent or self.exit_code() == 0)

    def to_json(self) -> dict:
        return {"ref": self.ref, "gen": self.gen, "verdict": self.verdict(), "exit_code": self.exit_code(),
                "structurally_equal": self.equivalent, "findings": [f.to_json() for f in self.findings],
                "stats": self.stats}

    def render(self) -> str:
        lines = [f"ctrs diff-ir: {self.verdict()}  ({self.ref} vs {self.gen})",
                 f"  live ops: ref {self.stats.get('ref_ops', 0)}, port {self.stats.get('gen_ops', 0)}; "
                 f"matched {self.stats.get('matched', 0)}"]
        order = {CRITICAL: 0, WARNING: 1, INFO: 2}
        for f in sorted(self.findings, key=lambda f: (order[f.severity], f.code, f.op, f.message)):
            where = " ".join(x for x in (f"ref {f.ref_loc}" if f.ref_loc else "", f"port {f.gen_loc}" if f.gen_loc else "") if x)
            lines.append(f"  [{f.severity.upper():8}] {f.code} {f.op}: {f.message}" + (f"  ({where})" if where else ""))
        return "\n".join(lines)


def _loc(mod: irparse.Module, op: irparse.Op) -> str:
    if op.loc and op.loc in mod.locs:
        f, line, col = mod.locs[op.loc]
        return f"{Path(f).name}:{line}:{col}"
    return f"ir:{op.line}" if op.line else ""


def _family_severity(name: str, delta: int) -> str:
    if name in CRITICAL_FAMILY or name in MEMORY:
        return CRITICAL
    if name in ARITH_FAMILY:
        return WARNING if abs(delta) <= 2 else CRITICAL
    if name in INFO_FAMILY:
        return INFO
    return WARNING


def _strip_locals(sig: str) -> str:
    return sig.replace("token = _", "").replace("token = %", "")


def _frontier_severity(name: str) -> str:
    """An unmatched op whose operands all match is a real change of the computation."""
    return INFO if name in INFO_FAMILY - MASK_OPS else CRITICAL


def _attrs(sig: str) -> dict[str, list[str]]:
    return {code: re.findall(rx, sig) for code, rx, _ in ATTRS}


def _types(sig: str) -> list[str]:
    return TILE_TYPE.findall(sig.split(" : ", 1)[1]) if " : " in sig else []


def _compare_pair(rop: irparse.Op, gop: irparse.Op, rl: str, gl: str) -> list[Finding]:
    out: list[Finding] = []
    ra, ga = _attrs(rop.sig), _attrs(gop.sig)
    for code, _, what in ATTRS:
        if sorted(ra[code]) == sorted(ga[code]):
            continue
        sev = CRITICAL
        if code == "IRD-MATH-FTZ" and len(ga[code]) > len(ra[code]):
            sev = WARNING
        elif code == "IRD-MATH-ROUND" and not any("approx" in x for x in ra[code]) and len(ga[code]) > len(ra[code]):
            sev = WARNING
        elif code == "IRD-HINT-LATENCY":
            sev = WARNING
        elif code == "IRD-HINT-TMA" and not any("true" in x for x in ra[code]):
            sev = WARNING
        out.append(Finding(sev, code, rop.name, f"{what} differs: ref {ra[code] or 'none'} vs port {ga[code] or 'none'}",
                           rl, gl))
    rt, gt = _types(rop.sig), _types(gop.sig)
    if rt != gt and not out:
        code = "IRD-MMA-TYPES" if rop.name in ("mmaf", "mmai") else "IRD-TYPE"
        out.append(Finding(CRITICAL, code, rop.name, f"tile types differ: ref {' , '.join(rt)} vs port {' , '.join(gt)}",
                           rl, gl))
    if not out:
        nr, ng = rop.sig.count("%"), gop.sig.count("%")
        msg = (f"operand count differs: ref {nr} vs port {ng}" if nr != ng else
               "same op and attributes, different operands (dataflow differs)")
        if rop.sig != gop.sig and nr == ng:
            msg = f"op text differs: ref '{rop.sig}' vs port '{gop.sig}'"
        if rop.name == "constant":  # a different literal (eps, scale, padding value, ...) changes results
            out.append(Finding(CRITICAL, "IRD-CONST", rop.name, msg, rl, gl))
            return out
        sev = CRITICAL if rop.name in CRITICAL_FAMILY or rop.name in MEMORY or rop.name in ARITH_FAMILY or nr != ng \
            else WARNING
        out.append(Finding(sev, "IRD-DATAFLOW", rop.name, msg, rl, gl))
    return out


def _compare_loops(rc: ircanon.CanonOp, gc: ircanon.CanonOp, rl: str, gl: str) -> Finding | None:
    """Two ``for`` loops at the same place: a changed lower bound / upper bound / step is a different
    iteration space (a dropped grid stride runs every row on every block: wrong or ~100x slower); a different
    number of loop-carried values with the same bounds is plumbing (tokens are canonicalised away already)."""
    what = ("lower bound", "upper bound", "step")
    changed = [w for w, a, b in zip(what, rc.operand_keys[:3], gc.operand_keys[:3]) if a != b]
    if changed:
        return Finding(CRITICAL, "IRD-LOOP-BOUNDS", "for", f"loop {', '.join(changed)} differ(s) between ref and port "
                       "(performance/semantics: a different iteration space)", rl, gl)
    nr, ng = len(rc.operand_keys) - 3, len(gc.operand_keys) - 3
    if nr != ng:
        return Finding(WARNING, "IRD-LOOP-CARRIED", "for", f"loop-carried values differ: ref {nr} vs port {ng} "
                       "with the same bounds and step (extra plumbing; harmless unless the body uses them)", rl, gl)
    if rc.operand_keys == gc.operand_keys:  # same header once tokens are dropped: the difference is inside
        return Finding(INFO, "IRD-LOOP-BODY", "for", "same bounds, step and loop-carried values; the body differs "
                       "(see the findings inside the loop)", rl, gl)
    return None


def _gate_multisets(ref: ircanon.Canon, gen: ircanon.Canon, rmod, gmod) -> list[Finding]:
    """Checklist gates over whole-kernel multisets, independent of where the graphs diverge."""
    out: list[Finding] = []
    rl, gl = ref.live_ops(), gen.live_ops()
    rc, gc = Counter(c.op.name for c in rl.values()), Counter(c.op.name for c in gl.values())
    for name in sorted(set(rc) | set(gc)):
        d = gc[name] - rc[name]
        if d:
            sev = _family_severity(name, d)
            ex = next((c.op for c in rl.values() if c.op.name == name), None)
            ex_g = next((c.op for c in gl.values() if c.op.name == name), None)
            out.append(Finding(sev, "IRD-COUNT", name, f"count differs: ref {rc[name]} vs port {gc[name]}",
                               _loc(rmod, ex) if ex else "", _loc(gmod, ex_g) if ex_g else ""))
    # memory ops: operand shape of every load/store (a dropped mask or padding operand shows here)
    for name in sorted(MEMORY):
        a = Counter(_strip_locals(c.op.sig) for c in rl.values() if c.op.name == name)
        b = Counter(_strip_locals(c.op.sig) for c in gl.values() if c.op.name == name)
        if a != b and a and b:
            rop = next(c.op for c in rl.values() if c.op.name == name)
            gop = next(c.op for c in gl.values() if c.op.name == name)
            diff_r = sorted(set(a) - set(b))[:1] or sorted(a)[:1]
            diff_g = sorted(set(b) - set(a))[:1] or sorted(b)[:1]
            out.append(Finding(CRITICAL, "IRD-MEMORY", name, f"memory op form differs: ref '{diff_r[0]}' vs port "
                               f"'{diff_g[0]}'", _loc(rmod, rop), _loc(gmod, gop)))
    # mma operand / accumulator types
    rm = sorted(_types(c.op.sig).__str__() for c in rl.values() if c.op.name in ("mmaf", "mmai"))
    gm = sorted(_types(c.op.sig).__str__() for c in gl.values() if c.op.name in ("mmaf", "mmai"))
    if rm != gm and rm and gm:
        rop = next(c.op for c in rl.values() if c.op.name in ("mmaf", "mmai"))
        gop = next(c.op for c in gl.values() if c.op.name in ("mmaf", "mmai"))
        out.append(Finding(CRITICAL, "IRD-MMA-TYPES", rop.name, f"mma operand/accumulator types differ: ref {rm} vs port {gm}",
                           _loc(rmod, rop), _loc(gmod, gop)))
    # per-family attribute multisets (layout, reduce, math modes, hints)
    for code, rx, what in ATTRS:
        per_r: dict[str, Counter] = {}
        per_g: dict[str, Counter] = {}
        for side, live in ((per_r, rl), (per_g, gl)):
            for c in live.values():
                if c.op.name == "constant" or (code in LAYOUT_CODES and c.op.name not in VIEW_OPS):
                    continue
                for v in re.findall(rx, c.op.sig):
                    side.setdefault(c.op.name, Counter())[v] += 1
        for name in sorted(set(per_r) | set(per_g)):
            a, b = per_r.get(name, Counter()), per_g.get(name, Counter())
            if set(a) == set(b):
                continue
            sev = CRITICAL
            if code in ("IRD-HINT-LATENCY",) or (code == "IRD-MATH-FTZ" and not a):
                sev = WARNING
            rop = next((c.op for c in rl.values() if c.op.name == name), None)
            gop = next((c.op for c in gl.values() if c.op.name == name), None)
            out.append(Finding(sev, code, name, f"{what} set differs: ref {sorted(a)} vs port {sorted(b)}",
                               _loc(rmod, rop) if rop else "", _loc(gmod, gop) if gop else ""))
    return out


def _frontier(ref: ircanon.Canon, gen: ircanon.Canon, rmod, gmod) -> list[Finding]:
    rl, gl = ref.live_ops(), gen.live_ops()
    r_un = [c for k, c in rl.items() if k not in gl]
    g_un = [c for k, c in gl.items() if k not in rl]
    r_front = [c for c in r_un if all(k in gen.value_keys for k in c.operand_keys)]
    g_front = [c for c in g_un if all(k in ref.value_keys for k in c.operand_keys)]
    out: list[Finding] = []
    used: set[int] = set()
    for rc in r_front:
        match = next((i for i, g in enumerate(g_front) if i not in used and g.op.name == rc.op.name), None)
        if match is None:
            out.append(Finding(_frontier_severity(rc.op.name), "IRD-MISSING", rc.op.name,
                               "op of the reference has no counterpart in the port", _loc(rmod, rc.op)))
            continue
        used.add(match)
        gc = g_front[match]
        if rc.op.name == "for":
            loop = _compare_loops(rc, gc, _loc(rmod, rc.op), _loc(gmod, gc.op))
            if loop:
                out.append(loop)
                continue
        out.extend(_compare_pair(rc.op, gc.op, _loc(rmod, rc.op), _loc(gmod, gc.op)))
    for i, g in enumerate(g_front):
        if i not in used:
            out.append(Finding(_frontier_severity(g.op.name), "IRD-EXTRA", g.op.name,
                               "op of the port has no counterpart in the reference", "", _loc(gmod, g.op)))
    return out


_DIV = re.compile(r"^div_by<(\d+)")


def _div(facts: set[str]) -> int:
    return max([int(m.group(1)) for f in facts if (m := _DIV.match(f))] or [1])


def _fact_finding(what: str, rf: set[str], gf: set[str], ptr: bool) -> Finding | None:
    """Assumed facts of one used value, ref vs port. Bounds decide masking and bounds checks: CRITICAL.
    Divisibility decides vectorisation / TMA: a port assuming less than the reference is a WARNING with a
    performance note; more (cutile's launcher derives power-of-two divisors from the launch values) is INFO.
    Any other fact that differs is a WARNING. cutile also states ``bounded<0, ?>`` on the block ids, which
    cuTile Python leaves implicit: a port-only non-negativity bound is INFO. (Facts on a loop index are not
    compared: they restate the loop's bounds, which the loop findings compare.)"""
    if rf == gf:
        return None
    shown = f"ref {sorted(rf)} vs port {sorted(gf)}"
    rb, gb = {f for f in rf if f.startswith("bounded")}, {f for f in gf if f.startswith("bounded")}
    if gb - rb and not (not rb and gb == {"bounded<0,?>"}):  # (a port-only `>= 0` on a block id: a tautology)
        return Finding(CRITICAL, "IRD-ASSUME-BOUNDS", "assume", f"{what}: bounds facts differ ({shown}); they decide "
                       "bounds checks and masking, so the port may read or write other elements")
    if rb - gb:  # the port assumes less: its checks stay, only what the compiler may simplify differs
        return Finding(WARNING, "IRD-ASSUME-WEAKER", "assume", f"{what}: port assumes fewer bounds ({shown}); "
                       "performance: the reference may drop checks the port keeps")
    rd, gd = _div(rf), _div(gf)
    other_r, other_g = {f for f in rf - rb if not _DIV.match(f)}, {f for f in gf - gb if not _DIV.match(f)}
    if gd < rd:
        return Finding(WARNING, "IRD-ASSUME-PTR" if ptr else "IRD-ASSUME-DIV", "assume",
                       f"{what}: port assumes div_by<{gd}> where the reference has div_by<{rd}> ({shown}); "
                       "performance: vectorised / TMA accesses the reference gets may be lost")
    if other_r != other_g:
        return Finding(WARNING, "IRD-ASSUME", "assume", f"{what}: assumed facts differ ({shown}); performance: "
                       "the compilers may optimise the two differently")
    return Finding(INFO, "IRD-ASSUME", "assume", f"{what}: port assumes more ({shown}; cutile's launcher derives "
                   "divisors from the launch values)")


def _facts(ref: ircanon.Canon, gen: ircanon.Canon) -> list[Finding]:
    out: list[Finding] = []
    for i, t in enumerate(ref.arg_types):
        f = _fact_finding(f"entry arg {i} ({t})", set(ref.facts.get(i, [])), set(gen.facts.get(i, [])), "ptr" in t)
        if f is not None:
            out.append(f)
    for key in sorted(ref.value_facts.keys() | gen.value_facts.keys()):
        if key in ref.value_keys and key in gen.value_keys:  # values both sides compute (else the frontier says)
            f = _fact_finding("assumed value", set(ref.value_facts.get(key, [])), set(gen.value_facts.get(key, [])),
                              False)
            if f is not None:
                out.append(f)
    return out


_SYMBOL = re.compile(r"^entry @(\S+)")


def _token_order(canon: ircanon.Canon) -> set[tuple[str, str]]:
    """The memory order the token graph fixes, as (earlier op key, later op key) pairs of live ``*_tko`` ops: B
    after A when A's completion token reaches B's token operand through joins. ``make_token`` orders nothing; a
    token a loop or ``if`` gives (its iter values and results) stands for its operands' and for every memory op in
    its regions (one over-approximation, the same on both sides)."""
    key = {(c.op.line, c.op.name): c.key for c in canon.ops if c.live}  # (canonicalising rebuilds some ops)
    deps: dict[str, frozenset[str]] = {}  # token value -> keys of the memory ops it completes after
    inner: dict[int, frozenset[str]] = {}

    def memory_inside(op) -> frozenset[str]:
        if id(op) not in inner:
            inner[id(op)] = frozenset(key[(o.line, o.name)] for r in op.regions for x in r for o in x.walk()
                                      if o.name.endswith("_tko") and (o.line, o.name) in key)
        return inner[id(op)]

    pairs: set[tuple[str, str]] = set()

    def visit(ops) -> None:
        for op in ops:
            if op.regions:
                before = frozenset().union(*(deps.get(u, frozenset()) for u in op.uses)) | memory_inside(op)
                for d in op.defs:
                    deps[d] = before
                for r in op.regions:
                    visit(r)
                for res in op.results:
                    deps[res] = before
                continue
            if op.name == "join_tokens":
                deps[op.results[0]] = frozenset().union(*(deps.get(u, frozenset()) for u in op.uses))
            elif op.name.endswith("_tko") and op.results:
                after = frozenset().union(*(deps.get(op.uses[i], frozenset()) for i in op.token_uses))
                me = key.get((op.line, op.name))
                if me is not None:
                    pairs.update((a, me) for a in after)
                deps[op.results[-1]] = after | ({me} if me else frozenset())

    for region in canon.entry.regions:
        visit(region)
    return pairs


def token_orders(ref_text: str, gen_text: str) -> list[tuple[set, set]]:
    """Per entry, the reference's and the port's token order (_token_order), canonicalised as :func:`diff` does."""
    rmod, gmod = irparse.parse(ref_text, "ref"), irparse.parse(gen_text, "gen")
    return [(_token_order(ircanon.canonicalise(re_, unit_dims_dynamic=True)),
             _token_order(ircanon.canonicalise(ge, high_rank_strides_dynamic=True,
                                               unit_args=unit_extent_args(re_.sig, len(re_.defs)),
                                               view_index_truncs=True)))
            for re_, ge in zip(rmod.entries, gmod.entries)]


def _token_findings(ref: ircanon.Canon, gen: ircanon.Canon, rmod, gmod) -> list[Finding]:
    """IRD-TOKEN-ORDER: an order the reference's token graph fixes between two loads / stores that the port's does
    not (docs/porting.md §13.2). Only pairs of ops both sides have (equal canonical keys) are compared: a missing op
    is another finding's. A port that orders more than the reference is not flagged. Atomics are left out (their
    order is cuTile Python's acquire / release joins, which the port does not thread yet). INFO, not yet a warning:
    the ports thread straight-line accesses (passes/memtokens.py) and stores carried through loops
    (passes/tokens.py), not yet loads in loops that store their array or accesses under branches, so a warning
    would mark such kernels as not EQUIVALENT."""
    gkeys = {c.key for c in gen.ops if c.live and c.op.name in MEMORY}  # atomics' order: not compared yet
    missing = sorted(p for p in _token_order(ref) - _token_order(gen) if p[0] in gkeys and p[1] in gkeys)
    if not missing:
        return []
    ops = {c.key: c.op for c in ref.ops}
    gops = {c.key: c.op for c in gen.ops}
    a, b = missing[0]
    return [Finding(INFO, "IRD-TOKEN-ORDER", ops[b].name,
                    f"the reference orders this {ops[b].name} after the {ops[a].name} at "
                    f"{_loc(rmod, ops[a]) or '?'} through memory tokens, the port does not "
                    f"({len(missing)} such pair{'s' if len(missing) > 1 else ''}): tileiras may schedule the "
                    "port's accesses differently (thread the array's tokens as the reference does)",
                    _loc(rmod, ops[b]), _loc(gmod, gops[b]))]


def unit_extent_args(entry_sig: str, n_args: int) -> frozenset[int]:
    """The entry-argument positions of the extents and strides the reference made the constant 1 (ircanon's
    "size-1 extents and unit strides read by the body"): read from its mangled entry symbol (cuTile Python's
    ``demangle_kernel_name``: the parameters' constraints, ``shape_constant`` and ``stride_constant`` per axis); an array parameter is its pointer, its extents, its
    strides, a scalar one argument, a constant none. Empty when the symbol is not a cuTile Python mangled name
    (a hand-written dump, a port), when cuda-tile is not there, or when the layout does not add up to the entry's
    ``n_args`` arguments."""
    m = _SYMBOL.match(entry_sig)
    if m is None or "_K" not in m.group(1):
        return frozenset()
    try:
        from cuda.tile.compilation import ArrayConstraint, ScalarConstraint, demangle_kernel_name  # noqa: PLC0415
        from cuda.tile.compilation import ConstantConstraint  # noqa: PLC0415

        _, sig = demangle_kernel_name(m.group(1))
    except Exception:  # noqa: BLE001 - not a mangled cuTile Python symbol (or no cuda-tile): nothing specialised
        return frozenset()
    pos, out = 0, set()
    for p in sig.parameters:
        if isinstance(p, ArrayConstraint):
            out |= {pos + 1 + i for i, c in enumerate(p.shape_constant) if c == 1}
            out |= {pos + 1 + p.ndim + i for i, c in enumerate(p.stride_constant) if c == 1}
            pos += 1 + 2 * p.ndim
        elif isinstance(p, ScalarConstraint):
            pos += 1
        elif not isinstance(p, ConstantConstraint):  # a list / tuple parameter: its layout is not read here
            return frozenset()
    return frozenset(out) if pos == n_args else frozenset()


def diff(ref_text: str, gen_text: str, ref_name: str = "ref", gen_name: str = "gen") -> Report:
    rmod, gmod = irparse.parse(ref_text, ref_name), irparse.parse(gen_text, gen_name)
    report = Report(ref_name, gen_name, False)
    if len(rmod.entries) != len(gmod.entries):
        report.findings.append(Finding(CRITICAL, "IRD-ENTRIES", "entry",
                                       f"entry count differs: ref {len(rmod.entries)} vs port {len(gmod.entries)}"))
    for re_, ge in zip(rmod.entries, gmod.entries):
        ref = ircanon.canonicalise(re_, unit_dims_dynamic=True)
        gen = ircanon.canonicalise(ge, high_rank_strides_dynamic=True,
                                   unit_args=unit_extent_args(re_.sig, len(re_.defs)), view_index_truncs=True)
        rl, gl = ref.live_ops(), gen.live_ops()
        report.stats = {"ref_ops": len(rl), "gen_ops": len(gl), "matched": len(rl.keys() & gl.keys())}
        if ref.arg_types != gen.arg_types:
            report.findings.append(Finding(CRITICAL, "IRD-ARGS", "entry",
                                           f"entry arguments differ: ref {ref.arg_types} vs port {gen.arg_types}",
                                           _loc(rmod, re_), _loc(gmod, ge)))
        if ref.hints != gen.hints:  # occupancy / num_ctas change what the kernel costs: never a mere warning
            rh, gh = (dict(kv.split("=", 1) for kv in h.split(",") if kv) for h in (ref.hints, gen.hints))
            what = "; ".join([f"{k}={rh[k]} dropped" for k in sorted(rh.keys() - gh.keys())]
                             + [f"{k}={gh[k]} added" for k in sorted(gh.keys() - rh.keys())]
                             + [f"{k}: ref {rh[k]} vs port {gh[k]}" for k in sorted(rh.keys() & gh.keys())
                                if rh[k] != gh[k]])
            report.findings.append(Finding(CRITICAL, "IRD-HINT-ENTRY", "entry",
                                           f"kernel hints differ (performance: {what}): ref '{ref.hints or 'none'}' "
                                           f"vs port '{gen.hints or 'none'}'", _loc(rmod, re_), _loc(gmod, ge)))
        report.findings.extend(_facts(ref, gen))
        report.findings.extend(_token_findings(ref, gen, rmod, gmod))
        if ref.root == gen.root:
            report.equivalent = True
            continue
        found = _frontier(ref, gen, rmod, gmod) + _gate_multisets(ref, gen, rmod, gmod)
        seen = set()
        for f in found:
            key = (f.code, f.op)
            if key not in seen:
                seen.add(key)
                report.findings.append(f)
        if not any(f.severity in (CRITICAL, WARNING) for f in report.findings):
            report.findings.append(Finding(WARNING, "IRD-STRUCTURE", "entry",
                                           "value graphs differ in a way no gate classifies; inspect both dumps"))
    return report


def load_ir_text(path: Path) -> str:
    from .. import source  # noqa: PLC0415

    if not os.path.lexists(path):
        raise errors.CtrsError(errors.IR_INPUT, "no such file", "pass a .tileirbc or .mlir written by ir-ref / ir-rs",
                               errors.Loc(str(path)))
    data = source.read_regular(path, source.MAX_IR_BYTES, "Tile IR file", errors.IR_INPUT, errors.IR_TOO_LARGE,
                               errors.IR_INPUT)
    if data.startswith(tileir_tools.BYTECODE_MAGIC[:4]):
        try:
            tileir_tools.check_bytecode(data, str(path))
            return tileir_tools.disasm(data)
        except errors.CtrsError as e:
            e.loc = e.loc or errors.Loc(str(path))  # a damaged bytecode file: located at the file
            raise
    try:
        return data.decode()
    except UnicodeDecodeError as e:
        raise errors.CtrsError(errors.IR_INPUT, "neither Tile IR bytecode nor UTF-8 text",
                               "pass a .tileirbc or .mlir written by ir-ref / ir-rs", errors.Loc(str(path))) from e


def diff_files(ref: Path, gen: Path) -> Report:
    return diff(load_ir_text(ref), load_ir_text(gen), str(ref), str(gen))
