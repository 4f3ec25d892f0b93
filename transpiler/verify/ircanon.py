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
  * an ``if`` result that every arm yields unchanged from outside the ``if`` is that value (a port that
    threads loop-carried values through an inner ``if`` yields them untouched in both arms);
  * tokens: ``make_token`` is one value and ``token = %t`` operands are dropped (memory order
    between the ops of one region is kept by comparing stores in textual order); tokens threaded through
    a loop or an ``if`` (token iter values, token results, the tokens its terminators yield) are that
    one value too, so a port that threads them and one that does not have the same graph;
  * constants: equal constants are one value (dedup); a splat constant reshaped / broadcast to another
    shape is the splat constant of that shape (``constant 1.0 : tile<f32>`` + reshape + broadcast to
    ``tile<1x256xf32>`` is ``constant 1.0 : tile<1x256xf32>``: the broadcast stands as that constant and a
    scalar constant used only by such folds is no op of its own; a same-type bitcast of a splat constant, the
    port's spelling of a u32 constant >= 2**31, is that constant); commutative ops sort their operands;
  * integer ops on two integer constants are the constant they evaluate to: ``cmpi PRED c1, c2`` (cuTile
    Python folds the sign test of a floor division / modulo by a constant divisor, ``x // 48``, into
    ``constant false``; cutile emits the ``cmpi`` on the two constants), ``addi subi muli divi remi maxi mini``
    (cuTile Python folds ``(N + T - 1) // T`` of constants to one constant; cutile keeps the ``divi``);
  * float constants are compared by value: a float splat literal is read (decimal or ``0x`` bits), rounded to
    its element type and printed ``%e`` (the printer's 6 digits: two sides that print one value alike still
    compare equal); a ``bitcast`` of an integer splat constant to a float type (the port's spelling of a
    ``ct.Constant[float]``: a const generic holding the f32 bits, cutile has no float const generics), an
    ``itof`` of an integer splat constant (cuTile Python folds ``x / N`` of a ``ct.Constant[int]`` N to the
    float constant N; the port converts its i32 const generic) and an ``ftof`` of a float splat constant are
    the float constant they evaluate to (round to nearest even, as the hardware conversion; an ``ftof`` rounds
    the printed digits of its operand, which name the same f32 but may in rare ties round differently);
  * dead code: only ops that reach a store, a terminator or a region with side effects count;
  * loops and ifs decided by constants: an ``if`` whose condition is an ``i1`` constant is its taken arm (its ops
    join the enclosing block, its results are what the arm yields; the port's Rust ``if`` on const generics,
    the reference decides it while lowering); the index of a ``for`` whose constant bounds give exactly one
    iteration is its lower bound (cutile folds ``j * TILE`` of such a loop to ``constant 0``, cuTile Python
    multiplies the index); a ``for`` iter value the body passes on unchanged (its one ``continue`` yields the
    iter value itself) is the value it starts with, and so is that loop result (a port carrying a name assigned
    only in an arm the reference folded away);
  * size-1 dims (reference side only, ``unit_dims_dynamic``): cuTile Python makes a launch's size-1 dims
    constants (``shape = [ 1 , .. ]``, ``tensor_view<1x?..>``); the port reads them from its argument.
    For the launch being proven the argument is 1, so the reference's constant 1 is read as that argument.
    Only the reference is rewritten: a port that hard-codes a 1 is still a difference.
  * unit strides of arrays of rank > 5 (port side only, ``high_rank_strides_dynamic``): cuTile Python
    specialises strides (``stride == 1`` constants, divisibility) only up to rank 5 (TMA's limit: a rank-6
    array's view has every stride dynamic, read with ``assume bounded<0, ?>``); cutile's launcher makes a unit
    stride static at any rank (compute_spec: ``stride_one``). For the launch being proven that stride *is* 1, so
    the port's static ``1`` is read as the entry argument that carries it (cutile passes every stride), known
    ``bounded<0, ?>`` (1 is), in the view's type too (``strides = [ ?, .., 1 ]`` -> ``[ ?, .., ? ]``). Only the
    port is rewritten, only rank > 5 views.
  * size-1 extents read by the body (port side only, ``unit_args``): where cuTile Python specialises a launch's
    size-1 dim (calling convention v2: ``shape_constant`` 1, named in the reference's mangled entry symbol), its
    dataflow proves the extent argument the constant 1 and materialises it (_passes/materialize_constants.py,
    through the ``astype`` to the gather's u64 index type: _passes/dataflow_analysis.py), so a ``ct.gather``'s
    bounds check on that axis compares with ``constant 1`` (and ``arr.shape[i]`` reads 1); the port reads the
    argument, 1 at that launch. Every use of such an argument (through assumes) but a ``make_tensor_view``'s (the
    reference-side rule above covers those) is read as the constant 1 of its type, and ``exti`` / ``trunci`` of an
    integer splat constant is the constant it evaluates to. Only the port is rewritten, only for arguments the
    reference itself made the constant 1: a reference that compares with the argument is still a difference.
    Unit strides are the same rule (``stride_constant`` 1, rank <= 5): a ``ct.scatter`` / ``ct.gather`` into an
    array whose inner dims are size 1 (``[B, H, M, 1]``, strides ``[.., 1, 1]``) multiplies its index by the
    reference's ``constant 1``, by the stride argument in the port, 1 at that launch.
  * padded pointer loads (docs/ir.md "Padded gathers"): an unpadded masked ``load_ptr_tko`` whose result only feeds
    ``select %mask, %result, %pad`` on the load's own mask is the padded load ``load_ptr_tko %ptr, %mask, %pad``
    (the port's spelling of a rank >= 2 ``ct.gather``: cutile cannot pass a rank >= 2 padding); the padding of a
    ``load_ptr_tko`` without a mask is dropped (it pads no lane). Both are identities of the op's semantics:
    masked-off lanes are the padding value, the others the memory read.
  * narrowed tile indices (port side only, ``view_index_truncs``; docs/ir.md "Integer widths"): cuTile Python
    narrows an i64 tile index (an i64 loop's index) to the view's i32 index type with a flagless ``trunci``
    (_ir2bytecode.py index_tuple, an array whose extents fit i32); cutile 0.5.0 writes ``trunci`` only with an
    overflow flag (its bytecode writer requires the attribute), so the port's is ``no_signed_wrap``. A
    ``trunci {no_signed_wrap}`` from i64 to i32 whose every use is a tile index of a ``load_view_tko`` /
    ``store_view_tko`` is read as the flagless one: the two differ only on an index outside i32, which names no
    tile of such an array. Any other use keeps the flag, a difference.
"""

from __future__ import annotations

import hashlib
import math
import re
import struct
from collections import Counter
from dataclasses import dataclass, field, replace

from .. import toolchain
from .irparse import Module, Op, split_top, split_top as _split_top

COMMUTATIVE = {"addf", "mulf", "addi", "muli", "maxf", "minf", "maxi", "mini", "andi", "ori", "xori"}
SIDE_EFFECTS = {"store_view_tko", "store_ptr_tko", "atomic_rmw_tko", "atomic_cas_tko", "print", "assert",
                "return", "yield", "continue", "break", "atomic_red_view_tko"}
PLUMBING = {"assume", "make_token"}
IDENTITY_WHEN_SAME_TYPE = {"bitcast", "broadcast", "reshape"}
SPLAT_FOLDS = {"broadcast", "reshape"}
_SPLAT = re.compile(r"^constant < (\w+) : ([^<>\[\],]+) > : (tile < [^<>]* >)$")
_RESULT_TYPE = re.compile(r"-> (tile < [^<>]* >)$")
_CMPI = re.compile(r"^cmpi (\w+) % , % , (signed|unsigned) : tile < [^<>]* > -> (tile < [^<>]* >)$")
_CMP_PRED = {"equal": lambda a, b: a == b, "not_equal": lambda a, b: a != b, "less_than": lambda a, b: a < b,
             "less_than_or_equal": lambda a, b: a <= b, "greater_than": lambda a, b: a > b,
             "greater_than_or_equal": lambda a, b: a >= b}
TERMINATORS = {"yield", "continue", "break"}
ORDERED = {"store_view_tko", "store_ptr_tko", "atomic_rmw_tko", "atomic_cas_tko", "atomic_red_view_tko", "print"}


def _h(*parts: object) -> str:
    return hashlib.sha1("\x1f".join(map(str, parts)).encode()).hexdigest()[:16]


def _splat_key(elem: str, lit: str, typ: str) -> str:
    """The value key of ``constant < elem : lit > : typ`` (what visit() gives that op's result)."""
    return _h(_h(_h(f"constant < {elem} : {lit} > : {typ}")), "result", 0)


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
    facts: dict[int, list[str]] = field(default_factory=dict)  # entry arg index -> assumed facts (live assumes)
    hints: str = ""
    value_facts: dict[str, list[str]] = field(default_factory=dict)  # value key -> facts assumed on a non-argument

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


_UNIT_TV = re.compile(r"tensor_view < ((?:[0-9?]+x)+)")
_SHAPE_LIST = re.compile(r"shape = \[ ([^\]]*) \]")


_STRIDE_LIST = re.compile(r"strides = \[ ([^\]]*) \]")


def _dynamic_unit_dims(op: Op, entry: Op, root_of: dict[str, int], is_one=None) -> Op:
    """Reference side: a size-1 dim the launch made a constant (calling convention v2) read as the entry
    argument that carries it, like a port that does not specialise it (``shape = [ 1 , % ]`` ->
    ``shape = [ % , % ]`` with that dim's argument, ``tensor_view<1x?x..>`` -> ``tensor_view<?x?x..>``).
    Its unit stride, which cuTile Python keeps dynamic but passes as the constant 1 (``strides = [ % ]`` of an
    ``assume div_by`` of ``constant 1``: _ir/ops.py _lower_tensor_view_extents), is read as the argument that
    carries that stride too (``is_one(name)``: whether a value is that constant, through assumes)."""
    sig = _UNIT_TV.sub(lambda m: "tensor_view < " + "".join("?x" if d == "1" else f"{d}x"
                                                            for d in m.group(1).split("x")[:-1]), op.sig)
    if op.name != "make_tensor_view" or not op.uses or op.uses[0] not in root_of:
        return replace(op, sig=sig) if sig != op.sig else op
    m = _SHAPE_LIST.search(sig)
    if not m:
        return replace(op, sig=sig)
    items = _split_top(m.group(1))
    base = root_of[op.uses[0]]
    uses, pos, new_items = list(op.uses), 1, []
    for k, it in enumerate(items):
        if it == "1" and base + 1 + k < len(entry.defs):
            uses.insert(pos, entry.defs[base + 1 + k])
            new_items.append("%")
            pos += 1
        else:
            new_items.append(it)
            pos += it == "%"
    sig = sig[:m.start()] + f"shape = [ {' , '.join(new_items)} ]" + sig[m.end():]
    ms = _STRIDE_LIST.search(sig)
    if ms and is_one is not None:
        strides = _split_top(ms.group(1))
        for k, it in enumerate(strides):
            if it == "%":
                if k < len(items) and items[k] == "1" and is_one(uses[pos]) \
                        and base + 1 + len(items) + k < len(entry.defs):
                    uses[pos] = entry.defs[base + 1 + len(items) + k]
                pos += 1
    shift = len(uses) - len(op.uses)
    return replace(op, sig=sig, uses=uses, token_uses=[t + shift for t in op.token_uses])


HIGH_RANK = 6  # the smallest rank cuTile Python does not specialise strides of (TMA: up to 5 dims)
_HIGH_TV = re.compile(r"tensor_view < ((?:[0-9?]+x){%d,}\w+) , strides = \[ ([^\]]*) \] >" % HIGH_RANK)


def _dynamic_high_rank_strides(op: Op, entry: Op, root_of: dict[str, int], known: dict[int, str]) -> Op:
    """Port side: the static unit strides of a rank > 5 tensor view read as the entry arguments carrying them
    (module doc); ``known`` gets each such argument's index -> the fact its value 1 entails."""
    def dyn(m):
        return f"tensor_view < {m.group(1)} , strides = [ {' , '.join('?' for _ in _split_top(m.group(2)))} ] >"

    sig = _HIGH_TV.sub(dyn, op.sig)
    if sig == op.sig:
        return op
    m_tv = _HIGH_TV.search(op.sig)
    if op.name != "make_tensor_view" or not op.uses or op.uses[0] not in root_of or m_tv is None:
        return replace(op, sig=sig)
    ms, mh = _STRIDE_LIST.search(op.sig), _SHAPE_LIST.search(op.sig)
    if not ms or not mh:
        return replace(op, sig=sig)
    shape, strides = _split_top(mh.group(1)), _split_top(ms.group(1))
    base, rank = root_of[op.uses[0]], len(strides)
    uses, pos, items = list(op.uses), 1 + sum(x == "%" for x in shape), []
    for k, it in enumerate(strides):
        a = base + 1 + rank + k
        if it == "1" and a < len(entry.defs):
            uses.insert(pos, entry.defs[a])
            known[a] = "bounded<0,?>"
            items.append("%")
            pos += 1
        else:
            items.append(it)
            pos += it == "%"
    ms2 = _STRIDE_LIST.search(sig)
    sig = sig[:ms2.start()] + f"strides = [ {' , '.join(items)} ]" + sig[ms2.end():]
    shift = len(uses) - len(op.uses)
    return replace(op, sig=sig, uses=uses, token_uses=[t + shift for t in op.token_uses])


def _renamed(op: Op, names: dict[str, str]) -> Op:
    """``op`` (its regions too) with the uses in ``names`` replaced."""
    if not names:
        return op
    return replace(op, uses=[names.get(u, u) for u in op.uses],
                   regions=[[_renamed(o, names) for o in r] for r in op.regions])


def _returns_in(op: Op) -> bool:
    """An ``if`` with a ``return`` in an arm, directly or in a nested ``if`` (not in a loop)."""
    return op.name == "if" and any(o.name == "return" or _returns_in(o) for r in op.regions for o in r)


def _to_end(ops: list[Op]) -> list[Op]:
    """A block that ends the kernel (module doc, early returns): the first ``if`` with a ``return`` in an arm
    takes the ops after it into each arm that does not end in ``return`` (the values its ``yield`` passes
    standing for the ``if``'s results), recursively; every arm then ends the kernel (no terminator), and the
    block ends with that ``if`` and the ``return``."""
    for i, op in enumerate(ops):
        if op.name == "return":
            return ops[:i + 1]
        if not _returns_in(op):
            continue
        rest = ops[i + 1:]
        arms = []
        for r in op.regions:
            if r and r[-1].name == "return":
                arm = _to_end(r)
            else:
                y = r[-1] if r and r[-1].name == "yield" else None
                names = dict(zip(op.results, y.uses)) if y is not None else {}
                arm = _to_end([*(r[:-1] if y is not None else r), *(_renamed(o, names) for o in rest)])
            arms.append(arm[:-1] if arm and arm[-1].name == "return" else arm)
        sig = _drop_token_results(op.sig, set(range(len(op.results)))) if op.results else op.sig
        end = rest[-1] if rest and rest[-1].name == "return" else replace(op, name="return", results=[], uses=[],
                                                                           defs=[], sig="return", regions=[])
        return [*ops[:i], replace(op, results=[], sig=sig, regions=arms), end]
    return ops


def _load_types(op: Op) -> tuple[str, list[str], str] | None:
    """A ``load_ptr_tko``'s signature split: (text before `` : ``, its operand types, the result types)."""
    if " : " not in op.sig or " -> " not in op.sig:
        return None
    head, types = op.sig.split(" : ", 1)
    ins, outs = types.split(" -> ", 1)
    return head, split_top(ins), outs


def _value_uses(ops: list[Op]) -> Counter:
    return Counter(u for o in ops for x in o.walk() for u in x.uses)


def _padded_loads(ops: list[Op], uses: Counter) -> list[Op]:
    """The module doc's padded pointer loads: ``load_ptr_tko %p, %m`` + ``select %m, %r, %pad`` (the load's result
    used by that select alone, nothing with effects between them) is ``load_ptr_tko %p, %m, %pad`` where the select
    was (its padding is defined by then); an unmasked load's padding operand is dropped. Recursive over regions."""
    out: list[Op] = []
    pending: dict[int, Op] = {}  # position of a select -> the padded load that stands there
    for i, op in enumerate(ops):
        if i in pending:
            out.append(pending.pop(i))
            continue
        if op.regions:
            op = replace(op, regions=[_padded_loads(r, uses) for r in op.regions])
        parts = _load_types(op) if op.name == "load_ptr_tko" else None
        if parts is None or len(op.uses) - len(op.token_uses) != 2 or len(parts[1]) != 2:
            out.append(op)
            continue
        head, ins, outs = parts
        if not (ins[1].endswith("xi1 >") or " ".join(ins[1].split()) == "tile < i1 >"):
            # a padding without a mask (the second operand is no i1 tile; a 0-d mask is `tile < i1 >`): it pads no
            # lane
            head = head.replace(" % , %", " %", 1)
            op = replace(op, sig=f"{head} : {ins[0]} -> {outs}", uses=[u for k, u in enumerate(op.uses) if k != 1],
                         token_uses=[t - 1 for t in op.token_uses])
            out.append(op)
            continue
        j = _pad_select(ops, i, uses)
        if j is None:
            out.append(op)
            continue
        s = ops[j]
        pending[j] = replace(op, sig=f"{head.replace(' % , %', ' % , % , %', 1)} : "
                             f"{' , '.join([*ins, split_top(outs)[0]])} -> {outs}",
                             uses=[*op.uses[:2], s.uses[2], *op.uses[2:]], results=[s.results[0], *op.results[1:]],
                             token_uses=[t + 1 for t in op.token_uses])
    return out


def _pad_select(ops: list[Op], i: int, uses: Counter) -> int | None:
    """The position of the ``select %mask, %result, %pad`` that pads ``ops[i]`` (an unpadded masked load), or None:
    the load's result has no other use, its token none before the select, no op with effects between them."""
    load = ops[i]
    r, m = load.results[0], load.uses[1]
    if uses[r] != 1:
        return None
    for j in range(i + 1, len(ops)):
        s = ops[j]
        if s.name == "select" and len(s.uses) == 3 and s.uses[0] == m and s.uses[1] == r:
            return j
        if s.name in SIDE_EFFECTS or s.regions or r in s.uses or set(load.results[1:]) & set(s.uses):
            return None
    return None


_NSW_INDEX_TRUNC = "trunci % overflow < no_signed_wrap > : tile < i64 > -> tile < i32 >"
_VIEW_ACCESS = {"load_view_tko": 1, "store_view_tko": 2}  # the view access ops -> the use their indices start at


def _index_positions(op: Op) -> set[int]:
    """The positions in ``op.uses`` of a view access's tile indices (the operands inside ``[ .. ]``)."""
    if op.name not in _VIEW_ACCESS:
        return set()
    head = op.sig.split(" : ", 1)[0]
    n = head[head.find("[") + 1:head.find("]")].count("%") if "[" in head else 0
    first = _VIEW_ACCESS[op.name]
    return set(range(first, first + n))


def _view_index_truncs(entry: Op) -> Op:
    """The module doc's narrowed tile indices (port side): ``trunci {no_signed_wrap}`` from ``i64`` to ``i32``
    whose every use is a tile index of a view load / store is the flagless ``trunci`` cuTile Python writes there.
    Uses are looked up in the block that defines the trunci (its ops and their regions): the printer reuses value
    names across sibling regions (two loops' bodies)."""
    def other_uses(ops: list[Op]) -> set[str]:
        out: set[str] = set()
        for top in ops:
            for o in top.walk():
                idx = _index_positions(o)
                out.update(u for k, u in enumerate(o.uses) if k not in idx)
        return out

    def rewrite(ops: list[Op]) -> list[Op]:
        other = None
        out = []
        for o in ops:
            if o.regions:
                o = replace(o, regions=[rewrite(r) for r in o.regions])
            if o.name == "trunci" and " ".join(o.sig.split()) == _NSW_INDEX_TRUNC:
                other = other_uses(ops) if other is None else other
                if o.results[0] not in other:
                    o = replace(o, sig="trunci % : tile < i64 > -> tile < i32 >")
            out.append(o)
        return out

    return replace(entry, regions=[rewrite(r) for r in entry.regions])


def canonicalise(entry: Op, unit_dims_dynamic: bool = False, high_rank_strides_dynamic: bool = False,
                 unit_args: frozenset[int] = frozenset(), view_index_truncs: bool = False) -> Canon:
    if entry.regions:
        entry = replace(entry, regions=[_to_end(entry.regions[0]), *entry.regions[1:]])
        entry = replace(entry, regions=[_padded_loads(r, _value_uses(r)) for r in entry.regions])
        if view_index_truncs:
            entry = _view_index_truncs(entry)
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
    splat: dict[str, tuple[str, str]] = {}  # value name -> (element type, literal) of a splat constant
    folded_from: dict[str, list[CanonOp]] = {}  # scalar constant value name -> the folds that consumed it
    producer: dict[str, CanonOp] = {}
    term_drop: list[set[int]] = []  # per enclosing region op: positions of token results its terminators yield

    def splat_const(op: Op, elem: str, lit: str, typ: str) -> CanonOp:
        """A splat constant of type ``typ``: keyed like ``constant <elem: lit> : typ``, wherever it came from."""
        lit = _float_literal(elem, lit)
        sig = f"constant < {elem} : {lit} > : {typ}"
        synth = op if op.name == "constant" else replace(op, name="constant", sig=sig, uses=[], regions=[])
        key = _h(_h(sig))  # = the key visit() gives a constant op of that text (no operands, no regions)
        for r in op.results:
            env[r] = _splat_key(elem, lit, typ)
            splat[r] = (elem, lit)
        c = CanonOp(synth, key, [])
        all_ops.append(c)
        return c

    def visit_all(ops: list[Op]) -> list[CanonOp]:
        mine: list[CanonOp] = []
        for op in ops:
            arm = _taken_arm(op, splat)
            if arm is None:
                mine.append(visit(op))
                continue
            # an `if` on a constant condition is its taken arm (module doc): its ops join this block, its
            # results are what the arm yields
            body, yielded = arm
            mine.extend(visit_all(body))
            for r, u in zip(op.results, yielded):
                env[r] = env.get(u, _h("free", u))
                if u in splat:
                    splat[r] = splat[u]
                if u in root_of:
                    root_of[r] = root_of[u]
        return mine

    def block(ops: list[Op]) -> tuple[str, list[CanonOp]]:
        mine = visit_all(ops)
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
        roots = sorted({c.key for c in mine if c.live and c.op.name not in ORDERED | PLUMBING and not c.alias
                        and (c.op.name in SIDE_EFFECTS or c.op.regions)})
        ordered = [c.key for c in mine if c.live and c.op.name in ORDERED]
        return _h("block", *roots, "|", *ordered), mine

    assumes: list[tuple[CanonOp, int | None, str]] = []  # (assume, entry arg it constrains or None, fact)
    induction = {o.defs[0] for o in entry.walk() if o.name == "for" and o.defs}  # loop indices
    canon_of: dict[int, CanonOp] = {}  # id(original op) -> its CanonOp (the op may be a rewritten copy)
    static_unit: dict[int, str] = {}  # entry arg -> the fact a static unit stride read as it entails (port side)

    def is_one(name: str) -> bool:
        """``name`` is the integer constant 1 (through assumes)."""
        p = producer.get(name)
        while p is not None and p.op.name == "assume" and p.op.uses:
            name = p.op.uses[0]
            p = producer.get(name)
        return splat.get(name, ("", ""))[1] == "1" and splat[name][0] in ("i32", "i64")

    def visit(op: Op) -> CanonOp:
        c = _visit(op)
        canon_of[id(op)] = c
        for r in op.results:
            producer[r] = c
        return c

    def unit_uses(op: Op) -> Op:
        """The module doc's size-1 extents: uses of a ``unit_args`` argument (through assumes) outside a
        ``make_tensor_view`` read as the splat constant 1 of the argument's type."""
        names = {}
        for u in op.uses:
            i = root_of.get(u)
            if i is None or i not in unit_args or not _SPLAT_TYPE.match(arg_types[i]):
                continue
            name = f"%unit.{i}"
            if name not in env:
                elem = _SPLAT_TYPE.match(arg_types[i]).group(1)
                env[name] = _splat_key(elem, "1", arg_types[i])
                splat[name] = (elem, "1")
            names[u] = name
        return replace(op, uses=[names.get(u, u) for u in op.uses]) if names else op

    def _visit(op: Op) -> CanonOp:
        if unit_dims_dynamic:
            op = _dynamic_unit_dims(op, entry, root_of, is_one)
        if high_rank_strides_dynamic:
            op = _dynamic_high_rank_strides(op, entry, root_of, static_unit)
        if unit_args and op.name not in ("make_tensor_view", "assume"):  # an assume passes the argument on
            op = unit_uses(op)
        m = _SPLAT.match(op.sig) if op.name == "constant" and len(op.results) == 1 else None
        if m:
            return splat_const(op, m.group(1), m.group(2), m.group(3))
        if op.name in SPLAT_FOLDS and len(op.uses) == 1 and op.uses[0] in splat and len(op.results) == 1:
            rt = _RESULT_TYPE.search(op.sig)
            if rt:
                src = op.uses[0]
                c = splat_const(op, *splat[src], rt.group(1))
                folded_from.setdefault(src, []).append(c)
                return c
        folded = _fold_cmpi(op, splat) or _fold_int(op, splat) or _fold_float(op, splat) or _fold_ext(op, splat)
        if folded is not None:
            return splat_const(op, *folded)
        if op.name == "assume":
            src = op.uses[0] if op.uses else ""
            for r in op.results:
                env[r] = env.get(src, _h("free", src))
                if src in root_of:
                    root_of[r] = root_of[src]
                if src in splat:  # an assumed constant is the constant (a single-trip loop's index)
                    splat[r] = splat[src]
            c = CanonOp(op, env.get(src, ""), [env.get(src, "")])
            if src not in induction:  # a loop index's range restates the loop bounds (compared as the loop)
                assumes.append((c, root_of.get(src), _fact(op.sig)))
            all_ops.append(c)
            return c
        if op.name in IDENTITY_WHEN_SAME_TYPE and _identity_cast(op.sig):
            src = op.uses[0]
            for r in op.results:
                env[r] = env.get(src, _h("free", src))
                if src in splat:  # the same splat constant: reshape / broadcast of it fold as of the constant
                    splat[r] = splat[src]
            c = CanonOp(op, env.get(src, ""), [env.get(src, "")], alias=True)
            if src in splat:
                folded_from.setdefault(src, []).append(c)
            all_ops.append(c)
            return c
        if op.name == "make_token":
            key = _h("make_token")
            for r in op.results:
                env[r] = key
            c = CanonOp(op, key, [])
            all_ops.append(c)
            return c
        drop = set(op.token_uses)
        sig = _strip_tokens(op.sig, len(op.token_uses))
        tok_results = _token_positions(sig) if op.regions else set()
        through = _if_passthrough(op, env) if op.name == "if" else {}  # result position -> the outer value
        # iter values a loop passes on unchanged: the value they start with (module doc)
        same = {k: u for k, u in _loop_invariant(op).items() if k not in tok_results and u in env}
        through.update({k: env[u] for k, u in same.items()})
        gone = tok_results | set(through)
        token_defs: set[int] = set()
        n = sig.count("%def = %")
        if tok_results:  # tokens threaded through a loop / if: one value, like make_token (module doc)
            drop |= {len(op.uses) - n + k for k in tok_results if n}
            token_defs = {len(op.defs) - n + k for k in tok_results if n}
        for k, u in same.items():
            drop.add(len(op.uses) - n + k)
            d = op.defs[len(op.defs) - n + k]
            env[d] = env[u]
            if u in splat:
                splat[d] = splat[u]
            if u in root_of:
                root_of[d] = root_of[u]
        if gone:
            sig = _drop_token_results(sig, gone)
        if op.name in TERMINATORS and term_drop and term_drop[-1]:
            drop |= term_drop[-1]
            sig = _drop_yielded(sig, term_drop[-1])
        operand_keys = [env.get(u, _h("free", u)) for i, u in enumerate(op.uses) if i not in drop]
        if op.name in COMMUTATIVE:
            operand_keys = sorted(operand_keys)
        pre = _h(sig, *operand_keys)
        for i, d in enumerate(op.defs):  # numbered without the tokens: cutile orders a loop's carried values by
            if i - (len(op.defs) - n) not in same:  # name (a token may come first), cuTile Python puts tokens last
                env[d] = _h("make_token") if i in token_defs else \
                    _h(pre, "def", i - sum(t < i for t in token_defs))
        first = _single_trip(op, splat)
        if first is not None:  # the index of a loop that runs once is its lower bound (module doc)
            elem, typ = first
            env[op.defs[0]] = _splat_key(elem, splat[op.uses[0]][1], typ)
            splat[op.defs[0]] = (elem, splat[op.uses[0]][1])
        c = CanonOp(op, "", operand_keys)
        # a `continue` / `yield` left with nothing to pass (it only passed tokens) is the implicit one
        c.alias = op.name in ("continue", "yield") and not operand_keys and not op.regions and bool(drop)
        all_ops.append(c)
        region_keys = []
        for r in op.regions:
            term_drop.append(gone)
            rk, _ = block(r)
            term_drop.pop()
            region_keys.append(rk)
        c.key = _h(pre, *region_keys)
        kept = 0
        for i, r in enumerate(op.results):
            if i in tok_results:
                env[r] = _h("make_token")
            elif i in through:
                env[r] = through[i]
            else:
                env[r] = _h(c.key, "result", kept)
                kept += 1
        return c

    root, _ = block(entry.regions[0] if entry.regions else [])
    # a splat constant used only by reshape/broadcast folds is not an op of its own (the fold stands for it)
    users: dict[str, int] = Counter(u for c in all_ops for u in c.op.uses)
    for name, folds in folded_from.items():
        if users[name] == len(folds) and name in producer:
            producer[name].alias = True
    def kill(op: Op) -> None:
        for r in op.regions:
            for o in r:
                canon_of[id(o)].live = False
                kill(o)

    for c in all_ops:
        if not c.live:
            kill(c.op)
    # Facts count where the assumed value is used (a dead argument's assume is plumbing either side emits or not).
    value_facts: dict[str, list[str]] = {}
    for c, arg, fact in assumes:
        if not c.live:
            continue
        if arg is not None:
            facts.setdefault(arg, []).append(fact)
        else:
            value_facts.setdefault(c.key, []).append(fact)
    for arg, fact in static_unit.items():
        if fact not in facts.get(arg, []):
            facts.setdefault(arg, []).append(fact)
    return Canon(entry, root, all_ops, set(env.values()), arg_types, facts, _entry_hints(entry.sig), value_facts)


def _taken_arm(op: Op, splat: dict[str, tuple[str, str]]) -> tuple[list[Op], list[str]] | None:
    """``(ops, yielded values)`` of the arm an ``if`` on an ``i1`` splat constant takes (an absent ``else`` is an
    empty arm), else None (not such an ``if``, or an arm that leaves otherwise: ``continue`` / ``break`` /
    ``return``)."""
    if op.name != "if" or not op.uses or op.uses[0] not in splat or splat[op.uses[0]][0] != "i1":
        return None
    arm = op.regions[0 if splat[op.uses[0]][1] in ("true", "1", "-1") else 1] \
        if len(op.regions) > (0 if splat[op.uses[0]][1] in ("true", "1", "-1") else 1) else []
    if arm and arm[-1].name == "yield" and len(arm[-1].uses) == len(op.results):
        return arm[:-1], list(arm[-1].uses)
    if not op.results and not any(o.name in TERMINATORS or o.name == "return" for o in arm):
        return arm, []
    return None


def _int_literal(elem: str, lit: str, signed: bool) -> int | None:
    """The value of an integer splat literal of element type ``iN`` as the comparison sees it."""
    bits = re.fullmatch(r"i(\d+)", elem)
    if bits is None or re.fullmatch(r"-?\d+|true|false", lit) is None:
        return None
    n, v = int(bits.group(1)), {"true": 1, "false": 0}.get(lit)
    v = int(lit) if v is None else v
    v &= (1 << n) - 1  # the bit pattern, then read signed or unsigned
    return v - (1 << n) if signed and n > 1 and v >> (n - 1) else v


def _fold_cmpi(op: Op, splat: dict[str, tuple[str, str]]) -> tuple[str, str, str] | None:
    """``(i1, literal, result type)`` of a ``cmpi`` whose operands are both integer splat constants, else None."""
    m = _CMPI.match(op.sig) if op.name == "cmpi" and len(op.uses) == 2 and len(op.results) == 1 else None
    if m is None or m.group(1) not in _CMP_PRED or not all(u in splat for u in op.uses):
        return None
    (ea, la), (eb, lb) = splat[op.uses[0]], splat[op.uses[1]]
    a, b = (_int_literal(ea, la, m.group(2) == "signed"), _int_literal(eb, lb, m.group(2) == "signed"))
    if a is None or b is None or ea != eb:
        return None
    return "i1", ("true" if _CMP_PRED[m.group(1)](a, b) else "false"), m.group(3)


def _div(a: int, b: int, rounding: str) -> int:
    q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # toward zero
    if q * b != a and rounding in ("negative_inf", "positive_inf"):
        exact_neg = (a < 0) != (b < 0)
        q += -1 if rounding == "negative_inf" and exact_neg else 1 if rounding == "positive_inf" and not exact_neg else 0
    return q


_INT_OPS = {"addi": lambda a, b, r: a + b, "subi": lambda a, b, r: a - b, "muli": lambda a, b, r: a * b,
            "maxi": lambda a, b, r: max(a, b), "mini": lambda a, b, r: min(a, b),
            "divi": lambda a, b, r: _div(a, b, r) if b else None,
            "remi": lambda a, b, r: a - _div(a, b, "zero") * b if b else None}  # remainder takes the dividend's sign
_INT_OP = re.compile(r"^(\w+) % , % ((?:\w+ )*?)(?:rounding < (\w+) > )?: (tile < [^<>]* >)$")


_NEG_OP = re.compile(r"^negi % : (tile < [^<>]* >)$")


def _fold_neg(op: Op, splat: dict[str, tuple[str, str]]) -> tuple[str, str, str] | None:
    """``(element type, literal, type)`` of a ``negi`` of an integer splat constant (cuTile Python folds ``-N`` of
    a ``ct.Constant`` N to the constant -N; the port negates its const generic), else None."""
    m = _NEG_OP.match(op.sig) if op.name == "negi" and len(op.uses) == 1 and len(op.results) == 1 else None
    if m is None or op.uses[0] not in splat:
        return None
    elem, lit = splat[op.uses[0]]
    a = _int_literal(elem, lit, True)
    if a is None or elem == "i1" or not elem.startswith("i"):
        return None
    bits = int(elem[1:])
    v = -a & ((1 << bits) - 1)  # wraps like the hardware; printed signed
    return elem, str(v - (1 << bits) if v >> (bits - 1) else v), m.group(1)


def _fold_int(op: Op, splat: dict[str, tuple[str, str]]) -> tuple[str, str, str] | None:
    """``(element type, literal, type)`` of an integer ``addi subi muli divi remi maxi mini`` of two splat
    constants of one element type (or a ``negi`` of one), else None (a division by zero is never folded)."""
    if op.name == "negi":
        return _fold_neg(op, splat)
    m = _INT_OP.match(op.sig) if op.name in _INT_OPS and len(op.uses) == 2 and len(op.results) == 1 else None
    if m is None or not all(u in splat for u in op.uses):
        return None
    flags = m.group(2).split()
    if any(f not in ("signed", "unsigned") for f in flags):  # overflow flags and the like: not folded
        return None
    (ea, la), (eb, lb) = splat[op.uses[0]], splat[op.uses[1]]
    signed = "unsigned" not in flags
    a, b = _int_literal(ea, la, signed), _int_literal(eb, lb, signed)
    if a is None or b is None or ea != eb or ea == "i1":
        return None
    v = _INT_OPS[op.name](a, b, m.group(3) or "zero")
    if v is None:
        return None
    bits = int(ea[1:])
    v &= (1 << bits) - 1  # wraps like the hardware; printed signed, as the IR prints constants
    return ea, str(v - (1 << bits) if v >> (bits - 1) else v), m.group(4)


_EXT = re.compile(r"^(exti|trunci) % ((?:\w+ )*?): tile < ([^<>]*) > -> (tile < ([^<>]*) >)$")
_SPLAT_TYPE = re.compile(r"^tile < (i\d+) >$")  # a scalar integer argument (an extent, a stride)


def _fold_ext(op: Op, splat: dict[str, tuple[str, str]]) -> tuple[str, str, str] | None:
    """``(element type, literal, type)`` of an ``exti`` (signed / unsigned) or ``trunci`` of an integer splat
    constant: the constant it evaluates to (cuTile Python's dataflow folds ``astype`` of a constant extent), else
    None."""
    m = _EXT.match(op.sig) if op.name in ("exti", "trunci") and len(op.uses) == 1 and len(op.results) == 1 else None
    if m is None or op.uses[0] not in splat:
        return None
    src, dst = m.group(3).split("x")[-1], m.group(5).split("x")[-1]
    elem, lit = splat[op.uses[0]]
    flags = m.group(2).split()
    v = _int_literal(elem, lit, "unsigned" not in flags)
    if v is None or elem != src or not re.fullmatch(r"i\d+", dst) or dst == "i1" or elem == "i1":
        return None
    bits = int(dst[1:])
    v &= (1 << bits) - 1  # truncation keeps the low bits; an extension the value read with its signedness
    return dst, str(v - (1 << bits) if v >> (bits - 1) else v), m.group(4)


_FLOAT_PACK = {"f16": "<e", "f32": "<f", "f64": "<d"}
_CAST = re.compile(r"^(bitcast|itof|ftof) % ((?:\w+ )*?)(?:rounding < (\w+) > )?"
                   r": tile < ([^<>]*) > -> (tile < ([^<>]*) >)$")


def _elem(tile_body: str) -> str:
    """The element type of a tile type's body (``256x128xf32`` -> ``f32``)."""
    return tile_body.strip().rsplit("x", 1)[-1]


def _round_to(elem: str, v: float) -> float | None:
    """``v`` rounded to nearest even in float type ``elem`` (None: a type this does not model)."""
    if elem in _FLOAT_PACK:
        try:
            return struct.unpack(_FLOAT_PACK[elem], struct.pack(_FLOAT_PACK[elem], v))[0]
        except OverflowError:
            return math.copysign(math.inf, v)
    if elem == "bf16":
        f = _round_to("f32", v)
        if f is None or math.isnan(f):
            return f
        b = struct.unpack("<I", struct.pack("<f", f))[0]
        b = (b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000  # round the low 16 bits off, to nearest even
        return struct.unpack("<f", struct.pack("<I", b))[0]
    return None


def _from_bits(elem: str, bits: int) -> float | None:
    width = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}.get(elem)
    if width is None:
        return None
    bits &= (1 << width) - 1
    if elem == "bf16":
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    return struct.unpack(_FLOAT_PACK[elem], bits.to_bytes(width // 8, "little"))[0]


def _float_text(v: float) -> str:
    return f"{v:e}" if math.isfinite(v) else {math.inf: "inf", -math.inf: "-inf"}.get(v, "nan")


def _float_literal(elem: str, lit: str) -> str:
    """A float splat literal by value (module doc); other literals unchanged."""
    if elem not in _FLOAT_PACK and elem != "bf16":
        return lit
    try:
        v = _from_bits(elem, int(lit, 16)) if lit.lower().startswith("0x") else float(lit)
    except ValueError:
        return lit
    r = _round_to(elem, v) if v is not None else None
    return lit if r is None else _float_text(r)


def _fold_float(op: Op, splat: dict[str, tuple[str, str]]) -> tuple[str, str, str] | None:
    """``(element type, literal, type)`` of a ``bitcast`` integer -> float, ``itof`` or ``ftof`` of a splat
    constant (module doc), else None."""
    m = _CAST.match(op.sig) if op.name in ("bitcast", "itof", "ftof") and len(op.uses) == 1 else None
    if m is None or op.uses[0] not in splat or len(op.results) != 1:
        return None
    kind, flags, rounding, src_t, dst = m.group(1), m.group(2).split(), m.group(3), m.group(4), m.group(5)
    if rounding not in (None, "nearest_even") or any(f not in ("signed", "unsigned") for f in flags):
        return None
    src, out = _elem(src_t), _elem(m.group(6))
    selem, slit = splat[op.uses[0]]
    if selem != src:
        return None
    if kind == "bitcast":
        n = _int_literal(src, slit, False)
        if n is None or not src.startswith("i") or int(src[1:]) != {"f16": 16, "bf16": 16, "f32": 32,
                                                                    "f64": 64}.get(out):
            return None
        v = _from_bits(out, n)
    elif kind == "itof":
        v = _int_literal(src, slit, "unsigned" not in flags)
        v = None if v is None else _round_to(out, float(v)) if abs(v) < 2 ** 53 else None
    else:
        try:
            v = _round_to(out, float(slit))
        except ValueError:
            return None
    if v is None or math.isnan(v):
        return None
    return out, _float_text(v), dst


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


_RESULTS = re.compile(r"-> \( (.*) \) \{R\}")


def _if_passthrough(op: Op, env: dict[str, str]) -> dict[int, str]:
    """Result positions of an ``if`` whose every arm yields the same value defined outside the ``if``, mapped to
    that value's key: such a result is that value (a port that threads loop-carried values through an ``if``
    unchanged, and one that does not, have the same graph)."""
    yields = [r[-1] for r in op.regions if r and r[-1].name == "yield"]
    if len(yields) != len(op.regions) or len(op.regions) < 2:
        return {}
    inner = {d for r in op.regions for o in r for x in o.walk() for d in x.results + x.defs}
    out = {}
    for i in range(len(op.results)):
        names = {y.uses[i] if i < len(y.uses) else None for y in yields}
        name = names.pop() if len(names) == 1 else None
        if name is not None and name in env and name not in inner:
            out[i] = env[name]
    return out


_FOR_INDEX = re.compile(r"^for %def in \( % to % , step % \) : (tile < (i\d+) >)")


def _single_trip(op: Op, splat: dict[str, tuple[str, str]]) -> tuple[str, str] | None:
    """``(element type, type)`` of the index of a ``for`` whose constant bounds give exactly one iteration
    (``lb < ub <= lb + step``), else None."""
    m = _FOR_INDEX.match(op.sig) if op.name == "for" and len(op.uses) >= 3 and op.defs else None
    if m is None or not all(u in splat and splat[u][0] == m.group(2) for u in op.uses[:3]):
        return None
    lb, ub, step = (_int_literal(m.group(2), splat[u][1], True) for u in op.uses[:3])
    if None in (lb, ub, step) or step <= 0 or not lb < ub <= lb + step:
        return None
    return m.group(2), m.group(1)


def _loop_invariant(op: Op) -> dict[int, str]:
    """Iter-value positions of a ``for`` whose body passes the iter value on unchanged (its one ``continue``, the
    body's last op, yields that iter value itself), mapped to the value the loop starts it with: the iter value is
    that value in every iteration and so is the loop's result (a port that carries a name assigned only in an arm
    the reference folded away, and one that does not, have the same graph)."""
    if op.name != "for" or not op.regions or not op.regions[0]:
        return {}
    n = op.sig.count("%def = %")
    body = op.regions[0]
    last = body[-1]
    if not n or last.name != "continue" or len(last.uses) != n or len(op.defs) < n or len(op.uses) < n:
        return {}
    if any(x.name in ("continue", "break") for o in body[:-1] for x in o.walk()):
        return {}
    iters, inits = op.defs[len(op.defs) - n:], op.uses[len(op.uses) - n:]
    return {k: inits[k] for k in range(n) if last.uses[k] == iters[k]}


def _token_positions(sig: str) -> set[int]:
    """Positions of ``token`` among an op's region results ``-> ( T0 , token ) {R}``."""
    m = _RESULTS.search(sig)
    return {i for i, t in enumerate(_split_top(m.group(1))) if t == "token"} if m else set()


def _drop_token_results(sig: str, pos: set[int]) -> str:
    """Remove the token results (and their ``%def = %`` iter values) from a loop / if signature."""
    m = _RESULTS.search(sig)
    types = [t for i, t in enumerate(_split_top(m.group(1))) if i not in pos]
    head = sig[:m.start()]
    iv = re.search(r"iter_values \( (.*?) \) $", head)
    if iv:
        pairs = [x for i, x in enumerate(_split_top(iv.group(1))) if i not in pos]
        head = head[:iv.start()] + (f"iter_values ( {' , '.join(pairs)} ) " if pairs else "")
    tail = f"-> ( {' , '.join(types)} ) {{R}}" if types else "{R}"
    return (head + tail + sig[m.end():]).replace("  ", " ")  # an if keeps its `else {R}`


def _drop_yielded(sig: str, pos: set[int]) -> str:
    """``continue % , % : T0 , token`` without the values at ``pos``."""
    name, _, rest = sig.partition(" ")
    vals, sep, types = rest.partition(" : ")
    v = [x for i, x in enumerate(_split_top(vals)) if i not in pos]
    t = [x for i, x in enumerate(_split_top(types)) if i not in pos]
    return " ".join([name, " , ".join(v)] + ([": " + " , ".join(t)] if t else [])).strip()


def _strip_tokens(sig: str, n: int) -> str:
    for _ in range(n):
        sig = sig.replace("token = %", "token = _", 1)
    return sig


def _fact(sig: str) -> str:
    m = re.match(r"assume (.*?) , %", sig)
    return m.group(1).replace(" ", "") if m else sig
