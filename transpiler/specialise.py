"""Specialisation: which kernel inputs become Rust generics, constant-branch variants, and the
peepholes the cuTile JIT applies after folding constants (docs/porting.md §7).

* ``ct.Constant[int]`` / ``ct.Constant[bool]`` params -> ``const X: i32`` (bool as 0/1, tested ``X == 1i32``);
  ``ct.Constant[float]`` -> demoted to a runtime ``f32`` parameter (noted; the reference folds the value,
  so the IR keeps one extra entry argument);
* array dtypes -> one type generic ``E: ElementType``;
* in-kernel dtype tests (``ct.tfloat32 if A.dtype == ct.float32 else A.dtype``) -> an explicit
  ``const FLAG: i32`` generic (host computes it; Rust cannot match on ``E``). The kernel is lowered once
  per flag value and the two bodies are merged: the common prefix/suffix stays shared and only the
  statements that differ go under ``if FLAG == 1i32 { .. } else { .. }`` (folded by the cuTile JIT);
* constant ``if`` statements / expressions -> Rust ``if`` on the const generic (controlflow.py); when a
  rewrite of the reference crosses their arms (an fma whose mul and add sit in different branches) the
  flags are lowered once per value and merged like the dtype flags instead;
* constant branches whose arms disagree on tile types -> structural variants, one entry each (naming
  below, ``specialise_variants``);
* after lowering: ``contract_fma`` (mul + add/sub -> fma, like cuTile's ``fuse_mul_addsub``) and
  ``hoist_invariants`` (loop-invariant pure lets out of loops, like cuTile's ``hoist_loop_invariants``).

Every decision is recorded for ``ctrs translate --explain`` (model.Decision, located at its Python line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from . import errors, model
from .cutile_base import Split, Structural, const_generic_names, load_rules

ELEMENT_GENERIC = "E"


@dataclass(frozen=True)
class DtypeTest:
    """``then if ARRAY.dtype == DTYPE else otherwise`` seen in a kernel (dtypes as Rust names)."""
    flag: str
    array: str
    dtype: str
    then: str
    span: model.Span


def dtype_flag_name(array: str, dtype: str, then: str) -> str:
    if dtype == "f32" and then == "tf32":
        return "CAST_TF32"
    return f"IS_{array.upper()}_{dtype.upper()}"


def param_generics(params: list[model.Param], tests: list[DtypeTest]) -> list[model.Generic]:
    gens: list[model.Generic] = []
    if any(p.kind == "array" and p.dtype == ELEMENT_GENERIC for p in params):  # (an array may be concrete)
        gens.append(model.Generic(ELEMENT_GENERIC, "type", "array_dtype", "element type of every array"))
    spelled = const_generic_names(params)
    for p in params:
        if p.kind == "constant":
            gens.append(model.Generic(p.name, "const", "constant", "ct.Constant",
                                      spelled[p.name] if spelled[p.name] != p.name else ""))
    for t in tests:
        if all(g.name != t.flag for g in gens):
            gens.append(model.Generic(t.flag, "const", "dtype_flag",
                                      f"1 when {t.array}.dtype == {t.dtype} (host-computed)", test=(t.array, t.dtype)))
    return gens


_WORD = re.compile(r"[A-Za-z_]\w*")


def _defined(stmts: list) -> set[str]:
    out: set[str] = set()
    for s in stmts:
        if isinstance(s, model.Let):
            out |= set(_WORD.findall(s.name))  # a tuple pattern binds each name
        elif isinstance(s, model.For):
            out |= _defined(s.body)
        elif isinstance(s, model.IfConst):
            out |= _defined(s.then) | _defined(s.otherwise)
    return out


def _used(stmts: list) -> set[str]:
    out: set[str] = set()
    for s in stmts:
        if isinstance(s, (model.Let, model.Assign)):
            out.add(s.name) if isinstance(s, model.Assign) else None
            for _, v in s.op.operands:
                out |= set(_WORD.findall(v))
        elif isinstance(s, model.For):
            out |= set(_WORD.findall(s.start)) | set(_WORD.findall(s.stop)) | _used(s.body)
        elif isinstance(s, model.IfConst):
            out |= _used(s.then) | _used(s.otherwise)
    return out


def merge(cond: str, a: list, b: list, span: model.Span) -> list:
    """Merge the flag=1 body ``a`` and the flag=0 body ``b`` into one body with a minimal const ``if``."""
    if a == b:
        return a
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    j = 0
    while j < n - i and a[len(a) - 1 - j] == b[len(b) - 1 - j]:
        j += 1
    mid_a, mid_b = a[i:len(a) - j], b[i:len(b) - j]
    suffix = a[len(a) - j:]
    if suffix and (_defined(mid_a) | _defined(mid_b)) & _used(suffix):
        mid_a, mid_b, suffix = a[i:], b[i:], []  # a branch-local name is used later: keep it in the arms
    if (len(mid_a) == 1 and len(mid_b) == 1 and isinstance(mid_a[0], model.For) and isinstance(mid_b[0], model.For)
            and (mid_a[0].var, mid_a[0].start, mid_a[0].stop, mid_a[0].step)
            == (mid_b[0].var, mid_b[0].start, mid_b[0].stop, mid_b[0].step)):
        fa = mid_a[0]  # the step is kept: dropping it turned grid-stride loops into start..stop (issue 11)
        merged = [model.For(fa.var, fa.start, fa.stop, merge(cond, fa.body, mid_b[0].body, span), fa.span, fa.carried,
                            step=fa.step)]
    else:
        first = (mid_a or mid_b)[0]
        merged = [model.IfConst(cond, mid_a, mid_b, getattr(first, "span", span))]
    return a[:i] + merged + suffix


def _finish(body: list) -> list:
    """Peepholes the reference applies after folding: fma contraction, then loop-invariant hoisting."""
    return hoist_invariants(contract_fma(body))


def specialise(front) -> model.Kernel:
    """Lower ``front`` (a frontend_cutile.KernelFront) once per dtype-flag assignment and merge.

    Constant ``if``s become Rust ``if FLAG == ..`` statements (controlflow.py). When that loses a
    rewrite the reference applies after folding them (an fma whose mul and add sit in different
    branches), the flags involved are instead lowered once per value, finished, and merged like the
    dtype flags (``front.split``)."""
    tests = front.dtype_tests()
    flags = sorted({t.flag for t in tests}, key=[t.flag for t in tests].index)
    base = dict(getattr(front, "fixed", {}))

    def lower_all(fixed: dict[str, bool], rest: list[str], consts: dict[str, int], split: list[str], finish) -> list:
        if rest:
            f, more = rest[0], rest[1:]
            on = lower_all({**fixed, f: True}, more, consts, split, finish)
            off = lower_all({**fixed, f: False}, more, consts, split, finish)
            return merge(f"{f} == 1i32", on, off, front.span)
        if split:
            f, more = split[0], split[1:]
            vals = front.flag_values(f)
            bodies = [lower_all(fixed, [], {**consts, f: v}, more, finish) for v in vals]
            if front.const_kind(f) == "bool":
                return merge(f"{f} == 1i32", bodies[1], bodies[0], front.span)
            out = bodies[-1]
            for v, b in zip(reversed(vals[:-1]), reversed(bodies[:-1])):
                out = merge(f"{f} == {v}i32", b, out, front.span)
            return out
        front.fixed = {**base, **consts}
        try:
            body = front.lower(dict(fixed))
        finally:
            front.fixed = base
        return finish(body) if finish else body


    saved = dict(front.__dict__.get("decisions", {}))
    forced: list[str] = []
    while True:
        front.split = tuple(forced)
        try:
            body = lower_all({}, flags, {}, list(forced), _finish)
            break
        except Split as e:
            if e.flag in forced:  # cannot happen: a split flag folds
                raise
            forced.append(e.flag)
            front.decisions = dict(saved)
            front.note("specialise", e.line, f"{e.flag} lowered once per value and merged ({e.why})")
            saved = dict(front.decisions)
    need = _needs_split(front, lambda c: lower_all({}, flags, c, list(forced), None), flags)
    if need:
        front.split = tuple(forced + need)
        front.decisions = saved  # the structured lowering's branch notes no longer apply
        front.note("specialise", front.span.line,
                   f"{', '.join(need)} lowered once per value and merged (a rewrite crosses their branches)")
        body = lower_all({}, flags, {}, forced + need, _finish)
    params = front.params()
    return model.Kernel(front.name, params, param_generics(params, tests), body, front.span, hints=front.hints)


# ---------------------------------------------------------------------------------------------- variants
#
# Structural variants (docs/porting.md §7). A constant branch whose arms give a name different
# tile types / ranks (or different memory APIs) cannot be one Rust body: both arms of a Rust `if` must
# type-check. Such a flag is fixed per value and each value gets its own `#[cutile::entry()]`:
#
#     <kernel>__<FLAG>_<value>[__<FLAG2>_<value2>...]     e.g. const_branches__TRANSPOSE_1
#
# * flags in kernel-parameter order, values as integers (bool: 0 / 1);
# * int flags get one entry per literal the kernel compares them with, plus max+1 standing for
#   "any other value" (the else arm of an ==-chain): in that entry the flag stays a const generic and
#   only its `==`/`!=` tests against those literals fold;
# * otherwise a fixed flag is no longer a generic of that entry (its value is a literal in the body).
# The model records the fixed values on Kernel.variant / Kernel.python_name, so a later
# analysis.json / FFI can dispatch (see ``dispatch``); specs pick the entry with
# "rust": {"entry": "<kernel>__<FLAG>_<value>"}.


def variant_entry(kernel: str, fixed: list[tuple[str, int]]) -> str:
    return kernel + "".join(f"__{f}_{int(v)}" for f, v in fixed)


def _flag_tests(stmts: list) -> list[str]:
    out: list[str] = []
    for s in _all_stmts(stmts):
        if isinstance(s, model.IfConst) and s.test and s.test[0] not in out:
            out.append(s.test[0])
    return out


_PYCMP = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
          ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def fold(stmts: list, values: dict[str, int]) -> list:
    """``stmts`` with every constant ``if`` on a flag in ``values`` replaced by its taken arm."""
    out = []
    for s in stmts:
        if isinstance(s, model.IfConst) and s.test and s.test[0] in values:
            f, op, v = s.test
            out += fold(s.then if _PYCMP[op](int(values[f]), v) else s.otherwise, values)
            continue
        if isinstance(s, model.For):
            s = model.For(s.var, s.start, s.stop, fold(s.body, values), s.span, s.carried, step=s.step)
        elif isinstance(s, model.IfConst):
            s = model.IfConst(s.cond, fold(s.then, values), fold(s.otherwise, values), s.span, test=s.test,
                              runtime=s.runtime)
        out.append(s)
    return out


def _fma_count(body: list) -> int:
    return sum(1 for s in _all_stmts(body) if isinstance(s, (model.Let, model.Assign)) and s.op.kind == "fma")


MAX_SPLIT_ASSIGNMENTS = 64


def _needs_split(front, lower_raw, dflags) -> list[str]:
    """Const flags whose per-value lowering contracts more fmas than the structured ``if`` form."""
    import copy  # noqa: PLC0415
    import itertools  # noqa: PLC0415

    raw = lower_raw({})
    cflags = _flag_tests(raw)
    if not cflags or dflags:
        return []
    values = [front.flag_values(f) for f in cflags]
    combos = list(itertools.product(*values))
    if len(combos) > MAX_SPLIT_ASSIGNMENTS:
        return []
    front._quiet = True
    try:
        for combo in combos:
            assign = dict(zip(cflags, combo))
            structured = _fma_count(contract_fma(fold(copy.deepcopy(raw), assign)))
            exact = _fma_count(contract_fma(lower_raw(assign)))
            if structured != exact:
                return cflags
    finally:
        front._quiet = False
    return []


def _generic_decisions(front, k: model.Kernel, tests: list[DtypeTest]) -> list[model.Decision]:
    out = []
    spans = {p.name: p.span.line for p in front.params()}
    first_array = next((p.span.line for p in front.params() if p.kind == "array"), front.span.line)
    for g in k.generics:
        if g.origin == "array_dtype":
            out.append(model.Decision(first_array, k.name, "generic",
                                      f"{g.name}: ElementType <- dtype of every array parameter"))
        elif g.origin == "constant":
            kind = front.const_kind(g.name) or "int"
            how = "0/1, tested `== 1i32`" if kind == "bool" else "value"
            out.append(model.Decision(spans.get(g.name, front.span.line), k.name, "generic",
                                      f"const {g.name}: i32 <- ct.Constant[{kind}] {g.name} ({how})"))
        else:
            t = next(t for t in tests if t.flag == g.name)
            out.append(model.Decision(t.span.line, k.name, "generic",
                                      f"const {g.name}: i32 <- {t.array}.dtype == {t.dtype} (host-computed flag)"))
    return out


def specialise_variants(front) -> tuple[list[model.Kernel], list[model.Decision]]:
    """One kernel per structural variant (just the generic kernel when there is none), plus the
    --explain decisions for them, in source-line order per kernel."""

    order = [p.name for p in front.params()]
    # (fixed values, "other" flags): an int flag's last entry stands for every value the kernel does not
    # compare it with; there the flag stays a const generic and only `FLAG == lit` tests fold (to False).
    pending: list[tuple[dict[str, int], dict[str, tuple[int, set[int]]]]] = [({}, {})]
    kernels: list[model.Kernel] = []
    why: dict[str, tuple[int, str]] = {}
    while pending:
        fixed, other = pending.pop(0)
        front.fixed, front.other = fixed, {f: lits for f, (_, lits) in other.items()}
        try:
            k = specialise(front)
        except Structural as s:
            if s.flag in fixed or s.flag in other:
                raise errors.CtrsError(errors.NO_RULE, f"no rule to split ct.Constant '{s.flag}' into variants here",
                                       "compare it with literals (==, !=) only", errors.Loc(str(front.info.path), s.line))
            why.setdefault(s.flag, (s.line, s.why))
            vals = front.flag_values(s.flag)
            if front.const_kind(s.flag) == "bool":
                new = [({**fixed, s.flag: v}, other) for v in vals]
            else:
                new = [({**fixed, s.flag: v}, other) for v in vals[:-1]]
                new.append((fixed, {**other, s.flag: (vals[-1], set(vals[:-1]))}))
            pending[0:0] = new
            continue
        finally:
            front.fixed, front.other = {}, {}
        if fixed or other:
            values = {**fixed, **{f: v for f, (v, _) in other.items()}}
            items = sorted(values.items(), key=lambda kv: order.index(kv[0]))
            k.name = variant_entry(front.name, items)
            k.python_name = front.name
            k.variant = tuple((f, int(v)) for f, v in items)
            k.params = [p for p in k.params if p.name not in fixed]
            k.generics = [g for g in k.generics if g.name not in fixed]
        kernels.append(k)
    decisions: list[model.Decision] = []
    tests = front.dtype_tests()
    for k in kernels:
        ds = _generic_decisions(front, k, tests)
        for f, v in k.variant:
            line, reason = why[f]
            ds.append(model.Decision(line, k.name, "variant",
                                     f"entry {k.name} <- {f}={v} (structural: {reason})"))
        decisions += sorted(ds, key=lambda d: d.line)
    shared = [model.Decision(line, front.name, kind, text)
              for (line, kind, text) in getattr(front, "decisions", {})]
    decisions += sorted(shared, key=lambda d: (d.line, d.kind, d.text))
    return kernels, decisions


def dispatch(kernels: list[model.Kernel], python_name: str, constants: dict[str, object]) -> str:
    """Rust entry for a launch of ``python_name`` with these ct.Constant values (the variant whose fixed
    values all match; the generic kernel when it has no variants)."""
    for k in kernels:
        if (k.python_name or k.name) != python_name:
            continue
        if all(f in constants and int(constants[f]) == v for f, v in k.variant):
            return k.name
    for k in kernels:  # int flags: the max+1 entry stands for any other value
        if (k.python_name or k.name) == python_name and k.variant:
            others = [kk for kk in kernels if (kk.python_name or kk.name) == python_name]
            ok = True
            for f, v in k.variant:
                seen = {dict(kk.variant).get(f) for kk in others}
                c = int(constants.get(f, -1))
                if not (c == v or (v == max(x for x in seen if x is not None) and c not in seen)):
                    ok = False
            if ok:
                return k.name
    raise KeyError(python_name)




# ---------------------------------------------------------------------------------------------- fma
#
# cuTile Python contracts a float multiply whose only use is an add/sub (same rounding and
# flush-to-zero) into one `fma` (its rewrite pass `fuse_mul_addsub`; `x - m` / `m - x` negate the
# mul lhs / the accumulator first). cutile-rs does not, so the port spells the fma explicitly.

FMA = "fma({a}, {b}, {c}, {rounding}, {ftz})"
NEG = "negf({x})"
_FLOATS = ("f16", "bf16", "f32", "f64")


def _binary_fn(op: model.Op) -> str | None:
    if op.kind != "binary":
        return None

    funcs = load_rules()["functions"]
    for fn, name in (("ct.mul", "mul"), ("ct.add", "add"), ("ct.sub", "sub")):
        r = funcs.get(fn, {})
        if op.template in (r.get("template"), r.get("template_modes")):
            return name
    return None


_all_stmts = model.walk


def _use_counts(body: list) -> dict[str, int]:
    counts: dict[str, int] = {}

    def add(text: str) -> None:
        for w in _WORD.findall(text):
            counts[w] = counts.get(w, 0) + 1

    for s in _all_stmts(body):
        if isinstance(s, (model.Let, model.Assign)):
            for _, v in s.op.operands:
                add(v)
        elif isinstance(s, model.For):
            add(s.start), add(s.stop), add(s.step)
        elif isinstance(s, model.IfConst):
            add(s.cond)
    return counts


def contract_fma(body: list) -> list:
    """Rewrite single-use float ``m = a * b`` + ``r = m + c`` pairs into ``r = fma(a, b, c)`` (in place)."""
    counts = _use_counts(body)
    taken: set[str] = set()
    made: set[str] = set()

    def walk(stmts: list) -> None:
        lets = {s.name: s for s in stmts if isinstance(s, model.Let)}
        out = []
        for s in stmts:
            if isinstance(s, model.For):
                walk(s.body)
            elif isinstance(s, model.IfConst):
                walk(s.then), walk(s.otherwise)
            fn = _binary_fn(s.op) if isinstance(s, (model.Let, model.Assign)) else None
            if fn in ("add", "sub"):
                ops = dict(s.op.operands)
                for side in ("a", "b"):
                    m = lets.get(ops[side])
                    if (m is None or m.name in taken or m.mutable or counts.get(m.name) != 1
                            or _binary_fn(m.op) != "mul" or not isinstance(m.type, model.TileT)
                            or m.type.dtype not in _FLOATS):
                        continue
                    mops = dict(m.op.operands)
                    if (mops.get("rounding"), mops.get("ftz")) != (ops.get("rounding"), ops.get("ftz")):
                        continue
                    acc = ops["b" if side == "a" else "a"]
                    ma = mops["a"]
                    if fn == "sub":
                        target = ma if side == "b" else acc
                        neg = model.Let(f"{target}_neg", m.type, model.Op("unary", NEG, (("x", target),), s.span),
                                        s.span)
                        neg.name = _fresh_name(body, f"{target}_neg", made)
                        made.add(neg.name)
                        out.append(neg)
                        if side == "b":
                            ma = neg.name
                        else:
                            acc = neg.name
                    taken.add(m.name)
                    fused = model.Op("fma", FMA, (("a", ma), ("b", mops["b"]), ("c", acc), ("ftz", ops["ftz"]),
                                                  ("rounding", ops["rounding"])), s.span, s.op.unsafe)
                    s.op = fused
                    break
            out.append(s)
        stmts[:] = [s for s in out if not (isinstance(s, model.Let) and s.name in taken)]

    walk(body)
    return body


def _fresh_name(body: list, hint: str, made: set[str]) -> str:
    used = {s.name for s in _all_stmts(body) if isinstance(s, (model.Let, model.Assign))} | made
    name, n = hint, 0
    while name in used:
        n += 1
        name = f"{hint}_{n}"
    return name


__all__ = ["DtypeTest", "dtype_flag_name", "param_generics", "merge", "specialise", "specialise_variants",
           "variant_entry", "dispatch", "contract_fma", "hoist_invariants"]


# ---------------------------------------------------------------------------------------------- LICM
#
# cuTile Python hoists every loop-invariant operation without an observable effect out of its loop
# (its `hoist_loop_invariants` pass; ops inside if-arms stay). cutile-rs does not, so the port hoists
# the same lets: pure, not `mut`, and reading nothing the loop defines or assigns.

_EFFECT_WORDS = ("load", "store", "gather", "scatter", "atomic", "print", "assert", "token", "ptr")


def _pure(s: model.Let) -> bool:
    if s.mutable or s.op.unsafe or any(w in s.op.kind for w in _EFFECT_WORDS):
        return False
    text = s.type.rust()
    return "Token" not in text and "PartitionMut" not in text


def _defined_or_assigned(stmts: list) -> set[str]:
    out: set[str] = set()
    for s in _all_stmts(stmts):
        if isinstance(s, (model.Let, model.Assign)):
            out |= set(_WORD.findall(s.name))  # `(v, _v_tok)`: a tuple pattern (pointer loads) binds each name
        elif isinstance(s, model.For):
            out.add(s.var)
    return out


_LITERAL = re.compile(r"(?<![\w.])-?\d+i32\b")
_LITERAL_OPERANDS = {"load_view": ("index",), "store_view": ("index",), "scalar_binary": ("a", "b")}


def _bind_literals(loop: model.For, root: list, made: set[str]) -> None:
    """Integer literals used as values in a loop body (tile indices, scalar math) become lets, so they
    can be hoisted like the reference's constants."""
    names: dict[str, str] = {}
    new: list = []
    for b in loop.body:
        if not isinstance(b, (model.Let, model.Assign)) or b.op.kind not in _LITERAL_OPERANDS:
            continue
        ops = dict(b.op.operands)
        for key in _LITERAL_OPERANDS[b.op.kind]:
            def sub(m: re.Match) -> str:
                lit = m.group(0)
                if lit not in names:
                    hint = "c_" + lit[:-3].replace("-", "m")
                    names[lit] = _fresh_name(root, hint, made)
                    made.add(names[lit])
                    new.append(model.Let(names[lit], model.ScalarT("i32"),
                                         model.Op("literal", "{x}", (("x", lit),), b.span), b.span))
                return names[lit]
            if key in ops:
                ops[key] = _LITERAL.sub(sub, ops[key])
        b.op = replace(b.op, operands=tuple(sorted(ops.items())))
    loop.body[:0] = new


def _hoist_from(stmts: list, inside: set[str], out: list) -> None:
    """Move invariant pure lets of a loop body (and of its constant-``if`` arms, which the reference
    has folded into the body) to ``out``."""
    keep = []
    for b in stmts:
        if isinstance(b, model.Let) and _pure(b) and not any(
                set(_WORD.findall(v)) & inside for _, v in b.op.operands):
            inside.discard(b.name)
            out.append(b)
            continue
        if isinstance(b, model.IfConst) and not b.runtime:
            _hoist_from(b.then, inside, out)
            _hoist_from(b.otherwise, inside, out)
        keep.append(b)
    stmts[:] = keep


def hoist_invariants(stmts: list, root: list | None = None, made: set[str] | None = None) -> list:
    """Move loop-invariant pure lets out of every ``for`` (innermost first), in place."""
    root = stmts if root is None else root
    made = set() if made is None else made
    out = []
    for s in stmts:
        if isinstance(s, model.IfConst):
            hoist_invariants(s.then, root, made), hoist_invariants(s.otherwise, root, made)
        if isinstance(s, model.For):
            hoist_invariants(s.body, root, made)
            _bind_literals(s, root, made)
            inside = _defined_or_assigned(s.body) | {s.var}
            _hoist_from(s.body, inside, out)
        out.append(s)
    stmts[:] = out
    return stmts
