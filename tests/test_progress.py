"""Progress for long work: rewritten in place on a terminal, plain lines anywhere else (CI logs, pipes)."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

from ctrs.workflow.progress import Progress

ROOT = Path(__file__).resolve().parent.parent


def test_plain_lines_when_not_a_terminal():
    out = io.StringIO()
    p = Progress(0, "check", stream=out)
    p.status("cargo build")  # a terminal-only phase line
    cb = p.callback()
    for i, name in enumerate(["a", "b"]):
        cb(i, 2, name)
    cb(2, 2, None)
    assert out.getvalue() == "check: [1/2] a\ncheck: [2/2] b\n"


def test_one_line_rewritten_on_a_terminal():
    out = io.StringIO()
    p = Progress(2, "bundle", stream=out, tty=True)
    p.status("warming up")
    p.step("kit")
    p.step("ports")
    p.done()
    text = out.getvalue()
    assert "\n" not in text and text.count("\r") == 4 and text.endswith("\r\033[K")
    assert text.startswith("\rbundle: warming up  ")
    assert "\rbundle: [1/2] kit  " in text and "\rbundle: [2/2] ports  " in text


def test_directory_translate_prints_plain_progress_in_a_pipe(tmp_path):
    for fx in ("vector_add", "rms_norm"):
        (tmp_path / "k").mkdir(exist_ok=True)
        shutil.copy(ROOT / "fixtures" / fx / "kernel.py", tmp_path / "k" / f"{fx}.py")
    res = subprocess.run([sys.executable, "-m", "ctrs.workflow.cli", "translate", str(tmp_path / "k"), "-o", str(tmp_path / "o")],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stderr.splitlines() == ["translate: [1/2] " + str(tmp_path / "k" / "rms_norm.py"),
                                       "translate: [2/2] " + str(tmp_path / "k" / "vector_add.py")]
    assert "\033" not in res.stderr + res.stdout and "\r" not in res.stderr
    assert res.stdout.splitlines()[-1] == "ctrs translate: 2/2 files translated"
