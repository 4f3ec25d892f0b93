# ctrs test data written for this repo: a small test suite whose launches `pytest -p ctrs.workflow.record` records.
# Not collected by the project's own run (suite_*.py); tests/test_capture.py runs it with -o python_files=suite_*.py.
import pytest
import torch

import host_patterns as hp


@pytest.mark.parametrize("shape", [(200, 300), (216, 300), (256, 512)])
def test_scale(shape):
    x = torch.ones(shape, dtype=torch.float16)
    assert hp.scale(x).shape == shape


def test_double_rows():
    assert hp.double_rows(torch.ones(8, 100)).shape == (8, 100)


def test_tuned():
    hp.scale_tuned(torch.ones(128, 128))
