"""Corpus benchmark (not a test): every kernel of a public corpus through ``ctrs translate`` and ``ctrs check``.

    .venv/bin/python benchmarks/corpus.py [--tier translate|check] [--out DIR] [--llm]

The corpus is the PyPI package ``tilegym==1.5.1``: ``pip download --no-deps`` into the ctrs cache
(``~/.cache/ctrs/corpus/tilegym-1.5.1``, sha256 pinned below), unpacked there; nothing of it is copied
into the repository. Every ``@ct.kernel`` of ``tilegym/ops/cutile`` and every ``@triton.jit`` of
``tilegym/ops/triton`` is one row:

* translate tier: a cuTile file is translated once (``ctrs translate`` keeps going after a blocker: the port
  holds the kernels that translated, errors.Refused names every blocker of the others), and each kernel's
  outcome is read from that one run; its translate time is the file's divided by its kernels. Triton files
  (and ``--llm``) stop at the first blocker, so there each kernel is translated *alone*: a copy of its file,
  next to it in the cache, where the decorators of the file's other kernels are turned into comment lines
  (line numbers unchanged; Triton ``@triton.jit`` functions the kernel calls keep theirs).
  Tier ``rules`` (rules only), ``llm`` (``--llm``: translated with the verified LLM fallback) or ``refused``
  with its blockers: for cuTile every blocker the translator reports for the kernel, then every ``ct.*``
  call without a rule in rules/cutile.toml it did not name (a static scan of the kernel; on rules-only kernels
  it must find nothing, tests/test_corpus.py checks that), for Triton every construct outside the subset
  (``ctrs translate --dry-run``).
* check tier: ``ctrs check`` of each translated kernel against the committed specialisations
  ``benchmarks/corpus/tilegym-1.5.1/<cutile|triton>/<file path>.json`` (a spec list; each spec names its
  kernel), when present.

Writes ``<out>/corpus-tilegym-1.5.1.{md,json,png}`` (default ``benchmarks/results``): the summary line
``kernels N, rules-only R, llm L, refused X; specs S, equivalent E``, blockers most common first, a
coverage chart (kernels per tier per operator family) and one row per kernel with translate/check time.
``--check-ratchet`` exits 1 when the rules-only counts drop below ``benchmarks/corpus/tilegym-1.5.1/
ratchet.json`` (raise the figures there as coverage grows).
"""

from __future__ import annotations

import argparse
import ast
import collections
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME, VERSION = "tilegym", "1.5.1"
CORPUS = f"{NAME}-{VERSION}"
WHEEL = f"{NAME}-{VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "18b1c1124884c6e1eac6768591a23b7311b472bcec438b4b80a8913d5266223e"
TREES = {"cutile": "tilegym/ops/cutile", "triton": "tilegym/ops/triton"}
COMMITTED = ROOT / "benchmarks" / "corpus" / CORPUS  # specs (per front end, per file) and ratchet.json
TIERS = ("rules", "llm", "refused")
# operator family of a kernel file (first match on the path under tilegym/ops/<front end>/)
FAMILIES = [("attention", r"attention|flash_decode|mla"), ("gemm", r"matmul|bmm|gemm|linear"),
            ("norm", r"norm"), ("softmax", r"softmax"), ("rope", r"rope"), ("moe", r"moe"),
            ("recurrent", r"mamba|delta_rule"), ("activation", r"activation/|silu|swiglu|gelu|relu|dropout"),
            ("quantize", r"quantiz"), ("other", r".")]


@dataclass
class Kernel:
    front: str  # cutile | triton
    file: str  # path inside the wheel
    name: str
    line: int
    family: str
    tier: str = ""
    blockers: list[dict] = field(default_factory=list)  # {"code", "line", "col", "message", "text"}
    scan: list[dict] = field(default_factory=list)  # ct.* calls without a rule in rules/cutile.toml (static scan)
    translate_s: float = 0.0
    specs: int = 0
    equivalent: int = 0
    check: list[dict] = field(default_factory=list)  # ctrs check rows (spec, verdict, findings)
    check_s: float = 0.0


# ---------------------------------------------------------------------------------------------- corpus


def _fail(code_name: str, message: str, hint: str, loc: str) -> None:
    from ctrs import errors  # noqa: PLC0415

    raise errors.CtrsError(getattr(errors, code_name), message, hint, errors.Loc(loc))


def fetch(cache: Path) -> Path:
    """The unpacked wheel under ``cache`` (downloaded from PyPI on first use, sha256 checked)."""
    cache.mkdir(parents=True, exist_ok=True)
    wheel = cache / WHEEL
    if not wheel.exists():
        res = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
                              "-q", f"{NAME}=={VERSION}", "-d", str(cache)], capture_output=True, text=True)
        if res.returncode != 0 or not wheel.exists():
            last = (res.stderr.strip().splitlines() or ["no wheel written"])[-1]
            _fail("CORPUS_FETCH", f"pip download {NAME}=={VERSION} failed: {last}",
                  "the corpus benchmark needs PyPI; check the network or pip's index settings", str(cache))
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != WHEEL_SHA256:
        _fail("CORPUS_HASH", f"{WHEEL} has sha256 {digest[:16]}..., expected {WHEEL_SHA256[:16]}...",
              f"delete {wheel} and rerun (a truncated or substituted download)", str(wheel))
    src = cache / "src"
    stamp = src / ".ctrs-unpacked"
    if not stamp.exists():
        shutil.rmtree(src, ignore_errors=True)
        with zipfile.ZipFile(wheel) as z:
            z.extractall(src)
        stamp.write_text(WHEEL_SHA256 + "\n")
    return src


def _family(rel: str) -> str:
    return next(f for f, pat in FAMILIES if re.search(pat, rel))


def _deco_name(d: ast.expr) -> str:
    return ast.unparse(d.func if isinstance(d, ast.Call) else d)


def _kernel_decos(tree: ast.Module, front: str) -> set[str]:
    """Decorator spellings that mark a kernel: ``<alias of cuda.tile>.kernel`` / ``triton.jit``."""
    if front == "triton":
        return {"triton.jit", "jit"}
    names = {"cuda.tile.kernel"}
    for node in tree.body:
        if isinstance(node, ast.Import):
            names |= {f"{a.asname}.kernel" for a in node.names if a.name == "cuda.tile" and a.asname}
        elif isinstance(node, ast.ImportFrom) and node.module == "cuda":
            names |= {f"{a.asname or a.name}.kernel" for a in node.names if a.name == "tile"}
    return names


def kernels_of(path: Path, front: str) -> tuple[ast.Module, list[ast.FunctionDef]]:
    tree = ast.parse(path.read_text())
    decos = _kernel_decos(tree, front)
    fns = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)  # nested ones too (kernel factories)
           and any(_deco_name(d) in decos for d in n.decorator_list)]
    return tree, sorted(fns, key=lambda n: n.lineno)


def scan_no_rule(path: Path, fn: ast.FunctionDef) -> list[dict]:
    """Every ``ct.X(...)`` call of a cuTile kernel whose ``ct.X`` has no entry in rules/cutile.toml, in source
    order: the translator stops at the first blocker, this lists the missing functions behind it too."""
    from ctrs import errors  # noqa: PLC0415
    from ctrs.cutile_base import load_rules  # noqa: PLC0415 - rules/cutile.toml through the checked loader

    table = load_rules()
    rules = set(table["functions"]) | set(table.get("dtypes", {}))
    tree = ast.parse(path.read_text())
    heads = {d.removesuffix(".kernel") for d in _kernel_decos(tree, "cutile")}
    froms = {a.asname or a.name: a.name for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "cuda.tile"
             for a in n.names}
    out, seen = [], set()
    for node in (n for stmt in fn.body for n in ast.walk(stmt)):  # the body: not the @ct.kernel(...) decorator
        if not isinstance(node, ast.Call):
            continue
        name = ast.unparse(node.func)
        head, _, rest = name.rpartition(".")
        full = f"ct.{rest}" if head in heads else (f"ct.{froms[name]}" if name in froms else "")
        if full and full not in rules and full not in seen and not rest[:1].isupper():
            seen.add(full)
            out.append({"code": errors.NO_RULE, "line": node.lineno, "col": node.col_offset + 1,
                        "message": f"no rule for '{full}'", "text": f"{path.name}:{node.lineno}: no rule for '{full}'"})
    return sorted(out, key=lambda b: (b["line"], b["col"]))


def _calls(fn: ast.FunctionDef) -> set[str]:
    return {n.func.id for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def isolate(path: Path, front: str, target: str) -> str:
    """The file's text with only ``target`` (and, for Triton, the jit functions it calls) still decorated."""
    tree, kernels = kernels_of(path, front)
    by_name = {k.name: k for k in kernels}
    keep, todo = set(), [target]
    while todo:  # transitive callees among the file's kernels (Triton device functions)
        n = todo.pop()
        if n not in keep and n in by_name:
            keep.add(n)
            todo += sorted(_calls(by_name[n])) if front == "triton" else []
    lines = path.read_text().splitlines(keepends=True)
    decos = _kernel_decos(tree, front)
    for k in kernels:
        if k.name in keep:
            continue
        for d in k.decorator_list:
            if _deco_name(d) in decos:
                for i in range(d.lineno - 1, d.end_lineno):
                    indent = re.match(r"\s*", lines[i]).group(0)
                    lines[i] = f"{indent}# ctrs corpus: {k.name} is not translated with {target}\n"
    return "".join(lines)


# ---------------------------------------------------------------------------------------------- tiers


def _blocker(e, variant: Path, rel: str) -> dict:
    line = e.one_line().replace(str(variant), rel)
    return {"code": e.code, "line": e.loc.line if e.loc else 0, "col": e.loc.col if e.loc else 0,
            "message": e.message, "text": line}


def _variant(k: Kernel, src: Path) -> Path:
    """The copy of the kernel's file with only this kernel decorated (written next to it in the cache)."""
    path = src / k.file
    variant = path.with_name(f"_ctrs_{path.stem}__{k.name}.py")
    variant.write_text(isolate(path, k.front, k.name))
    return variant


def translate_file(ks: list[Kernel], src: Path) -> None:
    """The cuTile kernels of one file, rules only: one ``ctrs translate`` of the file; a kernel in the port
    (analysis.json) is ``rules``, one the translator refused has its blockers, and one the run says nothing
    about (not seen as a kernel of the file) is translated alone."""
    from ctrs import errors, translate  # noqa: PLC0415

    path = src / ks[0].file
    refused: dict[str, list] = {}
    whole: dict | None = None
    with tempfile.TemporaryDirectory(prefix="ctrs-corpus-") as d:
        port = Path(d) / "port"
        t = time.perf_counter()
        try:
            translate.translate(path, port)
        except errors.Refused as e:
            refused = e.kernels
        except errors.CtrsError as e:  # nothing translated: a file-level error, or a one-kernel file's blocker
            whole = _blocker(e, path, ks[0].file)
        except Exception as e:  # noqa: BLE001 - a translator bug is a finding, not the end of the run
            whole = _internal(e, ks[0].file)
        secs = round((time.perf_counter() - t) / len(ks), 3)
        ana = port / "analysis.json"
        done = {p["name"] for p in json.loads(ana.read_text())["python_kernels"]} if ana.exists() else set()
    for k in ks:
        k.translate_s = secs
        if k.name in done:
            k.tier = "rules"
        elif k.name in refused:
            k.tier = "refused"
            k.blockers = [_blocker(b, path, k.file) for b in refused[k.name]]
        elif whole is not None:
            k.tier, k.blockers = "refused", [dict(whole)]
        else:
            translate_kernel(k, src, None)


def _internal(e: Exception, rel: str) -> dict:
    from ctrs import errors  # noqa: PLC0415

    first = (str(e).strip().splitlines() or [""])[0]
    return {"code": errors.INTERNAL, "line": 0, "col": 0, "message": f"{type(e).__name__}: {first}",
            "text": f"{rel}: error[{errors.INTERNAL}]: internal error: {type(e).__name__}: {first}"}


def translate_kernel(k: Kernel, src: Path, llm) -> None:
    from ctrs import errors, frontend_triton, translate  # noqa: PLC0415

    variant = _variant(k, src)
    if llm is not None:  # answers are verified against the kernel's committed specs (ctrs check's set)
        llm.specs = [str(spec_file(k))] if spec_file(k).exists() else []
    with tempfile.TemporaryDirectory(prefix="ctrs-corpus-") as d:
        t = time.perf_counter()
        try:
            translate.translate(variant, Path(d) / "port", llm)
            k.tier = "llm" if llm is not None and _has_llm_lines(Path(d) / "port" / "kernel.rs") else "rules"
        except errors.CtrsError as e:
            k.tier = "refused"
            problems = frontend_triton.check_subset(variant) if k.front == "triton" else []
            k.blockers = [_blocker(p, variant, k.file) for p in problems] or [_blocker(e, variant, k.file)]
        except Exception as e:  # noqa: BLE001 - a translator bug is a finding, not the end of the run
            k.tier = "refused"
            k.blockers = [_internal(e, k.file)]
        k.translate_s = round(time.perf_counter() - t, 3)


def _has_llm_lines(kernel_rs: Path) -> bool:
    from ctrs.llm_fallback import fallback  # noqa: PLC0415

    return fallback.count_llm_lines(kernel_rs.read_text()) > 0


def spec_file(k: Kernel) -> Path:
    rel = Path(k.file).relative_to(TREES[k.front])
    return COMMITTED / k.front / rel.with_suffix(".json")


def check_kernel(k: Kernel, src: Path) -> None:
    from ctrs import check, errors, spec as specmod  # noqa: PLC0415

    sf = spec_file(k)
    if k.tier == "refused" or not sf.exists():
        return
    mine = [s for s in specmod.load_specs(str(sf)) if s.kernel == k.name]
    if not mine:
        return
    k.specs = len(mine)
    variant = _variant(k, src)  # checked alone, like the Triton kernels are translated
    t = time.perf_counter()
    try:
        rows = [r for r in check.check(variant, [str(sf)]) if r.kernel == k.name]
        k.check = [{"spec": r.spec, "verdict": r.verdict,
                    "findings": [f.replace(str(variant), k.file) for f in r.findings[:3]]} for r in rows]
        k.equivalent = sum(r.verdict == "EQUIVALENT" for r in rows)
    except errors.CtrsError as e:
        k.check = [{"spec": "*", "verdict": "ERROR", "findings": [e.one_line().replace(str(variant), k.file)]}]
    k.check_s = round(time.perf_counter() - t, 3)


# ---------------------------------------------------------------------------------------------- reports


def summary(ks: list[Kernel]) -> str:
    n = collections.Counter(k.tier for k in ks)
    return (f"kernels {len(ks)}, rules-only {n['rules']}, llm {n['llm']}, refused {n['refused']}; "
            f"specs {sum(k.specs for k in ks)}, equivalent {sum(k.equivalent for k in ks)}")


def blocker_kind(message: str) -> str:
    """A blocker message with the user's own names (quoted lower-case identifiers) elided, so that "parameter 'x'"
    and "parameter 'a'" count as one kind; operators, ct./tl. names and node types stay."""
    return re.sub(r"'[a-z_][A-Za-z0-9_]*'", "'…'", message)


def blocker_table(ks: list[Kernel]) -> list[tuple[int, str, str, str]]:
    """(kernels, code, message kind, example kernel) per kind of blocker, most common first."""
    seen: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
    for k in ks:
        for b in sorted({(b["code"], blocker_kind(b["message"])) for b in k.blockers}):
            seen[b].append(f"{k.file}:{k.name}")
    return sorted(((len(v), c, m, v[0]) for (c, m), v in seen.items()), key=lambda r: (-r[0], r[1], r[2]))


def _md_cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def _first_bad(k: Kernel) -> str:
    """The first check row that is not EQUIVALENT: ``spec: VERDICT first finding`` (shortened), or ``-``."""
    bad = next((c for c in k.check if c["verdict"] != "EQUIVALENT"), None)
    if bad is None:
        return "-"
    text = f"{bad['spec']}: {bad['verdict']} {(bad['findings'] or [''])[0]}".strip()
    return text if len(text) <= 160 else text[:157] + "..."


def render_md(ks: list[Kernel], meta: dict, png: str) -> str:
    out = [f"# Corpus: {CORPUS} (PyPI) through ctrs", "", summary(ks), ""]
    for front in TREES:
        sub = [k for k in ks if k.front == front]
        files = sorted({k.file for k in sub})
        whole = sum(all(k.tier == "rules" for k in sub if k.file == f) for f in files)
        out.append(f"* {front} (`{TREES[front]}`): {summary(sub)}; files whose every kernel is rules-only: "
                   f"{whole} of {len(files)}")
    specs_note = ("no specs" if not any(k.specs for k in ks) else
                  f"{sum(k.specs for k in ks)} specs for {sum(1 for k in ks if k.specs)} kernels")
    out += [f"* check tier: {meta['tier'] == 'check' and specs_note or 'not run (--tier translate)'} "
            f"(`benchmarks/corpus/{CORPUS}/`)",
            f"* LLM tier: {'run' if meta['llm'] else 'not run (pass --llm with an OpenAI-compatible server)'}",
            f"* wheel sha256 `{WHEEL_SHA256}`; ctrs {meta['ctrs']}; "
            f"translate {meta['translate_s']:.1f} s, check {meta['check_s']:.1f} s in all",
            "",
            "A cuTile file is translated once (`ctrs translate` keeps going after a blocker; a kernel's translate time "
            "is the file's divided by its kernels); each Triton kernel alone (the file's other kernel decorators "
            "commented out, lines kept: the Triton front end stops at the first blocker). cuTile blockers are every "
            "blocker the translator reports for the kernel, then every `ct.*` call without a rule in "
            "rules/cutile.toml they do not name (a static scan); Triton blockers are every construct outside the "
            "subset (`--dry-run`).",
            "", f"![kernels per tier per operator family]({png})", "",
            "## Blockers, most common first", "", "| kernels | code | message | e.g. |", "|---:|---|---|---|"]
    for n, code, msg, eg in blocker_table(ks):
        out.append(f"| {n} | {code} | {_md_cell(msg)} | `{eg}` |")
    out += ["", "## Per kernel", "",
            "| front | file | kernel | family | tier | blockers | translate s | specs | equivalent | check s | not equivalent |",
            "|---|---|---|---|---|---|---:|---:|---:|---:|---|"]
    for k in ks:
        bl = "<br>".join(f"{b['code']} line {b['line']}:{b['col']}: {_md_cell(b['message'])}" for b in k.blockers) or "-"
        spec = str(k.specs) if k.specs else "no specs"
        out.append(f"| {k.front} | `{k.file.split('/ops/', 1)[-1]}` | `{k.name}` | {k.family} | {k.tier} | {bl} | "
                   f"{k.translate_s:.2f} | {spec} | {k.equivalent if k.specs else '-'} | "
                   f"{f'{k.check_s:.1f}' if k.specs else '-'} | {_md_cell(_first_bad(k))} |")
    return "\n".join(out) + "\n"


def render_png(ks: list[Kernel], path: Path) -> None:
    """Stacked horizontal bars: kernels per tier for each operator family, one panel per front end."""
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    fams = [f for f, _ in FAMILIES if any(k.family == f for k in ks)]
    fams.sort(key=lambda f: -sum(k.family == f for k in ks))
    colours = {"rules": "#2e7d32", "llm": "#1565c0", "refused": "#c62828"}
    fig, axes = plt.subplots(1, len(TREES), sharey=True, figsize=(10, 0.42 * len(fams) + 1.8), dpi=110,
                             gridspec_kw={"width_ratios": [3, 1.3]})
    for ax, front in zip(axes, TREES):
        sub = [k for k in ks if k.front == front]
        left = [0] * len(fams)
        for tier in TIERS:
            counts = [sum(k.family == f and k.tier == tier for k in sub) for f in fams]
            ax.barh(fams, counts, left=left, color=colours[tier], label=tier)
            left = [a + b for a, b in zip(left, counts)]
        ax.set_title(f"{front}: {sum(k.tier == 'rules' for k in sub)} of {len(sub)} rules-only", fontsize=9)
        ax.set_xlabel("kernels")
        ax.xaxis.get_major_locator().set_params(integer=True)
    axes[0].legend(loc="lower right", fontsize=8)
    axes[0].invert_yaxis()
    fig.suptitle(f"{CORPUS}: {summary(ks).split(';')[0]}", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def ratchet(ks: list[Kernel]) -> list[str]:
    """The rules-only counts that dropped below the committed figures (empty: the ratchet holds)."""
    want = json.loads((COMMITTED / "ratchet.json").read_text())
    got = {f"{front}_rules_only": sum(k.front == front and k.tier == "rules" for k in ks) for front in TREES}
    return [f"{key}: {got[key]} < committed {v} (benchmarks/corpus/{CORPUS}/ratchet.json)"
            for key, v in sorted(want.items()) if key in got and got[key] < v]


# ---------------------------------------------------------------------------------------------- main


def run(tier: str, out: Path | None, llm_on: bool, llm=None) -> list[Kernel]:
    """Every kernel through the tier; ``llm``: a prepared llm_fallback Config (else one from the environment when
    ``llm_on``: OPENAI_BASE_URL, OPENAI_API_KEY, CTRS_LLM_MODEL)."""
    from ctrs import __version__, toolchain  # noqa: PLC0415
    from ctrs.cli import _write  # noqa: PLC0415 - the CLI's atomic writer
    from ctrs.progress import Progress  # noqa: PLC0415

    src = fetch(toolchain.cache_root() / "corpus" / CORPUS)
    ks: list[Kernel] = []
    for front, tree in TREES.items():
        for p in sorted((src / tree).rglob("*.py")):
            if p.name.startswith("_ctrs_"):
                continue
            _, fns = kernels_of(p, front)
            rel = str(p.relative_to(src))
            for fn in fns:
                k = Kernel(front, rel, fn.name, fn.lineno, _family(rel.split(f"{tree}/", 1)[-1]))
                k.scan = scan_no_rule(p, fn) if front == "cutile" else []
                ks.append(k)
    if llm_on and llm is None:
        from ctrs.llm_fallback.config import Config  # noqa: PLC0415

        llm = Config.from_env(None, log=lambda m: print(m, file=sys.stderr, flush=True))
    prog = Progress(len(ks), "translate")
    by_file: dict[str, list[Kernel]] = collections.defaultdict(list)
    for k in ks:
        by_file[k.file].append(k)
    for k in ks:
        if k.front == "cutile" and llm is None:  # one translate per file: it keeps going after a blocker
            prog.step(f"{k.file.split('/ops/', 1)[-1]}:{k.name}")
            if k is by_file[k.file][0]:
                translate_file(by_file[k.file], src)
            continue
        prog.step(f"{k.file.split('/ops/', 1)[-1]}:{k.name}")
        translate_kernel(k, src, llm)
    prog.done()
    for k in ks:  # a refused cuTile kernel also lists the ct.* functions without a rule its blockers do not name
        if k.tier == "refused":
            k.blockers += [b for b in k.scan if b["message"] not in {x["message"] for x in k.blockers}]
    if tier == "check":
        todo = [k for k in ks if k.tier != "refused" and spec_file(k).exists()]
        prog = Progress(len(todo), "check")
        for k in todo:
            prog.step(f"{k.file.split('/ops/', 1)[-1]}:{k.name}")
            check_kernel(k, src)
        prog.done()
    meta = {"corpus": CORPUS, "wheel_sha256": WHEEL_SHA256, "ctrs": __version__, "tier": tier, "llm": llm_on,
            "translate_s": round(sum(k.translate_s for k in ks), 2), "check_s": round(sum(k.check_s for k in ks), 2)}
    if out is not None:
        png = f"corpus-{CORPUS}.png"
        render_png(ks, out / png)
        _write(out / f"corpus-{CORPUS}.md", render_md(ks, meta, png))
        doc = {"summary": summary(ks), "meta": meta, "blockers": [dict(zip(("kernels", "code", "message", "example"), r))
                                                                   for r in blocker_table(ks)],
               "kernels": [asdict(k) for k in ks]}
        _write(out / f"corpus-{CORPUS}.json", json.dumps(doc, indent=1, sort_keys=True) + "\n")
    return ks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="example: .venv/bin/python benchmarks/corpus.py --tier check")
    ap.add_argument("--tier", choices=["translate", "check"], default="check",
                    help="translate only, or translate + ctrs check with the committed specs (default)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results"), help="report directory")
    ap.add_argument("--llm", action="store_true", help="translate with the LLM fallback (OPENAI_BASE_URL, ...)")
    ap.add_argument("--check-ratchet", action="store_true", help="exit 1 if rules-only counts drop below ratchet.json")
    a = ap.parse_args(argv)
    from ctrs import errors  # noqa: PLC0415

    try:
        ks = run(a.tier, Path(a.out), a.llm)
    except errors.CtrsError as e:
        print(e.one_line(), file=sys.stderr)
        return 3
    print(summary(ks))
    for front in TREES:
        print(f"{front}: {summary([k for k in ks if k.front == front])}")
    if a.check_ratchet:
        dropped = ratchet(ks)
        for d in dropped:
            print(f"ratchet: {d}", file=sys.stderr)
        return 1 if dropped else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
