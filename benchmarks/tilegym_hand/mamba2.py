"""TileGym 1.5.1 mamba2.py: test shapes and benchmark sizes, written from its host code (read by
``benchmarks/h200_tilegym.py shapes mamba2.py``; see README.md here).

The host code cannot run on a CPU: every launcher asks ``torch.cuda`` for the current stream, and the persistent
grids for the device's multiprocessor count. So the launches are computed here, as the host code computes them,
for the kernels ctrs ports (tier "rules" in benchmarks/results/corpus-tilegym-1.5.1.json; ``chunk_cumsum_kernel``,
refused, is left out):

* ``mamba2_chunk_forward``: ``_fwd_pass_state`` (``fwd_pass_state_kernel``, hiddens in ``c.dtype``, DUAL off) and
  ``_compute_out`` (``compute_out_swap_kernel`` when chunk_size == 64, else ``compute_out_kernel``);
* ``mamba2_chunk_backward`` (state dtype float32): ``_fwd_pass_state_dual`` (``fwd_pass_state_kernel``, float32
  hiddens and a narrow copy in ``dout.dtype``, DUAL on), ``_bwd_pass_state`` (with partials), ``_compute_dd_dcb_dx``
  and ``_compute_da_db_dc_ddt``.

Every launcher autotunes over a generated config list; the spec takes the first config of that list (the one the
autotuner tries first, and the one it uses when autotuning is disabled), with the grid of an H200 (132 SMs) for
the persistent ones. Inputs are those of TileGym's ``Mamba2ProblemSpec``: x / b / c / dt / dout in the test dtype
(bfloat16), a / d float32, init_state / dfinal_state float32; the intermediates as the host code allocates them
(``_chunk_cumsum``: decay_bth / decay_bht float32, dt_bht in dt's dtype). Every tensor is contiguous.

Shapes (read in NVIDIA/TileGym tests/ops/test_mamba2.py; TileGym has no tests/benchmark file for mamba2):

* ``TESTS``: ``Test_Mamba2_ChunkForward.test_op`` and ``Test_Mamba2_ChunkBackward.test_op`` (bf16) over
  ``_E2E_SHAPE_CONFIGS`` ``(batch, tokens, groups, heads, state, head, chunk)``: 4 of its 9 points forward and 5
  backward (smallest and largest in both), so that no kernel has more than 9 test specs;
* ``BENCH``: their ``test_perf`` sweeps (batch 4, 1 group, 8 heads, head 64, bf16; T 2^10..2^18 x state 64..512;
  forward chunk 128, backward chunk 128 at state 512 else 64): 4 of the 36 points, every state size once and
  T 2^10, 2^12, 2^14, 2^18 (state 512 not at 2^18: its float32 hiddens alone would be 2^31 elements).

``ctrs check`` on a CPU: every kernel's specs here are IR-EQUIVALENT but the ungrouped backward's
``compute_da_db_dc_ddt_kernel`` (REDUCE_HEADS False, bf16 inputs, float32 da): NO-ENTRY, the port's per-head variant
types da with x's dtype variable. The forward chunk128-ungrouped ``compute_out_kernel`` launch is a committed spec.
"""

from __future__ import annotations

NUM_SMS = 132  # _num_sms() on an H200
PARTIALS_PER_TILE = 128  # mamba2.py's _PARTIALS_PER_TILE
BF16, F32 = "bfloat16", "float32"
TAG = {BF16: "bf16", F32: "f32"}


def _arr(dtype: str, *shape: int) -> dict:
    strides = [1]
    for d in reversed(shape[1:]):
        strides.insert(0, strides[0] * d)
    return {"align": 256, "dtype": dtype, "shape": list(shape), "strides": strides}


def _first(sizes, n: int) -> int:
    """The first of ``sizes`` dividing ``n`` (the configs' ``if n % BLOCK: continue``)."""
    return next(s for s in sizes if n % s == 0)


class Problem:
    """One Mamba2ProblemSpec: (batch, tokens, groups, heads, state, head, chunk) in ``dtype``."""

    def __init__(self, B: int, T: int, G: int, H: int, N: int, P: int, chunk: int, dtype: str = BF16):
        assert T % chunk == 0 and H % G == 0  # _validate_chunk_size; heads come in whole groups
        self.B, self.T, self.G, self.H, self.N, self.P, self.chunk, self.dtype = B, T, G, H, N, P, chunk, dtype
        self.NC = T // chunk  # num_chunks
        self.hpg = H // G  # num_heads_per_group

    def tag(self) -> str:
        return f"B{self.B}_T{self.T}_H{self.H}_P{self.P}_G{self.G}_N{self.N}_chunk{self.chunk}"

    # the host's tensors (x / b / c / dt / dout: the problem's; a / d: float32; the _chunk_cumsum outputs)
    def x(self):
        return _arr(self.dtype, self.B, self.T, self.H, self.P)

    def bc(self):  # b and c: (batch, tokens, groups, state)
        return _arr(self.dtype, self.B, self.T, self.G, self.N)

    def bht(self, dtype: str):  # dt_bht (dt's dtype) / decay_bht (float32): (batch, heads, tokens)
        return _arr(dtype, self.B, self.H, self.T)

    def bth(self, dtype: str):  # decay_bth, ddt, ddecay_cumsum: (batch, tokens, heads)
        return _arr(dtype, self.B, self.T, self.H)

    def state(self, dtype: str = F32):  # init_state / final_state / dfinal_state / dinit_state
        return _arr(dtype, self.B, self.H, self.P, self.N)

    def hid(self, dtype: str):  # hiddens / dhiddens: (batch, heads, chunks, head, state)
        return _arr(dtype, self.B, self.H, self.NC, self.P, self.N)


def fwd_pass_state(p: Problem, dual: bool) -> dict:
    """``_fwd_pass_state`` (forward: hiddens in c.dtype, hid_narrow the same tensor, DUAL False) or
    ``_fwd_pass_state_dual`` (backward, state dtype float32: hiddens float32, hid_narrow in narrow_dtype(float32,
    dout.dtype), DUAL = they differ). First of _fwd_pass_state_autotune_configs: variant (SWAP, BHT) = (False,
    True), BLOCK_STATE the first of 16/32/64 dividing the state size, BLOCK_HEAD min(64, head), LOAD_LAT 4,
    BDD_LAT 2, STORE_LAT 2, occupancy 2, num_ctas 1. BHT: dt_bht and decay_bht are passed."""
    bs, bh = _first((16, 32, 64), p.N), min(64, p.P)
    assert p.P % bh == 0
    hid = p.hid(F32 if dual else p.dtype)
    narrow = p.hid(p.dtype) if dual else dict(hid)  # forward: the same tensor as hiddens (never written: DUAL off)
    args = {"x": p.x(), "b": p.bc(), "dt": p.bht(p.dtype), "decay_cumsum": p.bht(F32), "init_state": p.state(),
            "hiddens": hid, "hid_narrow": narrow, "final_state": p.state(), "chunk_size": p.chunk,
            "BLOCK_STATE": bs, "BLOCK_HEAD": bh, "num_heads_per_group": p.hpg, "LOAD_LAT": 4, "STORE_LAT": 2,
            "BDD_LAT": 2, "SWAP": False, "BHT": True, "DUAL": dual}
    via = "_fwd_pass_state_dual via mamba2_chunk_backward" if dual else "_fwd_pass_state via mamba2_chunk_forward"
    return {"kernel": "fwd_pass_state_kernel",
            "name": f"fwd_pass_state_kernel__{TAG[p.dtype]}_bht{'_dual' if dual else ''}_{p.tag()}_bs{bs}",
            "args": args, "grid": [str(p.P // bh), str(p.N // bs), str(p.B * p.H)],
            "hints": {"num_ctas": 1, "occupancy": 2},
            "sites": [f"mamba2.py:{via} (first of _fwd_pass_state_autotune_configs)"]}


def compute_out(p: Problem) -> dict:
    """``_compute_out`` (mamba2_chunk_forward; hiddens in c.dtype): compute_out_swap_kernel when chunk_size == 64,
    else compute_out_kernel. First config of _compute_out_swap_configs / _compute_out_configs: BLOCK_STATE the
    first of 16/32/64/128 dividing the state size, BLOCK_HEAD min(64, head), occupancy 1, persistent (grid
    occupancy x SMs), LATENCY 3 (swap only), H_LAT 3."""
    swap = p.chunk == 64
    bs, bh = _first((16, 32, 64, 128), p.N), min(64, p.P)
    assert p.P % bh == 0
    args = {"x": p.x(), "b": p.bc(), "c": p.bc(), "d": _arr(F32, p.H), "dt": p.bht(p.dtype),
            "decay_cumsum": p.bht(F32), "hiddens": p.hid(p.dtype), "out": p.x(), "chunk_size": p.chunk,
            "BLOCK_STATE": bs, "BLOCK_HEAD": bh, "num_heads_per_group": p.hpg, "state_size": p.N}
    args.update({"LATENCY": 3, "H_LAT": 3, "persistent": True} if swap else {"H_LAT": 3, "persistent": True})
    kernel = "compute_out_swap_kernel" if swap else "compute_out_kernel"
    configs = "_compute_out_swap_configs" if swap else "_compute_out_configs"
    return {"kernel": kernel, "name": f"{kernel}__{TAG[p.dtype]}_persistent_{p.tag()}_bs{bs}", "args": args,
            "grid": [str(1 * NUM_SMS), "1", "1"], "hints": {"occupancy": 1},
            "sites": [f"mamba2.py:_compute_out via mamba2_chunk_forward (first of {configs}; 132 SMs)"]}


def bwd_tiling(p: Problem) -> tuple[int, int]:
    """(BLOCK_STATE, BLOCK_HEAD) of the first of _bwd_pass_state_autotune_configs: BLOCK_STATE 16/32/64 (outer
    loop), BLOCK_HEAD min(64, head), kept when they divide state / head and BLOCK_HEAD x BLOCK_STATE is a multiple
    of _PARTIALS_PER_TILE."""
    bh = min(64, p.P)
    bs = next(s for s in (16, 32, 64) if p.P % bh == 0 and p.N % s == 0 and (bh * s) % PARTIALS_PER_TILE == 0)
    return bs, bh


def n_partials(p: Problem) -> int:
    bs, bh = bwd_tiling(p)
    return (p.P // bh) * (p.N // bs) * PARTIALS_PER_TILE


def bwd_pass_state(p: Problem) -> dict:
    """``_bwd_pass_state`` (mamba2_chunk_backward: decay_cumsum = decay_bth, hiddens = the float32 ones, so with
    partials; dhiddens in narrow_dtype(float32, b.dtype, x.dtype)). First config: bwd_tiling, occupancy 2,
    num_ctas 1, LOAD_LAT 4, STORE_LAT 1, CD_LAT 3, HID_LAT 3; dd_last_partials of the winning tiling."""
    bs, bh = bwd_tiling(p)
    narrow = p.dtype  # b.dtype == x.dtype: their common dtype
    args = {"c": p.bc(), "decay_cumsum": p.bth(F32), "dout": p.x(), "dfinal_state": p.state(),
            "dhiddens": p.hid(narrow), "hiddens": p.hid(F32),
            "dd_last_partials": _arr(F32, p.B, p.H, p.NC, p.P // bh, p.N // bs, PARTIALS_PER_TILE),
            "dinit_state": p.state(), "chunk_size": p.chunk, "BLOCK_STATE": bs, "BLOCK_HEAD": bh,
            "num_heads_per_group": p.hpg, "LOAD_LAT": 4, "STORE_LAT": 1, "CD_LAT": 3, "HID_LAT": 3,
            "WITH_PARTIALS": True}
    return {"kernel": "bwd_pass_state_kernel", "name": f"bwd_pass_state_kernel__{TAG[p.dtype]}_{p.tag()}_bs{bs}",
            "args": args, "grid": [str(p.P // bh), str(p.N // bs), str(p.B * p.H)],
            "hints": {"num_ctas": 1, "occupancy": 2},
            "sites": ["mamba2.py:_bwd_pass_state via mamba2_chunk_backward (first of "
                      "_bwd_pass_state_autotune_configs)"]}


# _compute_dd_dcb_dx_autotune_configs: the first BLOCK_STATE / LOAD_LAT / DOUT_LAT / DHID_LAT of the _PRUNED
# row of the state size (BLOCK_STATE: the first dividing it), or of _FALLBACK for other state sizes
DD_FIRST = {64: ((32, 64), 3, 5, 5), 128: ((32, 64, 128), 4, 5, 5), 256: ((32, 64, 128), 4, 5, 5),
            512: ((32, 128), 4, 7, 5)}
DD_FALLBACK = ((16, 32, 64, 128), 3, 5, 5)


def compute_dd_dcb_dx(p: Problem) -> dict:
    """``_compute_dd_dcb_dx`` (mamba2_chunk_backward: dhiddens from _bwd_pass_state; dx like x, ddt in dt_bht's
    dtype, dd / ddecay_cumsum float32, dcb in c.dtype). First config: occupancy 1, BLOCK_HEAD = head,
    persistent (grid occupancy x SMs), STORE_LAT 1, the rest from DD_FIRST."""
    sizes, load, dout, dhid = DD_FIRST.get(p.N, DD_FALLBACK)
    bs = _first(sizes, p.N)
    args = {"x": p.x(), "b": p.bc(), "c": p.bc(), "d": _arr(F32, p.H), "dt": p.bht(p.dtype),
            "decay_cumsum": p.bht(F32), "dout": p.x(), "dhiddens": p.hid(p.dtype), "dx": p.x(),
            "ddt": p.bth(p.dtype), "dd": _arr(F32, p.B, p.H, p.NC), "ddecay_cumsum": p.bth(F32),
            "dcb": _arr(p.dtype, p.B, p.T, p.H, p.chunk), "chunk_size": p.chunk, "BLOCK_STATE": bs,
            "BLOCK_HEAD": p.P, "num_heads_per_group": p.hpg, "state_size": p.N, "head_size": p.P,
            "LOAD_LAT": load, "STORE_LAT": 1, "DOUT_LAT": dout, "DHID_LAT": dhid, "persistent": True}
    return {"kernel": "compute_dd_dcb_dx_kernel",
            "name": f"compute_dd_dcb_dx_kernel__{TAG[p.dtype]}_persistent_{p.tag()}_bs{bs}", "args": args,
            "grid": [str(1 * NUM_SMS), "1", "1"], "hints": {"occupancy": 1},
            "sites": ["mamba2.py:_compute_dd_dcb_dx via mamba2_chunk_backward (first of "
                      "_compute_dd_dcb_dx_autotune_configs; 132 SMs)"]}


def compute_da_db_dc_ddt(p: Problem) -> dict:
    """``_compute_da_db_dc_ddt`` (mamba2_chunk_backward: hiddens = the narrow copy of _fwd_pass_state_dual,
    dhiddens / dcb / ddt_partial / ddecay_cumsum from _compute_dd_dcb_dx, partials from _bwd_pass_state viewed as
    (batch, heads, chunks, n_partials); grouped = groups != heads: db / dc float32 per group, else in b's / c's
    dtype per head; da float32, ddt like ddt_partial). First of _compute_da_db_dc_ddt_autotune_configs:
    BLOCK_HEAD min(64, head), BLOCK_STATE the first of 16/32 dividing the state size, occupancy 2, persistent
    (grid occupancy x SMs), LOAD_LAT 3, STORE_LAT 1."""
    bs, bh = _first((16, 32), p.N), min(64, p.P)
    assert p.P % bh == 0
    grouped = p.G != p.H
    dbc = _arr(F32, p.B, p.T, p.G, p.N) if grouped else _arr(p.dtype, p.B, p.T, p.H, p.N)
    nd = n_partials(p)
    args = {"x": p.x(), "a": _arr(F32, p.H), "b": p.bc(), "c": p.bc(), "dt": p.bht(p.dtype),
            "decay_cumsum": p.bht(F32), "hiddens": p.hid(p.dtype), "dout": p.x(), "dhiddens": p.hid(p.dtype),
            "dcb": _arr(p.dtype, p.B, p.T, p.H, p.chunk), "ddecay_cumsum": p.bth(F32),
            "dd_last_partials": _arr(F32, p.B, p.H, p.NC, nd), "da": _arr(F32, p.B, p.H, p.NC), "db": dbc,
            "dc": dict(dbc), "ddt_partial": p.bth(p.dtype), "ddt": p.bth(p.dtype), "chunk_size": p.chunk,
            "BLOCK_STATE": bs, "BLOCK_HEAD": bh, "num_heads_per_group": p.hpg, "state_size": p.N,
            "head_size": p.P, "ND_LEN": nd, "LOAD_LAT": 3, "STORE_LAT": 1, "persistent": True,
            "REDUCE_HEADS": grouped}
    kind = "grouped" if grouped else "per_head"
    return {"kernel": "compute_da_db_dc_ddt_kernel",
            "name": f"compute_da_db_dc_ddt_kernel__{TAG[p.dtype]}_{kind}_persistent_{p.tag()}_bs{bs}",
            "args": args, "grid": [str(2 * NUM_SMS), "1", "1"], "hints": {"occupancy": 2},
            "sites": ["mamba2.py:_compute_da_db_dc_ddt via mamba2_chunk_backward (first of "
                      "_compute_da_db_dc_ddt_autotune_configs; 132 SMs)"]}


def forward(p: Problem) -> list[dict]:
    """mamba2_chunk_forward's launches of the ported kernels."""
    return [fwd_pass_state(p, dual=False), compute_out(p)]


def backward(p: Problem) -> list[dict]:
    """mamba2_chunk_backward's launches of the ported kernels (state dtype float32)."""
    return [fwd_pass_state(p, dual=True), bwd_pass_state(p), compute_dd_dcb_dx(p), compute_da_db_dc_ddt(p)]


# test_mamba2.py _E2E_SHAPE_CONFIGS: id -> (batch, tokens, groups, heads, state, head, chunk)
E2E = {"minimal": (1, 64, 1, 4, 16, 32, 64), "batch2": (2, 128, 1, 4, 16, 32, 64),
       "groups2": (1, 64, 2, 4, 16, 32, 64), "standard": (2, 128, 2, 8, 32, 64, 64),
       "T192": (1, 192, 1, 4, 16, 32, 64), "large": (2, 256, 2, 8, 64, 64, 64),
       "single-chunk": (2, 64, 1, 8, 16, 64, 64), "three-chunks": (1, 192, 1, 4, 64, 64, 64),
       "chunk128-ungrouped": (1, 256, 4, 4, 128, 64, 128)}
FORWARD_TESTS = ["minimal", "groups2", "large", "chunk128-ungrouped"]
BACKWARD_TESTS = ["minimal", "standard", "single-chunk", "large", "chunk128-ungrouped"]
FIRST = "first autotune config on an H200 (132 SMs)"


TESTS = (
    [(f"test_mamba2.py Test_Mamba2_ChunkForward.test_op[bf16-{i}] (batch, tokens, groups, heads, state, head, "
      f"chunk) = {E2E[i]}; {FIRST}", forward(Problem(*E2E[i]))) for i in FORWARD_TESTS]
    + [(f"test_mamba2.py Test_Mamba2_ChunkBackward.test_op[bf16-{i}] (batch, tokens, groups, heads, state, head, "
        f"chunk) = {E2E[i]}, state dtype float32; {FIRST}", backward(Problem(*E2E[i]))) for i in BACKWARD_TESTS])

# test_perf: Mamba2ProblemSpec(4, T, 1, 8, S, 64, chunk, bf16, f32); (T, S) points taken
PERF = [(1 << 10, 64), (1 << 12, 256), (1 << 14, 512), (1 << 18, 128)]

BENCH = (
    [(f"test_mamba2.py Test_Mamba2_ChunkForward.test_perf[T={t}, S={s}] (batch 4, 1 group, 8 heads, head 64, "
      f"chunk 128, bf16); {FIRST}", forward(Problem(4, t, 1, 8, s, 64, 128))) for t, s in PERF]
    + [(f"test_mamba2.py Test_Mamba2_ChunkBackward.test_perf[T={t}, S={s}] (batch 4, 1 group, 8 heads, head 64, "
        f"chunk {128 if s == 512 else 64}, bf16, state dtype float32); {FIRST}",
        backward(Problem(4, t, 1, 8, s, 64, 128 if s == 512 else 64))) for t, s in PERF])
