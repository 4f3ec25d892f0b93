"""Port Tile IR: compile a cuTile Rust ``kernel.rs`` with cutile's KernelCompiler, on the CPU.

One harness crate per target profile (cache_root()/harness-<cutile version>; ``ctrs.targets``) includes
the kernel file and drives ``cutile::compile_api::KernelCompiler``; all share one cargo target dir per
machine, so each cutile version and its dependencies compile once. Built harness binaries are cached by content hash: asking again for
the same kernel.rs costs one process start.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import jinja2
from filelock import FileLock

from .. import errors, spec as specmod, targets, toolchain
from ..ir.constexpr import ConstExpr
from ..ir.floatexpr import FloatExpr
from . import tileir_tools
from .ir_ref import IRResult

_MODULE_RE = re.compile(r"#\[cutile::module[^\]]*\]\s*(?:pub\s+)?mod\s+(\w+)")
_ENTRY_RE = re.compile(r"#\[cutile::entry(?:\((?:[^()]|\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))*\))?\]\s*(?:#\[[^\]]*\]\s*)*pub\s+(?:unsafe\s+)?fn\s+(\w+)")


def _split_top(s: str) -> list[str]:
    """Split on commas that are not nested in <>, (), [], {}."""
    out, depth, cur = [], 0, []
    for ch in s:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def _balanced(text: str, start: int, open_ch: str, close_ch: str) -> tuple[str, int]:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return text[start + 1:i], i + 1
    raise ValueError("unbalanced")


def parse_entries(source: str) -> list[specmod.RustEntry]:
    mods = [(m.start(), m.group(1)) for m in _MODULE_RE.finditer(source)]
    entries = []
    for m in _ENTRY_RE.finditer(source):
        owner = [name for pos, name in mods if pos < m.start()]
        if not owner:
            continue
        pos = m.end()
        generics: list[tuple[str, str]] = []
        rest = source[pos:].lstrip()
        pos = len(source) - len(rest)
        if rest.startswith("<"):
            gtext, pos = _balanced(source, pos, "<", ">")
            for g in _split_top(gtext):
                gm = re.match(r"const\s+(\w+)\s*:\s*(\w+)", g)
                if gm:
                    generics.append((gm.group(1), "bool" if gm.group(2) == "bool" else "i32"))
                else:
                    generics.append((g.split(":")[0].strip(), "type"))
        ptext, _ = _balanced(source, source.index("(", pos), "(", ")")
        params: list[tuple[str, str]] = []
        ptypes: dict[str, str] = {}
        for p in _split_top(ptext):
            if ":" not in p:
                continue
            pname, ptype = (x.strip() for x in p.split(":", 1))
            pname = pname.replace("mut ", "").strip()
            kind = ("tensor" if "Tensor<" in ptype else "ptr" if ptype.startswith("*") else
                    "int" if ptype in ("i32", "i64", "u32", "u64") else "float" if ptype in ("f32", "f64") else
                    "bool" if ptype == "bool" else "other")
            params.append((pname, kind))
            ptypes[pname] = ptype
        line = source.count("\n", 0, m.start()) + 1
        entries.append(specmod.RustEntry(owner[-1], m.group(1), generics, params, ptypes, line))
    return entries


def find_entry(kernel_rs: Path, source: str, name: str) -> specmod.RustEntry:
    """The entry ``name``, or ``module::name`` where several modules of the file have one of that name."""
    entries = parse_entries(source)
    module, _, fn = name.rpartition("::")
    for e in entries:
        if e.name == fn and module in ("", e.module):
            return e
    raise errors.CtrsError(errors.RS_ENTRY_NOT_FOUND, f"no #[cutile::entry] fn named '{name}' in {kernel_rs.name}",
                           f"known entries: {', '.join(e.name for e in entries) or 'none'}", errors.Loc(str(kernel_rs)))


def _render(template: Path, **ctx) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(template.parent), keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    return env.get_template(template.name).render(**ctx)


def first_rustc_error(stdout: str) -> dict | None:
    """The first ``level == error`` compiler message of ``cargo build --message-format=json`` output."""
    for line in stdout.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        if msg.get("reason") == "compiler-message" and msg["message"].get("level") == "error":
            return msg["message"]
    return None


def rustc_code_suffix(m: dict) -> str:
    code = (m.get("code") or {}).get("code")
    return f" [{code}]" if code else ""


def _cargo_error(stdout: str, kernel_rs: Path) -> errors.CtrsError:
    """The first rustc error, located in the user's kernel.rs where possible."""
    m = first_rustc_error(stdout)
    if m is None:
        return errors.CtrsError(errors.RS_BUILD, "cargo build of the compile harness failed (no rustc error found)",
                                "run 'ctrs doctor' and check that crates.io is reachable", errors.Loc(str(kernel_rs)))
    spans = [s for s in m.get("spans", []) if s.get("file_name", "").endswith("kernel.rs")] or m.get("spans", [])
    loc = errors.Loc(str(kernel_rs))
    if spans:
        s = spans[0]
        loc = errors.Loc(str(kernel_rs) if s["file_name"].endswith("kernel.rs") else s["file_name"],
                         s["line_start"], s["column_start"])
    return errors.CtrsError(errors.RS_BUILD, f"kernel.rs does not compile: {m['message']}" + rustc_code_suffix(m),
                            "fix the Rust source; 'cargo build' in the port directory shows the full report", loc)


def harness_binary(kernel_rs: Path, cutile: str | None = None, sandbox: dict | None = None) -> Path:
    """Build (or reuse) the KernelCompiler harness for this kernel.rs against the ``cutile`` profile.

    ``sandbox`` (untrusted sources: ``ctrs translate --llm`` candidates): {"timeout": seconds} — the crate is
    laid out in a fresh temporary directory (removed afterwards), built with ``cargo --offline`` (no network:
    only the pinned, already fetched crates) and killed after ``timeout`` seconds (an RS_BUILD error)."""
    profile = targets.get(cutile)
    toolchain.require("cargo", "rustc", "cuda-headers", "libclang", "c-builtins")
    source = kernel_rs.read_text()
    modules = sorted({e.module for e in parse_entries(source)})
    if not modules:
        raise errors.CtrsError(errors.RS_ENTRY_NOT_FOUND, f"{kernel_rs.name} has no #[cutile::module] with a #[cutile::entry]",
                               "the file must hold a '#[cutile::module] pub mod name { ... }'", errors.Loc(str(kernel_rs)))
    cargo_toml = _render(profile.template(profile.cargo_toml), cutile_version=profile.version)
    main_rs = _render(profile.template(profile.main_rs), modules=modules)
    lock = profile.template(profile.cargo_lock).read_text()
    key = hashlib.sha256("\0".join([source, cargo_toml, main_rs, lock]).encode()).hexdigest()[:24]
    root = toolchain.cache_root()
    binary = root / "irc-bin" / key
    if binary.exists():
        return binary
    with FileLock(str(root / "harness.lock")):
        if binary.exists():
            return binary
        tmp = Path(tempfile.mkdtemp(prefix="ctrs-llm-build-")) if sandbox is not None else None
        try:
            _build_harness(tmp or root / f"harness-{profile.version}", kernel_rs, source, cargo_toml, main_rs, lock,
                           profile, binary, sandbox)
        finally:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
    return binary


def _build_harness(crate: Path, kernel_rs: Path, source: str, cargo_toml: str, main_rs: str, lock: str, profile,
                   binary: Path, sandbox: dict | None) -> None:
    (crate / "src").mkdir(parents=True, exist_ok=True)
    (crate / "Cargo.toml").write_text(cargo_toml)
    (crate / "src" / "main.rs").write_text(main_rs)
    (crate / "src" / "kernel.rs").write_text(source)
    (crate / "Cargo.lock").write_text(lock)
    cmd = ["cargo", "build", "--locked", "--message-format=json", "--quiet"]
    limit = 3600.0
    if sandbox is not None:
        cmd.insert(2, "--offline")
        limit = float(sandbox.get("timeout", 600))
    try:
        res = subprocess.run(cmd, cwd=crate, capture_output=True, text=True,
                             env=toolchain.cargo_env(profile.bytecode), timeout=limit)
    except subprocess.TimeoutExpired:
        raise errors.CtrsError(errors.RS_BUILD, f"cargo build of {kernel_rs.name} timed out after {limit:g} s",
                               "a longer limit: --llm-build-timeout", errors.Loc(str(kernel_rs))) from None
    if res.returncode != 0:
        raise _cargo_error(res.stdout, kernel_rs)
    built = Path(toolchain.cargo_env()["CARGO_TARGET_DIR"]) / "debug" / "ctrs-irc"
    binary.parent.mkdir(parents=True, exist_ok=True)
    tmp = binary.with_suffix(".tmp")
    shutil.copy2(built, tmp)
    tmp.replace(binary)


def derived_generics(kernel_rs: Path, entry: str) -> dict:
    """The host-computed const generics of entry ``entry`` as the port's analysis.json records them: name ->
    ConstExpr (frontends/derived.py), FloatExpr or spec.UnitFlag; {} for a hand-written port or an entry without
    any."""
    try:
        data = json.loads((Path(kernel_rs).parent / "analysis.json").read_text())
    except (OSError, ValueError):
        return {}
    out = {}
    for k in data.get("kernels", []) if isinstance(data, dict) else []:
        if k.get("entry", k.get("name")) == entry:
            for g in k.get("generics", []):
                if g.get("origin") == "derived" and g.get("expr"):
                    out[g["name"]] = ConstExpr.from_python(g["expr"])
                elif g.get("origin") == "float_expr" and g.get("expr"):  # ir/floatexpr.py
                    out[g["name"]] = FloatExpr.from_python(g["expr"])
                elif g.get("origin") == "unit_extent" and g.get("unit"):  # passes/unitdims.py
                    out[g["name"]] = specmod.UnitFlag(g["unit"][0], int(g["unit"][1]))
    return out


def compile_ports(kernel_rs: Path, jobs: list[tuple[specmod.Spec, str]], target: str = toolchain.GPU_TARGET,
                  cutile: str | None = None, sandbox: dict | None = None) -> list[IRResult]:
    """Compile each (spec, rust entry name) pair against the ``cutile`` profile; one harness process for all
    (``sandbox``: see harness_binary; it also bounds the harness run)."""
    profile = targets.get(cutile)
    source = kernel_rs.read_text()
    binary = harness_binary(kernel_rs, profile.version, sandbox)
    with tempfile.TemporaryDirectory() as d:
        reqs = []
        for i, (spec, entry_name) in enumerate(jobs):
            entry = find_entry(kernel_rs, source, entry_name)
            req = specmod.rust_request(spec, entry, target, derived_generics(kernel_rs, entry.name))
            req["out"] = str(Path(d) / f"{i}.tileirbc")
            reqs.append(req)
        try:
            res = subprocess.run([str(binary)], input=json.dumps(reqs), capture_output=True, text=True,
                                 env=toolchain.cargo_env(profile.bytecode),
                                 timeout=float((sandbox or {}).get("timeout", 600)))
        except subprocess.TimeoutExpired:
            raise errors.CtrsError(errors.RS_COMPILE, f"the cutile compile harness timed out on {kernel_rs.name}",
                                   "", errors.Loc(str(kernel_rs))) from None
        results: dict[str, dict] = {}
        for line in res.stdout.splitlines():
            if line.startswith("{"):
                r = json.loads(line)
                results[r["out"]] = r
        out = []
        for (spec, entry_name), req in zip(jobs, reqs):
            r = results.get(req["out"])
            if r is None or not r["ok"]:
                why = r["error"] if r else (res.stderr.strip().splitlines() or ["harness crashed"])[-1]
                entry = find_entry(kernel_rs, source, entry_name)
                raise errors.CtrsError(errors.RS_COMPILE, f"cutile rejected entry '{entry_name}' for spec '{spec.name}': "
                                       f"{' '.join(why.split())}",
                                       "the kernel type-checks in rustc but not in the cuTile JIT subset; see porting rules",
                                       errors.Loc(str(kernel_rs), entry.line, 1))
            data = Path(req["out"]).read_bytes()
            # debug locations name the harness copy; point them at the user's file instead
            text = tileir_tools.disasm(data).replace('loc("src/kernel.rs":', f'loc("{kernel_rs}":')
            out.append(IRResult(data, text, entry_name))
        return out
