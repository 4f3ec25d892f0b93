"""Benchmark (not a test): cold build of the KernelCompiler harness, per cutile target profile.

    .venv/bin/python benchmarks/bench_harness_cold.py [--cutile 0.5.0 0.3.1] [--fixture bmm]

For each version: a fresh CTRS_CACHE (so cargo compiles cutile and every dependency from scratch; the
crates.io download cache in ~/.cargo is kept), then one `ctrs ir-rs --cutile V` of a fixture port that
compiles under every profile. Prints wall time, CPU time (user + sys of cargo, rustc and the harness)
and the load average before and after, since on a shared machine wall time depends on the neighbours.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CTRS = [sys.executable, "-m", "ctrs.workflow.cli"]


def cold(version: str, fixture: str) -> dict:
    fx = ROOT / "fixtures" / fixture
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, CTRS_CACHE=cache)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        load0 = os.getloadavg()[0]
        t = time.perf_counter()
        res = subprocess.run([*CTRS, "ir-rs", str(fx / "port.rs"), "--spec", str(fx / "specs.json"),
                              "--cutile", version, "-o", str(Path(cache) / "out")],
                             cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if res.returncode != 0:
            sys.exit(f"ir-rs --cutile {version} failed:\n{res.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"version": version, "wall": wall, "cpu": cpu, "load": (load0, os.getloadavg()[0])}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cutile", nargs="+", default=["0.5.0", "0.3.1"])
    ap.add_argument("--fixture", default="bmm")
    a = ap.parse_args()
    print(f"cold harness build + ir-rs of fixtures/{a.fixture} ({os.cpu_count()} cores)")
    for v in a.cutile:
        r = cold(v, a.fixture)
        print(f"cutile {v}: wall {r['wall']:.0f} s, cpu {r['cpu']:.0f} s, "
              f"load average {r['load'][0]:.1f} -> {r['load'][1]:.1f}", flush=True)


if __name__ == "__main__":
    main()
