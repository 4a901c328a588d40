"""Issue 35 item 17: the refit evaluation's figure draws a binned PMF where the refit mixture has
millions of distinct values (3.2 million sticks per panel took 30 s and drew a solid block)."""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.patches import StepPatch

import confusionlab as cl
from confusionlab.evaluation._figure import MAX_STICKS, PMF_BINS


def _panel(ev):
    return ev.plot().axes[0]


def test_many_values_drawn_binned_with_all_their_mass():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 600)
    refits = np.where(rng.random((6, 600)) < 0.85, y, 1 - y)
    ev = cl.evaluate(y, refits=refits, metrics=["f1"], target="true_value")
    d = ev.distribution("f1", ev.groups[-1])
    assert d.values.size > MAX_STICKS and np.isfinite(d.values).all()
    ax = _panel(ev)
    assert not [c for c in ax.collections if isinstance(c, LineCollection)]
    (step,) = [p for p in ax.patches if isinstance(p, StepPatch)]
    heights = step.get_data().values
    assert heights.size == PMF_BINS
    assert abs(heights.sum() - 1.0) < 1e-9  # every value finite: the whole mass, bin by bin


def test_few_values_keep_one_stick_each():
    y = np.array([1, 0] * 10)
    ev = cl.evaluate(y, y, metrics=["accuracy"], target="next_test_set")
    d = ev.distribution("accuracy", ev.groups[-1])
    (sticks,) = [c for c in _panel(ev).collections if isinstance(c, LineCollection)]
    assert len(sticks.get_segments()) == d.values.size <= MAX_STICKS
