"""Survey (not a test): `ctrs specs` on TileGym's cuTile operators, then the reference IR of every spec.

    pip download --no-deps tilegym==1.5.1 -d /tmp/tg && (cd /tmp/tg && python3 -m zipfile -e tilegym-1.5.1-py3-none-any.whl x)
    .venv/bin/python benchmarks/bench_tilegym_specs.py /tmp/tg/x/tilegym/ops/cutile

TileGym is read where it was unpacked, never copied here. Each row: the host function call (our own
expressions, CPU torch tensors), how many specs `ctrs specs` captured, how many of them cuTile Python
compiles as the reference (`ctrs ir-ref`, the kernel file's host imports not needed), seconds, and the
first error line when it failed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
F16 = "dtype=torch.float16"
BF16 = "dtype=torch.bfloat16"
CALLS = [
    ("softmax.py", f"softmax(torch.randn(1000, 512, {F16}))"),
    ("softmax.py", "softmax(torch.randn(64, 5000))"),
    ("matmul.py", f"matmul(torch.randn(512, 256, {F16}), torch.randn(256, 384, {F16}))"),
    ("matmul.py", f"matmul(torch.randn(512, 256, {F16}), torch.randn(256, 384, {F16}), static_persistent=True)"),
    ("bmm.py", f"bmm(torch.randn(4, 256, 128, {F16}), torch.randn(4, 128, 192, {F16}))"),
    ("bmm.py", f"bmm(torch.randn(1, 256, 128, {F16}), torch.randn(1, 128, 192, {F16}))"),
    ("silu_and_mul.py", f"silu_and_mul(torch.randn(64, 2048, {F16}))"),
    ("rms_norm.py", f"rms_norm(torch.randn(64, 1024, {F16}), (1024,), torch.randn(1024, {F16}), 1e-6)"),
    ("layer_norm_legacy.py", f"persistent_layer_norm(torch.randn(300, 768, {BF16}), (768,), "
                             f"torch.randn(768, {BF16}), torch.randn(768, {BF16}), 1e-5)"),
    ("rope.py", f"apply_rope_base(torch.randn(2, 8, 128, 64, {F16}), torch.randn(2, 8, 128, 64, {F16}), "
                f"torch.randn(2, 128, 64, {F16}), torch.randn(2, 128, 64, {F16}))"),
    ("dropout.py", "dropout(torch.randn(4096), 42, 0.5)"),
    ("transpose.py", f"transpose(torch.randn(256, 384, {F16}), torch.empty(384, 256, {F16}))"),
    ("splitk_reduce.py", f"splitk_reduce(torch.randn(2, 8, 4, 64), torch.randn(2, 8, 4), "
                         f"torch.empty(2, 8, 64, {F16}), 1024)"),
    ("activation/relu.py", f"relu(torch.randn(4096, {F16}))"),
    ("activation/gelu.py", f"gelu(torch.randn(64, 1024, {F16}))"),
    ("activation/geglu.py", f"geglu(torch.randn(64, 2048, {F16}))"),
    ("attention.py", f"tile_fmha(torch.randn(1, 8, 256, 64, {F16}), torch.randn(1, 8, 256, 64, {F16}), "
                     f"torch.randn(1, 8, 256, 64, {F16}))"),
    ("flash_decode.py", f"fmha_decode(torch.randn(2, 8, 1, 64, {F16}), torch.randn(2, 8, 512, 64, {F16}), "
                        f"torch.randn(2, 8, 512, 64, {F16}), 0.125, 128)"),
    ("mla.py", f"tile_mla(torch.randn(1, 8, 256, 128, {F16}), torch.randn(1, 8, 256, 128, {F16}), "
               f"torch.randn(1, 8, 256, 128, {F16}), torch.randn(1, 8, 256, 64, {F16}), "
               f"torch.randn(1, 1, 256, 64, {F16}), True, 0.1)"),
    ("moe_align_block.py", "moe_align_block_size(torch.randint(0, 8, (64, 2), dtype=torch.int32), 16, 8)"),
    ("group_gemm.py", f"group_gemm([torch.randn(128, 64, {F16})], [torch.randn(64, 128, {F16})])"),
    ("swiglu.py", "get_swiglu()"),
]


def _ctrs(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ctrs.workflow.cli", *args], capture_output=True, text=True, timeout=600)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ops", type=Path, help="TileGym's tilegym/ops/cutile directory (unpacked wheel)")
    a = ap.parse_args()
    print("| file | call | specs | reference IRs | s | first error |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for i, (f, call) in enumerate(CALLS):
            out = Path(tmp) / f"s{i}.json"
            t0 = time.perf_counter()
            res = _ctrs("specs", str(a.ops / f), "--call", call, "-o", str(out))
            n = refs = 0
            err = next((x for x in res.stderr.splitlines() if "error[" in x), "")
            if res.returncode == 0:
                n = int(res.stdout.split(": ", 1)[1].split()[0])
                ref = _ctrs("ir-ref", str(a.ops / f), "--spec", str(out), "-o", str(Path(tmp) / f"ir{i}"))
                refs = ref.stdout.count("bytes of bytecode")
                err = next((x for x in ref.stderr.splitlines() if "error[" in x), "")
            err = err.split("error[", 1)[-1][:120] if err else ""
            print(f"| {f} | `{call[:48]}` | {n} | {refs} | {time.perf_counter() - t0:.1f} | {err} |", flush=True)


if __name__ == "__main__":
    main()
