"""A @ct.kernel defined inside a module-level function (a kernel factory, TileGym's nvfp4_quantize.py shape):
refused with CTRS-E327 at the kernel, naming the factory and its parameters (transpiler/pipeline.py)."""

from __future__ import annotations

import textwrap

import pytest

from ctrs import errors, translate


def test_kernel_in_factory_is_refused(tmp_path):
    src = tmp_path / "factory.py"
    src.write_text(textwrap.dedent("""\
        from functools import lru_cache

        import cuda.tile as ct


        @lru_cache(maxsize=None)
        def make(occupancy: int):
            @ct.kernel(occupancy=occupancy)
            def double(x, y):
                ct.store(y, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(64,)) * 2)

            return double
        """))
    with pytest.raises(errors.CtrsError) as ei:
        translate.translate_source(src)
    e = ei.value
    assert e.code == errors.IR_KERNEL_IN_FACTORY and (e.loc.line, e.loc.col) == (9, 5)
    assert "'double' is defined inside function 'make'" in e.message and "kernel factory of occupancy" in e.message
    # where the kernel reads the factory's parameters, and that the gap is ctrs's (docs/porting.md has the plan)
    assert "(occupancy in @ct.kernel(..) at line 8)" in e.message and "a ctrs gap, not a cutile one" in e.message
