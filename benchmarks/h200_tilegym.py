"""H200 benchmark of the proven TileGym operators (issue 14): ctrs ports against cuTile Python on one GPU.

Two steps around one GPU-host run (GPU time is scarce: one bundle, one run, every measurement):

    .venv/bin/python benchmarks/h200_tilegym.py bundle -o .gpu-tilegym     # here: translate, build, pack
    <the host command it prints>                                            # on the H200 (ctrs gpu_host)
    .venv/bin/python benchmarks/h200_tilegym.py report REPORT_DIR          # here: the results files

``bundle`` takes every TileGym cuTile kernel that the corpus benchmark proved (benchmarks/results/
corpus-tilegym-1.5.1.json: check rows EQUIVALENT), with exactly its EQUIVALENT specs (the committed specs
under benchmarks/corpus/tilegym-1.5.1/, made from TileGym's own host code and sizes), and runs ``ctrs bundle``
on the per-kernel variants the corpus benchmark translates (the TileGym file in the ctrs cache, its other
kernels' decorators commented out; the reference travels with the files of its package it imports), and every
TileGym Triton kernel translated by rules with its committed specs (benchmarks/corpus/tilegym-1.5.1/triton/, no
reference Tile IR: the host compares the port with the @triton.jit original; ports ``_ctrs_triton_<stem>__<kernel>``,
no captured test shapes; their rows are summed up apart from the cuTile headline). The
host runs numerics on every spec plus hypothesis-drawn shapes, CUPTI device time interleaved against
``ct.launch`` of the same kernel on the same inputs, and the launch overhead of the generated wrapper.

``report`` writes ``benchmarks/results/h200-tilegym-1.5.1.{md,json,png}``: one row per operator x config and
the summary line ``geomean G over N configs of K operators, min M (operator)`` (ratio = cuTile Python device
time / port device time; > 1: the port is faster).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402 - the corpus benchmark's fetch / spec layout
import corpus_specs  # noqa: E402 - the host calls the committed specs were captured from
import tilegym_sizes  # noqa: E402 - TileGym's test shapes and benchmark sizes
from moe_align_inputs import dumps as dumps_with_values  # noqa: E402 - indent 1, each spec "values" list on one line

RESULTS = ROOT / "benchmarks" / "results"


def proven(data: dict) -> list[tuple[dict, list[str]]]:
    """(kernel row, spec names) of every kernel the H200 run compares: each cuTile kernel with at least one
    EQUIVALENT spec (those specs), then each Triton kernel translated by rules with committed specs (all of them: a
    Triton kernel has no cuTile Python counterpart, so no reference Tile IR -- the H200 compares its port with the
    @triton.jit original). A Triton-only corpus (unsloth) has only the latter."""
    cutile = [] if TRITON_ONLY.get(corpus.CORPUS.split("-")[0], False) else _proven_cutile(data)
    return cutile + _proven_triton(data)


def _proven_triton(data: dict) -> list[tuple[dict, list[str]]]:
    out = []
    for k in data["kernels"]:
        if k["front"] != "triton" or k["tier"] != "rules":
            continue
        kern = corpus.Kernel(k["front"], k["file"], k["name"], k["line"], k["family"])
        names = [s["name"] for s in corpus.committed_specs(kern)]
        if names:
            out.append((k, names))
    return out


TRITON_ONLY = {"tilegym": False, "unsloth": True}  # corpora whose kernels have no cuTile Python counterpart


def stem() -> str:
    """The results files' stem: h200-tilegym-1.5.1, h200-unsloth-triton-2026.10.9."""
    name, _, version = corpus.CORPUS.partition("-")
    return f"h200-{name}-triton-{version}" if TRITON_ONLY.get(name) else f"h200-{corpus.CORPUS}"


def _proven_cutile(data: dict) -> list[tuple[dict, list[str]]]:
    out = []
    for k in data["kernels"]:
        names = [c["spec"] for c in k.get("check", []) if c["verdict"] == "EQUIVALENT"]
        if k["front"] == "cutile" and k["tier"] != "refused" and names:
            out.append((k, names))
    return out


TRITON_PORT = "_ctrs_triton_"  # a Triton port's prefix in a corpus with cuTile kernels too (tilegym)


def port_name(k: dict) -> str:
    """``_ctrs_<file stem>__<kernel>``; a Triton kernel of a corpus that also has cuTile kernels is
    ``_ctrs_triton_<file stem>__<kernel>``: TileGym's cutile/rms_norm.py and triton/rms_norm.py both define
    ``_rms_norm_kernel_static_persistent``, and the two ports (and their variants, spec files, bundle dirs) must not
    share a name."""
    prefix = TRITON_PORT if k["front"] == "triton" and "cutile" in corpus.TREES else "_ctrs_"
    return f"{prefix}{Path(k['file']).stem}__{k['name']}"


def operator(port: str) -> str:
    """``_ctrs_softmax__softmax_kernel`` -> ``softmax``; ``_ctrs_triton_rms_norm__x`` -> ``rms_norm``."""
    return port.removeprefix(TRITON_PORT).removeprefix("_ctrs_").split("__", 1)[0]


def front(port: str) -> str:
    """``triton`` for a port whose reference is a @triton.jit kernel (a ``_ctrs_triton_`` port, every port of a
    Triton-only corpus), else ``cutile``."""
    return "triton" if port.startswith(TRITON_PORT) or TRITON_ONLY.get(corpus.NAME, False) else "cutile"


SHAPES = corpus.COMMITTED / "h200"  # TileGym's captured test / benchmark / drawn specs per kernel file (cmd_shapes)


def shapes_dir() -> Path:
    """Captured test / benchmark / drawn specs per kernel file (cmd_shapes; for unsloth, corpus_specs_unsloth)."""
    return SHAPES if corpus.NAME == "tilegym" else corpus.COMMITTED / "h200"


FUZZ_PER_CALL = 4  # drawn shapes kept per committed host call (the reference must compile there)
FUZZ_MAX_ELEMENTS = 1 << 24  # no drawn tensor above this (GPU run time)


def kernel_path(src: Path, rel: str) -> Path:
    return src / corpus.TREES["cutile"] / rel


def capture_call(path: Path, call: str) -> tuple[list[dict], str]:
    """The kept specs (corpus_specs.keep) of one host call, or ([], the error line). In this process."""
    from ctrs.workflow import capture  # noqa: PLC0415
    from ctrs import errors  # noqa: PLC0415

    try:
        specs, _ = capture.capture_file(path, [call])
    except errors.CtrsError as e:
        return [], f"{e.code}: {e.message}"
    out = corpus_specs.keep([s.to_json() for s in specs])
    for s in out:  # the call is recorded next to its specs; launch sites depend on what the process ran before
        s.pop("sites", None)
    return out, ""


def reference_compiles(path: Path, spec: dict) -> str:
    """'' when cuTile Python compiles the kernel for ``spec`` on this CPU (a drawn size the kernel's own
    rules reject -- a non-power-of-two tile -- is no test of the port), else the first error line."""
    from ctrs.verify import ir_ref  # noqa: PLC0415
    from ctrs import spec as specmod  # noqa: PLC0415

    try:
        ir_ref.compile_reference(path, specmod.parse_spec(spec, spec["name"]))
    except Exception as e:  # noqa: BLE001 - the reference's own refusal, recorded
        return (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
    return ""


HAND_DIR = ROOT / "benchmarks" / "tilegym_hand"


def hand_sizes(rel: str):
    """The module of hand-written test shapes / benchmark sizes of kernel file ``rel`` (``tilegym_hand/<rel with
    / as __>.py``: ``TESTS`` and ``BENCH``, lists of (label, [spec, ...])), or None. For files whose host code
    cannot run on a CPU (it reads the device's properties or allocates on CUDA), so ``ctrs specs`` cannot capture
    the launches: the specs are written from the host code, as corpus_specs.HAND does for the committed ones."""
    f = HAND_DIR / (rel.removesuffix(".py").replace("/", "__") + ".py")
    if not f.exists():
        return None
    import importlib.util  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location(f"tilegym_hand_{f.stem}", f)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def shapes_of(src: Path, rel: str, fuzz: int, log=print, drawn: dict | None = None) -> dict:
    """One kernel file's captured test shapes, benchmark sizes and drawn shapes (every kernel it launches).

    Drawn shapes: for each committed host call (corpus_specs.CALLS), ``shapes.draw`` new extents (tile tails
    around the call's own tile constants), captured again so the host code recomputes grid and constants;
    a drawn spec is kept when cuTile Python compiles the kernel there, named ``<the call's spec>@<sizes>``.
    ``drawn``: an earlier capture of the file whose drawn shapes (and their rejections) are kept as they are."""
    from ctrs.gpu import shapes  # noqa: PLC0415

    path = kernel_path(src, rel)
    out: dict = {"file": rel, "tests": [], "bench": [], "fuzz": [], "rejected": []}
    for role, calls in (("tests", tilegym_sizes.TESTS.get(rel, [])), ("bench", tilegym_sizes.BENCH.get(rel, []))):
        for call in calls:
            specs, err = capture_call(path, call)
            out[role].append({"call": call, "specs": specs, **({"error": err} if err else {})})
            log(f"{rel} {role}: {call[:90]}: {len(specs)} specs {err}")
    hand = hand_sizes(rel)
    for role in ("tests", "bench"):
        for label, specs in getattr(hand, role.upper(), []):
            out[role].append({"call": f"hand: {label}", "specs": specs})
            log(f"{rel} {role}: hand: {label[:90]}: {len(specs)} specs")
    if drawn is not None:
        return {**out, "fuzz": drawn.get("fuzz", []), "rejected": drawn.get("rejected", [])}
    for ci, call in enumerate(corpus_specs.CALLS.get(rel, [])):
        base_specs, err = capture_call(path, call)
        if err:
            continue
        groups = shapes.extent_groups(call)
        tiles = sorted({t for s in base_specs for t in shapes.tile_constants(s)})
        kept: dict[str, int] = {}
        for sizes in shapes.draw(call, 4 * fuzz, tiles=tiles, max_elements=FUZZ_MAX_ELEMENTS, seed=ci + 1):
            if all(kept.get(s["kernel"], 0) >= fuzz for s in base_specs):
                break
            drawn = shapes.with_sizes(call, sizes)
            specs, err = capture_call(path, drawn)
            for s in specs:
                base = next((b for b in base_specs if b["kernel"] == s["kernel"]), None)
                if base is None or kept.get(s["kernel"], 0) >= fuzz:
                    continue
                s["name"] = fit_name(base["name"], f"@{shapes.label(groups, sizes)}")
                why = reference_compiles(path, s)
                if why:
                    out["rejected"].append({"call": drawn, "kernel": s["kernel"], "why": why})
                    continue
                kept[s["kernel"]] = kept.get(s["kernel"], 0) + 1
                out["fuzz"].append({"call": drawn, "base": base["name"], "spec": s})
            if err:
                out["rejected"].append({"call": drawn, "why": err})
        log(f"{rel} fuzz: {call[:90]}: {kept}")
    return out


def cmd_shapes(a) -> int:
    from ctrs import toolchain  # noqa: PLC0415

    src = corpus.fetch(toolchain.cache_root() / "corpus" / corpus.CORPUS)
    data = json.loads((RESULTS / f"corpus-{corpus.CORPUS}.json").read_text())
    files = a.files or sorted({str(Path(k["file"]).relative_to(corpus.TREES["cutile"])) for k, _ in proven(data)})
    for rel in files:
        # host calls to capture: the committed ones (CALLS), or TileGym's own (tilegym_sizes) for a file whose
        # committed specs are hand-written although its host code runs on a CPU (attention_variant.py), or a hand module
        if (rel not in corpus_specs.CALLS and rel not in tilegym_sizes.TESTS and rel not in tilegym_sizes.BENCH
                and hand_sizes(rel) is None):
            if not a.files:  # every proven file: one without a way to capture is named, the others go on
                print(f"note: {rel}: no host calls in corpus_specs.CALLS or tilegym_sizes and no "
                      "benchmarks/tilegym_hand module: no test shapes, benchmark sizes or drawn shapes")
                continue
            print(f"error[CTRS-E361]: {rel}: no host calls in benchmarks/corpus_specs.py CALLS or "
                  "benchmarks/tilegym_sizes.py and no benchmarks/tilegym_hand module (hint: name a file under "
                  "tilegym/ops/cutile that CALLS lists)", file=sys.stderr)
            return 2
        dest = shapes_dir() / Path(rel).with_suffix(".json")
        res = shapes_of(src, rel, a.fuzz, drawn=json.loads(dest.read_text()) if a.keep_drawn and dest.exists() else None)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(dumps_with_values(res))  # hand specs' routing "values" (tilegym_hand/moe.py) one line each
        print(f"{rel}: {sum(len(x['specs']) for x in res['tests'])} test specs, "
              f"{sum(len(x['specs']) for x in res['bench'])} benchmark specs, {len(res['fuzz'])} drawn "
              f"({len(res['rejected'])} rejected) -> {dest.relative_to(ROOT)}")
    return 0


NAME_MAX = 200  # spec_schema's limit on a spec name


def fit_name(base: str, suffix: str) -> str:
    """``base + suffix`` within NAME_MAX: a long base is cut and kept unique by a hash of it."""
    if len(base) + len(suffix) <= NAME_MAX:
        return base + suffix
    return f"{base[:NAME_MAX - len(suffix) - 17]}_{hashlib.sha1(base.encode()).hexdigest()[:16]}{suffix}"


def _body(spec: dict) -> str:
    return json.dumps({k: v for k, v in spec.items() if k not in ("name", "sites")}, sort_keys=True)


def spread(items: list, n: int | None) -> list:
    """At most ``n`` of ``items``, evenly spaced over the list (its first and last kept): a TileGym sweep cut to
    ``n`` points still spans its smallest and largest sizes."""
    if n is None or len(items) <= n:
        return items
    if n <= 1:
        return items[:n]
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


def shape_specs(rel: str, kernel: str, proven: list[dict], caps: dict | None = None,
                timed: set[str] = frozenset()) -> tuple[list[dict], list[dict]]:
    """(benchmark-size specs to time, test-shape + drawn specs to verify) of ``kernel`` from the committed
    capture of its file. A spec equal to one already taken (the ``proven`` EQUIVALENT specs first) is left out;
    one whose captured name is taken by another spec (captured names show one array's shape) gets a suffix.
    ``caps``: at most so many ``bench`` / ``tests`` / ``drawn`` specs (``spread`` over each list); ``timed``:
    benchmark-size configs already measured (left out, before the cap)."""
    caps = caps or {}
    f = shapes_dir() / Path(rel).with_suffix(".json")
    if not f.exists() or any(isinstance(a, dict) and isinstance(a.get("values"), list)
                             for p in proven for a in p["args"].values()):
        return [], []  # none captured, or inputs that must agree (spec "values" data): captured shapes hold random ones
    d = json.loads(f.read_text())
    content = {p["name"]: _body(p) for p in proven}  # name -> the spec it names
    bodies = set(content.values())

    def pick(specs):
        out = []
        for s in specs:
            if s["kernel"] != kernel:
                continue
            body = _body(s)
            if body in bodies:
                continue
            name = s["name"]
            if name in content:  # same name, other arrays (bmm: B's n): keep both
                name = fit_name(name, f"_{hashlib.sha1(body.encode()).hexdigest()[:8]}")
            bodies.add(body)
            content[name] = body
            out.append(dict(s, name=name))
        return out

    bench = spread([s for s in pick([s for x in d["bench"] for s in x["specs"]]) if s["name"] not in timed],
                   caps.get("bench"))
    tests = [dict(s, name=fit_name(s["name"], "@test"))
             for s in spread(pick([s for x in d["tests"] for s in x["specs"]]), caps.get("tests"))]
    return bench, tests + spread(pick([x["spec"] for x in d["fuzz"]]), caps.get("drawn"))


def cmd_bundle(a) -> int:
    from ctrs import toolchain  # noqa: PLC0415

    data = json.loads((RESULTS / f"corpus-{corpus.CORPUS}.json").read_text())
    src = corpus.fetch(toolchain.cache_root() / "corpus" / corpus.CORPUS)
    work = toolchain.cache_root() / f"h200-{corpus.CORPUS}"
    (work / "specs").mkdir(parents=True, exist_ok=True)
    args = []
    caps = {"bench": a.max_bench, "tests": a.max_tests, "drawn": a.max_drawn}
    timed: dict[str, set[str]] = {}  # kernel -> configs with a device-time row in --skip-timed
    for r in json.loads(Path(a.skip_timed).read_text())["rows"] if a.skip_timed else []:
        timed.setdefault(r["kernel"], set()).add(r["config"])
    for k, names in proven(data):
        path = src / k["file"]
        variant = path.with_name(f"{port_name(k)}.py")
        variant.write_text(corpus.isolate(path, k["front"], k["name"]))
        kern = corpus.Kernel(k["front"], k["file"], k["name"], k["line"], k["family"])
        specs = [s for s in corpus.committed_specs(kern) if s["name"] in names]  # this kernel's (names repeat per file)
        if a.only and not {operator(port_name(k)), k["name"], port_name(k), front(port_name(k))} & set(a.only):
            continue
        rel = str(Path(k["file"]).relative_to(corpus.TREES[k["front"]]))
        if k["front"] == "cutile" and not (shapes_dir() / Path(rel).with_suffix(".json")).exists():
            print(f"note: {rel} has no captured test shapes, benchmark sizes or drawn shapes "
                  f"(run: .venv/bin/python benchmarks/h200_tilegym.py shapes {rel})")
        # captured TileGym shapes are cuTile calls (h200/<file>.json): a Triton kernel of the same file stem gets
        # none; a Triton-only corpus's h200/ holds its own drawn shapes (corpus_specs_unsloth.py)
        bench, numerics = shape_specs(rel, k["name"], specs, caps, timed.get(k["name"], set())) \
            if k["front"] == "cutile" or "cutile" not in corpus.TREES else ([], [])
        sf = work / "specs" / f"{port_name(k)}.json"
        sf.write_text(json.dumps(specs, indent=1, sort_keys=True) + "\n")
        for role, extra in (("bench", bench), ("numerics", numerics)):  # ctrs bundle carries them (bundle.EXTRA_SPECS)
            ef = sf.with_name(f"{sf.stem}.{role}.json")
            ef.unlink(missing_ok=True)
            if extra:
                ef.write_text(json.dumps(extra, indent=1, sort_keys=True) + "\n")
        args.append(f"{variant}={sf}")
        kind = "EQUIVALENT" if k["front"] == "cutile" else "committed (vs the @triton.jit original)"
        print(f"{k['file']}:{k['name']}: {len(specs)} {kind} specs, {len(bench)} benchmark sizes, "
              f"{sum('@test' in s['name'] for s in numerics)} test shapes, "
              f"{sum('@test' not in s['name'] for s in numerics)} drawn shapes")
    if not args:
        print("no proven TileGym kernel (run benchmarks/corpus.py --tier check first)", file=sys.stderr)
        return 1
    return subprocess.call([sys.executable, "-m", "ctrs.workflow.cli", "bundle", *args, "-o", a.output, "--keep-going"])


TRANSFER = 64 * 2**20  # one device call carries at most this much
CALL_S = 600  # one device call runs at most this long


def split_kit(kit: Path, out: Path, first: int) -> int:
    """``kit``/kit.tar.xz cut in two for a device transfer limit: ``out``/part0/kit.tar.xz.0 (its first ``first``
    bytes, carried alone by call 0) and ``out``/part1 (the rest, kit.tar.xz.1, with the wheels and the whole
    archive's sha256, carried by call 1, which joins and checks them). Returns the first part's size."""
    data = (kit / "kit.tar.xz").read_bytes()
    shutil.rmtree(out, ignore_errors=True)
    (out / "part0").mkdir(parents=True)
    (out / "part1").mkdir()
    (out / "part0" / "kit.tar.xz.0").write_bytes(data[:first])
    (out / "part1" / "kit.tar.xz.1").write_bytes(data[first:])
    (out / "part1" / "kit.sha256").write_text(hashlib.sha256(data).hexdigest() + "\n")
    shutil.copytree(kit / "wheels", out / "part1" / "wheels")
    return min(first, len(data))


def cmd_plan(a) -> int:
    """Two device calls for a built bundle: call 1 carries the kit, the wheels and as many ports as fit beside them
    in one transfer (stage2a) and runs them right after unpacking the kit; call 2 carries the other ports
    (stage2b) and runs them on the same, still warm, machine. Each call starts nothing new after ``--budget-s``."""
    from ctrs.gpu import bundle  # noqa: PLC0415

    out = Path(a.bundle)
    kit = out / "kit"
    fixed = sum(f.stat().st_size for f in [kit / "kit.tar.xz", *sorted((kit / "wheels").glob("*.whl"))])
    tree = bundle.tree_bytes(ROOT)
    margin = 1 << 20
    rel = bundle.display_path(out)
    call0 = split_kit(kit, out / "kit-split", TRANSFER - tree - margin) if fixed + tree + margin > TRANSFER else None
    if call0 is not None:  # the kit and the repository exceed one transfer: its first part goes ahead alone
        fixed -= call0
    room = TRANSFER - fixed - tree - margin
    ports = sorted(p.name for p in (out / "ports").iterdir() if (p / "bundle.json").exists())
    alone = {}
    for name in ports:  # each port packed alone: an upper bound of what it adds to a joint archive
        alone[name] = bundle.pack_ports(out / "ports", out / "plan-tmp" / name, [name]).stat().st_size
    shutil.rmtree(out / "plan-tmp")
    first: list[str] = []
    for name in sorted(ports, key=lambda n: (alone[n], n)):
        if sum(alone[n] for n in first) + alone[name] <= room:
            first.append(name)
    second = [n for n in ports if n not in first]
    if not second:  # everything fits beside the kit: call 2 runs nothing
        second, first = first, []
    stages = [("stage2a", first), ("stage2b", second)]
    for st, names in stages:
        if names:
            target = bundle.pack_ports(out / "ports", out / st, names)
            print(f"{st}: {len(names)} ports, {target.stat().st_size / 2**20:.2f} MiB: {', '.join(names)}")
    if call0 is None:
        call1 = [f"{rel}/kit", *([f"{rel}/stage2a"] if first else [])]
        cmd1 = bundle.host_setup_command(f"{rel}/kit")
    else:
        part0, part1 = f"{rel}/kit-split/part0", f"{rel}/kit-split/part1"
        print(f"device call 0 (carry {json.dumps([part0])}, timeout 120; the kit's first {call0 / 2**20:.2f} MiB, "
              f"kept on the machine for call 1):\nmkdir -p /tmp/ctrs-kitparts && cp {part0}/kit.tar.xz.0 "
              "/tmp/ctrs-kitparts/")
        call1 = [part1, *([f"{rel}/stage2a"] if first else [])]
        cmd1 = (f"[ -f /tmp/ctrs-kitparts/kit.tar.xz.0 ] || {{ echo 'call 0 (the first part of the kit) is missing: run it "
                f"first'; exit 3; }}; cat /tmp/ctrs-kitparts/kit.tar.xz.0 {part1}/kit.tar.xz.1 > /tmp/ctrs-kit.tar.xz; "
                f"echo \"$(cat {part1}/kit.sha256)  /tmp/ctrs-kit.tar.xz\" | sha256sum -c --quiet; "
                + bundle.host_setup_command(part1, "/tmp/ctrs-kit.tar.xz"))
    if first:
        cmd1 += "; " + bundle.host_command(f"{rel}/stage2a", a.fuzz, a.reps, a.budget_s)
    cmd2 = bundle.host_command(f"{rel}/stage2b", a.fuzz, a.reps, a.budget_s)
    print(f"kit + wheels {fixed / 2**20:.2f} MiB, working tree {tree / 2**20:.2f} MiB, room for ports "
          f"{room / 2**20:.2f} MiB")
    print(f"device call 1 (carry {json.dumps(call1)}, timeout {CALL_S}):\n{cmd1}")
    print(f"device call 2 (carry {json.dumps([f'{rel}/stage2b'])}, timeout {CALL_S}; right after call 1, same "
          f"machine):\n{cmd2}")
    print("then: .venv/bin/python benchmarks/h200_tilegym.py report " + ("CALL1_FILES_AT " if first else "")
          + "CALL2_FILES_AT")
    return 0


def merged(dirs: list[str]) -> dict:
    """One report from the gpu_report.json of each device call (checks, timings, overhead side by side). The calls
    may split one port's work (``gpu host --phases``: proven specs in one call, benchmark sizes in another, numerics
    in a third), so rows are merged per (port, spec): a spec measured again by a later call keeps only that call's
    check and timing, so no config is counted twice; a port's launch overhead is the last call's that measured it."""
    out: dict = {"checks": [], "timings": [], "overhead_us": {}}
    for d in dirs:
        r = json.loads((Path(d) / "gpu_report.json").read_text())
        out["device"] = out.get("device") or r.get("device")
        for key in ("checks", "timings"):
            again = {(x["port"], x["spec"]) for x in r.get(key, [])}
            out[key] = [x for x in out[key] if (x["port"], x["spec"]) not in again] + r.get(key, [])
        out["overhead_us"].update(r.get("overhead_us") or {})
    return out


def rows_of(report: dict) -> list[dict]:
    checks: dict[tuple[str, str], list[dict]] = {}
    fuzz: dict[tuple[str, str], list[dict]] = {}  # hypothesis-drawn shapes are named "<spec>@<shape>"
    for c in report.get("checks", []):
        base, at, _ = c["spec"].partition("@")
        (fuzz if at else checks).setdefault((c["port"], base), []).append(c)
    rows, bench = [], bench_names()  # read once: it parses every captured h200/*.json
    for t in report.get("timings", []):
        base = checks.get((t["port"], t["spec"]), [])
        fz = fuzz.get((t["port"], t["spec"]), [])
        over = (report.get("overhead_us") or {}).get(t["port"]) or {}
        rows.append({"operator": operator(t["port"]), "kernel": t["port"].split("__", 1)[-1], "config": t["spec"],
                     "front": front(t["port"]),
                     "ref_us": t["ref_median_us"], "port_us": t["port_median_us"], "ratio": t["ratio"],
                     "numerics": ("pass" if base and all(c["ok"] for c in base) else "FAIL" if base else "-")
                     + (" (bitwise)" if base and all(c["bitwise"] for c in base)
                        else f" (<= {max(c.get('max_ulp', 0) for c in base)} ulp)"
                        if base and any(c.get("max_ulp") for c in base) else ""),
                     "fuzz": f"{sum(c['ok'] for c in fz)}/{len(fz)}",
                     "launch_ct_us": over.get("ct.launch"), "launch_port_us": over.get("port wrapper"),
                     "launch_port_slow_us": over.get("port wrapper, CTRS_FFI_FAST=0"),
                     "launch_port_validated_us": over.get("port wrapper, CTRS_FFI_XC=0"),
                     "sizes": "benchmark" if t["spec"] in bench else "proven"})
    return sorted(rows, key=lambda r: (r["front"], r["operator"], r["kernel"], r["sizes"] != "proven", r["config"]))


def untimed_failures(report: dict) -> list[dict]:
    """Failed checks of proven specs and benchmark sizes (no ``@`` in the name) that have no timing row: a
    failing check stops the timing, so without this list such a config would vanish from the report."""
    timed = {(t["port"], t["spec"]) for t in report.get("timings", [])}
    bench = bench_names()
    return [{"operator": operator(c["port"]), "kernel": c["port"].split("__", 1)[-1], "front": front(c["port"]),
             "spec": c["spec"], "detail": c.get("detail", ""),
             "sizes": "benchmark" if c["spec"] in bench else "proven"}
            for c in report.get("checks", []) if "@" not in c["spec"] and not c["ok"]
            and (c["port"], c["spec"]) not in timed]


def row_key(r: dict) -> tuple[str, str, str]:
    """(operator, kernel, front) of a results row: TileGym's cuTile and Triton rms_norm.py share a kernel name."""
    return r["operator"], r["kernel"], r.get("front", "cutile")


def bench_names() -> set[str]:
    """Names of the captured TileGym benchmark-size specs (benchmarks/corpus/tilegym-1.5.1/h200/)."""
    return {s["name"] for f in sorted(shapes_dir().rglob("*.json")) for x in json.loads(f.read_text())["bench"]
            for s in x["specs"]}


def numerics_rows(report: dict) -> list[dict]:
    """Per port: the numerics-only checks -- TileGym test shapes (``<spec>@test``) and shapes drawn from the host
    calls (``<spec>@<sizes>``) -- ok / bitwise / n, and the failures by name."""
    per: dict[str, dict] = {}
    for c in report.get("checks", []):
        base, at, tag = c["spec"].partition("@")
        if not at:
            continue
        r = per.setdefault(c["port"], {"operator": operator(c["port"]), "kernel": c["port"].split("__", 1)[-1],
                                       "front": front(c["port"]),
                                       "tests": [0, 0, 0], "drawn": [0, 0, 0], "failed": [], "test_shapes": [],
                                       "max_ulp": 0})
        r["max_ulp"] = max(r["max_ulp"], c.get("max_ulp", 0))
        acc = r["tests" if tag == "test" else "drawn"]
        acc[0] += c["ok"]
        acc[1] += c["bitwise"]
        acc[2] += 1
        if tag == "test":
            r["test_shapes"].append(base)
        if not c["ok"]:
            r["failed"].append(f"{c['spec']}: {c.get('detail', '')}")
    return [per[p] for p in sorted(per)]


def geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def summary(rows: list[dict]) -> str:
    """The headline over every timed config; with benchmark sizes among them, the proven specs' and the
    benchmark sizes' geomeans after it. In a corpus with cuTile kernels, the Triton ports' rows (ratio: Triton
    time / port time) are left out of the headline and summed up after it, per kernel."""
    mixed = not TRITON_ONLY.get(corpus.NAME, False)
    tri = [r for r in rows if mixed and r.get("front") == "triton"]
    rows = [r for r in rows if not (mixed and r.get("front") == "triton")]
    line = _summary(rows)
    parts = [(w, [r for r in rows if r.get("sizes", "proven") == w]) for w in ("proven", "benchmark")]
    if all(sub for _, sub in parts):
        line += "; " + "; ".join(f"{w}: {_summary(sub)}" for w, sub in parts)
    if tri:
        line += f"; Triton ports vs their @triton.jit originals: {_summary(tri, per_kernel=True)}"
    return line


def _summary(rows: list[dict], per_kernel: bool | None = None) -> str:
    # a Triton corpus is counted per kernel (issue 18's summary line)
    triton = TRITON_ONLY.get(corpus.NAME, False) if per_kernel is None else per_kernel
    ops: dict[str, list[float]] = {}
    for r in rows:
        ops.setdefault(r["kernel" if triton else "operator"], []).append(r["ratio"])
    per_op = {o: geomean(v) for o, v in ops.items()}
    worst = min(per_op, key=per_op.get) if per_op else "-"
    return (f"geomean {geomean([r['ratio'] for r in rows]):.3f} over {len(rows)} configs of {len(ops)} "
            f"{'kernels' if triton else 'operators'}, min {per_op.get(worst, float('nan')):.3f} ({worst})")


def launch_summary(rows: list[dict]) -> str:
    """Launch overhead per port (its figures are per port, repeated on its rows): how many ports' wrapper is at
    most the reference launcher, the geomean of wrapper / launcher and the worst port."""
    per: dict[tuple[str, str, str], tuple[float, float]] = {}
    for r in rows:
        if isinstance(r.get("launch_ct_us"), (int, float)) and isinstance(r.get("launch_port_us"), (int, float)):
            per[row_key(r)] = (r["launch_ct_us"], r["launch_port_us"])
    if not per:
        return "launch overhead: not measured"
    ratio = {k: p / c for k, (c, p) in per.items()}
    worst = max(ratio, key=ratio.get)
    return (f"launch overhead: wrapper <= reference launcher on {sum(v <= 1 for v in ratio.values())} of {len(per)} "
            f"ports, geomean wrapper / launcher {geomean(list(ratio.values())):.3f}, max {ratio[worst]:.3f} "
            f"({worst[1]}: {per[worst][1]:.2f} vs {per[worst][0]:.2f} µs)")


SLOW = 0.95  # issue 14: a config below this is explained (IR-diff finding + plan) in the results file


def explanations() -> list[dict]:
    """The committed explanations of configs below SLOW (``<corpus>/h200-explained.json``: per kernel, optionally a
    config substring, the IR-diff or SASS finding and the plan); none for a corpus without the file."""
    path = corpus.COMMITTED / "h200-explained.json"
    return json.loads(path.read_text()) if path.exists() else []


def note_for(notes: list[dict], kernel: str, config: str, front_: str, check: bool = False) -> dict | None:
    """The committed note of a config (a slow one; ``check``: a failed check): same kernel, its ``config``
    substring in the config's name, its ``front`` (default cutile) the row's."""
    return next((n for n in notes if n["kernel"] == kernel and n.get("config", "") in config
                 and n.get("front", "cutile") == front_ and bool(n.get("check")) == check), None)


def _why(note: dict | None, what: str) -> str:
    return f"{note['finding']} Plan: {note['plan']}" if note else f"UNEXPLAINED: no {what} recorded yet"


def slow_section(rows: list[dict], notes: list[dict]) -> list[str]:
    """One line per config below SLOW with its explanation; a config no note covers says so (never dropped). In a
    corpus with cuTile kernels the Triton ports' configs (ratio against @triton.jit, no reference Tile IR) are
    listed apart, after the cuTile ones."""
    mixed = not TRITON_ONLY.get(corpus.NAME, False)
    out: list[str] = []
    for title, part in ((f"Configs below {SLOW}", [r for r in rows if not mixed or r.get("front") != "triton"]),
                        (f"Triton ports: configs below {SLOW} against their @triton.jit originals",
                         [r for r in rows if mixed and r.get("front") == "triton"])):
        slow = [r for r in part if r["ratio"] < SLOW]
        if not slow:
            continue
        out += ["", f"## {title}", ""]
        for r in sorted(slow, key=lambda r: r["ratio"]):
            note = note_for(notes, r["kernel"], r["config"], r.get("front", "cutile"))
            out.append(f"- {r['kernel']} `{r['config']}` {r['ratio']:.3f}: {_why(note, 'IR-diff finding')}")
    return out


def failures_section(untimed: list[dict], num: list[dict], notes: list[dict], rows: list[dict] = ()) -> list[str]:
    """Every failed check with its explanation: timed configs whose numerics failed, proven specs and benchmark
    sizes that failed before they could be timed, then test / drawn shapes that failed; a failure no note covers
    says so."""
    fails = [(r["kernel"], r["config"], r.get("front", "cutile"), r["numerics"], f"{r.get('sizes', 'proven')} spec, timed")
             for r in rows if r["numerics"].startswith("FAIL")]
    fails += [(u["kernel"], u["spec"], u.get("front", "cutile"), u["detail"], f"{u['sizes']} spec, not timed")
              for u in untimed]
    for r in num:
        for f in r["failed"]:
            spec, _, detail = f.partition(": ")
            fails.append((r["kernel"], spec, r.get("front", "cutile"), detail,
                          "test shape" if spec.endswith("@test") else "drawn shape"))
    if not fails:
        return []
    out = ["", "## Failed checks", ""]
    for kernel, spec, front_, detail, what in fails:
        note = note_for(notes, kernel, spec, front_, check=True)
        out.append(f"- {kernel} `{spec}` ({what}): {detail[:300]} -- {_why(note, 'finding')}")
    return out


def render_md(report: dict, rows: list[dict], num: list[dict] | None = None, untimed: list[dict] | None = None) -> str:
    def us(x):
        return f"{x:.1f}" if isinstance(x, (int, float)) else "-"

    triton = TRITON_ONLY.get(corpus.NAME, False)
    ref, launcher = ("Triton", "Triton's `kernel[grid](...)`") if triton else ("cuTile Python", "`ct.launch`")
    lines = [f"# H200: {corpus.NAME} {corpus.VERSION} {'Triton kernels' if triton else 'operators'}, ctrs ports vs "
             f"{ref} ({report.get('device', '?')})", "",
             summary(rows), "", launch_summary(rows), "",
             f"Ratio = {ref} device time / port device time (CUPTI medians, interleaved; > 1: port faster). "
             f"Numerics: the config's inputs, outputs compared to {launcher} of the original kernel; fuzz: "
             "hypothesis-drawn shapes per port (ok/n). Launch: host wall time per call, median of the runner's "
             f"calls, {launcher} vs the generated wrapper (its exchange path and its C entries' fast path on; the C "
             "fast path off: CTRS_FFI_FAST=0; the exchange path off, i.e. the validated Python path: CTRS_FFI_XC=0), "
             "on the port's smallest spec (the host runner's, or benchmarks/bench_launch.py's for ports given with "
             "`report --launch`; both median 1000 calls per side, interleaved).", "",
             f"| operator | kernel | config | numerics | fuzz ok/n | ref µs | port µs | ratio | launch {ref} µs "
             "| launch port µs | launch port µs, CTRS_FFI_FAST=0 | launch port µs, CTRS_FFI_XC=0 |",
             "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        config = r["config"] + (" (TileGym benchmark size)" if r.get("sizes") == "benchmark" else "")
        op = r["operator"] + (" (Triton)" if not triton and r.get("front") == "triton" else "")
        lines.append(f"| {op} | {r['kernel']} | {config} | {r['numerics']} | {r['fuzz']} | "
                     f"{r['ref_us']:.2f} | {r['port_us']:.2f} | {r['ratio']:.3f} | {us(r['launch_ct_us'])} | "
                     f"{us(r['launch_port_us'])} | {us(r.get('launch_port_slow_us'))} | "
                     f"{us(r.get('launch_port_validated_us'))} |")
    lines += slow_section(rows, explanations())
    num = numerics_rows(report) if num is None else num
    if num:
        lines += ["", "## Numerics only: TileGym test shapes and drawn shapes", "",
                  "Test shapes: TileGym's tests/ops parametrisations (benchmarks/tilegym_sizes.py), captured through its "
                  "host code; drawn: extents of the committed host calls drawn by hypothesis and captured again (grid "
                  "and constants recomputed by the host code). ok / bitwise / n; max ulp: the largest distance in units in the "
                  "last place over every float element of those checks (0: bitwise).", "",
                  "| operator | kernel | test shapes | drawn shapes | max ulp | failures |", "|---|---|---|---|---:|---|"]
        for r in num:
            fails = "; ".join(r["failed"][:3]) + (f" (+{len(r['failed']) - 3})" if len(r["failed"]) > 3 else "")
            lines.append(f"| {r['operator']} | {r['kernel']} | {'/'.join(map(str, r['tests']))} | "
                         f"{'/'.join(map(str, r['drawn']))} | {r['max_ulp']} | {fails or '-'} |")
        lines += ["", "Test shapes run: " + "; ".join(f"{r['kernel']}: {', '.join(r['test_shapes']) or '-'}"
                                                       for r in num)]
    lines += failures_section(untimed_failures(report) if untimed is None else untimed, num, explanations(), rows)
    return "\n".join(lines) + "\n"


def render_png(rows: list[dict], path: Path) -> None:
    """One bar per operator (per kernel in a Triton-only corpus): the geomean of its configs' ratios, a tick at its
    slowest config; hundreds of configs stay readable (the per-config figures are the markdown table)."""
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    triton = TRITON_ONLY.get(corpus.NAME, False)
    groups: dict[str, list[float]] = {}
    for r in rows:
        name = r["kernel"] if triton else r["operator"] + (" (Triton)" if r.get("front") == "triton" else "")
        groups.setdefault(name, []).append(r["ratio"])
    names = sorted(groups, key=lambda n: (n.endswith("(Triton)"), n))
    fig, ax = plt.subplots(figsize=(10, max(3, 0.3 * len(names))))
    ax.barh(range(len(names)), [geomean(groups[n]) for n in names], color="#4c72b0")
    ax.plot([min(groups[n]) for n in names], range(len(names)), "|", color="#c62828", ms=10, label="slowest config")
    ax.axvline(1.0, color="k", lw=0.8)
    ax.axvline(0.95, color="r", lw=0.8, ls="--")
    ax.set_yticks(range(len(names)), [f"{n} ({len(groups[n])})" for n in names], fontsize=7)
    ax.invert_yaxis()
    ax.legend(fontsize=7, loc="lower right")
    ref = "Triton" if triton else "cuTile Python"
    ax.set_xlabel(f"{ref} time / ctrs port time (H200), geomean over the configs (count in brackets)")
    ax.set_title(summary(rows), fontsize=7, wrap=True)
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)


LAUNCH_FIELDS = ("launch_ct_us", "launch_port_us", "launch_port_slow_us", "launch_port_validated_us")


def kept(prev: Path, rows: list[dict], num: list[dict], by_config: bool = False) -> tuple[list[dict], list[dict]]:
    """``report --keep``: an earlier results json's rows (timed configs, numerics-only checks) for the kernels the
    new device calls did not measure, before the new rows (a call per batch of ports over several sessions).
    ``by_config`` (``--keep-configs``): also the earlier rows of measured kernels for the configs the new calls did
    not reach -- only right when those ports' device code is unchanged since (a change to the host launch path
    alone: kernel.rs byte-identical); such a row takes its kernel's new launch figures (they are per port)."""
    old = json.loads(prev.read_text())
    again = {row_key(r) for r in rows + num}

    def key(r: dict) -> tuple:
        return (*row_key(r), r.get("config", r.get("spec")))

    if not by_config:
        return ([r for r in old.get("rows", []) if row_key(r) not in again] + rows,
                [r for r in old.get("numerics", []) if row_key(r) not in again] + num)
    seen = {key(r) for r in rows}
    # launch figures are per port: a kernel the new calls measured takes its new ones everywhere; one they timed
    # without measuring its launch (``--overhead-calls 0``) keeps its earlier ones, on its new rows too
    launch = {row_key(r): {f: r.get(f) for f in LAUNCH_FIELDS} for r in rows
              if any(r.get(f) is not None for f in LAUNCH_FIELDS)}
    for r in old.get("rows", []):
        if any(r.get(f) is not None for f in LAUNCH_FIELDS):
            launch.setdefault(row_key(r), {f: r.get(f) for f in LAUNCH_FIELDS})
    rows = [{**r, **launch.get(row_key(r), {})} for r in rows]
    keep_rows = [{**r, **launch.get(row_key(r), {})} for r in old.get("rows", [])
                 if key(r) not in seen]
    seen_num = {key(r) for r in num}
    return keep_rows + rows, [r for r in old.get("numerics", []) if key(r) not in seen_num] + num


def launch_table(path: Path) -> dict[tuple[str, str], dict]:
    """``report --launch``: the launch figures of a ``benchmarks/bench_launch.py`` run (its markdown table, one
    row per port) as row fields by (operator, kernel)."""
    out = {}
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 10 or not cells[0].startswith("_ctrs_"):
            continue
        try:  # reference launcher, wrapper, CTRS_FFI_FAST=0, CTRS_FFI_XC=0: LAUNCH_FIELDS' order
            figures = [float(c) for c in cells[2:6]]
        except ValueError:
            continue
        out[(operator(cells[0]), cells[0].split("__", 1)[-1], front(cells[0]))] = dict(zip(LAUNCH_FIELDS, figures))
    return out


def cmd_report(a) -> int:
    report = merged(a.report)
    rows, num, untimed = rows_of(report), numerics_rows(report), untimed_failures(report)
    if a.keep:
        rows, num = kept(Path(a.keep), rows, num, by_config=a.keep_configs)
        # an earlier run's untimed failures of kernels these runs did not check again
        checked = {(operator(c["port"]), c["port"].split("__", 1)[-1], front(c["port"])) for c in report["checks"]}
        untimed = [u for u in json.loads(Path(a.keep).read_text()).get("untimed_failures", [])
                   if row_key(u) not in checked] + untimed
    for f in a.launch or []:
        table = launch_table(Path(f))
        rows = [{**r, **table.get(row_key(r), {})} for r in rows]
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{stem()}.json").write_text(json.dumps({"device": report.get("device"), "summary": summary(rows),
                                                  "rows": rows, "numerics": num, "untimed_failures": untimed},
                                                 indent=1, sort_keys=True) + "\n")
    (out / f"{stem()}.md").write_text(render_md(report, rows, num, untimed))
    render_png(rows, out / f"{stem()}.png")
    print(summary(rows))
    print(launch_summary(rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="example: .venv/bin/python benchmarks/h200_tilegym.py bundle -o .gpu-tilegym")
    ap.add_argument("--corpus", choices=sorted(TRITON_ONLY), default="tilegym",
                    help="tilegym: cuTile kernels vs cuTile Python; unsloth: Triton kernels vs Triton (default tilegym)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("bundle", help="bundle the proven operators for the GPU host")
    b.add_argument("-o", "--output", default=".gpu-tilegym")
    b.add_argument("--only", nargs="*", help="operators (file stems), kernel names, port names "
                   "(_ctrs_triton_rms_norm___rms_norm_kernel) or fronts (cutile, triton) to bundle")
    b.add_argument("--max-bench", type=int, metavar="N", help="at most N benchmark sizes per kernel (a spread)")
    b.add_argument("--max-tests", type=int, metavar="N", help="at most N TileGym test shapes per kernel")
    b.add_argument("--max-drawn", type=int, metavar="N", help="at most N drawn shapes per kernel")
    b.add_argument("--skip-timed", metavar="JSON", help="a results json (h200-tilegym-1.5.1.json): leave out the "
                                                       "benchmark sizes it already times (report --keep-configs "
                                                       "keeps those rows)")
    b.add_argument("--cutile", metavar="VERSION", help="cutile target profile to build the ports for (default 0.5.0)")
    b.set_defaults(fn=cmd_bundle)
    sh = sub.add_parser("shapes", help="capture TileGym's test shapes, benchmark sizes and drawn shapes "
                                       "(needs ctrs[specs]: CPU torch)")
    sh.add_argument("files", nargs="*", help="files under tilegym/ops/cutile (default: those of proven kernels)")
    sh.add_argument("--fuzz", type=int, default=FUZZ_PER_CALL, help="drawn shapes per kernel and host call")
    sh.add_argument("--keep-drawn", action="store_true",
                    help="keep the committed capture's drawn shapes; capture only the test shapes and benchmark sizes")
    sh.set_defaults(fn=cmd_shapes)
    p = sub.add_parser("plan", help="split a built bundle into two device calls and print them")
    p.add_argument("bundle", nargs="?", default=".gpu-tilegym")
    p.add_argument("--fuzz", type=int, default=0, help="gpu_host --fuzz (hypothesis on the host; 0: the drawn "
                                                        "shapes shipped in numerics.json only)")
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--budget-s", type=int, default=CALL_S - 120, help="gpu_host --budget-s per call")
    p.set_defaults(fn=cmd_plan)
    r = sub.add_parser("report", help="results files from the host's report directory")
    r.add_argument("report", nargs="+", help="directories with the host runs' gpu_report.json (one per device call)")
    r.add_argument("--out", default=str(RESULTS))
    r.add_argument("--keep", metavar="JSON", help="an earlier results json: its rows of the kernels not measured by "
                   "these runs are kept")
    r.add_argument("--launch", nargs="*", metavar="TXT",
                   help="benchmarks/bench_launch.py outputs: their launch figures replace the rows' of those ports")
    r.add_argument("--keep-configs", action="store_true",
                   help="with --keep: also keep the earlier rows of measured kernels for configs these runs did not "
                        "reach (only when those ports' device code is unchanged, e.g. a host-side change)")
    r.set_defaults(fn=cmd_report)
    a = ap.parse_args(argv)
    from ctrs import targets  # noqa: PLC0415

    corpus.select(a.corpus)

    with targets.using(getattr(a, "cutile", None)):
        return a.fn(a)


if __name__ == "__main__":
    raise SystemExit(main())
