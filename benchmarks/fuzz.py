"""Fuzz benchmark (issue 20): >= 10,000 mutated inputs through ctrs translate, spec loading and diff-ir,
in-process (tests/fuzzing.py), and the counts that must stay at zero: crashes, partial writes, timeouts.

    .venv/bin/python benchmarks/fuzz.py [--cases 10000] [--seed 20] [--mix translate=4,spec=3,diff=3]

Case i of a kind uses random.Random(f"{seed}:{kind}:{i}"): a reported case replays with --replay KIND:I.
Exit status 1 if any defect was found.
"""

from __future__ import annotations

import argparse
import collections
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import fuzzing  # noqa: E402

DEFECTS = ("crash", "partial", "timeout")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--mix", default="translate=4,spec=3,diff=3", help="relative share of each kind")
    ap.add_argument("--replay", help="KIND:I: run one case and print its outcome")
    args = ap.parse_args(argv)
    if args.replay:
        kind, i = args.replay.split(":")
        print(fuzzing.run_case(kind, random.Random(f"{args.seed}:{kind}:{i}")))
        return 0
    mix = {k: int(v) for k, v in (p.split("=") for p in args.mix.split(","))}
    total = sum(mix.values())
    plan = {k: args.cases * v // total for k, v in mix.items()}
    plan[next(iter(plan))] += args.cases - sum(plan.values())
    counts: dict[str, collections.Counter] = {k: collections.Counter() for k in plan}
    codes: dict[str, collections.Counter] = {k: collections.Counter() for k in plan}
    slowest: dict[str, tuple[float, str]] = {}
    t0 = time.monotonic()
    for kind, n in plan.items():
        work = Path(tempfile.mkdtemp(prefix=f"ctrs-fuzz-{kind}-"))
        t = time.monotonic()
        for i in range(n):
            out = fuzzing.run_case(kind, random.Random(f"{args.seed}:{kind}:{i}"), work, f"c{i}")
            counts[kind][out.kind] += 1
            if out.kind == "error":
                codes[kind][out.detail] += 1
            if out.seconds > slowest.get(kind, (0.0, ""))[0]:
                slowest[kind] = (out.seconds, f"{kind}:{i}")
            if out.kind in DEFECTS:
                print(f"{out.kind}: {kind}:{i} {out.case}: {out.detail[:300]}", flush=True)
            if i % 1000 == 999:
                shutil.rmtree(work, ignore_errors=True)
                work.mkdir()
                print(f"  {kind}: {i + 1}/{n} ({time.monotonic() - t:.0f} s)", file=sys.stderr, flush=True)
        shutil.rmtree(work, ignore_errors=True)
        print(f"{kind:9} {n:6d} cases {time.monotonic() - t:7.1f} s  ok {counts[kind]['ok']:5d}  "
              f"coded errors {counts[kind]['error']:5d}  slowest {slowest.get(kind, (0, '-'))[0]:.2f} s "
              f"({slowest.get(kind, (0, '-'))[1]})", flush=True)
        print("          " + "  ".join(f"{c} {v}" for c, v in sorted(codes[kind].items())), flush=True)
    n_all = sum(sum(c.values()) for c in counts.values())
    defects = {d: sum(c[d] for c in counts.values()) for d in DEFECTS}
    print(f"total {n_all} cases in {time.monotonic() - t0:.0f} s: crashes {defects['crash']}, "
          f"partial writes {defects['partial']}, timeouts {defects['timeout']} (limit {fuzzing.LIMIT_S} s per case)")
    return 1 if any(defects.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
