"""The quick-start demo (scripts/demo.sh) does the main job on its bundled kernel: translate -> check -> cubins."""

from __future__ import annotations

import re
import subprocess
import sys
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
    assert re.search(r"line 20: fused_add_rms_norm: branch: if HAS_RESIDUAL -> const-generic if HAS_RESIDUAL == 1", text)
    # 2. check: one EQUIVALENT row per spec of the fixture, nothing else
    specs = ["f16_4096x1000_residual", "bf16_2048x4096_plain", "f32_512x300_residual"]
    for s in specs:
        assert re.search(rf"^fused_add_rms_norm\s+{s}\s+EQUIVALENT\s+\d+/\d+", text, re.M), text
    assert "ctrs check: 3 rows, 3 equivalent, 0 critical, 0 warnings, 0 unproven" in text
    # 3. sm_90 cubins of both sides, non-empty ELF files
    for s in specs:
        for side in ("ref", "rs"):
            cubin = out / "ir" / f"{s}.{side}.sm_90.cubin"
            assert cubin.read_bytes()[:4] == b"\x7fELF", cubin


def test_readme_before_after_is_what_the_translator_generates():
    """README's opening example == scripts/readme_example.py's block (kernel.py + the kernel.rs made today)."""
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "readme_example.py")], capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr
    readme = (ROOT / "README.md").read_text()
    assert "pub fn fused_add_rms_norm<E: ElementType, const TILE: i32, const HAS_RESIDUAL: i32>(" in readme
    assert (FIXTURE / "kernel.py").read_text().split("import cuda.tile as ct", 1)[1].rstrip() in readme


def test_readme_example_check_fails_on_drift(tmp_path, monkeypatch):
    """The drift check is not vacuous: a stale README block is reported with exit 1 and a diff."""
    import importlib.util  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location("readme_example", ROOT / "scripts" / "readme_example.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    stale = tmp_path / "README.md"
    stale.write_text((ROOT / "README.md").read_text().replace("const HAS_RESIDUAL: i32>(", "const HAS_RESIDUAL: i64>("))
    monkeypatch.setattr(mod, "README", stale)
    assert mod.main([]) == 1
    assert mod.main(["--write"]) == 0 and mod.main([]) == 0
    assert stale.read_text() == (ROOT / "README.md").read_text()
