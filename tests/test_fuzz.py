"""Fuzz sample (issue 20): hypothesis-drawn mutations of the fixtures through ``ctrs translate`` (five
output-directory states), spec loading and ``ctrs diff-ir``, in-process. Fixed seed (``derandomize``):
the same 600 cases every run; ``benchmarks/fuzz.py`` runs >= 10,000. A case fails on a crash (CTRS-E999,
an exception, a diagnostic without code or location), a partial write, or a timeout."""

from __future__ import annotations

import collections

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from . import fuzzing

SAMPLE = {"translate": 250, "spec": 200, "diff": 150}
SEEN: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)


@pytest.mark.parametrize("kind", sorted(SAMPLE))
def test_fuzz_sample(kind, tmp_path_factory):
    work = tmp_path_factory.mktemp(f"fuzz-{kind}")
    n = iter(range(10**9))

    @settings(max_examples=SAMPLE[kind], derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(rng=st.randoms(use_true_random=False))
    def case(rng):
        out = fuzzing.run_case(kind, rng, work, f"c{next(n)}")
        SEEN[kind][out.kind if out.kind != "error" else out.detail] += 1
        assert out.kind in ("ok", "error"), f"{out.kind}: {out.case}: {out.detail}"

    case()
    seen = SEEN[kind]
    assert sum(seen.values()) >= SAMPLE[kind]
    assert seen["ok"] > 0 and sum(v for k, v in seen.items() if k.startswith("CTRS-E")) > 0, seen  # both outcomes


def test_fuzz_reaches_every_error_class():
    """The sample exercises the diagnostics issue 20 is about (runs after the samples above, same process)."""
    if not all(SEEN[k] for k in SAMPLE):
        pytest.skip("run with the fuzz samples")
    codes = set().union(*(set(c) for c in SEEN.values()))
    for code in ("CTRS-E010", "CTRS-E030", "CTRS-E051", "CTRS-E052", "CTRS-E053", "CTRS-E102", "CTRS-E104",
                 "CTRS-E105", "CTRS-E107"):
        assert code in codes, sorted(codes)
