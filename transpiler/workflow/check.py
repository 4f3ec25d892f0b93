"""``ctrs check kernel.py``: translate, build the port crate, and prove every specialisation by Tile IR.

Specialisations come from (in this order; the same spec given twice counts once, two different specs of one
name are an error naming them):
  1. ``specs.json`` next to the kernel file, when present;
  2. every ``--spec`` given;
  3. the ones mined from the file's own launch code (analysis.json ``specialisations``): they carry
     ct.Constant values but no shapes, so each is applied to the first spec of the same kernel from 1./2.
     (constants replaced); without such a base spec the row says NO-SHAPES.
For each: the Rust entry is picked like the FFI/wrapper pick it (variant constants, per-dtype entries),
its generics are computed like ffi.rs computes them (element types from the arrays, const generics from
the constants, dtype flags from the array dtype), then ir-ref vs ir-rs and diff-ir. One row per
kernel x specialisation.

A kernel ``ctrs translate`` refuses (keep-going: the port holds the others) gets a REFUSED row per spec
naming it (one row ``*`` when none does), its findings every blocker of that kernel; the others are checked.

A row is EQUIVALENT when the IR diff proves the port (irdiff ``Report.proves``, the notion the tests and the LLM
fallback share): no critical finding and no warning, but IRD-ASSUME-DIV of a port reading arrays through raw
pointers (a specialisation's divisor kernel text cannot state), which stays listed among the row's findings.

Exit code (``exit_code``): 0 only when at least one row was proven and every row is EQUIVALENT; 1 when any
row is CRITICAL (or a compile error on either side); 5 when a row could not be verified (INCOMPLETE,
NO-SHAPES) or no row was proven at all; 2 when the only divergences are warnings. ``--allow-incomplete``
gives the old answer: 1 on a critical row, else 0.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .. import errors, spec as specmod, toolchain

CRITICAL_VERDICTS = {"CRITICAL", "REF-ERROR", "PORT-ERROR", "NO-ENTRY", "REFUSED"}
UNPROVEN_VERDICTS = {"INCOMPLETE", "NO-SHAPES"}
EXIT_OK, EXIT_CRITICAL, EXIT_WARNINGS, EXIT_UNPROVEN = 0, 1, 2, 5


@dataclass
class Row:
    kernel: str
    spec: str
    origin: str
    verdict: str
    entry: str = ""
    matched: int = 0
    total: int = 0
    findings: list[str] = field(default_factory=list)
    # both IR texts and the diff's findings, for the side-by-side report (check_report); not in to_json
    ir: dict | None = field(default=None, repr=False, compare=False)

    @property
    def critical(self) -> bool:
        return self.verdict in CRITICAL_VERDICTS

    def to_json(self) -> dict:
        return {"kernel": self.kernel, "spec": self.spec, "origin": self.origin, "verdict": self.verdict,
                "entry": self.entry, "matched": self.matched, "total": self.total, "findings": self.findings,
                "critical": self.critical}


def _const_values(spec: specmod.Spec) -> dict[str, object]:
    return {n: a.value for n, a in spec.args.items() if isinstance(a, specmod.ConstArg)}


def _array_dtypes(spec: specmod.Spec) -> dict[str, str]:
    return {n: a.dtype for n, a in spec.args.items() if isinstance(a, specmod.ArrayArg)}


def entry_for(spec: specmod.Spec, fks: list) -> object | None:
    """The FfiKernel (Rust entry) this spec launches: its ``rust.entry`` when that names a translated
    entry, else the wrapper's pick (variant constants, per-dtype entries)."""
    from ctrs.emitters import render_host  # noqa: PLC0415

    named = spec.rust.get("entry")
    for fk in fks:
        if named and fk.name == named:
            return fk
    consts = {k: int(v) for k, v in _const_values(spec).items() if isinstance(v, (int, bool))}
    e = render_host.pick_entry([fk.selector() for fk in fks], spec.kernel, consts, _array_dtypes(spec))
    return next((fk for fk in fks if e and fk.name == e["name"]), None)


def check_known(specs: list[tuple[specmod.Spec, str]], fks: list, kernel: Path) -> None:
    """A spec from a file or --spec names a kernel of the file and, if any, a Rust entry: a translated one,
    the kernel's own name (the wrapper resolves it to the variant) or an entry of a hand-written port
    (``*.rs``) beside the spec file, which ``ir-rs`` compiles: else
    CTRS-E010 at its JSON path (a mistyped name must not silently fall back to another entry). A bare number for a
    cuTile kernel's runtime scalar parameter is CTRS-E442 (the reference would take it as a ct.Constant)."""
    from ..frontends.triton.source import is_triton_file  # noqa: PLC0415

    kernels = sorted({fk.python_name for fk in fks})
    entries = sorted({fk.name for fk in fks})
    cutile_file = not is_triton_file(kernel)
    for s, _ in specs:
        if not s.origin:  # mined from the file's own launch code
            continue
        if s.kernel not in kernels:
            raise errors.CtrsError(errors.SPEC_INVALID, f"{s.json_path}.kernel: unknown kernel '{s.kernel}' "
                                   f"(kernels of {Path(kernel).name}: {', '.join(kernels)})",
                                   "name a @ct.kernel / @triton.jit function of the file", errors.Loc(s.origin))
        # a cuTile kernel's runtime scalar (a Triton kernel's reference is a counterpart with its own signature)
        runtime = {a.name for fk in fks if fk.python_name == s.kernel for a in fk.scalars} if cutile_file else set()
        bare = [n for n in sorted(runtime) if isinstance(s.args.get(n), specmod.ConstArg)]
        if bare:
            v = s.args[bare[0]].value
            dt = "float32" if isinstance(v, float) else "int32"
            raise errors.CtrsError(errors.SPEC_RUNTIME_SCALAR_AS_CONSTANT,
                                   f"{s.json_path}.args.{bare[0]}: a bare number for a runtime scalar parameter of "
                                   f"'{s.kernel}' (not a ct.Constant): the reference would compile it as a constant "
                                   "(one entry argument fewer than the launch passes)",
                                   f'write {{"scalar": "{dt}", "value": {v!r}}}', errors.Loc(s.origin))
        entry = s.rust.get("entry")
        if entry and entry not in entries and entry != s.kernel and entry not in _hand_entries(s.origin):
            raise errors.CtrsError(errors.SPEC_INVALID, f"{s.json_path}.rust.entry: unknown Rust entry '{entry}' "
                                   f"(entries of the port: {', '.join(entries)})",
                                   "name a translated entry, or leave rust.entry out", errors.Loc(s.origin))


def _hand_entries(origin: str) -> set[str]:
    """Entries of the hand-written ports (``*.rs``) beside a spec file: its rust.entry may name one of them."""
    from ..verify.ir_rs import parse_entries  # noqa: PLC0415

    d = Path(origin).parent if origin and not origin.startswith("<") else None
    out: set[str] = set()
    for rs in sorted(d.glob("*.rs")) if d is not None and d.is_dir() else []:
        try:
            out.update(e.name for e in parse_entries(rs.read_text(errors="replace")))
        except (OSError, errors.CtrsError):
            continue
    return out


def generics_for(spec: specmod.Spec, fk) -> list[str]:
    """The generic arguments ffi.rs passes for this launch, in the entry's declaration order."""
    consts = _const_values(spec)
    out = []
    for g in fk.generics:
        if g["kind"] == "type":
            owner = next((o for n, o in fk.type_generics if n == g["name"]), "")
            a = spec.args.get(owner)
            if not isinstance(a, specmod.ArrayArg):
                raise errors.CtrsError(errors.SPEC_INVALID, f"spec '{spec.name}': no array '{owner}' to type generic "
                                       f"{g['name']} of entry {fk.name}", "name every array parameter in the spec")
            out.append(specmod.DTYPES[a.dtype][1])
            continue
        flag = next((f for f in fk.flags if f["name"] == g["name"]), None)
        if flag is not None:
            a = spec.args.get(flag["array"])
            dt = specmod.DTYPES[a.dtype][1] if isinstance(a, specmod.ArrayArg) else ""
            out.append("1" if dt == flag["dtype"] else "0")
            continue
        if g.get("unit") is not None:  # a unit-extent flag: as ffi.rs computes it from the array's extent
            out.append(specmod.UnitFlag(g["unit"][0], int(g["unit"][1])).value(spec))
            continue
        if g.get("derived") is not None:  # a derived shape dimension (frontends/derived.py): as ffi.rs computes it
            missing = [n for n in g["derived"].syms() if n not in consts]
            if missing:
                raise errors.CtrsError(errors.SPEC_INVALID, f"spec '{spec.name}': no value for {missing[0]}, which "
                                       f"generic {g['name']} = {g['derived'].python()} of entry {fk.name} needs",
                                       f"give the constant '{missing[0]}' in the spec's args")
            out.append(str(int(g["derived"].evaluate({n: int(consts[n]) for n in g["derived"].syms()}))))
            continue
        if g.get("fexpr") is not None:  # a compile-time float expression (ir/floatexpr.py): as ffi.rs computes it
            missing = [n for n in g["fexpr"].syms() if n not in consts]
            if missing:
                raise errors.CtrsError(errors.SPEC_INVALID, f"spec '{spec.name}': no value for {missing[0]}, which "
                                       f"generic {g['name']} = {g['fexpr'].python()} of entry {fk.name} needs",
                                       f"give the constant '{missing[0]}' in the spec's args")
            out.append(str(g["fexpr"].generic_value(consts)))
            continue
        if g["name"].startswith("dtype_") or g["name"] not in consts:
            raise errors.CtrsError(errors.SPEC_INVALID, f"spec '{spec.name}': no value for generic {g['name']} of "
                                   f"entry {fk.name}", f"give the ct.Constant '{g['name']}' in the spec's args")
        v = consts[g["name"]]
        out.append(str(specmod.float_bits(v)) if g.get("origin") == "float_bits" else str(int(v)))
    return out


def capture_hint(kernel: Path, mined: dict) -> str:
    """How to get specs for a launch the static miner could not complete: run its host function."""
    fn = mined.get("function") or "host_fn"
    return f"get specs: ctrs specs {kernel} --call '{fn}(torch.empty(...), ...)' -o specs.json"


def gather_specs(kernel: Path, extra: list[str], analysis: dict) -> tuple[list[tuple[specmod.Spec, str]], list[Row]]:
    """(spec, origin) pairs to verify, plus rows for mined specialisations that cannot be verified."""
    out: list[tuple[specmod.Spec, str]] = []
    names: set[str] = set()
    side = Path(kernel).parent / "specs.json"
    sources = ([(str(side), "specs.json")] if side.exists() else []) + [(s, "--spec") for s in extra]
    loaded: list[tuple[specmod.Spec, str]] = []
    origin_of: dict[str, str] = {}
    for text, origin in sources:
        label = "<inline spec>" if text.lstrip().startswith(("{", "[")) else text
        for sp in specmod.load_specs(text):
            loaded.append((sp, label))
            origin_of.setdefault(label, origin)
    for sp, label in specmod.unique_specs(loaded):  # a name given twice with different content: an error
        names.add(sp.name)
        out.append((sp, origin_of[label]))
    skipped: list[Row] = []
    given = list(out)
    sites = {x for s, _ in out for x in s.sites}
    for m in analysis.get("specialisations", []):
        if f"{Path(kernel).name}:{m['line']}" in sites and m["origin"].startswith("launch:"):
            continue  # ctrs specs recorded this very launch site with its real constants
        if not m["complete"]:
            skipped.append(Row(m["kernel"], m["name"], m["origin"], "INCOMPLETE",
                               findings=[f"constants not static: {', '.join(m['missing'])}; "
                                         f"{capture_hint(kernel, m)}"]))
            continue
        base = next((s for s, _ in given if s.kernel == m["kernel"]), None)
        if base is None:
            skipped.append(Row(m["kernel"], m["name"], m["origin"], "NO-SHAPES",
                               findings=[f"no spec with shapes for this kernel; {capture_hint(kernel, m)}"]))
            continue
        if any(s.kernel == m["kernel"] and all(_const_values(s).get(k) == v for k, v in m["constants"].items())
               for s, _ in out):
            continue  # an existing spec already has these constants
        args = dict(base.args)
        for k, v in m["constants"].items():
            args[k] = specmod.ConstArg(k, v)
        name = f"{base.name}@{m['name']}"
        rust = {k: v for k, v in base.rust.items() if k not in ("generics", "entry")}
        out.append((dataclasses.replace(base, name=name, args=args, rust=rust), m["origin"]))
        names.add(name)
    return out, skipped


def _port_build_error(stdout: str, port: Path) -> errors.CtrsError | None:
    """The first rustc error of a port crate build, at its primary span in the port's own file."""
    from ..verify.ir_rs import first_rustc_error, rustc_code_suffix  # noqa: PLC0415

    m = first_rustc_error(stdout)
    if m is None:
        return None
    spans = [sp for sp in m.get("spans", []) if sp.get("is_primary")] or m.get("spans", [])
    loc = errors.Loc(str(port))
    if spans:
        f = Path(spans[0]["file_name"])
        loc = errors.Loc(str(f if f.is_absolute() else port / f), spans[0]["line_start"], spans[0]["column_start"])
    return errors.CtrsError(errors.RS_BUILD, f"the port crate does not compile: {m['message']}" + rustc_code_suffix(m),
                            f"fix the Rust source; 'cargo build' in {port} shows the full report", loc)


def build_crate(port: Path, cutile: str | None = None) -> Path:
    """cargo build (dev profile, shared target dir) of a port crate for cutile ``cutile`` (its profile's
    bytecode version in the environment); returns the cdylib path."""
    from .. import targets  # noqa: PLC0415
    from ..verify.ir_rs import _cargo_error  # noqa: PLC0415

    toolchain.require("cargo", "rustc", "cuda-headers", "libclang", "c-builtins")
    res = subprocess.run(["cargo", "build", "--lib", "--message-format=json"], cwd=port, capture_output=True,
                         text=True, env=toolchain.cargo_env(targets.get(cutile).bytecode), timeout=3600)
    if res.returncode != 0:
        raise _port_build_error(res.stdout, port) or _cargo_error(res.stdout, port / "kernel.rs")
    for line in res.stdout.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        tgt = msg.get("target") or {}
        if msg.get("reason") == "compiler-artifact" and "cdylib" in tgt.get("crate_types", []):
            for f in msg.get("filenames", []):
                if f.endswith(".so"):
                    return Path(f)
    raise errors.CtrsError(errors.RS_BUILD, f"cargo built no cdylib in {port}", "check the port's Cargo.toml",
                           errors.Loc(str(port / "Cargo.toml")))


def reference_source(kernel: Path) -> Path:
    """The cuTile Python file whose Tile IR is the reference: the kernel itself, or for a Triton kernel (no
    Tile IR without Triton-TileIR) the counterpart its specs.json names as "reference"."""
    from ..frontends.triton.source import is_triton_file  # noqa: PLC0415

    if not is_triton_file(kernel):
        return kernel
    side = Path(kernel).parent / "specs.json"
    ref = None
    if side.is_file():
        try:
            doc = json.loads(side.read_bytes())
        except (OSError, ValueError):  # an unreadable specs.json is reported by load_specs
            doc = None
        ref = doc.get("reference") if isinstance(doc, dict) else None
    if not ref:
        raise errors.CtrsError(errors.TRITON_NO_REFERENCE, "no reference Tile IR for a Triton kernel on a CPU "
                               "(Triton-TileIR is not installable)",
                               'name its cuTile Python counterpart in specs.json: {"reference": "ref.py", "spec": [..]}; '
                               "or prove the port on the GPU host against the Triton kernel", errors.Loc(str(kernel)))
    path = (Path(kernel).parent / ref).resolve()
    if not path.exists():
        raise errors.CtrsError(errors.TRITON_NO_REFERENCE, f"the reference {ref} named in {side} does not exist",
                               "fix the \"reference\" path (relative to specs.json)", errors.Loc(str(side)))
    return path


def port_target(analysis: dict) -> str:
    """The cutile version a port is spelled and pinned for (analysis.json ``cutile``); a port written before
    ports recorded it was written for 0.3.1."""
    return str(analysis.get("cutile") or "0.3.1")


def check(kernel: Path, extra_specs: list[str] | None = None, port: Path | None = None, keep: Path | None = None,
          progress=None, cutile: str | None = None) -> list[Row]:
    """Translate (unless ``port`` names an existing port dir) for cutile ``cutile`` (a target profile; None:
    the enclosing targets.using, else the default), build, and verify every specialisation. An existing port
    is built and compiled against the version its analysis.json records."""
    from .. import targets  # noqa: PLC0415

    with targets.using(cutile):
        return _check(Path(kernel), extra_specs, port, keep, progress)


def _check(kernel: Path, extra_specs: list[str] | None, port: Path | None, keep: Path | None, progress) -> list[Row]:
    from ctrs.emitters import render_host  # noqa: PLC0415

    from ..verify import ir_ref, ir_rs, irdiff  # noqa: PLC0415
    from .. import targets, translate  # noqa: PLC0415

    tmp = None
    refused: errors.Refused | None = None
    # the launches the port must serve: the specs given (specs.json next to the kernel, --spec), not the mined ones
    given = [s for s, _ in gather_specs(kernel, list(extra_specs or []), {})[0]] or None
    translated = port is None  # an existing port (--port) was translated without them, as before
    try:
        if port is None:
            if keep is not None:
                port = Path(keep)
            else:
                tmp = Path(tempfile.mkdtemp(prefix="ctrs-check-"))
                port = tmp / "port"
            try:
                translate.translate(kernel, port, specs=given)
            except errors.Refused as e:  # the port of the other kernels is written: check those
                if not e.written:
                    raise
                refused = e
        port = Path(port)
        if not (port / "analysis.json").exists():
            raise errors.CtrsError(errors.TRANSLATE_INPUT, f"{port} is not a port directory (no analysis.json)",
                                   "run 'ctrs translate' first or omit --port", errors.Loc(str(port)))
        analysis = json.loads((port / "analysis.json").read_text())
        cutile = port_target(analysis)
        if cutile not in targets.profiles():
            raise errors.CtrsError(errors.PORT_TARGET_UNKNOWN, f"the port was generated for cutile {cutile}, which "
                                   "this ctrs has no target profile for",
                                   f"regenerate it: ctrs translate {kernel} -o {port} --cutile "
                                   f"{'|'.join(targets.profiles())}", errors.Loc(str(port / "analysis.json")))
        reference = reference_source(kernel)
        specs, skipped = gather_specs(kernel, list(extra_specs or []), analysis)
        if refused is not None:
            skipped += refused_rows(refused, specs)
            specs = [(s, o) for s, o in specs if s.kernel not in refused.kernels]
        if not specs:  # nothing to prove: no build (the exit code says so)
            return skipped
        build_crate(port, cutile)
        with targets.using(cutile):
            fks = render_host.ffi_kernels(translate.translate_module(kernel, specs=given))
            if not translated and given and not {fk.name for fk in fks} <= {k["name"] for k in analysis["kernels"]}:
                # an existing port translated without these launches (its entries are the spec-less ones)
                fks = render_host.ffi_kernels(translate.translate_module(kernel))
        check_known(specs, fks, kernel)
        rows: list[Row] = []
        kernel_rs = port / "kernel.rs"
        rs_text = kernel_rs.read_text()  # what the verdict's tolerated warnings depend on (irdiff Report.proves)
        for i, (s, origin) in enumerate(specs):
            if progress:
                progress(i, len(specs), s.name)
            fk = entry_for(s, fks)
            if fk is None:
                rows.append(Row(s.kernel, s.name, origin, "NO-ENTRY",
                                findings=[f"no translated entry of '{s.kernel}' matches this spec"]))
                continue
            row = Row(s.kernel, s.name, origin, "", fk.name)
            try:
                gens = generics_for(s, fk)
                rs_spec = dataclasses.replace(s, rust={**s.rust, "entry": fk.name, "generics": gens})
                if s.rust.get("generics") and list(map(str, s.rust["generics"])) != gens:
                    row.findings.append(f"info: spec generics {s.rust['generics']} differ from the FFI's {gens}")
            except errors.CtrsError as e:
                row.verdict, row.findings = "PORT-ERROR", [e.one_line()]
                rows.append(row)
                continue
            try:
                ref = ir_ref.compile_reference(reference, s)
            except errors.CtrsError as e:
                row.verdict, row.findings = "REF-ERROR", [e.one_line()]
                rows.append(row)
                continue
            try:
                (gen,) = ir_rs.compile_ports(kernel_rs, [(rs_spec, fk.name)], cutile=cutile)
            except errors.CtrsError as e:
                row.verdict, row.findings = "PORT-ERROR", [e.one_line()]
                rows.append(row)
                continue
            rep = irdiff.diff(ref.text, gen.text, f"{s.name}.ref", f"{s.name}.rs")
            row.verdict = "EQUIVALENT" if rep.proves(rs_text) else rep.verdict()  # the tolerated warnings stay listed
            row.matched = int(rep.stats.get("matched", 0))
            row.total = int(rep.stats.get("ref_ops", 0))
            rank = {irdiff.CRITICAL: 0, irdiff.WARNING: 1}  # critical first: the table shows the first one
            row.findings += [f"{f.severity}: {f.code} {f.op}: {f.message}"
                             for f in sorted(rep.findings, key=lambda f: rank.get(f.severity, 2))
                             if f.severity in rank]
            row.ir = {"ref": ref.text, "port": gen.text, "findings": rep.findings}
            rows.append(row)
        if progress:
            progress(len(specs), len(specs), None)
        rows += skipped
        order = {fk.python_name: i for i, fk in reversed(list(enumerate(fks)))}
        rows.sort(key=lambda r: (order.get(r.kernel, len(order)), r.kernel))
        return rows
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def refused_rows(refused: errors.Refused, specs: list[tuple[specmod.Spec, str]]) -> list[Row]:
    """REFUSED rows: one per spec of a refused kernel (``*`` when no spec names it), every blocker its findings."""
    rows = []
    for name, blockers in sorted(refused.kernels.items()):
        lines = [b.one_line() for b in blockers]
        mine = [(s, o) for s, o in specs if s.kernel == name]
        rows += [Row(name, s.name, o, "REFUSED", findings=list(lines)) for s, o in mine] or \
            [Row(name, "*", "translate", "REFUSED", findings=lines)]
    return rows


def render_table(rows: list[Row]) -> str:
    head = ("kernel", "spec", "verdict", "ops", "findings")
    body = []
    for r in rows:
        ops = f"{r.matched}/{r.total}" if r.total else "-"
        first = next((f for f in r.findings if f.startswith("critical:")), r.findings[0]) if r.findings else ""
        if r.verdict not in UNPROVEN_VERDICTS:  # their finding is the command to run: never cut
            first = first if len(first) <= 140 else first[:137] + "..."
        more = f" (+{len(r.findings) - 1} more)" if len(r.findings) > 1 else ""
        body.append((r.kernel if r.entry in ("", r.kernel) else f"{r.kernel} [{r.entry}]", r.spec, r.verdict, ops,
                     first + more))
    widths = [max(len(x[i]) for x in [head, *body]) for i in range(4)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head[:4], widths)) + "  " + head[4]]
    for b in body:
        lines.append("  ".join(x.ljust(w) for x, w in zip(b[:4], widths)) + "  " + b[4])
    crit = sum(r.critical for r in rows)
    ok = sum(r.verdict == "EQUIVALENT" for r in rows)
    warn = sum(r.verdict == "WARNINGS" for r in rows)
    unproven = sum(r.verdict in UNPROVEN_VERDICTS for r in rows)
    lines.append(f"ctrs check: {len(rows)} rows, {ok} equivalent, {crit} critical, {warn} warnings, "
                 f"{unproven} unproven" + ("" if ok + warn else " -- nothing was proven"))
    return "\n".join(lines)


def exit_code(rows: list[Row], allow_incomplete: bool = False) -> int:
    """0 all proven EQUIVALENT; 1 critical; 5 unproven rows or nothing proven; 2 warnings only (module doc)."""
    if any(r.critical for r in rows):
        return EXIT_CRITICAL
    if allow_incomplete:
        return EXIT_OK
    if not any(r.verdict in ("EQUIVALENT", "WARNINGS") for r in rows) or any(
            r.verdict in UNPROVEN_VERDICTS for r in rows):
        return EXIT_UNPROVEN
    if any(r.verdict != "EQUIVALENT" for r in rows):
        return EXIT_WARNINGS
    return EXIT_OK
