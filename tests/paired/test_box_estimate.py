"""The exact path's box is estimated from the cells' moments before any PMF is evaluated.

Regression (issue 21's sweep, ``paired_cells_2_40``): ``compare_paired_cells`` with cells of
2**40 spent 11–49 s and 1.35 GB evaluating the marginal PMFs across windows of ≈ 10⁷ points
only to find the box too large and sample instead.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import confusionlab as cl
from confusionlab.paired import _compare
from confusionlab.paired._compare import BOX_ESTIMATE_MARGIN
from confusionlab.paired._model import box_points_estimate, cell_windows

CELLS = [
    (30, 4, 7, 59),
    (200, 0, 0, 300),
    (1, 1, 0, 0),
    (5000, 120, 80, 4800),
    (2, 40, 3, 900),
]


@pytest.mark.parametrize("model", ["paired-beta-binomial", "paired-binomial"])
@pytest.mark.parametrize("cells", CELLS)
@pytest.mark.parametrize("future_scale", [1, 10, 1000])
@pytest.mark.parametrize("tolerance", [1e-6, 1e-12])
def test_the_estimate_is_within_its_margin_of_the_located_box(model, cells, future_scale, tolerance):
    future = sum(cells) * future_scale
    windows, _ = cell_windows(model, cells, future, tolerance, "positives")
    located = math.prod(hi - lo + 1 for lo, hi in windows)
    estimate = box_points_estimate(model, cells, future, tolerance)
    assert located / BOX_ESTIMATE_MARGIN <= estimate <= located * BOX_ESTIMATE_MARGIN


def test_huge_cells_are_sampled_without_locating_a_window(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("cell_windows evaluated the marginal PMFs of a box that cannot fit")

    monkeypatch.setattr(_compare, "cell_windows", fail)
    cells = [[2**40, 3, 5, 2**40], [2**40, 7, 2, 2**40]]
    r = cl.compare_paired_cells(cells, "f1", target="next_test_set")
    assert r.method == "monte-carlo"
    # A and B differ in 8 + 9 examples out of 2**43: F1's difference is of order 1e-12, and
    # the probability that A wins is bounded away from 0 and 1 by a margin of many standard errors.
    assert abs(r.value) < 1e-10
    assert 0.05 < r.prob_greater < 0.95 and np.isfinite(r.mc_error) and r.mc_error < 0.01
