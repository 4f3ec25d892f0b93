"""The cutile functions an answer may call, with their signatures and doc comments, read from the pinned crate's
own source (never hand-copied): the crate is located with ``cargo metadata --offline`` of the compile harness
(ir_rs / targets: the same Cargo.toml and Cargo.lock the verification builds use), its ``src/*.rs`` are scanned
for ``pub fn`` items, and the result is cached per crate version and source path on first use.

``allowlist.txt`` names the value-level subset an answer may use (no memory, pointers, tokens, printing or
atomics); ``allowed()`` is that list, each name checked against the crate (a name the crate lacks is dropped)."""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from functools import cache
from pathlib import Path

ALLOWLIST_FILE = Path(__file__).with_name("allowlist.txt")
_NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")


def allowlist_names(text: str) -> frozenset[str]:
    """Function names of allowlist.txt: whitespace-separated words, a ``#`` starts a comment to end of line."""
    return frozenset(w for line in text.splitlines() for w in line.split("#", 1)[0].split() if _NAME.match(w))


def crate_source(version: str | None = None) -> Path:
    """``src/`` of the cutile crate the harness builds against (cargo metadata of the harness manifest, offline;
    the crates are fetched first where no build for this version has fetched them yet)."""
    from ctrs import errors, targets, toolchain  # noqa: PLC0415
    from ctrs.verify import ir_rs  # noqa: PLC0415

    profile = targets.get(version)
    with tempfile.TemporaryDirectory(prefix="ctrs-llm-meta-") as d:
        (Path(d) / "src").mkdir()
        (Path(d) / "src" / "main.rs").write_text("fn main() {}\n")
        (Path(d) / "Cargo.toml").write_text(ir_rs._render(profile.template(profile.cargo_toml),
                                                          cutile_version=profile.version))
        (Path(d) / "Cargo.lock").write_text(profile.template(profile.cargo_lock).read_text())
        host = re.search(r"^host: (\S+)", subprocess.run(["rustc", "-vV"], capture_output=True, text=True,
                                                           timeout=60).stdout, re.M)
        plat = ["--filter-platform", host.group(1)] if host else []  # other platforms' crates are not fetched
        env = toolchain.cargo_env(profile.bytecode)
        meta = ["cargo", "metadata", "--offline", "--locked", "--format-version", "1", *plat]
        res = subprocess.run(meta, cwd=d, capture_output=True, text=True, timeout=120, env=env)
        if res.returncode != 0:  # not fetched yet on this machine (no build for this version so far): fetch, once
            fetch = ["cargo", "fetch", "--locked", *(["--target", host.group(1)] if host else [])]
            if subprocess.run(fetch, cwd=d, capture_output=True, text=True, timeout=600, env=env).returncode == 0:
                res = subprocess.run(meta, cwd=d, capture_output=True, text=True, timeout=120, env=env)
    if res.returncode != 0:
        raise errors.CtrsError(errors.RS_BUILD, "cargo metadata of the compile harness failed (is the cutile "
                               f"{profile.version} crate fetched?)", " ".join(res.stderr.split())[-300:])
    for p in json.loads(res.stdout)["packages"]:
        if p["name"] == "cutile" and p["version"] == profile.version:
            return Path(p["manifest_path"]).parent / "src"
    raise errors.CtrsError(errors.RS_BUILD, f"cargo metadata of the harness names no cutile {profile.version}")


def _signature(text: str, start: int) -> str:
    """``pub fn name<..>(..) -> T`` from ``start`` up to its body's ``{`` (or ``;``)."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c in "(<[" and not (c == "<" and text[i - 1] == "-"):
            depth += 1
        elif c in ")>]" and not (c == ">" and text[i - 1] == "-"):
            depth -= 1
        elif c in "{;" and depth <= 0:
            break
        elif c == "{":  # a const-generic block inside <..>
            j = text.index("}", i)
            i = j
        i += 1
    return " ".join(text[start:i].split())


def extract(src: Path) -> dict[str, dict]:
    """name -> {"signature", "doc", "file"} for every ``pub fn`` of the crate (the first definition wins)."""
    out: dict[str, dict] = {}
    for f in sorted(Path(src).rglob("*.rs")):
        text = f.read_text(errors="replace")
        lines = text.splitlines(keepends=True)
        offs = [0]
        for ln in lines:
            offs.append(offs[-1] + len(ln))
        for n, line in enumerate(lines):
            m = re.match(r"\s*pub\s+(?:unsafe\s+)?fn\s+([A-Za-z_]\w*)", line)
            if not m or m.group(1) in out:
                continue
            doc: list[str] = []
            k = n - 1
            while k >= 0:  # doc comments above the item, across its attributes (one or several lines each)
                s = lines[k].strip()
                if s.startswith("///"):
                    doc.insert(0, s[3:].strip())
                elif not (s.startswith("#[") or s.endswith(("]", ")]", ","))):
                    break
                k -= 1
            out[m.group(1)] = {"signature": _signature(text, offs[n] + line.index("pub")),
                               "doc": " ".join(d for d in doc if d).strip(), "file": f.name}
    return out


@cache
def functions(version: str | None = None) -> dict[str, dict]:
    """extract() of the pinned crate, cached on disk per (version, source path, mtimes) after the first use."""
    from ctrs import targets, toolchain  # noqa: PLC0415

    ver = targets.get(version).version
    src = crate_source(ver)
    stamp = [str(src)] + [f"{f.name}:{f.stat().st_mtime_ns}" for f in sorted(src.rglob("*.rs"))]
    cache_file = toolchain.cache_root() / "llm" / f"cutile-api-{ver}.json"
    try:
        data = json.loads(cache_file.read_text())
        if data.get("stamp") == stamp:
            return data["functions"]
    except (OSError, ValueError, AttributeError):
        pass
    fns = extract(src)
    cache_file.parent.mkdir(parents=True, exist_ok=True)
    tmp = cache_file.with_suffix(".tmp")
    tmp.write_text(json.dumps({"stamp": stamp, "functions": fns}, sort_keys=True, indent=1) + "\n")
    tmp.replace(cache_file)
    return fns


def allowed(version: str | None = None) -> list[dict]:
    """The allowlisted functions that the crate really has: [{"name", "signature", "doc"}], sorted by name."""
    fns = functions(version)
    names = allowlist_names(ALLOWLIST_FILE.read_text())
    return [{"name": n, **fns[n]} for n in sorted(names) if n in fns]
