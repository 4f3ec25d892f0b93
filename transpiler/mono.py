"""Element-type entries: a kernel that needs a scalar of its element type ``E`` is emitted once per dtype.

cutile 0.3.1 has no way to make a scalar of a generic ``E`` (``tile_to_scalar`` of ``Tile<E, {[]}>`` is
rejected by the JIT, ``E::ZERO`` is only accepted inside ``constant()``), but ``ct.gather`` pads with a
scalar zero of the array's type. Such a kernel (an op of kind ops_cutile.ELEM_SCALAR_KIND in its body)
becomes ``<kernel>_<dtype>`` entries with ``E`` replaced by each dtype of rules/cutile.toml
``[element_entries].dtypes``; specs pick one with ``"rust": {"entry": "<kernel>_f16"}``. Kernels that
do not need it are returned unchanged.
"""

from __future__ import annotations

import dataclasses
import re

from . import model, specialise
from .cutile_base import declaration
from .ops_cutile import ELEM_SCALAR_KIND, constant_spelling

_E = re.compile(rf"\b{specialise.ELEMENT_GENERIC}\b")


def needs_concrete_element(stmts: list) -> bool:
    for s in stmts:
        op = getattr(s, "op", None)
        if isinstance(op, model.Op) and op.kind == ELEM_SCALAR_KIND:
            return True
        for attr in ("body", "then", "otherwise"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list) and needs_concrete_element(sub):
                return True
    return False


def _subst(obj, dtype: str):
    if isinstance(obj, str):
        return _E.sub(dtype, obj)
    if isinstance(obj, list):
        return [_subst(x, dtype) for x in obj]
    if isinstance(obj, tuple):
        return tuple(_subst(x, dtype) for x in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        if isinstance(obj, model.Span):
            return obj
        changes = {f.name: _subst(getattr(obj, f.name), dtype) for f in dataclasses.fields(obj)
                   if f.name not in ("name", "kind") or not isinstance(obj, (model.Kernel, model.Generic))}
        return dataclasses.replace(obj, **changes)
    return obj


def expand(kernels: list[model.Kernel], rules: dict) -> list[model.Kernel]:
    out = []
    for k in kernels:
        if not needs_concrete_element(k.body) or all(g.name != specialise.ELEMENT_GENERIC for g in k.generics):
            out.append(k)
            continue
        for dt in rules["element_entries"]["dtypes"]:
            body = _subst(k.body, dt)
            _respell_constants(body, dt, rules)
            params = [_subst(p, dt) for p in k.params]
            generics = [g for g in k.generics if g.name != specialise.ELEMENT_GENERIC]
            extra = {"python_name": k.python_name or k.name} if hasattr(k, "python_name") else {}
            out.append(dataclasses.replace(k, name=f"{k.name}_{dt}", params=params, generics=generics, body=body,
                                           **extra))
    return out


def _respell_constants(stmts: list, dt: str, rules: dict) -> None:
    """A constant of the generic element type (``Op.literal``: +-inf, spelled through constant_f32 because E may
    be bf16) spelled for the concrete ``dt`` (ops_cutile.constant_spelling): the crate's own spelling where it
    is exact (``f32::NEG_INFINITY``), constant_f32 where it is not (bf16)."""
    for s in stmts:
        op = getattr(s, "op", None)
        if isinstance(op, model.Op) and op.literal is not None:
            key, text = constant_spelling(op.literal, dt)
            template = rules["ops"][key]
            s.op = dataclasses.replace(op, template=template, decl=declaration(template), literal=None,
                                       operands=tuple(sorted({**dict(op.operands), "value": text}.items())))
        for attr in ("body", "then", "otherwise"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                _respell_constants(sub, dt, rules)


# ---------------------------------------------------------------------------------------------- dtype split
#
# Arrays share the one element generic ``E`` by default. A read-only array gets its own generic when the
# kernel converts its values straight to an output array's dtype (``ct.astype(x_tile, out.dtype)`` with no
# compute type in between; e.g. f32 split-K partials written out as f16) and nothing else ties the two
# dtypes: its ``E``-typed values never meet another array's ``E`` values in an operation, it is never
# stored to or gathered from, and its ``.dtype`` is not read. The generic is named ``Dt<array>`` (never
# containing ``E``: specs infer a type generic from the first tensor whose type mentions its name).

_WORD = re.compile(r"[A-Za-z_]\w*")
_STORE_KINDS = {"partition_mut": "array", "store_ptr": "array"}


def _walk(stmts):
    for s in stmts:
        yield s
        for attr in ("body", "then", "otherwise"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                yield from _walk(sub)


def _names(s) -> list[str]:
    n = getattr(s, "name", "")
    return _WORD.findall(n) if n.startswith("(") else [n]


def _has_e(t) -> bool:
    return t is not None and bool(_E.search(t.rust()))


def split_dtypes(kernels: list[model.Kernel], front) -> list[model.Kernel]:
    from .ops_cutile import CONVERT_ELEM_KIND  # noqa: PLC0415

    return [_split_one(k, front, CONVERT_ELEM_KIND) for k in kernels]


def _split_one(k: model.Kernel, front, convert_kind: str) -> model.Kernel:
    arrays = [p.name for p in k.params if p.kind == "array" and p.dtype == specialise.ELEMENT_GENERIC]
    if len(arrays) < 2 or not any(getattr(s, "op", None) is not None and s.op.kind == convert_kind
                                  for s in _walk(k.body)):
        return k
    lin: dict[str, frozenset] = {}
    typ: dict[str, object] = {}
    met: set[str] = set()
    stored: set[str] = set()
    gathered: set[str] = set()
    evidence: set[str] = set()
    for s in _walk(k.body):
        op = getattr(s, "op", None)
        if not isinstance(op, model.Op):
            continue
        ops = dict(op.operands)
        words = [w for v in ops.values() for w in _WORD.findall(v)]
        src = frozenset(w for w in words if w in arrays).union(*(lin.get(w, frozenset()) for w in words))
        if op.kind in _STORE_KINDS:
            stored.add(ops[_STORE_KINDS[op.kind]])
        if op.kind == "load_ptr":
            gathered.add(ops["array"])
        if op.kind == convert_kind:
            x = ops["x"]
            if len(lin.get(x, ())) == 1 and ops["to"] != next(iter(lin[x])):
                evidence.add(next(iter(lin[x])))
            src = frozenset()  # a dtype boundary: the result is the output's E
        # E-typed tile operands from different arrays in one operation tie their dtypes
        e_src = [lin.get(w, frozenset()) for w in ops.values() if w in typ and isinstance(typ[w], model.TileT)
                 and typ[w].dtype == specialise.ELEMENT_GENERIC]
        if op.kind != convert_kind and len(frozenset().union(*e_src)) > 1 if e_src else False:
            met.update(frozenset().union(*e_src))
        for n in _names(s):
            lin[n] = lin.get(n, frozenset()) | src if isinstance(s, model.Assign) else src
            if isinstance(s, model.Let) and not s.name.startswith("("):
                typ[n] = s.type
    cands = [a for a in arrays if a in evidence and a not in met | stored | gathered | front.dtype_named_arrays()
             and "E" not in a]
    if not cands:
        return k
    used = {w for s in _walk(k.body) for w in _WORD.findall(getattr(s, "name", ""))} | {g.name for g in k.generics}
    names = {}
    for a in cands:
        g = f"Dt{a}"
        while g in used or any(g in f"&Tensor<{o}" for o in arrays if o != a):
            g += "x"
        names[a] = g
        used.add(g)

    def owner(s) -> str | None:
        ns = _names(s)
        src = lin.get(ns[0], frozenset()) if ns else frozenset()
        return next(iter(src)) if len(src) == 1 and next(iter(src)) in names else None

    # E-typed leaves (constants) feeding an operation owned by a split array belong to it too
    extra: dict[str, str] = {}
    for s in _walk(k.body):
        a = owner(s)
        op = getattr(s, "op", None)
        if a is None or not isinstance(op, model.Op):
            continue
        for v in dict(op.operands).values():
            if v in typ and not lin.get(v) and _has_e(typ[v]):
                extra[v] = a

    def fix(stmts):
        out = []
        for s in stmts:
            for attr in ("body", "then", "otherwise"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    s = dataclasses.replace(s, **{attr: fix(sub)})
            a = owner(s) if not isinstance(s, model.Assign) else None
            a = a or extra.get(getattr(s, "name", ""))
            if a is not None and isinstance(s, model.Let):
                s = dataclasses.replace(s, type=_subst(s.type, names[a]), op=_subst(s.op, names[a]))
            out.append(s)
        return out

    params = [dataclasses.replace(p, dtype=names[p.name]) if p.name in names else p for p in k.params]
    keep_e = any(p.kind == "array" and p.dtype == specialise.ELEMENT_GENERIC for p in params)
    generics = []
    for g in k.generics:
        if g.name == specialise.ELEMENT_GENERIC:
            if keep_e:
                generics.append(dataclasses.replace(g, note="element type of the other arrays"))
            generics += [model.Generic(names[a], "type", "array_dtype", f"element type of {a}") for a in cands]
        else:
            generics.append(g)
    return dataclasses.replace(k, params=params, generics=generics, body=fix(k.body))
