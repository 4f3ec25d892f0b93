"""The host side of a Triton file: analysis.json's sites (:func:`mine_sites`: autotune configs and specialisations,
each kernel's entry and launch map) and, for a typed port, each kernel's entry in ``kernels`` (the port's
parameters, constexpr flags) and its launch map (``triton``: how each Triton parameter is fed from a spec), read
from the typed lowering's facts (:func:`typed_map`): ``array`` / ``descriptor`` / ``shape`` (a mask bound or block
extent: the array axis it names) / ``stride`` / ``constexpr`` (``port`` "scalar" for a float constexpr) / ``scalar``."""

from __future__ import annotations

import libcst as cst

from pathlib import Path

from ... import errors
from ..cutile.values import PoisonUse
from .imports import resolve
from .dtype_params import tied_array
from .source import helper_names, launch_flags, literal, load


def typed_map(tf, fn: cst.FunctionDef, on_unsupported=None):
    """(kernels entry, launch map) of ``fn`` from its typed lowering (every structural entry's facts); None when
    that lowering fails too."""
    from . import lower_entries  # noqa: PLC0415 - the package registers the call handlers first

    try:
        # flat arrays (gathers.py) found as lower_file finds them
        _ks, blockers, made = lower_entries(tf, fn, on_unsupported)
    except (errors.CtrsError, PoisonUse):
        return None
    if blockers:
        return None
    facts = {key: {} for key in ("extents", "strides", "float_consts", "ties")}
    for lw in made:
        for key, d in facts.items():
            for k, v in getattr(lw, key).items():
                d.setdefault(k, v) if key != "ties" else d.setdefault(k, []).extend(x for x in v if x not in d[k])
    consts = {p.name.value for p in fn.params.params
              if p.annotation and tf.dotted(p.annotation.annotation) == "tl.constexpr"}
    lw = made[-1]
    entry, params = [], []
    for p in fn.params.params:
        name = p.name.value
        if name in facts["extents"]:
            arr, axis, _block = facts["extents"][name]
            params.append({"name": name, "kind": "shape", "array": arr, "dim": axis})
            continue
        if name in facts["strides"]:
            arr, axis = facts["strides"][name]
            params.append({"name": name, "kind": "stride", "array": arr, "dim": axis})
            continue
        if name in lw.dtype_consts:  # a dtype constexpr: the element type of the array it is tied to (dtype_params.py)
            params.append({"name": name, "kind": "dtype", "array": tied_array(lw, name), "const": name})
            continue
        entry.append([name, name in consts])
        if name in consts:
            params.append({"name": name, "kind": "constexpr", "const": name,
                           **({"port": "scalar"} if name in facts["float_consts"] else {})})
        elif name in lw.descs:
            params.append({"name": name, "kind": "descriptor", "array": name, "block": list(lw.descs[name] or ())})
        elif name in lw.arrays:
            params.append({"name": name, "kind": "array", "array": name})
        else:
            params.append({"name": name, "kind": "scalar", "arg": name})
    ties = [[b, kind, axes] for (b, kind), axes in sorted(facts["ties"].items())]
    return entry, {"kernel": fn.name.value, "params": params, "grid": "spec",
                   **launch_flags(tf, fn), "ties": ties}


def mine_sites(path: Path, kernel_map) -> dict:
    """analysis.json sites of a Triton file: @triton.autotune configs (constants + num_warps/num_stages), and each
    kernel's (kernels entry, launch map) from ``kernel_map(tf, fn)`` (:func:`typed_map` for a typed port; None: the
    kernel is not in the port). Helpers (inlined into their callers, inline.py) are not kernels of the port."""
    tf = load(path)
    resolve(tf)  # helpers imported from other modules of the package (imports.py), as lower_file
    configs, specs, kernels, maps = [], [], {}, {}
    helpers = helper_names(tf)
    for fn in (f for f in tf.kernels if f.name.value not in helpers):
        kname = fn.name.value
        consts = [p.name.value for p in fn.params.params
                  if p.annotation and tf.dotted(p.annotation.annotation) == "tl.constexpr"]
        got = kernel_map(tf, fn)
        if got is not None:
            kernels[kname], maps[kname] = got
        for d in fn.decorators:
            dd = d.decorator
            if not (isinstance(dd, cst.Call) and tf.dotted(dd.func) == "triton.autotune"):
                continue
            args = {a.keyword.value: a.value for a in dd.args if a.keyword}
            items, hints = [], []
            cfgs = args.get("configs")
            for el in (cfgs.elements if isinstance(cfgs, (cst.List, cst.Tuple)) else []):
                c = el.value
                if not (isinstance(c, cst.Call) and tf.dotted(c.func) == "triton.Config" and c.args):
                    continue
                kw = literal(c.args[0].value)
                if not isinstance(kw, dict):
                    continue
                items.append(kw)
                hints.append({a.keyword.value: literal(a.value) for a in c.args[1:] if a.keyword})
            key = literal(args["key"]) if "key" in args else []
            line = tf.line(d)
            configs.append({"name": f"{kname}.autotune", "line": line, "items": items, "hints": hints,
                            "key": key})
            for i, item in enumerate(items):
                cs = {k: v for k, v in item.items() if k in consts}
                missing = [c for c in consts if c not in cs]
                specs.append({"kernel": kname, "origin": f"autotune:{kname}[{i}]", "line": line, "constants": cs,
                              "complete": not missing, "missing": missing, "grid": "",
                              "name": "site_" + "_".join(f"{k}{v}" for k, v in sorted(cs.items())),
                              "hints": hints[i]})
    return {"launches": [], "configs": configs, "specialisations": specs, "kernels": kernels, "triton": maps}


def typed_sites(path: Path, refused=frozenset(), on_unsupported=None) -> dict:
    """The sites of a typed port: each kernel's map from its typed lowering (with the LLM fallback's hook when the
    port has answers), none for a ``refused`` kernel."""
    return mine_sites(path, lambda tf, fn: None if fn.name.value in refused else typed_map(tf, fn, on_unsupported))
