"""Benchmark (not a test): translation time against input size, and the input limits (issue 20).

    .venv/bin/python benchmarks/bench_limits.py

Generates one kernel with N statements and one file with N kernels, times ``translate_source`` in-process,
and shows that inputs past the limits (transpiler/source.py: 256 KiB, 128 kernels, 64 nesting levels) are
refused at once with a coded error instead of running for minutes.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HEAD = "import cuda.tile as ct\nTileSize = ct.Constant[int]\n"
KERNEL = ("\n@ct.kernel\ndef k{i}(x, y, z, TILE: TileSize):\n    pid = ct.bid(0)\n"
          "    a = ct.load(x, index=(pid,), shape=(TILE,))\n    b = ct.load(y, index=(pid,), shape=(TILE,))\n")


def statements(n: int) -> str:
    body = "".join("    a = a + b\n" if i % 2 else "    a = ct.maximum(a, b) * b\n" for i in range(n))
    return HEAD + KERNEL.format(i=0) + body + "    ct.store(z, index=(pid,), tile=a)\n"


def kernels(n: int) -> str:
    return HEAD + "".join(KERNEL.format(i=i) + "    ct.store(z, index=(pid,), tile=a + b)\n" for i in range(n))


def timed(text: str) -> tuple[float, str]:
    from ctrs import errors, translate  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "k.py"
        p.write_text(text)
        t = time.perf_counter()
        try:
            translate.translate_source(p)
            what = "ok"
        except errors.CtrsError as e:
            what = e.code
        return time.perf_counter() - t, what


def main() -> None:
    timed(kernels(1))  # imports, rule tables
    print(f"{'input':28} {'bytes':>9} {'seconds':>8} {'us/byte':>8}  result")
    cases = [(f"{n} statements", statements(n)) for n in (500, 1000, 2000, 4000)]
    cases += [(f"{n} kernels", kernels(n)) for n in (16, 32, 64, 128)]
    cases += [("129 kernels", kernels(129)), ("2,000 kernels", kernels(2000)), ("5 MB of statements", statements(120_000))]
    for label, text in cases:
        secs, what = timed(text)
        print(f"{label:28} {len(text):9d} {secs:8.2f} {secs / len(text) * 1e6:8.1f}  {what}", flush=True)


if __name__ == "__main__":
    main()
