"""Benchmark (not a test): the ctrs-regen pre-commit hook when every port is up to date.

    .venv/bin/python benchmarks/bench_regen_hook.py [--repeat 20] [--kernels 5]

Builds a temporary git repository with a ctrs.toml, N copies of the vector_add fixture kernel and their
up-to-date ports (committed), stages a change to a non-kernel file, then times
  * the hook entry itself, `ctrs regen --hook` (what pre-commit execs; it checks every port of the
    manifest, whatever is staged; one process each run),
  * the whole `pre-commit run ctrs-regen` (pre-commit's own start-up included),
and prints the median and the worst of each. The target for the entry is well under 1 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CTRS = BIN / "ctrs"
MANIFEST = '[[port]]\nsource = "kernels/*.py"\noutput = "ports/{stem}"\nspecs = "kernels/{stem}.specs.json"\n'


def sh(cmd: list, cwd: Path, env: dict, ok=(0,)) -> float:
    t = time.perf_counter()
    r = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t
    if r.returncode not in ok:
        sys.exit(f"failed: {cmd}\n{r.stdout}{r.stderr}")
    return dt


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--kernels", type=int, default=5)
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ctrs-bench-regen-"))
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
        env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b",
                   GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@b", PRE_COMMIT_HOME=str(tmp / "pc-home"))
        repo = tmp / "repo"
        (repo / "kernels").mkdir(parents=True)
        for i in range(a.kernels):
            shutil.copy(ROOT / "fixtures" / "vector_add" / "kernel.py", repo / "kernels" / f"vadd{i}.py")
        (repo / "ctrs.toml").write_text(MANIFEST)
        (repo / "README.txt").write_text("x\n")
        (repo / ".pre-commit-config.yaml").write_text(
            "repos:\n- repo: local\n  hooks:\n  - id: ctrs-regen\n    name: ctrs regen\n"
            f"    entry: {CTRS} regen --hook\n    language: system\n    always_run: true\n    pass_filenames: false\n"
            "    require_serial: true\n")
        sh(["git", "init", "-q", "-b", "main"], repo, env)
        sh([CTRS, "regen"], repo, env)
        sh(["git", "add", "-A"], repo, env)
        sh(["git", "commit", "-q", "-m", "init"], repo, env)
        (repo / "README.txt").write_text("y\n")
        sh(["git", "add", "README.txt"], repo, env)
        sh([BIN / "pre-commit", "run", "ctrs-regen"], repo, env)  # warm pre-commit's own store once
        entry = [sh([CTRS, "regen", "--hook"], repo, env) for _ in range(a.repeat)]
        full = [sh([BIN / "pre-commit", "run", "ctrs-regen"], repo, env) for _ in range(max(3, a.repeat // 4))]
        print(f"ctrs-regen hook, every port fresh ({a.kernels} kernels + ports in the repo):")
        print(f"  entry `ctrs regen --hook`: median {statistics.median(entry) * 1000:.0f} ms, "
              f"max {max(entry) * 1000:.0f} ms over {len(entry)} runs")
        print(f"  `pre-commit run ctrs-regen` (incl. pre-commit start-up): median {statistics.median(full) * 1000:.0f} ms, "
              f"max {max(full) * 1000:.0f} ms over {len(full)} runs")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
