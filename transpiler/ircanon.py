"""Canonicalise one Tile IR entry into a structural value graph.

Normalisations (each one is noise between cuTile Python and cuTile Rust, never semantics):
  * SSA names: every value is identified by a structural hash of the op that defines it
    (op text with values as placeholders + the hashes of its operands), never by its name;
  * entry-argument plumbing: arguments are identified by position and type, the entry symbol and
    an empty ``optimization_hints=<default = {}>`` are ignored;
  * ``assume``: an assumed value is the value itself; the facts are kept per entry argument and
    compared separately (they come from the specialisation, not from the kernel body);
  * ``bitcast`` / ``broadcast`` / ``reshape`` between identical IR types (``i32 -> i32``: int32 <-> uint32 in the
    source languages; a same-shape broadcast) is the identity, so its result is its operand;
  * tokens: ``make_token`` is one value and ``token = %t`` operands are dropped (memory order
    between the ops of one region is kept by comparing stores in textual order);
  * constants: equal constants are one value (dedup); commutative ops sort their operands;
  * dead code: only ops that reach a store, a terminator or a region with side effects count.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field

from . import toolchain
from .irparse import Module, Op

COMMUTATIVE = {"addf", "mulf", "addi", "muli", "maxf", "minf", "maxi", "mini", "andi", "ori", "xori"}
SIDE_EFFECTS = {"store_view_tko", "store_ptr_tko", "atomic_rmw_tko", "atomic_cas_tko", "print", "assert",
                "return", "yield", "continue", "break", "atomic_red_view_tko"}
PLUMBING = {"assume", "make_token"}
IDENTITY_WHEN_SAME_TYPE = {"bitcast", "broadcast", "reshape"}
ORDERED = {"store_view_tko", "store_ptr_tko", "atomic_rmw_tko", "atomic_cas_tko", "atomic_red_view_tko", "print"}


def _h(*parts: object) -> str:
    return hashlib.sha1("\x1f".join(map(str, parts)).encode()).hexdigest()[:16]


@dataclass
class CanonOp:
    op: Op
    key: str  # structural hash of the op (operands included)
    operand_keys: list[str]
    live: bool = False
    alias: bool = False  # an identity (a same-type bitcast): its value is its operand's


@dataclass
class Canon:
    entry: Op
    root: str
    ops: list[CanonOp]  # every op of the entry body, nested regions included, in textual order
    value_keys: set[str]
    arg_types: list[str]
    facts: dict[int, list[str]] = field(default_factory=dict)  # entry arg index -> assumed facts
    hints: str = ""

    def live_ops(self) -> dict[str, CanonOp]:
        """Distinct live computations (CSE: equal keys are one value), first occurrence kept."""
        out: dict[str, CanonOp] = {}
        for c in self.ops:
            if c.live and c.op.name not in PLUMBING and not c.alias and c.key not in out:
                out[c.key] = c
        return out

    def counts(self) -> Counter:
        return Counter(c.op.name for c in self.live_ops().values())


def _entry_hints(sig: str, target: str = toolchain.GPU_TARGET) -> str:
    """The entry hints that apply on ``target``: the ``default`` dictionary updated by the target's own (what
    cuTile Python specialises to before bytecode 13.3; cuTile Python writes ``default = {..}``, cutile keys
    everything by the target arch). Sorted ``key=value`` pairs joined by commas; "" for none."""
    m = re.search(r"optimization_hints = < (.*?) > \{R\}", sig)
    if not m:
        return ""
    body = m.group(1).replace(" ", "")
    per_arch = {arch: dict(kv.split("=", 1) for kv in items.split(",") if kv)
                for arch, items in re.findall(r"(\w+)=\{([^{}]*)\}", body)}
    merged = {**per_arch.get("default", {}), **per_arch.get(target, {})}
    return ",".join(f"{k}={v}" for k, v in sorted(merged.items()))


def _identity_cast(sig: str) -> bool:
    """``bitcast % : T -> T``."""
    types = sig.split(" : ", 1)[1] if " : " in sig else ""
    parts = [t.strip() for t in types.split("->")]
    return len(parts) == 2 and parts[0] == parts[1] and bool(parts[0])


def canonicalise(entry: Op) -> Canon:
    env: dict[str, str] = {}
    facts: dict[int, list[str]] = {}
    arg_index: dict[str, int] = {}
    arg_types: list[str] = []
    all_ops: list[CanonOp] = []
    args_sig = entry.sig.split("(", 1)[1] if "(" in entry.sig else ""
    types = [t.strip() for t in re.findall(r"%def : (.*?)(?= , %def| \))", args_sig)]
    for i, a in enumerate(entry.defs):
        t = types[i] if i < len(types) else "?"
        env[a] = _h("arg", i, t)
        arg_index[a] = i
        arg_types.append(t)
    root_of: dict[str, int] = dict(arg_index)

    def block(ops: list[Op]) -> tuple[str, list[CanonOp]]:
        mine: list[CanonOp] = []
        for op in ops:
            mine.append(visit(op))
        # liveness inside this block: side effects, terminators, and what they use
        producers: dict[str, CanonOp] = {}
        for c in mine:
            for r in c.op.results:
                producers[r] = c
        work = [c for c in mine if c.op.name in SIDE_EFFECTS or _has_effects(c)]
        for c in work:
            c.live = True
        while work:
            c = work.pop()
            for u in c.op.uses + _region_free_uses(c.op):
                p = producers.get(u)
                if p is not None and not p.live:
                    p.live = True
                    work.append(p)
        # A block is identified by its effects: ordered stores, terminators, and ops with regions.
        # Pure values enter through their users' keys, so where a pure op (a constant, a
        # loop-invariant value) is placed does not matter.
        roots = sorted({c.key for c in mine if c.live and c.op.name not in ORDERED | PLUMBING
                        and (c.op.name in SIDE_EFFECTS or c.op.regions)})
        ordered = [c.key for c in mine if c.live and c.op.name in ORDERED]
        return _h("block", *roots, "|", *ordered), mine

    def visit(op: Op) -> CanonOp:
        if op.name == "assume":
            src = op.uses[0]
            for r in op.results:
                env[r] = env.get(src, _h("free", src))
                if src in root_of:
                    root_of[r] = root_of[src]
                    facts.setdefault(root_of[src], []).append(_fact(op.sig))
            c = CanonOp(op, env.get(src, ""), [env.get(src, "")])
            all_ops.append(c)
            return c
        if op.name in IDENTITY_WHEN_SAME_TYPE and _identity_cast(op.sig):
            src = op.uses[0]
            for r in op.results:
                env[r] = env.get(src, _h("free", src))
            c = CanonOp(op, env.get(src, ""), [env.get(src, "")], alias=True)
            all_ops.append(c)
            return c
        if op.name == "make_token":
            key = _h("make_token")
            for r in op.results:
                env[r] = key
            c = CanonOp(op, key, [])
            all_ops.append(c)
            return c
        operand_keys = [env.get(u, _h("free", u)) for i, u in enumerate(op.uses) if i not in op.token_uses]
        sig = _strip_tokens(op.sig, len(op.token_uses))
        if op.name in COMMUTATIVE:
            operand_keys = sorted(operand_keys)
        pre = _h(sig, *operand_keys)
        for i, d in enumerate(op.defs):
            env[d] = _h(pre, "def", i)
        c = CanonOp(op, "", operand_keys)
        all_ops.append(c)
        region_keys = []
        for r in op.regions:
            rk, _ = block(r)
            region_keys.append(rk)
        c.key = _h(pre, *region_keys)
        for i, r in enumerate(op.results):
            env[r] = _h(c.key, "result", i)
        return c

    root, _ = block(entry.regions[0] if entry.regions else [])
    by_id = {id(c.op): c for c in all_ops}

    def kill(op: Op) -> None:
        for r in op.regions:
            for o in r:
                by_id[id(o)].live = False
                kill(o)

    for c in all_ops:
        if not c.live:
            kill(c.op)
    return Canon(entry, root, all_ops, set(env.values()), arg_types, facts, _entry_hints(entry.sig))


def _has_effects(c: CanonOp) -> bool:
    return any(o.name in SIDE_EFFECTS - {"yield", "continue", "return"} for o in c.op.walk() if o is not c.op)


def _region_free_uses(op: Op) -> list[str]:
    inner_defs = set(op.defs)
    uses: list[str] = []
    for o in op.walk():
        if o is op:
            continue
        inner_defs.update(o.results)
        inner_defs.update(o.defs)
    for o in op.walk():
        if o is op:
            continue
        uses.extend(u for u in o.uses if u not in inner_defs)
    return uses


def _strip_tokens(sig: str, n: int) -> str:
    for _ in range(n):
        sig = sig.replace("token = %", "token = _", 1)
    return sig


def _fact(sig: str) -> str:
    m = re.match(r"assume (.*?) , %", sig)
    return m.group(1).replace(" ", "") if m else sig
