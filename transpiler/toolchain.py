"""Locate every external piece ctrs needs and build the environment for cargo / tileiras.

Everything comes from the project's own virtual environment (PyPI wheels) plus cargo:
  * cuda-tile 1.7.0 (reference compiler, AOT ``export_kernel``)
  * nvidia-cuda-tileiras / nvidia-cuda-nvcc / nvidia-nvvm 13.4.x: tileiras, tileirdisasm, ptxas, libnvvm
  * nvidia-cuda-runtime / nvidia-curand / nvidia-cuda-crt: the CUDA header tree for the cutile build
  * libclang (PyPI) for bindgen, with the C compiler's builtin include dir for stddef.h
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from . import errors

# The cutile version ctrs targets when none is chosen (--cutile, ctrs.toml `cutile`); every supported version
# has a target profile rules/targets/cutile-<version>.toml (ctrs.targets; README, "Toolchain").
CUTILE_VERSION = "0.5.0"
# Both sides of every IR comparison are written at this bytecode version (cutile 0.3.x writes <= 13.3).
BYTECODE_VERSION = "13.3"
MIN_CUDA_HEADER_VERSION = 13020
MIN_RUST = (1, 89)
GPU_TARGET = "sm_90"


def cache_root() -> Path:
    """Machine-wide cache (cargo target dir, harness crates, built compile binaries)."""
    env = os.environ.get("CTRS_CACHE")
    root = Path(env) if env else Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ctrs"
    root.mkdir(parents=True, exist_ok=True)
    return root


@functools.cache
def cuda_kit() -> Path | None:
    """The pip CUDA 13 tree (``site-packages/nvidia/cu13``): bin/, include/, lib/.

    ``CTRS_CUDA_KIT`` overrides it (a directory with the same bin/ include/ lib/ layout).
    """
    env = os.environ.get("CTRS_CUDA_KIT")
    if env:
        return Path(env) if Path(env).is_dir() else None
    spec = importlib.util.find_spec("nvidia")
    if spec is None or not spec.submodule_search_locations:
        return None
    for loc in spec.submodule_search_locations:
        kit = Path(loc) / "cu13"
        if kit.is_dir():
            return kit
    return None


def _kit_file(rel: str) -> Path | None:
    kit = cuda_kit()
    if kit is None:
        return None
    p = kit / rel
    return p if p.exists() else None


def tileiras() -> Path | None:
    return _kit_file("bin/tileiras")


def tileirdisasm() -> Path | None:
    return _kit_file("bin/tileirdisasm")


def ptxas() -> Path | None:
    return _kit_file("bin/ptxas")


def libnvvm() -> Path | None:
    return _kit_file("lib/libnvvm.so.4")


def cuda_include() -> Path | None:
    return _kit_file("include")


@functools.cache
def libclang_dir() -> Path | None:
    env = os.environ.get("LIBCLANG_PATH")
    if env and Path(env).is_dir():
        return Path(env)
    spec = importlib.util.find_spec("clang")
    if spec and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            d = Path(loc) / "native"
            if (d / "libclang.so").exists():
                return d
    return None


@functools.cache
def clang_builtin_include() -> Path | None:
    """A directory holding stddef.h (the PyPI libclang wheel ships no resource headers)."""
    for cc in ("cc", "gcc", "clang"):
        exe = shutil.which(cc)
        if not exe:
            continue
        try:
            out = subprocess.run([exe, "-print-file-name=include"], capture_output=True, text=True, timeout=30)
        except OSError:
            continue
        d = Path(out.stdout.strip())
        if (d / "stddef.h").exists():
            return d
    return None


def tool_env() -> dict[str, str]:
    """Environment for tileiras / tileirdisasm: never let a system CUDA_HOME leak in (13.0 breaks 13.4)."""
    env = {k: v for k, v in os.environ.items() if k not in ("CUDA_HOME", "CUDA_PATH")}
    kit = cuda_kit()
    if kit is not None:
        path = [p for p in env.get("PATH", "").split(os.pathsep) if p and not p.startswith("/usr/local/cuda")]
        env["PATH"] = os.pathsep.join([str(kit / "bin"), *path])
    return env


def cargo_env(bytecode_version: str = BYTECODE_VERSION) -> dict[str, str]:
    """Environment for building and running cutile crates (``bytecode_version``: what the harness writes)."""
    env = tool_env()
    kit = cuda_kit()
    if kit is not None:
        env["CUDA_TOOLKIT_PATH"] = str(kit)
        env["CUTILE_TILEIRAS_PATH"] = str(kit / "bin" / "tileiras")
    lc = libclang_dir()
    if lc is not None:
        env["LIBCLANG_PATH"] = str(lc)
    inc = clang_builtin_include()
    if inc is not None:
        env["BINDGEN_EXTRA_CLANG_ARGS"] = f"-I{inc}"
    env["CUTILE_BYTECODE_VERSION"] = bytecode_version
    for k in [k for k in env if k.startswith("CUTILE_JIT_")]:  # cutile >= 0.5 applies them inside compile()
        del env[k]
    env["CARGO_TARGET_DIR"] = str(cache_root() / "cargo-target")
    env.setdefault("CARGO_TERM_COLOR", "never")
    return env


def _run_version(cmd: list[str], pattern: str, env: dict[str, str] | None = None) -> str | None:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(pattern, out.stdout + out.stderr)
    return m.group(1) if m else None


# The optional parts of ctrs and the pip extra that brings each (pyproject [project.optional-dependencies]);
# the core (translate, regen) needs only libcst, lark and jinja2.
EXTRA_MODULES = {
    "verify": ("cuda.tile", "filelock", "clang"),  # check / ir-ref / ir-rs (+ the CUDA 13 kit wheels)
    "llm": ("openai",),  # translate --llm
    "gpu": ("cffi", "hypothesis", "torch"),  # verify / fuzz / bench --gpu
}
_MODULE_EXTRA = {mod.split(".")[0]: extra for extra, mods in EXTRA_MODULES.items() for mod in mods}


def pip_extra(*extras: str) -> str:
    return f"pip install 'ctrs[{','.join(extras)}]'"


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def require_extras(what: str, *extras: str) -> None:
    """One-line CTRS-E002 when ``what`` needs an extra that is not installed (checked before any work)."""
    missing = [x for x in extras if not all(_importable(m) for m in EXTRA_MODULES[x] if m != "torch")]
    if missing:
        raise errors.CtrsError(errors.EXTRA_MISSING, f"{what} needs the optional dependencies of ctrs[{','.join(missing)}]",
                               pip_extra(*extras))


def missing_module_error(e: ModuleNotFoundError) -> errors.CtrsError | None:
    """A CTRS-E002 naming the extra for an optional module that is not installed; None for any other module."""
    extra = _MODULE_EXTRA.get((e.name or "").split(".")[0])
    if extra is None:
        return None
    return errors.CtrsError(errors.EXTRA_MISSING, f"Python module '{e.name}' is not installed (ctrs[{extra}])",
                            pip_extra(extra))


@dataclass
class Component:
    name: str
    ok: bool
    version: str
    path: str
    hint: str
    extra: str = ""  # the pip extra that brings it ("" : not a Python package)

    def line(self) -> str:
        state = "found  " if self.ok else "MISSING"
        return f"{state} {self.name:<14} {self.version or '-':<12} {self.path or '-'}" + (
            "" if self.ok else f"  (fix: {self.hint})"
        )


VERIFY = pip_extra("verify") + " (in a checkout: scripts/bootstrap.sh)"


def components() -> list[Component]:
    out: list[Component] = []
    out.append(Component("python", sys.version_info >= (3, 11), sys.version.split()[0], sys.executable,
                         "use Python >= 3.11"))
    try:
        import cuda.tile as ct  # noqa: PLC0415

        out.append(Component("cuda-tile", ct.__version__.startswith("1.7."), ct.__version__,
                             str(Path(ct.__file__).parent), VERIFY, "verify"))
    except Exception:  # noqa: BLE001 - any import failure means missing
        out.append(Component("cuda-tile", False, "", "", VERIFY, "verify"))
    env = tool_env()
    for name, fn in (("tileiras", tileiras), ("tileirdisasm", tileirdisasm), ("ptxas", ptxas)):
        p = fn()
        ver = _run_version([str(p), "--version"], r"V(\d+\.\d+\.\d+)", env) if p else None
        out.append(Component(name, bool(p and ver), ver or "", str(p or ""), VERIFY, "verify"))
    nv = libnvvm()
    out.append(Component("libnvvm", nv is not None, "so.4" if nv else "", str(nv or ""), VERIFY, "verify"))
    inc = cuda_include()
    ver = ""
    ok = False
    if inc is not None:
        m = re.search(r"#define\s+CUDA_VERSION\s+(\d+)", (inc / "cuda.h").read_text(errors="replace"))
        needed = ["cuda.h", "curand.h", "cuda_runtime.h", "crt/host_defines.h"]
        if m and all((inc / n).exists() for n in needed):
            ver = m.group(1)
            ok = int(ver) >= MIN_CUDA_HEADER_VERSION
    out.append(Component("cuda-headers", ok, ver, str(inc or ""),
                         VERIFY + " (nvidia-cuda-runtime, -curand, -crt >= 13.2)", "verify"))
    lc = libclang_dir()
    out.append(Component("libclang", lc is not None, "", str(lc or ""), VERIFY, "verify"))
    out.append(_py_component("filelock", "verify"))
    bi = clang_builtin_include()
    out.append(Component("c-builtins", bi is not None, "stddef.h" if bi else "", str(bi or ""),
                         "install a C compiler (apt-get install gcc)"))
    cargo = shutil.which("cargo")
    cver = _run_version([cargo, "--version"], r"cargo (\d+\.\d+\.\d+)") if cargo else None
    rver = _run_version(["rustc", "--version"], r"rustc (\d+\.\d+\.\d+)") if shutil.which("rustc") else None
    rust_ok = bool(rver) and tuple(int(x) for x in rver.split(".")[:2]) >= MIN_RUST
    out.append(Component("cargo", bool(cver), cver or "", cargo or "", "install Rust with rustup"))
    out.append(Component("rustc", rust_ok, rver or "", shutil.which("rustc") or "",
                         f"rustup update (need >= {MIN_RUST[0]}.{MIN_RUST[1]})"))
    for extra, mods in (("llm", ("openai",)), ("gpu", ("cffi", "hypothesis"))):  # torch: on the GPU host only
        out += [_py_component(mod, extra) for mod in mods]
    return out  # the cutile crate versions: ctrs.targets.components() (one line per target profile)


def _py_component(module: str, extra: str) -> Component:
    found = _importable(module)
    try:
        ver = importlib.metadata.version(module) if found else ""
    except importlib.metadata.PackageNotFoundError:
        ver = ""
    where = importlib.util.find_spec(module).origin if found else ""
    hint = VERIFY if extra == "verify" else pip_extra(extra)
    return Component(module, found, ver, str(Path(where).parent) if where else "", hint, extra)


def require(*names: str) -> None:
    """Raise a one-line CTRS-E001 for the first missing component among ``names``."""
    for c in components():
        if c.name in names and not c.ok:
            raise errors.CtrsError(errors.TOOLCHAIN_MISSING, f"toolchain component '{c.name}' is missing or unusable",
                                   c.hint)
