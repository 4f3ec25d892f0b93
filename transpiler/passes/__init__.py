"""IR -> IR passes, one file each; :func:`run_pipeline` runs them in order and verifies after each.

Order (docs/ir.md): constfold, specialise (dtype-choice split, flag entries where an fma crosses a constant if, element entries), constfold, padfold (a select-padded rank-1 gather of a now concrete dtype padded again), fma, hoist,
tokens, loopsplit (after hoisting and token order, as the reference), dce, memtokens (straight-line token order of
an array's loads and stores, after dce as the reference's joins are made of its live accesses), assume (the facts the port states), unitdims (a const generic flag per size-1-able extent a raw array's body reads). ``stages`` receives (stage name, kernels) after each step, for ``ctrs translate --emit model:STAGE``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..ir import Kernel, verify
from . import assume, constfold, dce, fma, hoist, loopsplit, memtokens, padfold, specialise, tokens, unitdims

STAGES = ("frontend", "constfold", "specialise", "padfold", "fma", "hoist", "tokens", "loopsplit", "dce", "memtokens", "assume",
          "unitdims", "final")


def run_pipeline(kernel: Kernel, element_dtypes: list[str],
                 stages: Callable[[str, list[Kernel]], None] | None = None, ints: dict | None = None) -> list[Kernel]:
    """The entries (specialised kernels) of one front-end kernel, every stage verified; ``ints``: the integer
    element entries' rules (specialise.element_entries; None: float entries only)."""
    def stage(name: str, ks: list[Kernel]) -> list[Kernel]:
        for k in ks:
            verify(k)
        if stages is not None:
            stages(name, ks)
        return ks

    ks = stage("frontend", [kernel])
    ks = stage("constfold", [constfold.run(k) for k in ks])
    ks = [specialise.split_choices(k) for k in ks]
    ks = [e for k in ks for e in specialise.split_flags(k)]
    for k in ks:
        specialise.refuse_crossed_exprs(k)
    ks = [e for k in ks for e in specialise.element_entries(k, element_dtypes, ints)]
    ks = stage("specialise", [constfold.run(k) for k in ks])
    ks = stage("padfold", [padfold.run(k) for k in ks])
    ks = stage("fma", [fma.run(k) for k in ks])
    ks = stage("hoist", [hoist.run(k) for k in ks])
    ks = stage("tokens", [tokens.run(k) for k in ks])
    ks = stage("loopsplit", [loopsplit.run(k) for k in ks])
    ks = stage("dce", [dce.run(k) for k in ks])
    ks = stage("memtokens", [memtokens.run(k) for k in ks])
    ks = stage("assume", [assume.run(k) for k in ks])
    ks = stage("unitdims", [unitdims.run(k) for k in ks])
    return stage("final", ks)
