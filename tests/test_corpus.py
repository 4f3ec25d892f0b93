"""The corpus benchmark's translate tier on tilegym 1.5.1 (PyPI): the rules-only ratchet and the reports.

Needs PyPI on the first run (the wheel is cached in the ctrs cache afterwards); CI has it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RATCHET = json.loads((ROOT / "benchmarks" / "corpus" / "tilegym-1.5.1" / "ratchet.json").read_text())


def test_corpus_translate_tier_holds_the_rules_only_ratchet(tmp_path):
    res = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus.py"), "--tier", "translate",
                          "--out", str(tmp_path), "--check-ratchet"], capture_output=True, text=True, timeout=1800)
    assert res.returncode == 0, res.stdout + res.stderr[-3000:]
    doc = json.loads((tmp_path / "corpus-tilegym-1.5.1.json").read_text())
    ks = doc["kernels"]
    cutile = [k for k in ks if k["front"] == "cutile"]
    triton = [k for k in ks if k["front"] == "triton"]
    assert (len(cutile), len(triton)) == (74, 11)  # every @ct.kernel (nested ones too) and every @triton.jit
    assert len({k["file"] for k in cutile}) == 40 and len({k["file"] for k in triton}) == 5
    assert sum(k["tier"] == "rules" for k in cutile) >= RATCHET["cutile_rules_only"]
    assert sum(k["tier"] == "rules" for k in triton) >= RATCHET["triton_rules_only"]
    for k in ks:  # a refusal always names its blockers with a stable code; a translated kernel has none
        assert k["tier"] in ("rules", "refused")
        assert bool(k["blockers"]) == (k["tier"] == "refused"), k
        assert all(re.fullmatch(r"CTRS-E\d{3}", b["code"]) for b in k["blockers"]), k
        if k["tier"] == "rules":  # the static scan for ct.* calls without a rule agrees with the translator
            assert k["scan"] == [], k
    # refuse12: fp8_quantization_matmul's SWAP_AB / USE_TMA / OUTPUT_DTYPE arms are lowered per flag value
    assert next(k for k in cutile if k["name"] == "_w8a8_block_fp8_matmul_kernel")["tier"] == "rules"
    assert any(k["scan"] for k in cutile)  # ... and is not vacuous (ct.cumsum, ct.extract have no rule today)
    md = (tmp_path / "corpus-tilegym-1.5.1.md").read_text()
    n_rules = sum(k["tier"] == "rules" for k in ks)
    assert re.search(rf"^kernels 85, rules-only {n_rules}, llm 0, refused {85 - n_rules}; specs 0, equivalent 0$",
                     md, re.M), md[:500]
    assert md.count("\n| cutile | ") == 74 and md.count("\n| triton | ") == 11
    png = tmp_path / "corpus-tilegym-1.5.1.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


UNSLOTH_RATCHET = json.loads((ROOT / "benchmarks" / "corpus" / "unsloth-2026.10.9" / "ratchet.json").read_text())


def test_unsloth_corpus_translate_tier_holds_its_ratchet(tmp_path):
    """unsloth==2026.10.9 (``--corpus unsloth``): 52 Triton kernels of unsloth/kernels (jit functions no other jit
    function calls; helpers are inlined, not rows), every refusal with coded blockers, the ratchet held."""
    res = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus.py"), "--corpus", "unsloth", "--tier",
                          "translate", "--out", str(tmp_path), "--check-ratchet"], capture_output=True, text=True,
                         timeout=3600)
    assert res.returncode == 0, res.stdout + res.stderr[-3000:]
    doc = json.loads((tmp_path / "corpus-unsloth-2026.10.9.json").read_text())
    ks = doc["kernels"]
    assert len(ks) == 52 and all(k["front"] == "triton" for k in ks)
    names = {k["name"] for k in ks}
    assert {"_fg_kernel", "_cross_entropy_forward", "_rms_layernorm_backward"} <= names  # decorated and f = jit(f)
    assert not names & {"_log1p", "_softplus", "_rms_backward_row", "triton_cast"}  # helpers: inlined, not rows
    assert sum(k["tier"] == "rules" for k in ks) >= UNSLOTH_RATCHET["triton_rules_only"]
    for k in ks:
        assert k["tier"] in ("rules", "refused")
        assert bool(k["blockers"]) == (k["tier"] == "refused"), k
        assert all(re.fullmatch(r"CTRS-E\d{3}", b["code"]) for b in k["blockers"]), k
    md = (tmp_path / "corpus-unsloth-2026.10.9.md").read_text()
    assert md.count("\n| triton | ") == 52


SUITES_RATCHET = json.loads((ROOT / "benchmarks" / "corpus" / "tilegym-suites-1.5.1" / "ratchet.json").read_text())


def test_tilegym_suites_corpus_translate_tier_holds_its_ratchet(tmp_path):
    """``--corpus tilegym-suites``: the @ct.kernel functions of tilegym 1.5.1's suites/ tree (cuTile ports of liger,
    unsloth and flashinfer kernels; the same wheel and cache as ``tilegym``, its own stem and ratchet)."""
    res = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus.py"), "--corpus", "tilegym-suites",
                          "--tier", "translate", "--out", str(tmp_path), "--check-ratchet"], capture_output=True,
                         text=True, timeout=3600)
    assert res.returncode == 0, res.stdout + res.stderr[-3000:]
    doc = json.loads((tmp_path / "corpus-tilegym-suites-1.5.1.json").read_text())
    assert doc["meta"]["corpus"] == "tilegym-suites-1.5.1"
    ks = doc["kernels"]
    assert len(ks) == 101 and all(k["front"] == "cutile" and k["file"].startswith("tilegym/suites/") for k in ks)
    assert len({k["file"] for k in ks}) == 38
    assert {k["file"].split("/")[2] for k in ks} == {"liger", "unsloth", "flashinfer"}
    assert sum(k["tier"] == "rules" for k in ks) >= SUITES_RATCHET["cutile_rules_only"]
    for k in ks:
        assert k["tier"] in ("rules", "refused")
        assert bool(k["blockers"]) == (k["tier"] == "refused"), k
        assert all(re.fullmatch(r"CTRS-E\d{3}", b["code"]) for b in k["blockers"]), k
        if k["tier"] == "rules":
            assert k["scan"] == [], k
    md = (tmp_path / "corpus-tilegym-suites-1.5.1.md").read_text()
    assert md.count("\n| cutile | ") == 101


def _corpus_cli(tmp_path, env_extra: dict) -> subprocess.CompletedProcess:
    import os  # noqa: PLC0415

    env = {**os.environ, "CTRS_CACHE": str(tmp_path / "cache"), **env_extra}
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus.py"), "--tier", "translate", "--out",
                           str(tmp_path / "out")], capture_output=True, text=True, timeout=300, env=env)


def test_corpus_download_failure_is_one_coded_line(tmp_path):
    res = _corpus_cli(tmp_path, {"PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_RETRIES": "0", "PIP_TIMEOUT": "2",
                                 "PIP_NO_CACHE_DIR": "1", "PIP_FIND_LINKS": ""})
    cache = tmp_path / "cache" / "corpus" / "tilegym-1.5.1"
    assert res.returncode == 3 and res.stdout == ""
    (line,) = res.stderr.strip().splitlines()
    assert line.startswith(f"{cache}: error[CTRS-E150]: pip download tilegym==1.5.1 failed: ")
    assert line.endswith("(hint: the corpus benchmark needs PyPI; check the network or pip's index settings)")
    assert not (tmp_path / "out").exists()


def test_corpus_wheel_with_another_hash_is_refused(tmp_path):
    cache = tmp_path / "cache" / "corpus" / "tilegym-1.5.1"
    cache.mkdir(parents=True)
    (cache / "tilegym-1.5.1-py3-none-any.whl").write_bytes(b"not the wheel")
    res = _corpus_cli(tmp_path, {})
    assert res.returncode == 3 and res.stdout == ""
    (line,) = res.stderr.strip().splitlines()
    assert line.startswith(f"{cache / 'tilegym-1.5.1-py3-none-any.whl'}: error[CTRS-E151]: tilegym-1.5.1-py3-none-any.whl "
                           "has sha256 ")
    assert not (cache / "src").exists() and not (tmp_path / "out").exists()


def _corpus_module():
    import importlib.util  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location("ctrs_corpus_bench", ROOT / "benchmarks" / "corpus.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_check_tier_counts_committed_specs_and_classifies_critical_rows(tmp_path, monkeypatch):
    """The check tier's bookkeeping on made-up rows: specs count only for translated kernels that were checked,
    a refused kernel's specs read 'not translated', a row added by ``ctrs check`` beyond the committed specs is
    not counted, and each critical row gets the first matching classification of triage.json."""
    corpus = _corpus_module()
    (tmp_path / "triage.json").write_text(json.dumps([
        {"kernel": "k_a", "code": "IRD-HINT-ENTRY", "class": "port defect", "note": "hints dropped"},
        {"code": "IRD-HINT-ENTRY", "class": "diff false alarm", "note": "other kernels"}]))
    monkeypatch.setattr(corpus, "COMMITTED", tmp_path)
    row = lambda spec, verdict, *f, extra=False: {"spec": spec, "verdict": verdict, "findings": list(f), "extra": extra}  # noqa: E731
    a = corpus.Kernel("cutile", "tilegym/ops/cutile/a.py", "k_a", 1, "other", tier="rules", specs=3,
                      check=[row("s1", "EQUIVALENT"), row("s2", "WARNINGS", "warning: IRD-ASSUME-WEAKER x"),
                             row("s3", "CRITICAL", "warning: IRD-ASSUME-WEAKER y", "critical: IRD-HINT-ENTRY entry: z"),
                             row("mined", "INCOMPLETE", "constants not static", extra=True)])
    b = corpus.Kernel("cutile", "tilegym/ops/cutile/b.py", "k_b", 1, "other", tier="rules", specs=2,
                      check=[row("t1", "CRITICAL", "critical: IRD-HINT-ENTRY entry: w", "critical: IRD-MISSING mini: v"),
                             row("t2", "EQUIVALENT")])
    c = corpus.Kernel("cutile", "tilegym/ops/cutile/c.py", "k_c", 1, "other", tier="refused", specs=4)
    for k, (eq, warn, crit) in zip((a, b), ((1, 1, 1), (1, 0, 1))):
        k.equivalent, k.warnings, k.critical = eq, warn, crit
    ks = [a, b, c]
    assert corpus.summary(ks) == "kernels 3, rules-only 2, llm 0, refused 1; specs 5, equivalent 2"
    tri = corpus.triage(ks)
    assert [(t["kernel"], t["spec"], t["code"], t["class"]) for t in tri] == [
        ("k_a", "s3", "IRD-HINT-ENTRY", "port defect"), ("k_b", "t1", "IRD-MISSING", "unclassified")]
    assert tri[1]["also"] == ["IRD-HINT-ENTRY"]  # a dropped hint names the row only when the body has no finding
    assert corpus._first_bad(a) == "s3: CRITICAL warning: IRD-ASSUME-WEAKER y"  # the critical row, not the warning row
    assert tri[0]["also"] == [] and tri[0]["finding"] == "critical: IRD-HINT-ENTRY entry: z"
    md = corpus.render_md(ks, {"tier": "check", "llm": False, "ctrs": "x", "translate_s": 0, "check_s": 0}, "p.png")
    assert "| 4 (not translated) | - | - | - | - | not translated |" in md
    assert "5 specs of 2 translated kernels checked: 2 EQUIVALENT, 1 warnings-only, 2 CRITICAL" in md
    assert "| 1 | port defect | IRD-HINT-ENTRY | `k_a` | hints dropped |" in md
    assert "| 1 | unclassified | IRD-MISSING | `k_b` |  |" in md


def test_keep_gives_unchecked_kernels_the_earlier_rows_of_the_same_tier(tmp_path):
    """``--keep``: a partial check run keeps the earlier report's rows for the kernels it does not re-check, only
    where the kernel's tier is unchanged (a kernel refused now does not keep the rows of its old port)."""
    corpus = _corpus_module()
    row = {"spec": "s1", "verdict": "EQUIVALENT", "findings": [], "extra": False}
    old = [corpus.Kernel("cutile", "f.py", n, 1, "other", tier=t, specs=2, equivalent=2, check=[row, row],
                         check_s=3.5) for n, t in (("a", "rules"), ("b", "rules"), ("c", "rules"))]
    base = tmp_path / "old.json"
    from dataclasses import asdict  # noqa: PLC0415
    base.write_text(json.dumps({"kernels": [asdict(k) for k in old]}))
    now = [corpus.Kernel("cutile", "f.py", n, 1, "other", tier=t) for n, t in
           (("a", "rules"), ("b", "rules"), ("c", "refused"), ("d", "rules"))]
    assert corpus.keep_checks(now, base, skip={id(now[1])}) == 1
    assert (now[0].specs, now[0].equivalent, now[0].check_s, len(now[0].check)) == (2, 2, 3.5, 2)
    assert [k.check for k in now[1:]] == [[], [], []]  # re-checked, refused now, not in the old report


def test_triton_specs_without_a_reference_are_counted_apart(tmp_path, monkeypatch):
    """A Triton kernel's committed specs without a cuTile Python ``reference`` (TileGym's, unsloth's) are not run
    through ``ctrs check`` (it would stop at CTRS-E112: no reference Tile IR) and are not counted as failed checks:
    the summary line's cuTile figures stay as they are, the triton bullet reports them as proven on the H200."""
    corpus = _corpus_module()
    monkeypatch.setattr(corpus, "COMMITTED", tmp_path)
    (tmp_path / "triton").mkdir()
    (tmp_path / "triton" / "rms_norm.json").write_text(json.dumps([
        {"name": f"s{i}", "kernel": "_rms_norm_kernel", "args": {"X": {"dtype": "float16", "shape": [4, 8]}, "N": 8},
         "grid": ["4"]} for i in range(3)]))
    from ctrs.workflow import check  # noqa: PLC0415

    def no_check(*a, **kw):
        raise AssertionError("ctrs check ran on a Triton kernel without a reference")

    monkeypatch.setattr(check, "check", no_check)
    row = {"spec": "s1", "verdict": "EQUIVALENT", "findings": [], "extra": False}
    a = corpus.Kernel("cutile", "tilegym/ops/cutile/a.py", "k_a", 1, "other", tier="rules", specs=2, equivalent=2,
                      check=[row, dict(row, spec="s2")])
    t = corpus.Kernel("triton", "tilegym/ops/triton/rms_norm.py", "_rms_norm_kernel", 1, "norm", tier="rules")
    corpus.check_kernel(t, tmp_path)
    assert (t.specs, t.check, t.critical) == (3, [], 0) and corpus.h200_only(t)
    assert corpus.summary([a, t]) == "kernels 2, rules-only 2, llm 0, refused 0; specs 2, equivalent 2"
    assert corpus.summary([t]) == ("kernels 1, rules-only 1, llm 0, refused 0; specs 3 (no reference Tile IR: proven "
                                   "on the H200 against the @triton.jit original)")
    assert corpus.triage([a, t]) == []
    md = corpus.render_md([a, t], {"tier": "check", "llm": False, "ctrs": "x", "translate_s": 0, "check_s": 0}, "p.png")
    assert ("* triton (`tilegym/ops/triton`): kernels 1, rules-only 1, llm 0, refused 0; specs 3 (no reference Tile IR: "
            "proven on the H200 against the @triton.jit original)") in md
    assert "; 3 Triton specs of 1 kernels not checked here (no reference Tile IR" in md
    assert "| 3 (H200: vs @triton.jit) | - | - | - | - |" in md
    # a specs file that names a cuTile Python reference is checked as before (fixtures/triton_*/specs.json)
    (tmp_path / "triton" / "rms_norm.json").write_text(json.dumps({"reference": "ref.py", "spec": []}))
    assert not corpus.h200_only(t)
