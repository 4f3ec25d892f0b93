"""Target profiles: one data file per supported cutile crate version (``rules/targets/cutile-X.Y.Z.toml``).

A profile names the crate versions (all five crates move together, pinned exactly), the harness templates
(``Cargo.toml`` + committed ``Cargo.lock`` per version, under ``emitters/templates/``), the bytecode version
IR comparisons are written at, the syntax limits of that version's JIT, and the API spellings that differ
between versions (``[api.*]``). The review behind the data: docs/cutile-0.5.0.md.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from dataclasses import dataclass, field
from pathlib import Path

from . import errors, paths, rules_loader, toolchain

# The version translate / check / bundle / ir-rs use when no --cutile (or ctrs.toml `cutile`) is given.
DEFAULT = toolchain.CUTILE_VERSION
# The profile the emitters spell for (both pipelines' kernel.rs, render_host's ffi.rs / Cargo.toml / Cargo.lock);
# set for one translation by :func:`using`, else DEFAULT.
_CURRENT: contextvars.ContextVar[str | None] = contextvars.ContextVar("ctrs_cutile_target", default=None)

@dataclass(frozen=True)
class Profile:
    version: str
    crates: dict[str, str]
    cargo_toml: str
    cargo_lock: str
    main_rs: str
    bytecode: str
    bytecode_supported: tuple[str, ...]
    syntax: dict = field(default_factory=dict)
    api: dict = field(default_factory=dict)
    path: str = ""

    @property
    def is_default(self) -> bool:
        return self.version == DEFAULT

    def template(self, rel: str) -> Path:
        return paths.data("emitters", "templates", rel)

    def spelling(self, api: str) -> dict:
        """The ``[api.<name>]`` entry (keys: ``rust``, ``unsafe``, ``note``), or a coded error."""
        try:
            return self.api[api]
        except KeyError:
            raise errors.CtrsError(errors.TARGET_PROFILE, f"cutile {self.version} profile has no [api.{api}] entry",
                                   f"add it to {Path(self.path).name}", errors.Loc(self.path)) from None

    def is_unsafe(self, api: str) -> bool:
        """Whether this version declares ``api`` an ``unsafe fn`` (its call must sit in an ``unsafe {}`` block)."""
        return bool(self.spelling(api).get("unsafe"))

    def render(self, api: str, in_unsafe: bool = False, **operands: str) -> str:
        """The Rust text of ``api`` for this version; wrapped in ``unsafe { }`` where the version requires it."""
        entry = self.spelling(api)
        text = entry["rust"].format(**operands)
        return f"unsafe {{ {text} }}" if entry.get("unsafe") and not in_unsafe else text

    def differences(self, other: Profile) -> list[str]:
        """Names of the ``[api.*]`` entries whose spelling or ``unsafe`` marker differ from ``other``."""
        keys = ("rust", "unsafe", "type", "load", "store", "atomic_add", "scopes")
        return sorted(k for k in self.api.keys() | other.api.keys()
                      if any(self.api.get(k, {}).get(f) != other.api.get(k, {}).get(f) for f in keys))


def _profile_dir() -> Path:
    return paths.data("rules", "targets")


def _load(path: Path) -> Profile:
    loc = errors.Loc(str(path))
    data = rules_loader.load("target", path)  # TOML and the schema (rules_loader.TARGET): CTRS-E190..E193
    crate, harness, bc = data["crate"], data["harness"], data["bytecode"]
    if path.stem != f"cutile-{crate['version']}":
        raise errors.CtrsError(errors.TARGET_PROFILE, f"profile file {path.name} declares version {crate['version']}",
                               f"name the file cutile-{crate['version']}.toml", loc)
    if bc["write"] not in bc["writer_supports"]:
        raise errors.CtrsError(errors.TARGET_PROFILE, f"bytecode {bc['write']} is not in writer_supports",
                               "pick a version the crate's writer can emit", loc)
    prof = Profile(crate["version"], dict(crate["crates"]), harness["cargo_toml"], harness["cargo_lock"],
                   harness["main_rs"], bc["write"], tuple(bc["writer_supports"]), dict(data.get("syntax", {})),
                   dict(data.get("api", {})), str(path))
    for rel in (prof.cargo_toml, prof.cargo_lock, prof.main_rs):
        if not prof.template(rel).is_file():
            raise errors.CtrsError(errors.TARGET_PROFILE, f"harness template {rel} named by the profile is missing",
                                   "restore it under emitters/templates/", loc)
    return prof


@functools.cache
def profiles() -> dict[str, Profile]:
    """Every profile shipped, by crate version, oldest first."""
    found = [_load(p) for p in sorted(_profile_dir().glob("cutile-*.toml"))]
    return {p.version: p for p in sorted(found, key=lambda p: tuple(int(x) for x in p.version.split(".")))}


def get(version: str | None = None) -> Profile:
    """The profile for ``version`` (default: the one :func:`using` set, else DEFAULT); an unknown version is
    CTRS-E170."""
    version = version or _CURRENT.get() or DEFAULT
    known = profiles()
    if version not in known:
        raise errors.CtrsError(errors.TARGET_UNKNOWN, f"unknown cutile version '{version}'",
                               f"pass one of {', '.join(known)}; each has a profile rules/targets/cutile-<version>.toml")
    return known[version]


def current() -> Profile:
    """The profile the emitters spell for now: the one :func:`using` set, else DEFAULT's."""
    return get(None)


@contextlib.contextmanager
def using(version: str | None):
    """Emit (and build) for cutile ``version`` inside the block; None keeps the enclosing choice (else DEFAULT).
    An unknown version is CTRS-E170 here, before anything is translated."""
    prof = get(version)
    token = _CURRENT.set(prof.version)
    try:
        yield prof
    finally:
        _CURRENT.reset(token)


def _registry_has(crate: str, version: str) -> bool:
    """Whether cargo's local registry cache already holds ``crate-version`` (else the first build fetches it)."""
    import os  # noqa: PLC0415

    home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
    return any((home / "registry" / "src").glob(f"*/{crate}-{version}"))


def components() -> list[toolchain.Component]:
    """``ctrs doctor`` lines: one per target profile (crate version, default, bytecode, where the crates come from)."""
    out = []
    for p in profiles().values():
        cached = all(_registry_has(c, v) for c, v in p.crates.items())
        where = "crates in ~/.cargo registry" if cached else "crates.io (fetched on first build)"
        role = "default" if p.is_default else f"--cutile {p.version}"
        out.append(toolchain.Component("cutile", True, f"={p.version}", f"{role}; bytecode {p.bytecode}; {where}", ""))
    return out
