"""Benchmark (not a test): how long a user's core install of ctrs takes.

    .venv/bin/python benchmarks/bench_install.py [--repeat 3] [--extras llm]

Builds the wheel from the checkout (`pip wheel --no-deps`, in a copy of the tree), then, per run, creates a
fresh venv and times `pip install <wheel>[extras]` from PyPI (pip's HTTP cache as it is on this machine),
then `ctrs translate` of the vector_add fixture with the installed command. Prints each time and the median.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(cmd: list, **kw) -> float:
    t = time.perf_counter()
    subprocess.run([str(c) for c in cmd], check=True, capture_output=True, **kw)
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--extras", default="", help="e.g. llm (the core alone by default)")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ctrs-bench-install-"))
    try:
        files = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                               capture_output=True, text=True).stdout.split("\0")
        for rel in filter(None, files):
            if (ROOT / rel).is_file():
                (tmp / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / rel, tmp / "src" / rel)
        build = run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp / "dist", tmp / "src"])
        (wheel,) = (tmp / "dist").glob("ctrs-*.whl")
        print(f"wheel: {wheel.name} ({wheel.stat().st_size / 1024:.0f} KiB), built in {build:.1f} s")
        spec = f"{wheel}[{a.extras}]" if a.extras else str(wheel)
        installs, translates = [], []
        for i in range(a.repeat):
            venv = tmp / f"venv{i}"
            run([sys.executable, "-m", "venv", venv])
            installs.append(run([venv / "bin" / "python", "-m", "pip", "install", "-q", spec]))
            translates.append(run([venv / "bin" / "ctrs", "translate", ROOT / "fixtures" / "vector_add" / "kernel.py",
                                   "-o", tmp / f"out{i}"]))
            print(f"run {i + 1}: pip install {wheel.name}{'[' + a.extras + ']' if a.extras else ''}: "
                  f"{installs[-1]:.1f} s; ctrs translate: {translates[-1]:.2f} s")
        print(f"median: install {statistics.median(installs):.1f} s, translate {statistics.median(translates):.2f} s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
