"""Corpus benchmark (not a test): every kernel of a public corpus through ``ctrs translate`` and ``ctrs check``.

    .venv/bin/python benchmarks/corpus.py [--tier translate|check] [--out DIR] [--llm] [--cutile 0.5.0|0.3.1] [-j N]

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
  ``-j N`` (default: one per CPU) runs N translates at a time in worker processes, longest first by the committed
  report's times; the rows and files are the same whatever N.
  Tier ``rules`` (rules only), ``llm`` (``--llm``: translated with the verified LLM fallback) or ``refused``
  with its blockers: for cuTile every blocker the translator reports for the kernel, then every ``ct.*``
  call without a rule in rules/cutile.toml it did not name (a static scan of the kernel; on rules-only kernels
  it must find nothing, tests/test_corpus.py checks that), for Triton every blocker ``ctrs translate`` reports.

``--corpus unsloth``: the Triton kernels of ``unsloth==2026.10.9`` (``unsloth/kernels``, PyPI, same cache layout:
``~/.cache/ctrs/corpus/unsloth-2026.10.9``). A row is a ``@triton.jit`` function (decorated, or made one by a
module-level ``f = triton.jit(f)``) that no other ``@triton.jit`` function calls: a function another one calls
(in its file, or imported by name from another file of the tree, like ``triton_cast``) is a helper, translated
inlined into its callers (52 kernels, 26 helper names; see
benchmarks/corpus/unsloth-2026.10.9/README.md). Results go to ``<out>/corpus-unsloth-2026.10.9.{md,json,png}``,
the ratchet and specs to ``benchmarks/corpus/unsloth-2026.10.9/``.

``--corpus tilegym-suites``: the ``@ct.kernel`` functions of the same tilegym wheel's ``tilegym/suites`` tree
(cuTile ports of liger, unsloth and flashinfer kernels, 101 kernels in 38 files; same cache directory), rows like
the tilegym cuTile ones; results ``<out>/corpus-tilegym-suites-1.5.1.*``, ratchet and specs under
``benchmarks/corpus/tilegym-suites-1.5.1/``.
* check tier: ``ctrs check`` of each translated kernel (its isolated copy) against its committed
  specialisations ``benchmarks/corpus/tilegym-1.5.1/<cutile|triton>/<file path>.json`` (a spec list; each spec
  names its kernel; ``benchmarks/corpus_specs.py`` makes them with ``ctrs specs``). Per kernel: specs,
  EQUIVALENT, warnings-only, critical (CRITICAL or not comparable: a port that does not compile, no entry for the
  launch) and the first finding; specs of kernels that do not translate are counted as "not translated". A Triton
  kernel's specs without a cuTile Python ``reference`` (``h200_only``: no reference Tile IR, ``ctrs check`` would stop
  at CTRS-E112) are counted apart, not checked: the H200 run compares such ports with the @triton.jit original. Every
  critical row is classified by ``triage.json`` there. ``--only REGEX`` checks the matching kernels only;
  ``--keep JSON`` gives the others the check rows of an earlier report (same tier only).

Writes ``<out>/corpus-tilegym-1.5.1.{md,json,png}`` (default ``benchmarks/results``): the summary line
``kernels N, rules-only R, llm L, refused X; specs S, equivalent E`` (S: specs of translated kernels checked),
blockers most common first, the classified critical findings, a
coverage chart (kernels per tier per operator family) and one row per kernel with translate/check time.
``--check-ratchet`` exits 1 when the rules-only counts or the kernels with >= 2 committed specs drop below
``benchmarks/corpus/tilegym-1.5.1/ratchet.json`` (raise the figures there as coverage grows), or when a committed
spec names no kernel of the corpus.
"""

from __future__ import annotations

import argparse
import ast
import collections
import fnmatch
import hashlib
import json
import os
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
# The corpora: PyPI wheels (``--corpus``). tilegym: cuTile and Triton kernels of NVIDIA's TileGym; unsloth: the
# Triton kernels people write for training (``unsloth/kernels``; a ``@triton.jit`` function another ``@triton.jit``
# function of its file calls is a helper, not a row: it is translated with the kernels that call it).
CORPORA = {
    "tilegym": {"name": "tilegym", "version": "1.5.1",
                "sha256": "18b1c1124884c6e1eac6768591a23b7311b472bcec438b4b80a8913d5266223e",
                "trees": {"cutile": "tilegym/ops/cutile", "triton": "tilegym/ops/triton"},
                "helpers_are_rows": True},  # 11 @triton.jit rows since 1.5.1 was first measured (3 are helpers)
    "unsloth": {"name": "unsloth", "version": "2026.10.9",
                "sha256": "feb40b99bc4f8c543a36cbd0fe6e1410d6e4ac16bd4d0c731f607adce3d63bb0",
                "trees": {"triton": "unsloth/kernels"}},
    # the same tilegym wheel (same cache), its suites/ tree: cuTile ports of liger, unsloth and flashinfer kernels
    # (outside tilegym/ops, so not rows of ``tilegym``); own results stem, specs and ratchet
    "tilegym-suites": {"name": "tilegym", "version": "1.5.1", "stem": "tilegym-suites-1.5.1",
                       "sha256": "18b1c1124884c6e1eac6768591a23b7311b472bcec438b4b80a8913d5266223e",
                       "trees": {"cutile": "tilegym/suites"}},
}


def select(key: str) -> None:
    """Point the module's corpus globals (NAME, VERSION, CORPUS, WHEEL, WHEEL_SHA256, TREES, COMMITTED) at
    ``CORPORA[key]``; tilegym is the default at import."""
    global NAME, VERSION, CORPUS, WHEEL, WHEEL_SHA256, TREES, COMMITTED, HELPER_ROWS, UNPACKED
    c = CORPORA[key]
    HELPER_ROWS = c.get("helpers_are_rows", False)
    NAME, VERSION, WHEEL_SHA256, TREES = c["name"], c["version"], c["sha256"], dict(c["trees"])
    UNPACKED = f"{NAME}-{VERSION}"  # the wheel's cache directory (shared by the corpora of one wheel)
    CORPUS = c.get("stem", UNPACKED)  # results file stem and benchmarks/corpus/<CORPUS>/
    WHEEL = f"{NAME}-{VERSION}-py3-none-any.whl"
    COMMITTED = ROOT / "benchmarks" / "corpus" / CORPUS  # specs (per front end, per file) and ratchet.json


NAME = VERSION = CORPUS = UNPACKED = WHEEL = WHEEL_SHA256 = ""
HELPER_ROWS = False  # tilegym keeps its historical rows: every @triton.jit function, helpers too
TREES: dict[str, str] = {}
COMMITTED = ROOT
select("tilegym")
TIERS = ("rules", "llm", "refused")
HAND_PORTED = r"/(matmul|bmm|silu_and_mul|swiglu|attention_sink)\.py$"  # the TileGym operators in cutile-rs's examples
# operator family of a kernel file (first match on the path under tilegym/ops/<front end>/)
FAMILIES = [("attention", r"attention|flash_decode|mla"), ("gemm", r"matmul|bmm|gemm|linear"),
            ("norm", r"norm"), ("softmax", r"softmax"), ("rope", r"rope"), ("moe", r"moe"),
            ("recurrent", r"mamba|delta_rule"), ("loss", r"cross_entropy"),
            ("activation", r"activation/|silu|swiglu|gelu|geglu|relu|dropout"),
            ("quantize", r"quantiz|fp8|nf4|nvfp4|int4"), ("other", r".")]


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
    specs: int = 0  # committed specs of this kernel (counted in the summary once checked)
    equivalent: int = 0
    warnings: int = 0  # rows with warnings only
    critical: int = 0  # CRITICAL rows, or rows that could not be compared (REF-/PORT-ERROR, ...)
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


def jit_assigned(tree: ast.Module) -> dict[str, ast.Assign]:
    """Triton functions made kernels by a module-level ``f = triton.jit(f, ...)`` (not a decorator): name -> the
    statement."""
    out = {}
    for node in tree.body:
        v = node.value if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        if isinstance(v, ast.Call) and ast.unparse(v.func) in ("triton.jit", "jit") and v.args \
                and isinstance(v.args[0], ast.Name) and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == v.args[0].id:
            out[v.args[0].id] = node
    return out


def kernels_of(path: Path, front: str) -> tuple[ast.Module, list[ast.FunctionDef]]:
    tree = ast.parse(path.read_text())
    decos = _kernel_decos(tree, front)
    assigned = jit_assigned(tree) if front == "triton" else {}
    fns = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)  # nested ones too (kernel factories)
           and (any(_deco_name(d) in decos for d in n.decorator_list) or n.name in assigned and n in tree.body)]
    return tree, sorted(fns, key=lambda n: n.lineno)


def helpers(fns: list[ast.FunctionDef]) -> set[str]:
    """Triton ``@triton.jit`` functions another ``@triton.jit`` function of the same file calls (by name): device
    helpers, inlined into the kernels that call them; not rows of the corpus."""
    names = {f.name for f in fns}
    return {c for f in fns for c in _calls(f) if c in names and c != f.name}


def scan_no_rule(path: Path, fn: ast.FunctionDef) -> list[dict]:
    """Every ``ct.X(...)`` call of a cuTile kernel whose ``ct.X`` has no entry in rules/cutile.toml, in source
    order: the translator stops at the first blocker, this lists the missing functions behind it too. A name
    cuTile Python itself lacks is no rule gap (the translator's CTRS-E322 covers it)."""
    from ctrs import errors  # noqa: PLC0415
    from ctrs.ir_rules import cutile_rules as load_rules  # noqa: PLC0415 - rules/cutile.toml through the checked loader

    import cuda.tile as ct  # noqa: PLC0415 - the reference compiler: which ct.* functions exist at all

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
        if full and not hasattr(ct, full[3:]):  # not a cuTile Python function (ct.sigmoid in 1.7.0): CTRS-E322, no gap
            continue
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
    for name, st in (jit_assigned(tree) if front == "triton" else {}).items():
        # `f = triton.jit(f)`: the statement becomes comment lines; a kept f gets the decorator on the blank line
        # above its def (line numbers unchanged; prepended to the def line when there is none)
        for i in range(st.lineno - 1, st.end_lineno):
            lines[i] = f"# ctrs corpus: {name} = triton.jit({name}) as a decorator\n"
        k = by_name.get(name)
        if k is not None and k.name in keep:
            first = min([k.lineno, *(d.lineno for d in k.decorator_list)]) - 1
            if first > 0 and not lines[first - 1].strip():
                lines[first - 1] = "@triton.jit\n"
            else:
                lines[first] = "@triton.jit\n" + lines[first]
    for k in kernels:
        if k.name in keep:
            continue
        for d in k.decorator_list:  # every decorator: an @triton.autotune over a commented @triton.jit fails to import
            if _deco_name(d) in decos or front == "triton":
                for i in range(d.lineno - 1, d.end_lineno):
                    indent = re.match(r"\s*", lines[i]).group(0)
                    lines[i] = f"{indent}# ctrs corpus: {k.name} is not translated with {target}\n"
    return "".join(lines)


# ---------------------------------------------------------------------------------------------- tiers


def _blocker(e, variant: Path, rel: str) -> dict:
    root = variant.parents[len(Path(rel).parts) - 1]  # the unpacked tree: a helper's file elsewhere in it
    line = e.one_line().replace(str(variant), rel).replace(f"{root}/", "")  # is named inside the wheel too
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
    from ctrs import errors, translate  # noqa: PLC0415

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
            problems = list(e.blockers) if isinstance(e, errors.Refused) else []  # each blocker, not the summary
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


def h200_only(k: Kernel) -> bool:
    """A Triton kernel whose committed specs name no cuTile Python ``reference`` (a specs file as a dict with
    "reference", like fixtures/triton_*/specs.json): there is no reference Tile IR to diff its port against, so
    ``ctrs check`` stops at CTRS-E112; its specs are for the H200 run, which compares the port with the @triton.jit
    original numerically (benchmarks/h200_tilegym.py). The check tier counts them apart (``TRITON_NOTE``)."""
    if k.front != "triton":
        return False
    sf = spec_file(k)
    doc = json.loads(sf.read_text()) if sf.exists() else []
    return not (isinstance(doc, dict) and doc.get("reference"))


TRITON_NOTE = "no reference Tile IR: proven on the H200 against the @triton.jit original"


def h200_specs(ks: list[Kernel]) -> list[Kernel]:
    """The translated kernels with committed specs the check tier counts but does not check (``h200_only``)."""
    return [k for k in ks if k.tier != "refused" and k.specs and h200_only(k)]


def committed_specs(k: Kernel) -> list[dict]:
    """The committed specs of ``k`` (its file's spec list, validated, filtered by kernel name)."""
    from ctrs import spec as specmod  # noqa: PLC0415

    sf = spec_file(k)
    if not sf.exists():
        return []
    specmod.load_specs(str(sf))  # schema, unique names: a CTRS-E010 naming the file and JSON path
    doc = json.loads(sf.read_text())
    items = doc["spec"] if isinstance(doc, dict) else doc if isinstance(doc, list) else [doc]
    return [s for s in items if s["kernel"] == k.name]


def check_kernel(k: Kernel, src: Path, progress=None) -> None:
    """``ctrs check`` of the translated kernel (its isolated variant) at its committed specs. Only the committed
    specs count: their ``sites`` are renamed to the variant so that ``ctrs check`` does not re-mine the same
    launches from the host code; any other row it adds (a launch the specs do not cover) is kept in ``check``
    with ``"extra": true`` but not counted."""
    from ctrs.workflow import check  # noqa: PLC0415
    from ctrs import errors  # noqa: PLC0415

    mine = committed_specs(k)
    k.specs = len(mine)
    if not mine or k.tier == "refused" or h200_only(k):  # h200_only: ctrs check would stop at CTRS-E112
        return
    variant = _variant(k, src)  # checked alone (written next to the file in the cache)
    base = Path(k.file).name
    for s in mine:
        s["sites"] = [x.replace(f"{base}:", f"{variant.name}:") for x in s.get("sites", [])]
    names = {s["name"] for s in mine}
    t = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ctrs-corpus-specs-") as d:
        sf = Path(d) / f"{k.name}.json"
        sf.write_text(json.dumps(mine))
        port = Path(d) / "port"

        def clean(text: str) -> str:  # no temporary paths in the report
            return (text.replace(str(variant), k.file).replace(str(port), "<port>")
                    .replace(str(sf), str(spec_file(k).relative_to(ROOT))))

        try:
            rows = check.check(variant, [str(sf)], keep=port, progress=progress)
            k.check = [{"spec": r.spec, "verdict": r.verdict, "extra": r.spec not in names,
                        "findings": [clean(f) for f in r.findings[:8]]} for r in rows]
        except errors.CtrsError as e:  # every spec of the kernel is unproven (e.g. the port does not compile)
            k.check = [{"spec": "*", "verdict": "ERROR", "extra": False, "findings": [clean(e.one_line())]}]
    counted = [c for c in k.check if not c["extra"]]
    k.equivalent = sum(c["verdict"] == "EQUIVALENT" for c in counted)
    k.warnings = sum(c["verdict"] == "WARNINGS" for c in counted)
    k.critical = k.specs - k.equivalent - k.warnings
    k.check_s = round(time.perf_counter() - t, 3)


# ---------------------------------------------------------------------------------------------- reports


def checked(ks: list[Kernel]) -> list[Kernel]:
    """The kernels the check tier ran ``ctrs check`` on (translated, with committed specs)."""
    return [k for k in ks if k.tier != "refused" and k.check]


def summary(ks: list[Kernel]) -> str:
    """``kernels N, rules-only R, llm L, refused X; specs S, equivalent E`` (S: specs of the kernels ``ctrs check``
    ran on). For Triton kernels alone (a corpus's triton bullet, the unsloth corpus) with specs only the H200 proves
    (``h200_only``) and none checked: ``specs T (no reference Tile IR: ...)`` instead."""
    n = collections.Counter(k.tier for k in ks)
    head = f"kernels {len(ks)}, rules-only {n['rules']}, llm {n['llm']}, refused {n['refused']}; "
    h200 = sum(k.specs for k in h200_specs(ks))
    if h200 and not checked(ks) and all(k.front == "triton" for k in ks):
        return head + f"specs {h200} ({TRITON_NOTE})"
    return head + f"specs {sum(k.specs for k in checked(ks))}, equivalent {sum(k.equivalent for k in ks)}"


def finding_code(text: str) -> str:
    """The stable code of a ``ctrs check`` finding line (``critical: IRD-HINT-ENTRY ...`` -> ``IRD-HINT-ENTRY``)."""
    m = re.search(r"\b(IRD-[A-Z0-9-]+|CTRS-E\d{3})\b", text)
    return m.group(1) if m else ""


def triage(ks: list[Kernel]) -> list[dict]:
    """Every counted row that is not EQUIVALENT or WARNINGS, with its first critical finding (a dropped kernel hint
    only when the body has none) and the classification of
    ``benchmarks/corpus/<corpus>/triage.json`` (first entry whose kernel/file/code match as glob patterns, absent
    = any, and whose ``spec`` regex, if any, is found in the spec name)."""
    path = COMMITTED / "triage.json"
    rules = json.loads(path.read_text()) if path.exists() else []
    out = []
    for k in checked(ks):
        for c in k.check:
            if c["extra"] or c["verdict"] in ("EQUIVALENT", "WARNINGS"):
                continue
            crit = [f for f in c["findings"] if f.startswith("critical")]
            codes = list(dict.fromkeys(finding_code(f) for f in crit))
            # the first finding that is not a dropped hint names the row when there is one (hints are entry-level
            # and listed first; a body difference behind them is the more serious one)
            first = next((f for f in crit if finding_code(f) != "IRD-HINT-ENTRY"), None) or \
                next(iter(crit), (c["findings"] or [""])[0])
            code = finding_code(first) or c["verdict"]
            hit = next((r for r in rules if all(fnmatch.fnmatchcase(val, r.get(key, "*")) for key, val in
                                                (("kernel", k.name), ("file", k.file.split("/ops/", 1)[-1]),
                                                 ("code", code))) and re.search(r.get("spec", ""), c["spec"])), None)
            out.append({"file": k.file, "kernel": k.name, "spec": c["spec"], "verdict": c["verdict"], "code": code,
                        "also": [x for x in codes if x and x != code], "finding": first, "class": hit["class"] if hit else "unclassified",
                        "note": hit.get("note", "") if hit else ""})
    return out


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
    """The first counted check row that is critical (else the first with warnings): ``spec: VERDICT first
    finding`` (shortened), or ``-``."""
    rows = [c for c in k.check if not c["extra"]]
    bad = next((c for c in rows if c["verdict"] not in ("EQUIVALENT", "WARNINGS")), None) or next(
        (c for c in rows if c["verdict"] != "EQUIVALENT"), None)
    if bad is None:
        return "not translated" if k.specs and k.tier == "refused" else "-"
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
    done = checked(ks)
    pending = [k for k in ks if k.specs and k.tier == "refused"]
    h200 = h200_specs(ks)
    specs_note = ("no specs" if not any(k.specs for k in ks) else
                  f"{sum(k.specs for k in done)} specs of {len(done)} translated kernels checked: "
                  f"{sum(k.equivalent for k in done)} EQUIVALENT, {sum(k.warnings for k in done)} warnings-only, "
                  f"{sum(k.critical for k in done)} CRITICAL (or not comparable); kernels with every spec EQUIVALENT: "
                  f"{sum(k.equivalent == k.specs for k in done)}, with >= 2: {sum(k.equivalent >= 2 for k in done)}; "
                  f"{sum(k.specs for k in pending)} more specs of {len(pending)} kernels not translated yet"
                  + (f"; {sum(k.specs for k in h200)} Triton specs of {len(h200)} kernels not checked here "
                     f"({TRITON_NOTE})" if h200 else ""))
    out += [f"* check tier: {meta['tier'] == 'check' and specs_note or 'not run (--tier translate)'} "
            f"(`ctrs check` of each translated kernel at `benchmarks/corpus/{CORPUS}/<front>/<file>.json`)",
            f"* LLM tier: {'run' if meta['llm'] else 'not run (pass --llm with an OpenAI-compatible server)'}",
            f"* wheel sha256 `{WHEEL_SHA256}`; ctrs {meta['ctrs']}; cutile {meta.get('cutile', '0.3.1')}; "
            f"translate {meta['translate_s']:.1f} s, check {meta['check_s']:.1f} s in all",
            "",
            "A cuTile file is translated once (`ctrs translate` keeps going after a blocker; a kernel's translate time "
            "is the file's divided by its kernels); each Triton kernel alone (the file's other kernel decorators "
            "commented out, lines kept). cuTile blockers are every "
            "blocker the translator reports for the kernel, then every `ct.*` call without a rule in "
            "rules/cutile.toml they do not name (a static scan); Triton blockers are every blocker the typed Triton "
            "front end reports (`--dry-run`).",
            "", f"![kernels per tier per operator family]({png})", "",
            "## Blockers, most common first", "", "| kernels | code | message | e.g. |", "|---:|---|---|---|"]
    for n, code, msg, eg in blocker_table(ks):
        out.append(f"| {n} | {code} | {_md_cell(msg)} | `{eg}` |")
    tri = triage(ks)
    if tri:
        by = collections.Counter((t["class"], t["code"], t["note"]) for t in tri)
        out += ["", "## Critical findings, classified", "",
                f"Every counted row that is neither EQUIVALENT nor warnings-only ({len(tri)}; a port that does not "
                f"compile is one row for all its specs), by its first critical finding, classified in "
                f"`benchmarks/corpus/{CORPUS}/triage.json`:", "",
                "| rows | class | code | kernels | note |", "|---:|---|---|---|---|"]
        for (cls, code, note), n in sorted(by.items(), key=lambda x: (-x[1], x[0])):
            names = sorted({t["kernel"] for t in tri if (t["class"], t["code"], t["note"]) == (cls, code, note)})
            out.append(f"| {n} | {cls} | {code} | {', '.join(f'`{x}`' for x in names)} | {_md_cell(note)} |")
        out += ["", "| kernel | spec | verdict | class | first finding (hints: after any body finding) | also |",
                "|---|---|---|---|---|---|"]
        for t in tri:
            f = t["finding"] if len(t["finding"]) <= 200 else t["finding"][:197] + "..."
            out.append(f"| `{t['kernel']}` | {t['spec']} | {t['verdict']} | {t['class']} | {_md_cell(f)} | "
                       f"{', '.join(t['also']) or '-'} |")
    out += ["", "## Per kernel", "",
            "| front | file | kernel | family | tier | blockers | translate s | specs | equivalent | warnings-only | "
            "critical | check s | first finding |",
            "|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for k in ks:
        bl = "<br>".join(f"{b['code']} line {b['line']}:{b['col']}: {_md_cell(b['message'])}" for b in k.blockers) or "-"
        ran = bool(k.check) and k.tier != "refused"
        spec = str(k.specs) if ran else f"{k.specs} (not translated)" if k.specs and k.tier == "refused" else \
            f"{k.specs} (H200: vs @triton.jit)" if k.specs and h200_only(k) else \
            f"{k.specs} (not checked)" if k.specs else "no specs"
        cells = (f"{k.equivalent} | {k.warnings} | {k.critical} | {k.check_s:.1f}" if ran else "- | - | - | -")
        out.append(f"| {k.front} | `{k.file.split('/ops/', 1)[-1]}` | `{k.name}` | {k.family} | {k.tier} | {bl} | "
                   f"{k.translate_s:.2f} | {spec} | {cells} | {_md_cell(_first_bad(k))} |")
    return "\n".join(out) + "\n"


def render_png(ks: list[Kernel], path: Path) -> None:
    """Stacked horizontal bars: kernels per tier for each operator family, one panel per front end."""
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    fams = [f for f, _ in FAMILIES if any(k.family == f for k in ks)]
    fams.sort(key=lambda f: -sum(k.family == f for k in ks))
    colours = {"rules": "#2e7d32", "llm": "#1565c0", "refused": "#c62828"}
    ratios = {"cutile": 3, "triton": 1.3 if "cutile" in TREES else 3}
    fig, axes = plt.subplots(1, len(TREES), sharey=True, figsize=(10, 0.42 * len(fams) + 1.8), dpi=110,
                             gridspec_kw={"width_ratios": [ratios[f] for f in TREES]}, squeeze=False)
    axes = axes[0]
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


def spec_coverage(ks: list[Kernel]) -> dict[str, int]:
    """Per front end, the kernels with >= 2 committed specs (``<front>_kernels_with_2_specs``): the committed
    inputs of the check tier, counted without running it (no torch, no cargo)."""
    return {f"{front}_kernels_with_2_specs": sum(k.front == front and len(committed_specs(k)) >= 2 for k in ks)
            for front in TREES}


def orphan_specs(ks: list[Kernel]) -> list[str]:
    """Committed specs whose file or kernel is not in the corpus (they would never be checked)."""
    known = {(k.front, str(spec_file(k))): set() for k in ks}
    for k in ks:
        known[(k.front, str(spec_file(k)))].add(k.name)
    out = []
    for front in TREES:
        for f in sorted((COMMITTED / front).rglob("*.json")):
            names = known.get((front, str(f)))
            doc = json.loads(f.read_text())
            items = doc["spec"] if isinstance(doc, dict) else doc if isinstance(doc, list) else [doc]
            rel = f.relative_to(ROOT)
            out += [f"{rel}: no kernel file for it" for _ in [0] if names is None]
            out += [f"{rel}: spec '{x['name']}' names '{x['kernel']}', not a kernel of the file"
                    for x in items if names is not None and x["kernel"] not in names]
    return out


def ratchet(ks: list[Kernel]) -> list[str]:
    """The counts that dropped below the committed figures (empty: the ratchet holds): rules-only kernels and
    kernels with >= 2 committed specs; plus every committed spec that names no kernel of the corpus."""
    want = json.loads((COMMITTED / "ratchet.json").read_text())
    got = {f"{front}_rules_only": sum(k.front == front and k.tier == "rules" for k in ks) for front in TREES}
    got |= spec_coverage(ks)
    return [f"{key}: {got[key]} < committed {v} (benchmarks/corpus/{CORPUS}/ratchet.json)"
            for key, v in sorted(want.items()) if key in got and got[key] < v] + orphan_specs(ks)


# ---------------------------------------------------------------------------------------------- main


CHECK_FIELDS = ("specs", "equivalent", "warnings", "critical", "check", "check_s")


def keep_checks(ks: list[Kernel], base: Path, skip: set[int]) -> int:
    """Copy the check rows of an earlier report (``--keep``) into the kernels not re-checked now (ids in ``skip``
    are): a partial run after a change then still reports the whole corpus. Returns how many kernels kept rows."""
    old = {(k["file"], k["name"]): k for k in json.loads(base.read_text())["kernels"]}
    n = 0
    for k in ks:
        prev = old.get((k.file, k.name))
        # a kernel with check rows, or with specs counted but not checked (a Triton kernel's H200-only specs)
        if id(k) in skip or prev is None or not (prev.get("check") or prev.get("specs")) or prev.get("tier") != k.tier:
            continue
        for f in CHECK_FIELDS:
            setattr(k, f, prev[f])
        n += 1
    return n


def _units(ks: list[Kernel], llm) -> list[list[Kernel]]:
    """The translate work, one unit per ``ctrs translate`` run: a cuTile file's kernels together (rules only),
    every other kernel alone."""
    units: list[list[Kernel]] = []
    by_file: dict[str, list[Kernel]] = {}
    for k in ks:
        if k.front == "cutile" and llm is None:  # one translate per file: it keeps going after a blocker
            if k.file not in by_file:
                by_file[k.file] = []
                units.append(by_file[k.file])
            by_file[k.file].append(k)
        else:
            units.append([k])
    return units


def _translate_unit(unit: list[Kernel], src: Path, llm=None) -> list[Kernel]:
    if len(unit) > 1 or (unit[0].front == "cutile" and llm is None):
        translate_file(unit, src)
    else:
        translate_kernel(unit[0], src, llm)
    return unit


def _earlier_seconds() -> dict[str, float]:
    """Translate seconds per kernel of the committed report (longest-first scheduling; empty without one)."""
    try:
        doc = json.loads((ROOT / "benchmarks" / "results" / f"corpus-{CORPUS}.json").read_text())
        return {f"{k['file']}:{k['name']}": float(k["translate_s"]) for k in doc["kernels"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def translate_all(ks: list[Kernel], src: Path, llm, jobs: int) -> None:
    """Every kernel through translate, ``jobs`` ``ctrs translate`` runs at a time (worker processes; the LLM path
    stays in this process: its client and log are not shared). Units start longest first by the committed report's
    times, so the longest kernel does not start last; the rows keep the corpus order whatever finishes first."""
    from ctrs.workflow.progress import Progress  # noqa: PLC0415

    units = _units(ks, llm)
    prog = Progress(len(units), "translate")

    def label(u: list[Kernel]) -> str:
        return f"{u[0].file.split('/ops/', 1)[-1]}:{','.join(k.name for k in u)}"

    if llm is not None or jobs <= 1 or len(units) <= 1:
        for u in units:
            prog.step(label(u))
            _translate_unit(u, src, llm)
        prog.done()
        return
    import multiprocessing  # noqa: PLC0415
    from concurrent.futures import ProcessPoolExecutor, as_completed  # noqa: PLC0415

    before = _earlier_seconds()
    order = sorted(range(len(units)), key=lambda i: -sum(before.get(f"{k.file}:{k.name}", 0.0) for k in units[i]))
    # fork: the workers inherit this process's corpus selection and cutile target
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        futs = {pool.submit(_translate_unit, units[i], src): i for i in order}
        for f in as_completed(futs):
            done = f.result()
            for mine, theirs in zip(units[futs[f]], done, strict=True):
                mine.__dict__.update(theirs.__dict__)
            prog.step(label(done))
    prog.done()


def run(tier: str, out: Path | None, llm_on: bool, only: str | None = None, llm=None,
        keep: Path | None = None, jobs: int = 1) -> list[Kernel]:
    """Every kernel through the tier; ``llm``: a prepared llm_fallback Config (else, with ``llm_on``, one from the
    environment: OPENAI_BASE_URL, OPENAI_API_KEY, CTRS_LLM_MODEL); ``keep``: an earlier check report whose rows the
    kernels outside ``only`` keep; ``jobs``: translate runs at a time."""
    from ctrs import __version__, toolchain  # noqa: PLC0415
    from ctrs.workflow.cli import _write  # noqa: PLC0415 - the CLI's atomic writer
    from ctrs.workflow.progress import Progress  # noqa: PLC0415

    src = fetch(toolchain.cache_root() / "corpus" / UNPACKED)
    ks: list[Kernel] = []
    for front, tree in TREES.items():
        # jit functions other files' kernels call by name (`from .utils import triton_cast`): helpers too
        imported = {c for p in sorted((src / tree).rglob("*.py")) if not p.name.startswith("_ctrs_")
                    for f in kernels_of(p, front)[1] for c in _calls(f)} if front == "triton" else set()
        for p in sorted((src / tree).rglob("*.py")):
            if p.name.startswith("_ctrs_"):
                continue
            _, fns = kernels_of(p, front)
            rel = str(p.relative_to(src))
            called = (helpers(fns) | (imported & {f.name for f in fns})) if front == "triton" and not HELPER_ROWS \
                else set()
            for fn in (f for f in fns if f.name not in called):
                k = Kernel(front, rel, fn.name, fn.lineno, _family(rel.split(f"{tree}/", 1)[-1]))
                k.scan = scan_no_rule(p, fn) if front == "cutile" else []
                ks.append(k)
    if llm_on and llm is None:
        from ctrs.llm_fallback.config import Config  # noqa: PLC0415

        llm = Config.from_env(None, log=lambda m: print(m, file=sys.stderr, flush=True))
    translate_all(ks, src, llm, jobs)
    for k in ks:  # a refused cuTile kernel also lists the ct.* functions without a rule its blockers do not name
        if k.tier == "refused":
            k.blockers += [b for b in k.scan if b["message"] not in {x["message"] for x in k.blockers}]
    from ctrs import targets  # noqa: PLC0415

    meta = {"corpus": CORPUS, "wheel_sha256": WHEEL_SHA256, "ctrs": __version__, "tier": tier, "llm": llm_on,
            "cutile": targets.current().version}

    def write() -> None:
        meta.update(translate_s=round(sum(k.translate_s for k in ks), 2), check_s=round(sum(k.check_s for k in ks), 2))
        if out is None:
            return
        png = f"corpus-{CORPUS}.png"
        render_png(ks, out / png)
        _write(out / f"corpus-{CORPUS}.md", render_md(ks, meta, png))
        doc = {"summary": summary(ks), "meta": meta, "triage": triage(ks),
               "blockers": [dict(zip(("kernels", "code", "message", "example"), r)) for r in blocker_table(ks)],
               "kernels": [asdict(k) for k in ks]}
        _write(out / f"corpus-{CORPUS}.json", json.dumps(doc, indent=1, sort_keys=True) + "\n")

    if tier == "check":
        todo = [k for k in ks if spec_file(k).exists() and (only is None or re.search(only, f"{k.file}:{k.name}"))]
        if keep is not None:
            print(f"kept the check rows of {keep_checks(ks, keep, {id(k) for k in todo})} kernels from {keep}",
                  file=sys.stderr)
        for k in todo:  # refused kernels: their specs are only counted (not translated), no cargo run
            if k.tier == "refused":
                check_kernel(k, src)
        # the operators NVIDIA ported to cutile-rs by hand first: a partial run still proves those
        todo = sorted((k for k in todo if k.tier != "refused"), key=lambda k: not re.search(HAND_PORTED, k.file))
        prog = Progress(len(todo), "check")
        for k in todo:
            prog.step(f"{k.file.split('/ops/', 1)[-1]}:{k.name}")
            check_kernel(k, src)
            write()  # a long run leaves a report after every kernel
        prog.done()
    write()
    return ks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="example: .venv/bin/python benchmarks/corpus.py --tier check")
    ap.add_argument("--corpus", choices=sorted(CORPORA), default="tilegym", help="which corpus (default tilegym)")
    ap.add_argument("--tier", choices=["translate", "check"], default="check",
                    help="translate only, or translate + ctrs check with the committed specs (default)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results"), help="report directory")
    ap.add_argument("--llm", action="store_true", help="translate with the LLM fallback (OPENAI_BASE_URL, ...)")
    ap.add_argument("--only", metavar="REGEX", help="check tier: only kernels whose 'file:kernel' matches")
    ap.add_argument("--keep", metavar="JSON", help="check tier with --only: kernels not re-checked keep their rows "
                    "from this earlier corpus-*.json")
    ap.add_argument("--check-ratchet", action="store_true", help="exit 1 if rules-only counts drop below ratchet.json")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, metavar="N",
                    help="translate runs at a time, in worker processes (default: one per CPU; 1: in this process)")
    ap.add_argument("--cutile", metavar="VERSION", help="cutile target profile to translate and check for "
                    "(default: ctrs's default, 0.5.0)")
    a = ap.parse_args(argv)
    select(a.corpus)
    from ctrs import errors, targets  # noqa: PLC0415

    try:
        with targets.using(a.cutile):
            ks = run(a.tier, Path(a.out), a.llm, a.only, keep=Path(a.keep) if a.keep else None, jobs=a.jobs)
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
