"""ctrs check --html / --markdown: reference and port side by side (source lines + Tile IR) at the first divergence."""

from __future__ import annotations

import html
import subprocess
import sys
from pathlib import Path

from ctrs.workflow import check, check_report
from ctrs.verify import ir_rs, irdiff
from ctrs import translate
from ctrs.spec import load_specs

from .conftest import ref_ir

ROOT = Path(__file__).resolve().parent.parent
KERNEL = ROOT / "fixtures" / "rms_norm" / "kernel.py"


def _row(tmp_path, defect: tuple[str, str] | None):
    """One check row of the translated rms_norm (optionally with a defect edited into kernel.rs)."""
    kernel_rs = translate.translate(KERNEL, tmp_path / "port")[0]
    if defect:
        text = kernel_rs.read_text()
        assert defect[0] in text
        kernel_rs.write_text(text.replace(defect[0], defect[1], 1))
    spec = load_specs(str(KERNEL.parent / "specs.json"))[0]
    ref = ref_ir("rms_norm", spec.name)
    (gen,) = ir_rs.compile_ports(kernel_rs, [(spec, "rms_norm")])
    rep = irdiff.diff(ref.text, gen.text, "ref", "gen")
    row = check.Row("rms_norm", spec.name, "specs.json", rep.verdict(), "rms_norm", int(rep.stats["matched"]),
                    int(rep.stats["ref_ops"]), [f"{f.severity}: {f.code} {f.op}: {f.message}" for f in rep.findings
                                                if f.severity in ("critical", "warning")])
    row.ir = {"ref": ref.text, "port": gen.text, "findings": rep.findings}
    return row, kernel_rs


def test_side_by_side_at_the_first_divergence(tmp_path):
    # the port's square loses flush_to_zero: the reports point at kernel.py:14 and the kernel.rs line of that mulf
    row, kernel_rs = _row(tmp_path, ("rounding::NearestEven, ftz::Enabled)", "rounding::NearestEven, ftz::Disabled)"))
    assert row.verdict == "CRITICAL"
    d = check_report.first_divergence(row, KERNEL, kernel_rs)
    assert d.finding.startswith("critical IRD-MATH-FTZ mulf: flush_to_zero differs")
    assert d.ref.title == f"reference {KERNEL}:14"
    assert [t for _, t, mark in d.ref.source if mark] == ["    sq = ct.mul(t, t, flush_to_zero=True)"]
    rs_line = next(n for n, line in enumerate(kernel_rs.read_text().splitlines(), 1) if "ftz::Disabled" in line)
    assert d.port.title == f"port {kernel_rs}:{rs_line}"
    assert [n for n, _, mark in d.port.source if mark] == [rs_line]
    assert len(d.ref.ir) == 1 and d.ref.ir[0].startswith("%") and "mulf" in d.ref.ir[0] and "flush_to_zero" in d.ref.ir[0]
    assert len(d.port.ir) == 1 and "mulf" in d.port.ir[0] and "flush_to_zero" not in d.port.ir[0]
    page = check_report.render_html([row], KERNEL, KERNEL, kernel_rs)
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert html.escape("sq = ct.mul(t, t, flush_to_zero=True)") in page and "ftz::Disabled" in page
    assert html.escape(d.ref.ir[0]) in page and html.escape(d.port.ir[0]) in page
    md = check_report.render_markdown([row], KERNEL, KERNEL, kernel_rs)
    assert "| rms_norm | f16_512x768 | CRITICAL |" in md and "first divergence: critical IRD-MATH-FTZ mulf" in md


def test_equivalent_rows_have_no_divergence_section(tmp_path):
    row, kernel_rs = _row(tmp_path, None)
    assert row.verdict == "EQUIVALENT" and check_report.first_divergence(row, KERNEL, kernel_rs) is None
    md = check_report.render_markdown([row], KERNEL, KERNEL, kernel_rs)
    assert "1 rows, 1 equivalent, 0 critical, 0 other" in md and "## " not in md


def test_report_path_that_is_a_directory_is_refused_before_checking(tmp_path):
    res = subprocess.run([sys.executable, "-m", "ctrs.workflow.cli", "check", str(KERNEL), "--html", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert res.returncode == 3 and res.stdout == ""
    assert res.stderr.strip() == (f"{tmp_path}: error[CTRS-E152]: {tmp_path} is a directory "
                                  "(hint: pass a file path to --html (e.g. check.html))")


def test_ctrs_check_html_and_markdown_from_the_command_line(tmp_path):
    """End to end: a port with a dropped flush_to_zero -> exit 1, both reports name kernel.py:14 and the kernel.rs line."""
    port = tmp_path / "port"
    kernel_rs = translate.translate(KERNEL, port)[0]
    kernel_rs.write_text(kernel_rs.read_text().replace("rounding::NearestEven, ftz::Enabled)",
                                                       "rounding::NearestEven, ftz::Disabled)", 1))
    page, md = tmp_path / "r" / "check.html", tmp_path / "r" / "check.md"
    res = subprocess.run([sys.executable, "-m", "ctrs.workflow.cli", "check", str(KERNEL), "--port", str(port), "--html", str(page),
                          "--markdown", str(md)], capture_output=True, text=True, cwd=ROOT, timeout=1800)
    assert res.returncode == 1, res.stderr
    assert "ctrs check: 3 rows, 0 equivalent, 3 critical, 0 warnings, 0 unproven" in res.stdout
    rs_line = next(n for n, line in enumerate(kernel_rs.read_text().splitlines(), 1) if "ftz::Disabled" in line)
    for text in (page.read_text(), md.read_text()):
        assert text.count("first divergence: critical IRD-MATH-FTZ mulf") == 3
        assert text.count(f"reference {KERNEL}:14") == 3 and text.count(f"port {kernel_rs}:{rs_line}") == 3
