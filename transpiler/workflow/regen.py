"""``ctrs regen``: keep the generated cuTile Rust ports of a repository in sync with their kernels.

A manifest ``ctrs.toml`` at the repository root maps kernel sources (globs) to port directories::

    [[port]]
    source = "kernels/*.py"              # glob, relative to the manifest (``**`` allowed)
    output = "ports/{stem}"              # port dir; {stem} {name} {dir} {parent} of the source
    specs  = "kernels/{stem}.specs.json" # optional: specialisations ``ctrs regen --verify`` (and llm) use
    llm    = false                       # optional (default false): true = ``ctrs translate --llm`` semantics
    cutile = "0.5.0"                     # optional (default: ctrs's default): the cutile crate version (a target
                                         # profile, rules/targets/) the port is spelled and pinned for

Every file a source glob matches is classified by ``sources.kernel_count`` (the test ``ctrs translate DIR``
uses): cuTile kernels in any import form and Triton ``@jit`` files are ported; any other matched file is
named as skipped. Staleness is decided by content, never by mtime: each port dir holds
``.ctrs-state.json`` with the sha256 of the source, the generator version, the hash of the rules and
templates, the options, and the sha256 of every file written; every file is compared with that hash, so a
port file replaced by another (valid) generated file is stale. Every generated file also carries its own
checksum (a first-line comment in kernel.rs / ffi.rs / lib.rs / Cargo.toml / wrapper.py, a top-level
``ctrs_generated`` key in analysis.json; Cargo.lock, which cargo owns, only in the state file), so a hand
edit is detected and never overwritten without ``--force``.

Only the translation itself is heavy: this module imports nothing beyond the standard library until a
port actually has to be regenerated or diffed, so the pre-commit fast path (every port fresh) stays in
the tens of milliseconds.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import shutil
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .. import __version__, errors, paths, sources, toolchain
from .generated import GENERATOR, _NO_HEADER, _canon_json, _sha, add_header, header_lines, verify_header  # noqa: F401

MANIFEST = "ctrs.toml"
STATE = ".ctrs-state.json"
STATE_VERSION = 1
_PLACEHOLDER = re.compile(r"\{(stem|name|dir|parent)\}")
_RULE_KEYS = {"source", "output", "specs", "llm", "cutile"}
_REMOVED_KEYS = {"target": "removed: a port carries no GPU arch (cutile compiles for the GPU it runs on)"}


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


# ---------------------------------------------------------------------------------------------- manifest


@dataclass(frozen=True)
class Rule:
    source: str
    output: str
    specs: str | None
    llm: bool
    cutile: str = ""


@dataclass
class Job:
    """One kernel source and the port dir it regenerates into (paths relative to the manifest root)."""

    source: str
    output: str
    specs: str | None
    options: dict


@dataclass
class Manifest:
    path: Path
    root: Path
    rules: list[Rule]
    jobs: list[Job] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # matched by a source glob, but not a kernel file


def _manifest_error(path: Path, msg: str, hint: str = "see the ctrs.toml section of the README") -> errors.CtrsError:
    return errors.CtrsError(errors.REGEN_MANIFEST, msg, hint, errors.Loc(str(path)))


def find_manifest(start: Path | None = None) -> Path:
    here = Path(start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        if (d / MANIFEST).is_file():
            return d / MANIFEST
    raise _manifest_error(Path(MANIFEST), f"no {MANIFEST} in {here.name or here} or any parent directory",
                          f"add a {MANIFEST} with [[port]] source/output entries at the repository root")


def _subst(pattern: str, src: PurePosixPath) -> str:
    parent = src.parent.as_posix()
    vals = {"stem": src.stem, "name": src.name, "dir": parent, "parent": src.parent.name or "."}
    return os.path.normpath(_PLACEHOLDER.sub(lambda m: vals[m.group(1)], pattern)).replace(os.sep, "/")


def load_manifest(path: Path) -> Manifest:
    path = Path(path).resolve()
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise _manifest_error(path, f"cannot read manifest: {e}") from None
    ports = data.get("port")
    if not isinstance(ports, list) or not ports:
        raise _manifest_error(path, "manifest has no [[port]] entries")
    rules = []
    for i, p in enumerate(ports):
        where = f"[[port]] #{i + 1}"
        if not isinstance(p, dict):
            raise _manifest_error(path, f"{where} is not a table")
        for key in sorted(set(p) & set(_REMOVED_KEYS)):
            raise _manifest_error(path, f"{where}: '{key}' {_REMOVED_KEYS[key]}", f"delete '{key}' from {MANIFEST}")
        unknown = sorted(set(p) - _RULE_KEYS)
        if unknown:
            raise _manifest_error(path, f"{where}: unknown key(s) {', '.join(unknown)}",
                                  f"allowed: {', '.join(sorted(_RULE_KEYS))}")
        for key in ("source", "output"):
            if not isinstance(p.get(key), str) or not p[key].strip():
                raise _manifest_error(path, f"{where}: '{key}' must be a non-empty string")
        for key, val in (("source", p["source"]), ("output", p["output"]), ("specs", p.get("specs") or "")):
            if val.startswith("/") or ".." in PurePosixPath(val).parts:
                raise _manifest_error(path, f"{where}: '{key}' must stay inside the manifest's directory")
        if "specs" in p and not isinstance(p["specs"], str):
            raise _manifest_error(path, f"{where}: 'specs' must be a string")
        if not isinstance(p.get("llm", False), bool):
            raise _manifest_error(path, f"{where}: 'llm' must be true or false")
        cutile = p.get("cutile", "")
        if not isinstance(cutile, str) or (cutile and not paths.data("rules", "targets", f"cutile-{cutile}.toml").is_file()):
            known = sorted(q.stem.removeprefix("cutile-") for q in paths.data("rules", "targets").glob("cutile-*.toml"))
            raise _manifest_error(path, f"{where}: 'cutile' must name a supported crate version, not {cutile!r}",
                                  f"one of {', '.join(known)} (rules/targets/cutile-<version>.toml)")
        if "{" not in p["output"]:
            raise _manifest_error(path, f"{where}: 'output' needs a placeholder ({{stem}}, {{name}}, {{dir}}) so each "
                                  "kernel gets its own port dir")
        rules.append(Rule(p["source"], p["output"], p.get("specs"), p.get("llm", False), cutile))
    m = Manifest(path, path.parent, rules)
    m.jobs, m.skipped = _expand(m)
    return m


def _expand(m: Manifest) -> tuple[list[Job], list[str]]:
    """Every kernel source the rules match (first matching rule wins), sorted by path; and the matched files
    that hold no kernel (named by regen, never silently dropped)."""
    seen: dict[str, Job] = {}
    skipped: set[str] = set()
    outputs: dict[str, str] = {}
    for rule in m.rules:
        for p in sorted(m.root.glob(rule.source)):
            if not p.is_file() or any(part.startswith(".") for part in p.relative_to(m.root).parts):
                continue
            rel = _rel(p, m.root)
            if rel in seen or (p.parent / STATE).exists():
                continue  # (files inside a generated port dir are never kernel sources)
            try:
                if not sources.kernel_count(p.read_text(errors="replace")):
                    skipped.add(rel)  # e.g. a helper module next to the kernels: nothing to port
                    continue
            except OSError:
                skipped.add(rel)
                continue
            src = PurePosixPath(rel)
            out = _subst(rule.output, src)
            if out in outputs:
                raise _manifest_error(m.path, f"{outputs[out]} and {rel} both map to port dir {out}",
                                      "use {dir} or {name} in 'output' to keep port dirs apart")
            outputs[out] = rel
            specs = _subst(rule.specs, src) if rule.specs else None
            # the resolved version: a port generated for the old default is stale when the default moves
            seen[rel] = Job(rel, out, specs, {"llm": rule.llm, "cutile": rule.cutile or toolchain.CUTILE_VERSION})
    return [seen[k] for k in sorted(seen)], sorted(skipped - set(seen))


def _output_globs(m: Manifest) -> list[str]:
    globs = []
    for rule in m.rules:
        g = re.sub(r"\{dir\}", "**", rule.output)
        g = _PLACEHOLDER.sub("*", g)
        globs.append(g)
    return sorted(set(globs))


def orphans(m: Manifest) -> list[tuple[str, str]]:
    """(port dir, source it was generated from) for every port dir with a state file that no current
    kernel maps to: the kernel was deleted, renamed, lost its @ct.kernel, or the manifest changed."""
    wanted = {j.output for j in m.jobs}
    found: dict[str, str] = {}
    for g in _output_globs(m):
        for st in sorted(m.root.glob(f"{g}/{STATE}")):
            d = _rel(st.parent, m.root)
            if d in wanted or d in found:
                continue
            try:
                found[d] = str(json.loads(st.read_text()).get("source", "?"))
            except (OSError, ValueError, AttributeError):
                found[d] = "?"
    return sorted(found.items())


# ---------------------------------------------------------------------------------------------- fingerprint

_RULES_SHA: str | None = None


def rules_sha() -> str:
    """Hash of everything besides the code that shapes the output: rules/ and emitters/templates/."""
    global _RULES_SHA  # noqa: PLW0603 - computed once per process
    if _RULES_SHA is None:
        h = hashlib.sha256()
        for label, base in (("rules", paths.data("rules")), ("emitters/templates", paths.data("emitters", "templates"))):
            files = [p for p in base.rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".py")]
            for p in sorted(files, key=lambda q: _rel(q, base)):
                data = p.read_bytes()
                h.update(f"{label}/{_rel(p, base)}\0{len(data)}\0".encode())
                h.update(data)
        _RULES_SHA = h.hexdigest()
    return _RULES_SHA


def fingerprint(m: Manifest, job: Job) -> dict:
    src = (m.root / job.source).read_bytes()
    fp = {"generator": GENERATOR, "options": job.options, "rules_sha256": rules_sha(), "source": job.source,
          "source_sha256": _sha(src)}
    fp["input_sha256"] = _sha(_canon_json(fp).encode())
    return fp


# ---------------------------------------------------------------------------------------------- status


@dataclass
class Status:
    job: Job
    state: str  # fresh | missing | stale | edited
    reason: str = ""
    edited: list[str] = field(default_factory=list)
    fp: dict | None = None
    old: dict | None = None


def _read_state(port: Path) -> dict | None:
    try:
        st = json.loads((port / STATE).read_text())
        return st if isinstance(st, dict) and isinstance(st.get("files"), dict) else None
    except (OSError, ValueError):
        return None


def _is_edited(name: str, data: bytes, old: dict | None) -> bool:
    ok = verify_header(name, data)
    if ok is None:
        return not (old and old["files"].get(name) == _sha(data))
    return not ok


def status(m: Manifest, job: Job) -> Status:
    port = m.root / job.output
    fp = fingerprint(m, job)
    old = _read_state(port)
    if old is None:
        return Status(job, "missing", "no port" if not port.exists() else f"no {STATE}", fp=fp)
    edited, gone, replaced = [], [], []
    for name in sorted(old["files"]):
        f = port / name
        if not f.is_file():
            gone.append(name)
            continue
        data = f.read_bytes()
        if _sha(data) != old["files"][name]:
            # a valid checksum of its own but not the bytes regen wrote here (e.g. taken from another port or
            # branch in a merge): stale, regenerated; anything else is a hand edit
            (edited if _is_edited(name, data, old) else replaced).append(name)
    if edited:
        return Status(job, "edited", "edited by hand: " + ", ".join(edited), edited, fp, old)
    if old.get("input_sha256") != fp["input_sha256"]:
        why = {"source_sha256": f"{job.source} changed", "generator": "ctrs version changed",
               "rules_sha256": "rules/templates changed", "options": "manifest options changed",
               "source": "source path changed"}
        changed = [k for k in why if old.get(k) != fp[k]]
        return Status(job, "stale", "; ".join(why[k] for k in changed) or "inputs changed", fp=fp, old=old)
    if gone or replaced:
        why = ([f"missing file(s): {', '.join(gone)}"] if gone else []) + \
            ([f"not the file(s) regen wrote: {', '.join(replaced)}"] if replaced else [])
        return Status(job, "stale", "; ".join(why), fp=fp, old=old)
    return Status(job, "fresh", fp=fp, old=old)


# ---------------------------------------------------------------------------------------------- generate


def _llm_config(m: Manifest, job: Job):
    """``llm = true``: the fallback of ``ctrs translate --llm`` (server, key and model from the environment:
    OPENAI_BASE_URL, OPENAI_API_KEY, CTRS_LLM_MODEL; answers verified by Tile IR against the job's specs)."""
    if not job.options.get("llm"):
        return None
    from .. import toolchain  # noqa: PLC0415

    toolchain.require_extras(f"llm = true in {MANIFEST}", "llm", "verify")  # answers are proven by Tile IR
    from ctrs.llm_fallback.config import Config  # noqa: PLC0415

    specs = [str(m.root / job.specs)] if job.specs and (m.root / job.specs).is_file() else []
    return Config.from_env(specs=specs, log=lambda msg: print(msg, file=sys.stderr, flush=True))


def generate(m: Manifest, job: Job, fp: dict) -> dict[str, bytes]:
    """Every file of the port dir, state file included, as bytes (the heavy import happens here)."""
    from .. import translate  # noqa: PLC0415

    files = translate.translate_source(m.root / job.source, _llm_config(m, job), cutile=job.options.get("cutile"))
    out = {name: add_header(name, files[name]) for name in sorted(files)}
    state = {**fp, "ctrs_regen_state": STATE_VERSION, "files": {n: _sha(b) for n, b in out.items()}}
    out[STATE] = _canon_json(state).encode()
    return out


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".ctrs-tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def _plan(m: Manifest, st: Status, new: dict[str, bytes]) -> tuple[dict[str, bytes | None], list[str]]:
    """(changes: name -> new bytes or None to delete, refused: names edited by hand)."""
    port = m.root / st.job.output
    changes: dict[str, bytes | None] = {}
    refused = []
    names = sorted(set(new) | set((st.old or {}).get("files", {})))
    for name in names:
        f = port / name
        cur = f.read_bytes() if f.is_file() else None
        want = new.get(name)
        if cur == want:
            continue
        if cur is not None and name != STATE and _is_edited(name, cur, st.old):
            refused.append(name)
        changes[name] = want
    return changes, refused


def _unified(m: Manifest, st: Status, changes: dict[str, bytes | None]) -> str:
    port = m.root / st.job.output
    out = []
    for name, want in changes.items():
        if name == STATE:
            continue
        f = port / name
        cur = f.read_text(errors="replace") if f.is_file() else ""
        new = want.decode(errors="replace") if want is not None else ""
        rel = f"{st.job.output}/{name}"
        out += difflib.unified_diff(cur.splitlines(keepends=True), new.splitlines(keepends=True),
                                    f"a/{rel}" if f.is_file() else "/dev/null",
                                    f"b/{rel}" if want is not None else "/dev/null")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in out)


def _prune(m: Manifest, port_rel: str) -> str:
    port = m.root / port_rel
    old = _read_state(port) or {"files": {}}
    for name in sorted(old["files"]):
        (port / name).unlink(missing_ok=True)
    (port / STATE).unlink(missing_ok=True)
    shutil.rmtree(port / "__pycache__", ignore_errors=True)
    left = sorted(p.name for p in port.iterdir()) if port.is_dir() else []
    if not left and port.is_dir():
        port.rmdir()
        return f"pruned {port_rel}"
    return f"pruned {port_rel} (kept files not generated by ctrs: {', '.join(left)})"


# ---------------------------------------------------------------------------------------------- selection


def select(m: Manifest, paths: list[str], hook: bool) -> list[Job]:
    """Jobs named by ``paths`` (kernel sources, port dirs or files inside them, directories holding
    kernels); no paths: every job, or none in ``hook`` mode (``ctrs regen --verify --hook``: pre-commit passes
    the staged files)."""
    if not paths:
        return [] if hook else list(m.jobs)
    rels = []
    for p in paths:
        a = Path(os.path.abspath(p))
        try:
            rels.append(a.relative_to(m.root).as_posix())
        except ValueError:
            continue
    if _rel(m.path, m.root) in rels:
        return list(m.jobs)  # the manifest itself changed: every mapping may have
    picked = []
    for j in m.jobs:
        for r in rels:
            if r in (".", j.source, j.output) or r.startswith(j.output + "/") or \
                    (not hook and j.source.startswith(r.rstrip("/") + "/")) or (j.specs and r == j.specs):
                picked.append(j)
                break
    return picked


# ---------------------------------------------------------------------------------------------- command


def _say(msg: str) -> None:
    print(f"ctrs regen: {msg}", flush=True)


def _err(e: errors.CtrsError) -> None:
    print(e.one_line(), file=sys.stderr, flush=True)


def regen(paths: list[str], *, check: bool = False, diff: bool = False, prune: bool = False, force: bool = False,
          hook: bool = False, manifest: str | None = None) -> int:
    """Exit code: 0 all up to date (or regenerated, outside ``hook`` mode); 1 ``hook`` mode wrote files; ``--check``/``--diff --check`` found stale,
    missing or edited ports, or stale port dirs are left (no ``--prune``); 3 a port was refused (edited
    by hand) or failed to translate."""
    m = load_manifest(Path(manifest) if manifest else find_manifest())
    # hook mode checks the whole manifest: pre-commit passes no deleted file, so a `git rm` of a generated
    # file (or an unstaged kernel edit) is only seen by looking at every port
    jobs = list(m.jobs) if hook else select(m, paths, hook)
    dry = check or diff
    for rel in m.skipped:
        print(f"ctrs regen: skipped {rel} (matched by {MANIFEST}, but no cuTile kernel or Triton @jit function in it)",
              file=sys.stderr, flush=True)
    rc = 0
    wrote = False
    for job in jobs:
        st = status(m, job)
        if st.state == "fresh" and not force:
            continue
        if check and not diff:
            if st.state == "edited":
                for name in st.edited:
                    _err(errors.CtrsError(errors.REGEN_EDITED, "generated file edited by hand (checksum mismatch); "
                                          "regen refuses to overwrite it",
                                          "move the change into the kernel or rules, then 'ctrs regen --force'",
                                          errors.Loc(f"{job.output}/{name}")))
            _say(f"{st.state}: {job.output} ({st.reason or 'forced'})")
            rc = 1
            continue
        try:
            new = generate(m, job, st.fp)
        except errors.CtrsError as e:
            _err(e)
            rc = 3
            continue
        changes, refused = _plan(m, st, new)
        if not changes:
            continue
        if diff:
            sys.stdout.write(_unified(m, st, changes))
            if check:
                rc = max(rc, 1)
            continue
        if refused and not force:
            for name in refused:
                _err(errors.CtrsError(errors.REGEN_EDITED,
                                      "generated file edited by hand (checksum mismatch); not overwriting it",
                                      "move the change into the kernel or rules, or rerun with --force to discard it",
                                      errors.Loc(f"{job.output}/{name}")))
            rc = 3
            continue
        port = m.root / job.output
        for name, data in changes.items():
            if name != STATE:
                if data is None:
                    (port / name).unlink(missing_ok=True)
                else:
                    _write_atomic(port / name, data)
        if STATE in changes:  # last: an interrupted run leaves the old state, so the port stays stale
            _write_atomic(port / STATE, changes[STATE])
        shown = [n for n in changes if n != STATE] or [STATE]
        _say(f"regenerated {job.output} from {job.source} ({', '.join(shown)})")
        wrote = True
    for port_rel, src in orphans(m):
        if prune and not dry:
            _say(_prune(m, port_rel))
            wrote = True
            continue
        _say(f"stale port dir: {port_rel} (its kernel {src} is gone or no longer maps here; "
             "'ctrs regen --prune' removes it)")
        rc = max(rc, 1)
    if hook and wrote:
        rc = max(rc, 1)  # like black: the commit stops so the regenerated files can be reviewed and staged
    return rc


def verify(paths: list[str], *, hook: bool = False, manifest: str | None = None) -> int:
    """``ctrs regen --verify``: ``ctrs check`` every selected kernel against its port (if the port is up
    to date, else a fresh translation) with the manifest's spec file."""
    m = load_manifest(Path(manifest) if manifest else find_manifest())
    jobs = select(m, paths, hook)
    if not jobs:
        return 0
    from . import check as checkmod  # noqa: PLC0415

    rc = 0
    for job in jobs:
        st = status(m, job)
        specs = [str(m.root / job.specs)] if job.specs and (m.root / job.specs).is_file() else []
        port = m.root / job.output if st.state == "fresh" else None
        _say(f"check {job.source}" + (f" against {job.output}" if port else " (port not up to date: fresh translation)"))
        try:
            rows = checkmod.check(m.root / job.source, specs, port, cutile=job.options.get("cutile"))
        except errors.CtrsError as e:
            _err(e)
            rc = max(rc, 3)
            continue
        if not rows:
            _say(f"note: no specialisations for {job.source} (add {job.specs or 'a specs file in ctrs.toml'})")
        print(checkmod.render_table(rows), flush=True)
        rc = max(rc, checkmod.exit_code(rows))
    return rc
