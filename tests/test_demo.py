"""The quick-start demo (scripts/demo.sh) does the main job on its bundled kernel: translate -> check -> cubins."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "fused_rms_norm"


def test_demo_translates_proves_and_assembles_the_bundled_kernel(tmp_path):
    out = tmp_path / "demo"
    res = subprocess.run([str(ROOT / "scripts" / "demo.sh"), str(out)], capture_output=True, text=True, timeout=1800)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    text = res.stdout
    # 1. translate: the generated kernel.rs and the specialisation decisions, in brief
    assert (out / "port" / "kernel.rs").is_file()
    assert f"wrote {out / 'port' / 'kernel.rs'}" in text
    assert "generic: E: ElementType <- dtype of every array parameter" in text
    assert re.search(r"line 20: fused_add_rms_norm: branch: if HAS_RESIDUAL == 1i32 -> const-generic if", text)
    # 2. check: one EQUIVALENT row per spec of the fixture, nothing else
    specs = ["f16_4096x1000_residual", "bf16_2048x4096_plain", "f32_512x300_residual"]
    for s in specs:
        assert re.search(rf"^fused_add_rms_norm\s+{s}\s+EQUIVALENT\s+\d+/\d+", text, re.M), text
    assert "ctrs check: 3 rows, 3 equivalent, 0 critical, 0 other" in text
    # 3. sm_90 cubins of both sides, non-empty ELF files
    for s in specs:
        for side in ("ref", "rs"):
            cubin = out / "ir" / f"{s}.{side}.sm_90.cubin"
            assert cubin.read_bytes()[:4] == b"\x7fELF", cubin
