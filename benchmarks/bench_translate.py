"""Benchmark (not a test): `ctrs translate` time per kernel file (front end + specialise + all emitters).

    .venv/bin/python benchmarks/bench_translate.py [--reps 5]

Prints, per fixture, the median in-process time of translate_source (no cargo, no IR) and the wall
time of one `ctrs translate` process (interpreter start and imports included).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    from ctrs import translate  # noqa: PLC0415

    kernels = [k for k in sorted(ROOT.glob("fixtures/*/kernel.py")) if k.parent.name != "triton_unsupported"]
    rows = []
    for k in kernels:
        translate.translate_source(k)  # warm imports and caches
        times = []
        for _ in range(a.reps):
            t = time.perf_counter()
            translate.translate_source(k)
            times.append(time.perf_counter() - t)
        with tempfile.TemporaryDirectory() as d:
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "ctrs.workflow.cli", "translate", str(k), "-o", d], cwd=ROOT,
                           check=True, capture_output=True)
            wall = time.perf_counter() - t
        rows.append((k.parent.name, statistics.median(times), wall))
    print(f"{'fixture':24} {'in-process':>11} {'process':>9}")
    for name, med, wall in rows:
        print(f"{name:24} {med * 1e3:9.1f}ms {wall:8.2f}s")
    print(f"max in-process {max(r[1] for r in rows) * 1e3:.1f} ms, max process {max(r[2] for r in rows):.2f} s")


if __name__ == "__main__":
    main()
