"""Benchmark (not a test): time of ir-ref + ir-rs + diff-ir for one kernel, warm and cold cargo cache.

    .venv/bin/python benchmarks/bench_backbone.py [--fixture matmul] [--cold]

Warm: the shared cargo target dir and the harness binary cache already hold this kernel (the usual
case after the first run). Cold: a fresh CTRS_CACHE, so cutile and every dependency compile from
scratch (the crates.io download cache in ~/.cargo is kept). Each step runs as a separate `ctrs`
process, exactly as a user would call it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CTRS = [sys.executable, "-m", "ctrs.workflow.cli"]


def run(args: list[str], env: dict) -> float:
    t = time.perf_counter()
    res = subprocess.run([*CTRS, *args], cwd=ROOT, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t
    if res.returncode not in (0,):
        sys.exit(f"step failed: {' '.join(args)}\n{res.stdout}{res.stderr}")
    return dt


def pipeline(fixture: str, spec: str, out: Path, env: dict) -> dict[str, float]:
    fx = ROOT / "fixtures" / fixture
    times = {
        "ir-ref": run(["ir-ref", str(fx / "kernel.py"), "--spec", str(fx / "specs.json"), "-o", str(out)], env),
        "ir-rs": run(["ir-rs", str(fx / "port.rs"), "--spec", str(fx / "specs.json"), "-o", str(out)], env),
        "diff-ir": run(["diff-ir", str(out / f"{spec}.ref.tileirbc"), str(out / f"{spec}.rs.tileirbc")], env),
    }
    times["total"] = sum(times.values())
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixture", default="matmul")
    ap.add_argument("--cold", action="store_true", help="also measure a cold cargo build (minutes)")
    a = ap.parse_args()
    from ctrs.spec import load_specs  # noqa: PLC0415

    spec = load_specs(str(ROOT / "fixtures" / a.fixture / "specs.json"))[0].name
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as d:
        pipeline(a.fixture, spec, Path(d), env)  # make sure the cache is warm
        warm = pipeline(a.fixture, spec, Path(d), env)
    print(f"warm  ({a.fixture}, all specs): " + "  ".join(f"{k} {v:.2f}s" for k, v in warm.items()))
    if a.cold:
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as d:
            cold = pipeline(a.fixture, spec, Path(d), dict(env, CTRS_CACHE=cache))
        print(f"cold  ({a.fixture}, fresh cargo target): " + "  ".join(f"{k} {v:.2f}s" for k, v in cold.items()))


if __name__ == "__main__":
    main()
