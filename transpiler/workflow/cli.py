"""The ``ctrs`` command line."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import traceback
import warnings
from pathlib import Path

from .. import __version__, errors, toolchain


def _write(path: Path, data: bytes | str) -> None:
    """Write atomically: a reader never sees half a file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".ctrs-tmp")
        tmp.write_bytes(data if isinstance(data, bytes) else data.encode())
        tmp.replace(path)
    except OSError as e:
        raise errors.CtrsError(errors.OUTPUT_WRITE, f"cannot write the output: {e.strerror or e}",
                               "choose a writable -o directory", errors.Loc(str(path))) from e


def _emit_ir(args, results, labels, side: str) -> None:
    from ..verify import tileir_tools  # noqa: PLC0415

    for res, label in zip(results, labels):
        if args.output:
            out = Path(args.output)
            _write(out / f"{label}.{side}.tileirbc", res.bytecode)
            _write(out / f"{label}.{side}.mlir", res.text)
            if args.cubin:
                _write(out / f"{label}.{side}.{args.target}.cubin", tileir_tools.cubin(res.bytecode, args.target))
            print(f"{label}: {out / f'{label}.{side}.mlir'} ({len(res.bytecode)} bytes of bytecode)")
        else:
            if args.cubin:
                tileir_tools.cubin(res.bytecode, args.target)
            sys.stdout.write(res.text)


def cmd_doctor(args) -> int:
    from .. import targets  # noqa: PLC0415

    comps = toolchain.components() + targets.components()
    for c in comps:
        print(c.line())
    missing = [c for c in comps if not c.ok]
    for extra in dict.fromkeys(c.extra for c in missing):  # grouped by the pip extra that brings them
        names = ", ".join(c.name for c in missing if c.extra == extra)
        fix = toolchain.pip_extra(extra) if extra else "see the fix hints above"
        print(f"ctrs doctor: missing: {names} ({fix})", file=sys.stderr)
    return 1 if missing else 0


def _label(spec_arg: str) -> str:
    return "<inline spec>" if spec_arg.lstrip().startswith(("{", "[")) else spec_arg


def cmd_ir_ref(args) -> int:
    from ..verify import ir_ref  # noqa: PLC0415
    from .. import spec  # noqa: PLC0415

    specs = [s for s, _ in spec.unique_specs([(s, _label(args.spec)) for s in spec.load_specs(args.spec)])]
    results = [ir_ref.compile_reference(Path(args.kernel), s) for s in specs]
    _emit_ir(args, results, [s.name for s in specs], "ref")
    return 0


def cmd_ir_rs(args) -> int:
    from ..verify import ir_rs  # noqa: PLC0415
    from .. import spec  # noqa: PLC0415

    specs = [s for s, _ in spec.unique_specs([(s, _label(args.spec)) for s in spec.load_specs(args.spec)])]
    jobs = [(s, args.entry or s.rust.get("entry") or s.kernel) for s in specs]
    results = ir_rs.compile_ports(Path(args.kernel), jobs, args.target, cutile=args.cutile)
    _emit_ir(args, results, [s.name for s in specs], "rs")
    return 0


def cmd_diff_ir(args) -> int:
    from ..verify import irdiff  # noqa: PLC0415

    report = irdiff.diff_files(Path(args.ref), Path(args.gen))
    if args.json:
        print(json.dumps(report.to_json(), indent=2, sort_keys=True))
    else:
        print(report.render())
    return report.exit_code()


def _print_stats(rows: list[dict]) -> None:
    """``--stats``: per entry, how many ops each rule produced."""
    for r in rows:
        total = sum(r["rules"].values())
        print(f"{r['kernel']}: {total} ops")
        for rule, n in sorted(r["rules"].items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {n:4d}  {rule}")


def _translate_dir(args) -> int:
    """``ctrs translate DIR``: every kernel file under DIR, a progress counter on stderr, a summary table."""
    from .. import translate  # noqa: PLC0415
    from .progress import Progress  # noqa: PLC0415

    progress = Progress(0, "translate").callback()
    rows = translate.translate_dir(Path(args.kernel), Path(args.output) if args.output else None, progress,
                                   _llm_config(args), args.force)
    head = ("file", "kernels", "status", "code")
    body = [(r["file"], str(r["kernels"]), r["status"], r["code"] or "-") for r in rows]
    widths = [max(len(x[i]) for x in [head, *body]) for i in range(4)]
    for line in [head, *body]:
        print("  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip())
    ok = sum(r["status"] == "ok" for r in rows)
    print(f"ctrs translate: {ok}/{len(rows)} files translated")
    for r in rows:
        if r["status"] != "ok":
            print(r["message"], file=sys.stderr)
    if getattr(args, "stats", False):
        for r in rows:
            if r["status"] == "ok":
                print(f"== {r['file']}")
                if getattr(args, "llm", False):  # from the written analysis.json (LLM answers spliced in)
                    ana = json.loads((Path(r["output"]) / "analysis.json").read_text())
                    _print_stats([{"kernel": k["name"], "rules": k["op_stats"]} for k in ana["kernels"]])
                else:
                    _print_stats(translate.stats(Path(args.kernel) / r["file"]))
    return 0 if ok == len(rows) else 1


def _llm_config(args):
    if not getattr(args, "llm", False):
        return None
    toolchain.require_extras("ctrs translate --llm", "llm", "verify")  # answers are proven by Tile IR
    from ctrs.llm_fallback.config import Config  # noqa: PLC0415

    return Config.from_env(args.llm_model, attempts=args.llm_attempts, timeout=args.llm_timeout,
                           offline=args.llm_offline, refresh=args.llm_refresh,
                           build_timeout=args.llm_build_timeout, specs=list(args.spec or []),
                           log=lambda m: print(m, file=sys.stderr, flush=True))


def _emit_model(args) -> int:
    """``ctrs translate --emit model[:STAGE] FILE``: the typed IR after a stage (writes nothing)."""
    from .. import errors, pipeline  # noqa: PLC0415

    what, _, stage = args.emit.partition(":")
    if what != "model":
        raise errors.CtrsError(errors.IR_STAGE, f"--emit {args.emit}: only 'model[:STAGE]' can be emitted",
                               "try --emit model or --emit model:frontend")
    print(pipeline.emit_model(Path(args.kernel), stage or "final"), end="")
    return 0


def _given_specs(args) -> list | None:
    """The specs ``--spec`` names (inline JSON or files, in order): the launches the port must serve; None if none."""
    from .. import spec as specmod  # noqa: PLC0415

    given = getattr(args, "spec", None) or []
    return [s for text in given for s in specmod.load_specs(text)] or None


def cmd_translate(args) -> int:
    with _using(args):
        return _cmd_translate(args)


def _cmd_translate(args) -> int:
    from .. import translate  # noqa: PLC0415

    if Path(args.kernel).is_dir():
        return _translate_dir(args)
    if getattr(args, "dry_run", False):  # every blocker, one per line; writes nothing (cuTile and Triton alike)
        return _dry_run(Path(args.kernel))
    if getattr(args, "emit", None):
        return _emit_model(args)
    llm = _llm_config(args)
    refused = None
    try:
        written = translate.translate(Path(args.kernel), Path(args.output) if args.output else None, llm, args.force,
                                      specs=_given_specs(args))
    except errors.Refused as e:  # the port of the kernels that translated is written: report it, then the rest
        if not e.written:
            raise
        written, refused = e.written, e
    if llm is not None and getattr(args, "stats", False):  # the rules-only stats would stop at the construct
        from ctrs.llm_fallback import fallback  # noqa: PLC0415

        ana = json.loads((written[0].parent / "analysis.json").read_text())
        _print_stats([{"kernel": k["name"], "rules": k["op_stats"]} for k in ana["kernels"]])
        print(f"llm: {fallback.count_llm_lines(written[0].read_text())} LLM-produced line(s) in {written[0]}")
        args.stats = False
    if getattr(args, "explain", False):
        hook = None
        if llm is not None:  # explain the model with the verified LLM answers spliced in
            from ctrs.llm_fallback import splice  # noqa: PLC0415

            hook = splice.hook(llm.accepted, getattr(llm, "typed", False))
        for line in translate.explain_lines(Path(args.kernel), hook):
            print(line)
    for w in written:
        print(w)
    if getattr(args, "stats", False):
        _print_stats(translate.stats(Path(args.kernel)))
    if refused is not None:
        raise refused
    return 0


def _dry_run(kernel: Path) -> int:
    """``ctrs translate --dry-run`` of a cuTile or Triton file: the blockers translate would report, one per line, and the
    summary; writes nothing; exit 1 if any kernel would be refused."""
    from .. import translate  # noqa: PLC0415

    refused = translate.translate_module(kernel).refused
    if refused is None:
        print("ctrs translate --dry-run: 0 blockers; every kernel translates", file=sys.stderr)
        return 0
    for b in refused.blockers:
        print(b.one_line())
    print(f"ctrs translate --dry-run: {len(refused.blockers)} blocker(s); {refused.message}", file=sys.stderr)
    return 1


def cmd_check(args) -> int:
    with _using(args):
        return _cmd_check(args)


def _cmd_check(args) -> int:
    from . import check  # noqa: PLC0415
    from .progress import Progress  # noqa: PLC0415

    prog = Progress(0, "check")
    progress = prog.callback()
    kernel = Path(args.kernel)
    reports = [(f, fmt) for f, fmt in ((args.html, "html"), (args.markdown, "markdown")) if f]
    for f, fmt in reports:  # refuse before the (long) check, not after
        if Path(f).is_dir():
            raise errors.CtrsError(errors.REPORT_OUTPUT, f"{f} is a directory", f"pass a file path to --{fmt} "
                                   "(e.g. check.html)", errors.Loc(str(f)))
    with contextlib.ExitStack() as stack:
        keep = Path(args.output) if args.output else None
        if reports and keep is None and not args.port:  # the report quotes kernel.rs: keep the port until then
            import tempfile  # noqa: PLC0415

            keep = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="ctrs-check-"))) / "port"
        prog.status("translate, cargo build of the port crate" if not args.port else "cargo build of the port crate")
        rows = check.check(kernel, args.spec or [], Path(args.port) if args.port else None, keep, progress)
        if reports:
            from . import check_report  # noqa: PLC0415

            port_rs = (Path(args.port) if args.port else keep) / "kernel.rs"
            reference = check.reference_source(kernel)
            for f, fmt in reports:
                render = check_report.render_html if fmt == "html" else check_report.render_markdown
                _write(Path(f), render(rows, kernel, reference, port_rs))
                print(f"ctrs check: {fmt} report {f}", file=sys.stderr)
    if args.json:
        print(json.dumps([r.to_json() for r in rows], indent=2, sort_keys=True))
    else:
        print(check.render_table(rows))
    return check.exit_code(rows, args.allow_incomplete)


def cmd_specs(args) -> int:
    from . import capture  # noqa: PLC0415
    from .. import spec  # noqa: PLC0415

    specs, notes = capture.capture_file(Path(args.kernel), args.call, args.num_sms)
    for n in notes:
        print(n, file=sys.stderr)
    if not specs:
        raise errors.CtrsError(errors.CAPTURE_NO_LAUNCH, f"no launch of a kernel defined in {args.kernel} was recorded",
                               "call the host function of this file that launches its kernels",
                               errors.Loc(str(args.kernel)))
    text = spec.dump_specs(specs)
    if not args.output:
        sys.stdout.write(text)
        return 0
    out = Path(args.output)
    if out.exists() and not args.force and out.read_text() != text:
        raise errors.CtrsError(errors.OUTPUT_EXISTS, f"{out} exists and differs from the captured specs",
                               "pass --force to overwrite it, or another -o", errors.Loc(str(out)))
    _write(out, text)
    kernels = sorted({s.kernel for s in specs})
    print(f"{out}: {len(specs)} spec(s) of {len(kernels)} kernel(s): {', '.join(kernels)}")
    return 0


def cmd_regen(args) -> int:
    from . import regen  # noqa: PLC0415 - stdlib only until a port must be regenerated (pre-commit fast path)

    if args.verify:
        return regen.verify(args.paths, hook=args.hook, manifest=args.manifest)
    return regen.regen(args.paths, check=args.check, diff=args.diff, prune=args.prune, force=args.force,
                       hook=args.hook, manifest=args.manifest)


def cmd_bundle(args) -> int:
    with _using(args):
        return _cmd_bundle(args)


def _cmd_bundle(args) -> int:
    from ..gpu import bundle  # noqa: PLC0415
    from .progress import Progress  # noqa: PLC0415

    out = Path(args.output)
    progress = Progress(len(args.kernels) + 3, "bundle")
    progress.step("tileiras kit")
    kit = bundle.build_kit(out / "kit")
    progress.step("wheels")
    wheels = bundle.fetch_wheels(out / "kit" / "wheels")
    progress.note(f"kit: {bundle.display_path(kit)} ({kit.stat().st_size / 2**20:.1f} MiB), {len(wheels)} wheels")
    built, failed = [], []
    for k in args.kernels:
        progress.step(k)
        kp, _, sp = k.partition("=")  # KERNEL=SPECS: a kernel file whose specs live elsewhere
        kp = Path(kp)
        kernel = kp / "kernel.py" if kp.is_dir() else kp
        specs = Path(sp) if sp else kernel.parent / "specs.json"
        if not specs.exists():  # e.g. fixtures/triton_unsupported under a fixtures/triton_* glob
            progress.note(f"skip: {kernel} (no specs.json next to it: nothing to verify)")
            continue
        try:
            port = bundle.build_port(kernel, specs, out / "ports", args.profile)
        except errors.CtrsError as e:
            if not args.keep_going:
                raise
            failed.append(e)  # reported below, the bundle carries the others
            progress.note(f"skip: {e.one_line()}")
            continue
        built.append(port.name)
        size = sum(f.stat().st_size for f in port.iterdir())
        progress.note(f"port: {bundle.display_path(port)} ({size / 2**20:.1f} MiB)")
    progress.step("stage 2")
    stage2 = bundle.pack_ports(out / "ports", out / "stage2", built)  # exactly the ports named now
    progress.done()
    print(f"stage 2: {bundle.display_path(stage2)} ({stage2.stat().st_size / 2**20:.1f} MiB)")
    kit_dir, st2 = bundle.display_path(out / "kit"), bundle.display_path(out / "stage2")
    if bundle.one_transfer(out / "kit", out / "stage2"):
        print(f"host (one transfer: carry {kit_dir} and {st2}):",
              bundle.host_setup_command(kit_dir) + "; " + bundle.host_command(st2))
    else:
        print(f"host stage 1 (carry {kit_dir}):", bundle.host_setup_command(kit_dir))
        print(f"host stage 2 (carry {st2}; same machine, right after stage 1):", bundle.host_command(st2))
    for e in failed:
        print(e.one_line(), file=sys.stderr)
    return 1 if failed else 0


def cmd_gpu(args) -> int:
    """verify / fuzz / bench on a GPU machine: transpiler.gpu_host with the matching budget."""
    from ..gpu import host as gpu_host  # noqa: PLC0415

    fuzz = args.examples if args.cmd == "fuzz" else 0
    reps = args.reps if args.cmd == "bench" else 0
    argv = [*args.ports, "--out", args.out, "--fuzz", str(fuzz), "--reps", str(reps)]
    for flag in ("kit", "kernel", "specs"):
        if getattr(args, flag):
            argv += [f"--{flag}", getattr(args, flag)]
    return gpu_host.main(argv)


# ``ctrs --help`` and every subcommand's help end with one of these.
EXAMPLES = {
    "ctrs": "ctrs check fixtures/fused_rms_norm/kernel.py   # translate, build the port, prove it by Tile IR",
    "doctor": "ctrs doctor",
    "ir-ref": "ctrs ir-ref fixtures/vector_add/kernel.py --spec fixtures/vector_add/specs.json -o out/ir --cubin",
    "ir-rs": "ctrs ir-rs fixtures/vector_add/port.rs --spec fixtures/vector_add/specs.json -o out/ir --cubin",
    "diff-ir": "ctrs diff-ir out/ir/f32_n4096.ref.tileirbc out/ir/f32_n4096.rs.tileirbc",
    "translate": "ctrs translate fixtures/fused_rms_norm/kernel.py -o out/port --explain",
    "check": "ctrs check fixtures/fused_rms_norm/kernel.py --html out/check.html",
    "verify": "ctrs verify .gpu/ports/* --gpu --out gpu-report",
    "fuzz": "ctrs fuzz .gpu/ports/* --gpu --examples 50",
    "bench": "ctrs bench .gpu/ports/* --gpu --reps 30",
    "bundle": "ctrs bundle fixtures/vector_add fixtures/rms_norm -o .gpu",
    "regen": "ctrs regen --check   # in a repository with a ctrs.toml",
    "specs": "ctrs specs kernels/softmax.py --call 'softmax(torch.empty(4096, 1024, dtype=torch.float16))' -o specs.json",
}


def _cutile_arg(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--cutile", metavar="VERSION", help=f"cutile crate version to {what} (a target profile in "
                   f"rules/targets/: 0.5.0 or 0.3.1; default {toolchain.CUTILE_VERSION}; 'ctrs doctor' lists them)")


def _using(args):
    """The target profile the command spells and builds for (``--cutile``; CTRS-E170 for an unknown one)."""
    from .. import targets  # noqa: PLC0415

    return targets.using(getattr(args, "cutile", None))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ctrs", description="Port cuTile Python kernels to cuTile Rust, proven by Tile IR.",
                                epilog=f"example: {EXAMPLES['ctrs']}", formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"ctrs {__version__}")
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = p.add_subparsers(dest="cmd", required=True)

    d = sub.add_parser("doctor", help="check every toolchain component")
    d.set_defaults(fn=cmd_doctor)

    for name, fn, what in (("ir-ref", cmd_ir_ref, "cuTile Python kernel file"),
                           ("ir-rs", cmd_ir_rs, "cuTile Rust kernel.rs")):
        s = sub.add_parser(name, help=f"Tile IR of a {what} for given specialisations (no GPU)")
        s.add_argument("kernel", help=what)
        s.add_argument("--spec", required=True, help="specialisation(s): inline JSON or a .json/.toml file")
        s.add_argument("-o", "--output", help="directory for <spec>.{ref,rs}.{tileirbc,mlir}; stdout if omitted")
        s.add_argument("--cubin", action="store_true", help="also assemble an sm_90 cubin with tileiras")
        s.add_argument("--target", default=toolchain.GPU_TARGET, help="GPU arch for hints and cubins (default sm_90)")
        if name == "ir-rs":
            s.add_argument("--entry", help="Rust entry fn (default: spec 'rust.entry', else the kernel name)")
            _cutile_arg(s, "compile against")
        s.set_defaults(fn=fn)

    df = sub.add_parser("diff-ir", help="structural diff of reference vs port Tile IR (bytecode or MLIR text)")
    df.add_argument("ref")
    df.add_argument("gen")
    df.add_argument("--json", action="store_true", help="machine-readable report")
    df.set_defaults(fn=cmd_diff_ir)

    tr = sub.add_parser("translate", help="port a cuTile Python kernel file to cuTile Rust (rules only)")
    tr.add_argument("kernel", help="cuTile Python kernel file, or a directory (every *.py with @ct.kernel under it)")
    tr.add_argument("-o", "--output", help="output directory (default: <kernel stem>_rs/ next to the file)")
    tr.add_argument("--dry-run", action="store_true",
                    help="list every blocker translate would report (every construct of every refused kernel, "
                         "cuTile and Triton alike), coded, file:line:col; write nothing; exit 1 if any")
    tr.add_argument("--explain", action="store_true",
                    help="print every specialisation decision (generic, variant, demotion, branch) with file:line")
    tr.add_argument("--stats", action="store_true", help="per kernel: how many ops each rule produced")
    tr.add_argument("--emit", metavar="model[:STAGE]",
                    help="print the typed tile IR instead of writing the port: after STAGE (frontend, constfold, "
                         "specialise, fma, hoist, tokens, dce, final (default), all)")
    tr.add_argument("--force", action="store_true", help="replace files in the output directory that ctrs did not "
                    "generate (no valid @generated checksum); directories are never replaced")
    tr.add_argument("--llm", action="store_true", help="send constructs without a rule to an OpenAI-compatible "
                    "LLM (OPENAI_BASE_URL, OPENAI_API_KEY); accept an answer only if its Tile IR is equivalent")
    tr.add_argument("--llm-model", help="model name for --llm (default $CTRS_LLM_MODEL, else gpt-4o-mini)")
    tr.add_argument("--llm-attempts", type=int, default=3, help="answers tried per construct (default 3)")
    tr.add_argument("--llm-timeout", type=float, default=60.0, help="seconds per LLM request (default 60)")
    tr.add_argument("--llm-offline", action="store_true", help="use cached LLM answers only (no server)")
    tr.add_argument("--llm-build-timeout", type=float, default=600.0,
                    help="seconds for one LLM candidate's offline verification build (default 600)")
    tr.add_argument("--llm-refresh", action="store_true", help="ignore cached (accepted) LLM answers and ask again")
    tr.add_argument("--spec", action="append", help="specialisation(s) (inline JSON or a .json/.toml file): the "
                    "launches the port must serve (arrays a launch passes in different dtypes keep type generics of "
                    "their own); --llm: also what answers are verified against (default: specs.json next to the kernel)")
    _cutile_arg(tr, "spell the port for (kernel.rs, ffi.rs, the pinned Cargo.toml / Cargo.lock)")
    tr.set_defaults(fn=cmd_translate)

    ck = sub.add_parser("check", help="translate, build the port crate and prove every specialisation by Tile IR")
    ck.add_argument("kernel", help="cuTile Python kernel file (specs.json next to it is picked up)")
    ck.add_argument("--spec", action="append", help="more specialisation(s): inline JSON or a .json/.toml file")
    ck.add_argument("--port", help="check this existing port directory instead of translating")
    ck.add_argument("-o", "--output", help="keep the translated port in this directory (default: a temp dir)")
    ck.add_argument("--json", action="store_true", help="machine-readable rows")
    ck.add_argument("--html", metavar="FILE", help="also write an HTML report: the rows, and reference and port "
                    "side by side (source lines + Tile IR) at the first divergence of every non-equivalent row")
    ck.add_argument("--markdown", metavar="FILE", help="the same report as Markdown")
    ck.add_argument("--allow-incomplete", action="store_true",
                    help="exit 0 unless a row is critical (unproven rows, warnings and zero rows pass)")
    _cutile_arg(ck, "translate, build and compile the port for (--port: the version its analysis.json records)")
    ck.set_defaults(fn=cmd_check)
    sp = sub.add_parser("specs", help="record the specialisations a host function launches (CPU torch tensors, "
                        "ct.launch intercepted, H200 device properties)")
    sp.add_argument("kernel", help="kernel file whose host code launches its kernels")
    sp.add_argument("--call", action="append", required=True,
                    help="Python expression calling a host function of the file, e.g. "
                         "'softmax(torch.empty(1000, 512, dtype=torch.float16))'; repeatable")
    sp.add_argument("-o", "--output", help="specs file to write (default: stdout)")
    sp.add_argument("--force", action="store_true", help="overwrite an existing, different specs file")
    sp.add_argument("--num-sms", type=int, default=132, help="SM count host code reads (default 132, an H200)")
    sp.set_defaults(fn=cmd_specs)
    for name, what in (("verify", "numerics of port vs reference on identical inputs, every spec"),
                       ("fuzz", "verify + hypothesis-drawn shapes from each spec's fuzz plan"),
                       ("bench", "verify + device time (CUPTI) of reference and port, ratio and geomean")):
        g = sub.add_parser(name, help=f"GPU: {what}")
        g.add_argument("ports", nargs="+", help="port directories (ctrs translate) or bundles (ctrs bundle)")
        g.add_argument("--gpu", action="store_true", required=True, help="run on this machine's GPU")
        g.add_argument("--out", default="gpu-report", help="report directory")
        g.add_argument("--kit", help="tileiras kit directory (default: the pip kit)")
        g.add_argument("--kernel", help="reference kernel.py for a single port directory")
        g.add_argument("--specs", help="specs.json for a single port directory")
        g.add_argument("--examples", type=int, default=50, help="fuzz: drawn shapes per port")
        g.add_argument("--reps", type=int, default=30, help="bench: repetitions per spec")
        g.set_defaults(fn=cmd_gpu)

    bu = sub.add_parser("bundle", help="build the two GPU-host transfer stages (tileiras kit; ports)")
    bu.add_argument("kernels", nargs="+", help="kernel files or fixture directories (kernel.py + specs.json); "
                                               "KERNEL=SPECS for a kernel file with its specs elsewhere")
    bu.add_argument("-o", "--output", default=".gpu", help="bundle directory (default .gpu, git-ignored)")
    bu.add_argument("--profile", default="release", choices=["release", "debug"])
    bu.add_argument("--keep-going", action="store_true", help="a port that does not build is reported and left out "
                    "(exit 1); the bundle carries the others")
    _cutile_arg(bu, "translate and build the cdylibs for")
    bu.set_defaults(fn=cmd_bundle)
    rg = sub.add_parser("regen", help="regenerate the ports of changed kernels listed in ctrs.toml")
    rg.add_argument("paths", nargs="*", help="kernel sources, port dirs or files in them (default: every kernel)")
    rg.add_argument("--check", action="store_true", help="write nothing; exit 1 listing stale, missing or edited ports")
    rg.add_argument("--diff", action="store_true", help="write nothing; print a unified diff of what would change")
    rg.add_argument("--prune", action="store_true", help="remove stale port dirs of deleted/renamed kernels")
    rg.add_argument("--force", action="store_true", help="regenerate even up-to-date ports; overwrite hand edits")
    rg.add_argument("--hook", action="store_true", help="pre-commit mode: PATHS are the staged files; none -> no kernel")
    rg.add_argument("--verify", action="store_true", help="run 'ctrs check' on the selected kernels with their specs")
    rg.add_argument("--manifest", help="path of ctrs.toml (default: searched upwards from the current directory)")
    rg.set_defaults(fn=cmd_regen)
    for name, sp in sub.choices.items():  # one example line per subcommand (tests/test_cli_help.py: every one has it)
        if name in EXAMPLES:
            sp.epilog, sp.formatter_class = f"example: {EXAMPLES[name]}", argparse.RawDescriptionHelpFormatter
    return p


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a non-UTF-8 file name is printed as the bytes it is
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="surrogateescape")
    # a kernel's odd literal ("1if x") must not add a second line to a one-line diagnostic
    warnings.filterwarnings("ignore", category=SyntaxWarning)
    args = build_parser().parse_args(argv)
    try:
        return args.fn(args)
    except errors.CtrsError as e:
        if args.debug:
            traceback.print_exc()
        for line in e.lines():  # one line; a refusal: every blocker, then "N of M kernels translated; K refused"
            print(line, file=sys.stderr)
        return 1 if isinstance(e, errors.Refused) and e.written else 3  # 1: the port of the others is written
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into head & co.
        sys.stderr.close()
        return 0
    except Exception as e:  # noqa: BLE001 - a bug in ctrs: still one line, a code and a hint
        if args.debug:
            traceback.print_exc()
        extra = toolchain.missing_module_error(e) if isinstance(e, ModuleNotFoundError) else None
        if extra is not None:  # an optional dependency is not installed: name the pip extra that brings it
            print(extra.one_line(), file=sys.stderr)
            return 3
        first = (str(e).strip().splitlines() or [""])[0]
        print(f"error[{errors.INTERNAL}]: internal error: {type(e).__name__}: {first} "
              "(hint: rerun with --debug and report the traceback)", file=sys.stderr)
        return 4


if __name__ == "__main__":
    sys.exit(main())
