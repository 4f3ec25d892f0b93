"""The H200 TileGym benchmark's report step (benchmarks/h200_tilegym.py) on a recorded host report."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import h200_tilegym  # noqa: E402


def _report() -> dict:
    def check(port, spec, ok=True, bitwise=True):
        return {"port": port, "spec": spec, "ok": ok, "bitwise": bitwise, "max_abs_err": 0.0, "detail": ""}

    def timing(port, spec, ref, mine):
        return {"port": port, "spec": spec, "ref_median_us": ref, "port_median_us": mine, "ratio": ref / mine}

    return {"device": "NVIDIA H200",
            "checks": [check("_ctrs_softmax__softmax_kernel", "sm_a"), check("_ctrs_softmax__softmax_kernel", "sm_a@3x5"),
                       check("_ctrs_softmax__softmax_kernel", "sm_a@1x1", ok=False),
                       check("_ctrs_matmul__matmul_kernel", "mm_a", bitwise=False)],
            "timings": [timing("_ctrs_softmax__softmax_kernel", "sm_a", 10.0, 8.0),
                        timing("_ctrs_matmul__matmul_kernel", "mm_a", 100.0, 125.0)],
            "overhead_us": {"_ctrs_matmul__matmul_kernel": {"ct.launch": 15.0, "port wrapper": 12.5, "calls": 1000}}}


def test_rows_and_summary_line():
    rows = h200_tilegym.rows_of(_report())
    assert [(r["operator"], r["kernel"], r["config"], r["numerics"], r["fuzz"]) for r in rows] == [
        ("matmul", "matmul_kernel", "mm_a", "pass", "0/0"),
        ("softmax", "softmax_kernel", "sm_a", "pass (bitwise)", "1/2")]
    assert rows[0]["launch_port_us"] == 12.5 and rows[1]["launch_port_us"] is None
    # geomean of 1.25 and 0.8 is 1.0; the worst operator is matmul at 0.8
    assert h200_tilegym.summary(rows) == "geomean 1.000 over 2 configs of 2 operators, min 0.800 (matmul)"


def test_report_files(tmp_path):
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "gpu_report.json").write_text(json.dumps(_report()))
    assert h200_tilegym.main(["report", str(tmp_path / "host"), "--out", str(tmp_path / "out")]) == 0
    md = (tmp_path / "out" / "h200-tilegym-1.5.1.md").read_text()
    assert md.splitlines()[2] == "geomean 1.000 over 2 configs of 2 operators, min 0.800 (matmul)"
    assert "| softmax | softmax_kernel | sm_a | pass (bitwise) | 1/2 | 10.00 | 8.00 | 1.250 | - | - |" in md
    data = json.loads((tmp_path / "out" / "h200-tilegym-1.5.1.json").read_text())
    assert data["summary"].startswith("geomean 1.000") and len(data["rows"]) == 2
    assert (tmp_path / "out" / "h200-tilegym-1.5.1.png").stat().st_size > 1000
