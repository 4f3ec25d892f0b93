"""Give the committed specs of TileGym's MoE-align scatter stage consistent inputs (not a test; no torch needed).

    .venv/bin/python benchmarks/moe_align_inputs.py [--check]

``_moe_align_block_size_stage4b_scatter_kernel`` reads what the three stages before it computed from ``topk_ids``:
``tokens_cnts`` (row ``r`` of ``(programs + 1) x experts``: how many tokens of each expert the programs before ``r``
hold, stages 1-2) and ``cumsum`` (each expert's first slot, every expert's count padded up to ``BLOCK_SIZE``, stage
3). With random data (the GPU run's default) those disagree: programs scatter into the same slots and stamp the same
blocks, the stores race, and port and reference differ although both are right (H200 run of 2026-12-03). So this
script computes the three arrays the way TileGym's host code launches the stages (``_moe_align_block_size``: program
``b`` owns tokens ``[b * TOKENS_PER_THREAD, (b + 1) * TOKENS_PER_THREAD)``) from a seeded draw of expert ids in
``[0, NUM_EXPERTS)``, and writes them as the spec's ``"values"`` (spec.py: the array's memory, element by element).
The other arguments (the outputs) stay random; both sides start from the same data. ``--check`` exits 1 if the
committed file differs from what this writes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

SPECS = Path(__file__).resolve().parent / "corpus" / "tilegym-1.5.1" / "cutile" / "moe_align_block.json"
KERNEL = "_moe_align_block_size_stage4b_scatter_kernel"


def inputs(numel: int, experts: int, block: int, per_program: int, programs: int, seed: int) -> dict[str, list[int]]:
    rng = random.Random(seed)
    topk = [rng.randrange(experts) for _ in range(numel)]
    rows = [[0] * experts]  # tokens_cnts row r: the tokens of each expert in programs 0 .. r-1
    for b in range(programs):
        row = list(rows[-1])
        for t in range(b * per_program, min((b + 1) * per_program, numel)):
            row[topk[t]] += 1
        rows.append(row)
    cumsum = [0]
    for e in range(experts):
        cumsum.append(cumsum[-1] + (rows[-1][e] + block - 1) // block * block)
    return {"topk_ids": topk, "tokens_cnts": [c for r in rows for c in r], "cumsum": cumsum}


def rewritten(specs: list[dict]) -> list[dict]:
    out = []
    for i, s in enumerate(specs):
        s = json.loads(json.dumps(s))
        if s["kernel"] == KERNEL:
            a = s["args"]
            programs = int(s["grid"][0])
            data = inputs(a["NUMEL"], a["NUM_EXPERTS"], a["BLOCK_SIZE"], a["TOKENS_PER_THREAD"], programs, seed=i)
            for name, values in data.items():
                extent = 1 + sum((d - 1) * st for d, st in zip(a[name]["shape"], a[name]["strides"]))
                if extent != len(values):
                    raise SystemExit(f"{s['name']}: {name} holds {extent} elements, the stages write {len(values)}")
                a[name]["values"] = values
        out.append(s)
    return out


def dumps(specs: list[dict]) -> str:
    """The file's layout (indent 1, sorted keys) with each ``values`` list on one line."""
    lists: list[str] = []

    def hide(o):
        if isinstance(o, dict):
            return {k: (f"@values{len(lists)}@", lists.append(json.dumps(v)))[0] if k == "values" and isinstance(v, list)
                    else hide(v) for k, v in o.items()}
        return [hide(x) for x in o] if isinstance(o, list) else o

    text = json.dumps(hide(specs), indent=1, sort_keys=True) + "\n"
    for i, v in enumerate(lists):
        text = text.replace(f'"@values{i}@"', v, 1)
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the committed specs differ")
    a = ap.parse_args(argv)
    old = json.loads(SPECS.read_text())
    text = dumps(rewritten(old))
    if a.check:
        return 0 if SPECS.read_text() == text else 1
    SPECS.write_text(text)
    print(f"{SPECS.name}: {sum(s['kernel'] == KERNEL for s in old)} {KERNEL} specs with consistent inputs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
