"""GPU proof of a port: numerics against the cuTile Python reference, shape fuzzing, device-time ratio.

Runs on the GPU host (torch + cuda.tile + the port's cdylib through its generated wrapper.py).
Everything that does not need a GPU — tensor plans, hypothesis strategies, tolerance rules, report
rendering from recorded JSON — is plain Python and tested on the CPU.

Per specialisation: the same inputs go to ``ct.launch(stream, grid, kernel, args)`` and to the port's
wrapper function; every array is compared afterwards (outputs and in-place updates alike), bitwise
for integer / bool data, else with the per-dtype tolerance of analysis.json (defaults below).
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import spec as specmod

# dtype -> (rtol, atol): the tolerances the reference's own tests use for these dtypes
DEFAULT_TOLERANCES = {"float32": (1e-5, 1e-5), "float16": (1e-3, 1e-3), "bfloat16": (1e-2, 1e-2),
                      "float64": (1e-12, 1e-12)}
EXACT = ("int8", "int16", "int32", "int64", "uint8", "bool_")


# f32 data of a Triton kernel with tl.dot: both sides multiply tf32 operands (10 mantissa bits) but round f32 to
# tf32 differently (Triton's wgmma path drops the low 13 bits, cuTile's ftof rounds to nearest), so one product
# can differ by ~2^-10 relative and a K-term dot by ~2^-10 * sum_k |a_ik b_kj|. An elementwise rtol/atol on
# such sums fails for large K on correct ports (the first H200 run: max err 0.12-0.15 at K ~ 900, |C| up to
# ~140), so tf32 outputs are compared against the output's scale: |port - ref| <= TF32_SCALE * max|ref|
# (8 ulps of tf32 at the largest magnitude; a wrong tile or a dropped k-block is off by ~|C| itself).
TF32_SCALE = 8 * 2.0 ** -10
# f16 / bf16 data of a Triton reference: the two compilers may round half-precision intermediates differently
# (seen on the H200: TileGym's TMA rope, bf16 q1*cos - q2*sin, one bf16 ulp at |x| ~ 8 where the result
# cancels), so results differ by about one half-precision ulp of the operands -- of the output's largest
# magnitude, not of the small result. Allowed:
# one ulp at max|ref| (relative spacing 2^-10 for f16, 2^-7 for bf16); a wrong tile or index is off by ~|ref|.
HALF_ULP = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7}
# f32 data of a Triton kernel whose port reduces (tl.sum, tl.dot with input_precision="ieee", a split-K partial): both
# sides add the same terms in f32, in different orders (Triton's FMA dot / warp-shuffle tree against tileiras'), and
# an order's rounding error is at most gamma_L * sum|terms| (L terms, u = 2^-24 per addition). On the runner's data
# (independent standard normals) sum|terms| ~ L * E|t| and max|ref| ~ 4 * sqrt(L) * sigma_t, so two orders may differ
# by about u * sqrt(L) * max|ref| -- an elementwise rtol / atol meant for elementwise ops fails correct ports on the
# outputs that cancel to ~0 (the first unsloth H200 run: _fp8_rowwise_gemv_rows_kernel f32 split 8, K 8192, and
# int4 _gemv_kernel f32, K 8192, failed at 1e-5 with the same math). Allowed: F32_SUM_ULP * sqrt(L) * max|ref|,
# L bounded by the elements of the spec's largest array (no reduction is longer); a wrong tile, a dropped or doubled
# k-block is off by a fraction of max|ref| itself (>= 1 / sqrt(k-blocks)), far above it for L < 2^40.
F32_SUM_ULP = 2.0 ** -23
REDUCING_OPS = ("mma", "reduce", "scan")  # analysis.json op_stats kinds of a port that sums in f32


def tolerance(dtype: str, analysis: dict | None = None, kernel: str | None = None,
              sum_len: int = 0) -> tuple[float, float, float] | None:
    """(rtol, atol, scale) -- pass iff |port - ref| <= atol + rtol * |ref| + scale * max|ref| elementwise --
    or None for a bitwise comparison. Order: analysis.json "tolerances" (explicit override), then the tf32
    rule for a Triton reference with tl.dot (analysis "triton"[kernel].tf32), then the f32 reduction rule for a
    Triton reference whose port reduces (F32_SUM_ULP; ``sum_len``: a bound of the reduction length, 0: none
    known), then DEFAULT_TOLERANCES."""
    if dtype in EXACT:
        return None
    tol = ((analysis or {}).get("tolerances") or {}).get(dtype)
    if isinstance(tol, dict) and "rtol" in tol:
        return float(tol["rtol"]), float(tol["atol"]), 0.0
    if isinstance(tol, (list, tuple)) and len(tol) == 2:
        return float(tol[0]), float(tol[1]), 0.0
    tri = {k: m for k, m in ((analysis or {}).get("triton") or {}).items() if kernel is None or k == kernel}
    if dtype == "float32" and any(m.get("tf32") for m in tri.values()):
        return 0.0, 0.0, TF32_SCALE
    if dtype == "float32" and sum_len > 1 and tri and reduces(analysis, kernel):
        return (*DEFAULT_TOLERANCES[dtype], F32_SUM_ULP * math.sqrt(sum_len))
    if tri and dtype in HALF_ULP:  # another compiler's half-precision rounding (above)
        return (*DEFAULT_TOLERANCES[dtype], HALF_ULP[dtype])
    return (*DEFAULT_TOLERANCES.get(dtype, (1e-3, 1e-3)), 0.0)


def reduces(analysis: dict | None, kernel: str | None) -> bool:
    """Whether an entry of ``kernel`` (every kernel: None) sums in its body: analysis.json op_stats has a reduction
    or an mma."""
    return any(any((k.get("op_stats") or {}).get(op) for op in REDUCING_OPS)
               for k in (analysis or {}).get("kernels", []) if kernel is None
               or kernel in (k.get("python_name"), k.get("name")))


# ---------------------------------------------------------------------------------------------- Triton reference


def triton_map(analysis: dict | None, kernel: str) -> dict | None:
    """analysis.json "triton" entry of ``kernel`` (None: the reference is a cuTile Python kernel)."""
    return ((analysis or {}).get("triton") or {}).get(kernel)


def _const_value(spec: specmod.Spec, p: dict, defaults: dict | None) -> Any:
    """A constexpr's value: the spec's, else the kernel signature's default (``defaults``: parameter name ->
    default, from the reference JITFunction), else a clear error naming the constant."""
    name = p["const"]
    if name in spec.args:
        return spec.args[name].value
    if defaults and p["name"] in defaults:
        return defaults[p["name"]]
    raise ValueError(f"spec '{spec.name}' gives no value for constexpr '{name}' and the kernel has no default for it")


def triton_args(tmap: dict, spec: specmod.Spec, tensors: dict[str, Any], make_desc=None,
                defaults: dict | None = None) -> list:
    """Positional arguments of ``kernel[grid](*args)`` for the Triton reference, from the spec and tensors
    (anything with ``.shape`` and ``.stride()``): arrays, tensor descriptors (``make_desc(t, shape, strides,
    block)``, default triton's TensorDescriptor), extents, strides, scalars and constexprs. A constexpr the
    spec leaves out takes the kernel's default (``defaults``: name -> value), as a call that omits it does."""
    if make_desc is None and any(p["kind"] == "descriptor" for p in tmap["params"]):
        from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: PLC0415 - only on the GPU host
        make_desc = TensorDescriptor
    out = []
    for p in tmap["params"]:
        k = p["kind"]
        if k == "array":
            out.append(tensors[p["array"]])
        elif k == "descriptor":  # a host-made tensor descriptor over the whole tensor, block from the launch code
            t = tensors[p["array"]]
            block = [int(b) if str(b).isdigit() else int(spec.args[b].value) for b in p["block"]]
            out.append(make_desc(t, list(t.shape), list(t.stride()), block))
        elif k == "shape":
            out.append(int(tensors[p["array"]].shape[p["dim"]]))
        elif k == "stride":
            out.append(int(tensors[p["array"]].stride(p["dim"])))
        elif k == "scalar":
            out.append(spec.args[p["arg"]].value)
        elif k == "constexpr":
            out.append(_const_value(spec, p, defaults))
        elif k == "dtype" and p.get("array"):  # a dtype constexpr tied to an array: its element type
            import triton.language as tl  # noqa: PLC0415 - only on the GPU host
            out.append(getattr(tl, str(tensors[p["array"]].dtype).removeprefix("torch.")))
        elif k == "dtype" and p["const"] not in spec.args:  # left out: the signature's default (a tl.dtype)
            out.append(_const_value(spec, p, defaults))
        elif k == "dtype":  # one tied to no array: the spec names it ("tl.bfloat16")
            import triton.language as tl  # noqa: PLC0415
            out.append(getattr(tl, str(spec.args[p["const"]].value).removeprefix("tl.")))
        else:
            raise ValueError(f"Triton parameter '{p['name']}' has no spec source ({p.get('why', k)})")
    return out


def triton_port_inputs(tmap: dict, spec: specmod.Spec, tensors: dict[str, Any],
                       defaults: dict | None = None) -> tuple[list, dict]:
    """(positional inputs, constants) of the port wrapper function: the Triton parameters the cuTile
    rewrite keeps (arrays and runtime scalars, in signature order; constexprs by name, a left-out one with
    the kernel's default as for ``triton_args``)."""
    inputs = [tensors[p["array"]] if p["kind"] in ("array", "descriptor")
              else spec.args[p["arg"]].value if p["kind"] == "scalar" else _const_value(spec, p, defaults)
              for p in tmap["params"] if p["kind"] in ("array", "descriptor", "scalar") or p.get("port") == "scalar"]
    consts = {p["const"]: _const_value(spec, p, defaults) for p in tmap["params"]
              if p["kind"] == "constexpr" and p.get("port") != "scalar"}  # float constexprs: runtime f32 inputs
    return inputs, consts


def triton_launch_options(analysis: dict | None, kernel: str, spec: specmod.Spec) -> dict:
    """num_warps / num_stages of the @triton.autotune config the spec's constants select ({} if none)."""
    consts = {n: a.value for n, a in spec.args.items() if isinstance(a, specmod.ConstArg)}
    for cl in (analysis or {}).get("config_lists", []):
        if cl.get("name") != f"{kernel}.autotune":
            continue
        for item, hints in zip(cl.get("items", []), cl.get("hints", [])):
            if all(consts.get(k) == v for k, v in item.items()):
                return {k: v for k, v in (hints or {}).items() if k in ("num_warps", "num_stages")}
    return {}


# ---------------------------------------------------------------------------------------------- fuzzing


def tie_groups(spec: specmod.Spec) -> list[list[str]]:
    """The spec's ``fuzz.vary`` entries grouped by equal base value (one drawn size per group)."""
    groups: dict[int, list[str]] = {}
    for ref in spec.fuzz.get("vary", []):
        groups.setdefault(_base_value(spec, ref), []).append(ref)
    return [groups[k] for k in sorted(groups)]


def _base_value(spec: specmod.Spec, ref: str) -> int:
    name, _, dim = ref.partition(".")
    a = spec.args.get(name)
    if isinstance(a, specmod.ArrayArg):
        return a.shape[int(dim)]
    if isinstance(a, specmod.ScalarArg) and isinstance(a.value, int):
        return int(a.value)
    raise ValueError(f"spec '{spec.name}': fuzz.vary entry {ref!r} names no array dim or int scalar")


def resized(spec: specmod.Spec, sizes: dict[int, int]) -> specmod.Spec:
    """A copy of ``spec`` with every tie group (keyed by its base value) set to a new size."""
    raw = spec.to_json()
    for group in tie_groups(spec):
        new = sizes[_base_value(spec, group[0])]
        for ref in group:
            name, _, dim = ref.partition(".")
            arg = raw["args"][name]
            if dim:
                shape = list(arg["shape"])
                shape[int(dim)] = new
                arg["shape"] = shape
                arg.pop("strides", None)  # contiguous for the new shape
            else:
                arg["value"] = new
    raw["name"] = spec.name + "@" + "x".join(str(sizes[k]) for k in sorted(sizes))
    return specmod.parse_spec(raw, spec.name)


def size_strategy(base: int, limit: int, tiles: list[int]):
    """Sizes that cross tile boundaries: tails (t±1), non-powers of two, multiples of 16, large."""
    from hypothesis import strategies as st  # noqa: PLC0415

    special = sorted({v for t in tiles for v in (t - 1, t, t + 1, 2 * t + 1, 3 * t - 1) if 1 <= v <= limit}
                     | {v for v in (1, 2, 3, 15, 16, 17, 127, 129, base, limit) if 1 <= v <= limit})
    return st.one_of(st.sampled_from(special), st.integers(min_value=1, max_value=limit))


def spec_strategy(spec: specmod.Spec):
    """Hypothesis strategy of resized specs (shape fuzzing around one base specialisation)."""
    from hypothesis import strategies as st  # noqa: PLC0415

    limit = int(spec.fuzz.get("max", 4096))
    tiles = sorted({int(a.value) for a in spec.args.values()
                    if isinstance(a, specmod.ConstArg) and isinstance(a.value, int) and not isinstance(a.value, bool)
                    and a.value > 1})
    groups = tie_groups(spec)
    if not groups or spec.has_data:
        return st.just(spec)  # nothing to vary, or inputs given as data: a resized launch would not agree with them
    keys = [_base_value(spec, g[0]) for g in groups]
    return st.fixed_dictionaries({k: size_strategy(k, limit, tiles) for k in keys}).map(lambda d: resized(spec, d))


# ---------------------------------------------------------------------------------------------- results


@dataclass
class Check:
    port: str
    spec: str
    ok: bool
    detail: str = ""
    max_abs_err: float = 0.0
    bitwise: bool = False
    spec_json: dict | None = None  # the (shrunk) failing specialisation, replayed first by the next run
    max_ulp: int = 0  # largest distance in units in the last place over the finite float elements (0: bitwise)


@dataclass
class Timing:
    port: str
    spec: str
    ref_us: list[float]
    port_us: list[float]

    @property
    def ref_median(self) -> float:
        return statistics.median(self.ref_us)

    @property
    def port_median(self) -> float:
        return statistics.median(self.port_us)

    @property
    def ratio(self) -> float:
        """reference time / port time (> 1: the port is faster)."""
        return self.ref_median / self.port_median if self.port_median > 0 else float("nan")

    def to_json(self) -> dict:
        def spread(xs: list[float]) -> float:
            return (max(xs) - min(xs)) / statistics.median(xs) if xs else 0.0

        return {"port": self.port, "spec": self.spec, "ref_median_us": self.ref_median,
                "port_median_us": self.port_median, "ratio": self.ratio, "ref_spread": spread(self.ref_us),
                "port_spread": spread(self.port_us), "reps": len(self.port_us)}


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)
    timings: list[Timing] = field(default_factory=list)
    # port -> {"ct.launch": median us, "port wrapper": median us, "calls": n} (host wall clock per call)
    overhead: dict[str, dict[str, float]] = field(default_factory=dict)
    device: str = ""

    def to_json(self) -> dict:
        return {"device": self.device, "checks": [c.__dict__ for c in self.checks],
                "timings": [t.to_json() for t in self.timings], "overhead_us": self.overhead,
                "geomean_ratio": geomean([t.ratio for t in self.timings])}


def geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def render_markdown(data: dict) -> str:
    """Markdown report from the JSON written by a GPU run (also rendered on the CPU in tests)."""
    lines = [f"# ctrs GPU proof ({data.get('device') or 'unknown device'})", ""]
    checks = data.get("checks", [])
    per_port: dict[str, list[dict]] = {}
    for c in checks:
        per_port.setdefault(c["port"], []).append(c)
    lines += ["## Numerics", "", "| port | checks | failed | max abs err | bitwise equal |", "|---|---|---|---|---|"]
    for port in sorted(per_port):
        cs = per_port[port]
        failed = [c for c in cs if not c["ok"]]
        lines.append(f"| {port} | {len(cs)} | {len(failed)} | {max(c['max_abs_err'] for c in cs):.3g} | "
                     f"{sum(1 for c in cs if c['bitwise'])}/{len(cs)} |")
    bad = [c for c in checks if not c["ok"]]
    if bad:
        lines += ["", "Failures:", ""] + [f"- {c['port']} / {c['spec']}: {c['detail']}" for c in bad]
    overhead = data.get("overhead_us") or {}
    per_port = {p: v for p, v in overhead.items() if isinstance(v, dict)}  # older reports: one flat pair

    def launch(port: str) -> str:
        o = per_port.get(port)
        return f"{o['ct.launch']:.1f} | {o['port wrapper']:.1f}" if o else "- | -"

    lines += ["", "## Device time (median, us; ratio = reference / port) and launch overhead (host us per call)", "",
              "| port | spec | reference | port | ratio | launch ct.launch | launch wrapper |",
              "|---|---|---|---|---|---|---|"]
    for t in sorted(data.get("timings", []), key=lambda t: (t["port"], t["spec"])):
        lines.append(f"| {t['port']} | {t['spec']} | {t['ref_median_us']:.2f} | {t['port_median_us']:.2f} | "
                     f"{t['ratio']:.3f} | {launch(t['port'])} |")
    lines += ["", f"geomean_ratio={data.get('geomean_ratio', float('nan')):.4f}"]
    if per_port:
        slow_key = "port wrapper, CTRS_FFI_FAST=0"  # the C entries' slow path (cutile's launcher every call)
        lines += ["", "## Launch overhead (host wall clock per call, median, us; asynchronous launches)", "",
                  "| port | spec | calls | ct.launch | port wrapper | wrapper, CTRS_FFI_FAST=0 | wrapper / ct.launch |",
                  "|---|---|---|---|---|---|---|"]
        for p, o in sorted(per_port.items()):
            slow = f"{o[slow_key]:.2f}" if o.get(slow_key) is not None else "-"
            lines.append(f"| {p} | {o.get('spec', '')} | {int(o.get('calls', 0))} | {o['ct.launch']:.2f} | "
                         f"{o['port wrapper']:.2f} | {slow} | {o['port wrapper'] / o['ct.launch']:.3f} |")
        rs = [o["port wrapper"] / o["ct.launch"] for o in per_port.values() if o["ct.launch"] > 0]
        lines += ["", f"launch_overhead_geomean_wrapper_over_ct_launch={geomean(rs):.4f} over {len(rs)} ports; "
                      f"ports with wrapper <= ct.launch: {sum(r <= 1.0 for r in rs)}/{len(rs)}"]
    elif overhead:
        lines += ["", "## Launch overhead (wall clock per call on tiny inputs, us)", ""]
        lines += [f"- {k}: {v:.1f}" for k, v in sorted(overhead.items())]
    return "\n".join(lines) + "\n"


def render_plot(data: dict, path: Path) -> None:
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    ts = sorted(data.get("timings", []), key=lambda t: (t["port"], t["spec"]))
    fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(ts) + 2), 4))
    ax.bar(range(len(ts)), [t["ratio"] for t in ts], color=["tab:green" if t["ratio"] >= 0.95 else "tab:red" for t in ts])
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(0.95, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(len(ts)), [f"{t['port']}\n{t['spec']}" for t in ts], rotation=90, fontsize=6)
    ax.set_ylabel("reference time / port time")
    ax.set_title(f"ctrs ports vs cuTile Python, geomean {data.get('geomean_ratio', float('nan')):.3f}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_reports(report: Report, out: Path) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    data = report.to_json()
    failures = [{"port": c.port, "spec": c.spec_json} for c in report.checks if not c.ok and c.spec_json]
    (out / "regressions.json").write_text(json.dumps(failures, indent=2, sort_keys=True) + "\n")
    (out / "gpu_report.json").write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    (out / "gpu_report.md").write_text(render_markdown(data))
    if data["timings"]:
        render_plot(data, out / "gpu_ratio.png")
    return data


# ---------------------------------------------------------------------------------------------- GPU side


def make_tensors(spec: specmod.Spec, seed: int) -> dict[str, Any]:
    """Deterministic random inputs (torch, on the current CUDA device) for every array of ``spec``: floats normal,
    integers in [0, 100), an array with ``values: permutation`` a random permutation of its indices, one with a
    list of values those values."""
    import torch  # noqa: PLC0415

    g = torch.Generator(device="cuda").manual_seed(seed)
    out = {}
    for n, a in spec.args.items():
        if not isinstance(a, specmod.ArrayArg):
            continue
        dt = getattr(torch, a.dtype.rstrip("_")) if a.dtype != "bool_" else torch.bool
        extent = 1 + sum((d - 1) * s for d, s in zip(a.shape, a.strides))
        if isinstance(a.values, tuple):  # the spec's own data (inputs that must agree with each other)
            src = torch.tensor(a.values, dtype=torch.int64 if not dt.is_floating_point else torch.float64)
            base = src.to(device="cuda", dtype=dt)
        elif a.values == "permutation":  # distinct indices: a kernel scattering by them has no racing stores
            base = torch.randperm(extent, generator=g, device="cuda", dtype=torch.int64).to(dt)
        elif dt.is_floating_point:
            base = torch.randn(extent, generator=g, device="cuda", dtype=torch.float32).to(dt)
        else:
            base = torch.randint(0, 100, (extent,), generator=g, device="cuda", dtype=torch.int64).to(dt)
        out[n] = torch.as_strided(base, a.shape, a.strides)
    return out


def call_args(spec: specmod.Spec, params: list[str], tensors: dict[str, Any]) -> tuple:
    vals = []
    for p in params:
        a = spec.args[p]
        vals.append(tensors[p] if isinstance(a, specmod.ArrayArg) else a.value)
    return tuple(vals)


# float dtype -> the signed integer type of its bits (ulp distances are differences of ordered bit patterns)
ULP_INTS = {"float16": ("int16", 16), "bfloat16": ("int16", 16), "float32": ("int32", 32), "float64": ("int64", 64)}


def max_ulp(a, b) -> int:
    """The largest distance in units in the last place between same-dtype float tensors ``a`` and ``b`` over the
    elements finite in both (0 for other dtypes): the bit patterns, mapped so that they order like the values
    (-0.0 and +0.0 coincide; the smallest negative and the smallest positive subnormal are 2 apart)."""
    import torch  # noqa: PLC0415

    name = str(a.dtype).rsplit(".", 1)[-1]
    if name not in ULP_INTS:
        return 0
    it, bits = ULP_INTS[name]
    fin = torch.isfinite(a) & torch.isfinite(b)
    if not bool(fin.any()):
        return 0

    def ordered(t):
        i = t.contiguous().view(getattr(torch, it))[fin].to(torch.int64)
        return torch.where(i >= 0, i, -(i & ((1 << (bits - 1)) - 1)))

    return int((ordered(a) - ordered(b)).abs().max())


def compare(spec: specmod.Spec, ref: dict, got: dict, analysis: dict | None) -> tuple[bool, str, float, bool, int]:
    """(ok, what differs, max abs error, every array bitwise equal, max ulp distance) of the port's arrays
    ``got`` against the reference's ``ref``."""
    import torch  # noqa: PLC0415

    worst, all_bitwise, details, ulp = 0.0, True, [], 0
    sum_len = max((math.prod(a.shape) for a in spec.args.values() if isinstance(a, specmod.ArrayArg)), default=0)
    for n in sorted(ref):
        a, b = ref[n], got[n]
        same = bool(torch.equal(a, b))
        all_bitwise &= same
        if same:
            continue
        tol = tolerance(spec.args[n].dtype, analysis, spec.kernel, sum_len)
        if tol is None:
            details.append(f"{n}: integer data differs")
            continue
        ulp = max(ulp, max_ulp(a, b))
        af, bf = a.float(), b.float()
        err = (af - bf).abs()
        finite = torch.isfinite(af) & torch.isfinite(bf)
        nan_mismatch = bool(((~torch.isfinite(af)) != (~torch.isfinite(bf))).any())
        worst = max(worst, float(err[finite].max()) if bool(finite.any()) else 0.0)
        rtol, atol, scale = tol
        if scale and bool(finite.any()):
            atol += scale * float(af[finite].abs().max())
        if nan_mismatch or not torch.allclose(af[finite], bf[finite], rtol=rtol, atol=atol):
            what = f"rtol={rtol}, atol={atol:.3g}" + (f" (= {scale:.3g} * max|ref|)" if scale else "")
            details.append(f"{n}: max abs err {float(err[finite].max()) if bool(finite.any()) else 0.0:.3g} over {what}"
                           + (f" (non-finite mismatch: {int((~torch.isfinite(af)).sum())} in the reference, "
                              f"{int((~torch.isfinite(bf)).sum())} in the port, of {af.numel()})" if nan_mismatch else ""))
    return not details, "; ".join(details), worst, all_bitwise, ulp
