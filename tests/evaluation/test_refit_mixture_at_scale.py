"""Issue 21: ``evaluate(y, refits=20 runs, groups=10,000 values).to_frame()`` at 200,000 objects.

The whole test set's refit mixture is one union lattice of about 8 million points per metric;
it took most of the 29 s and 2.2 GB. Large union lattices now go through one float key a point,
sorted once, without copies of the lattice (:func:`confusionlab.distribution.lean._lean_pooled`). The
expected numbers come from a brute force with :class:`fractions.Fraction` keys (tiny slices) and
from the general grouping (:func:`confusionlab.distribution.lattice_distribution`, the path large
lattices took before) at sizes where both run; memory is measured with tracemalloc, not timed.
"""

from __future__ import annotations

import tracemalloc
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl
import confusionlab.distribution.mixtures as mixture_module
import confusionlab.evaluation._distributions as distributions_module
from confusionlab import ConfusionMatrix
from confusionlab.distribution import mixture_bytes, slice_mixture
from confusionlab.metrics import get_metric
from confusionlab.models import slice_model
from confusionlab.sorting import sort_doubles

LEAN_METRICS = ["f1", "precision", "balanced_accuracy", "g_mean", "f2", "mcc", "npv"]


def _matrices(p: int, n: int, r: int, seed: int) -> list[ConfusionMatrix]:
    rng = np.random.default_rng(seed)
    tps = rng.binomial(p, 0.8, r)
    tns = rng.binomial(n, 0.7, r)
    return [ConfusionMatrix(tp=int(a), fn=p - int(a), fp=n - int(b), tn=int(b)) for a, b in zip(tps, tns, strict=True)]


def _general(cms, metric, monkeypatch, **kw):
    with monkeypatch.context() as patch:
        patch.setattr(mixture_module, "LEAN_POINTS", 2**62)  # never lean: the general grouping
        return slice_mixture(cms, metric, **kw)


def _lean(cms, metric, monkeypatch, **kw):
    with monkeypatch.context() as patch:
        patch.setattr(mixture_module, "LEAN_POINTS", 0)  # lean wherever it applies
        return slice_mixture(cms, metric, **kw)


@pytest.mark.parametrize("tolerance", [1e-12, 0.0])
@pytest.mark.parametrize("metric", LEAN_METRICS)
def test_the_lean_mixture_equals_a_fraction_brute_force(metric, tolerance, monkeypatch):
    """Tiny slices where the refits' windows leave zero-weight corners (tolerance > 0) or not
    (tolerance 0, 0/0 and x/0 points included): every lattice point grouped on its exact
    Fraction value, its weight the mean of the refits' marginal products."""
    cms = [ConfusionMatrix(tp=tp, fn=30 - tp, fp=40 - tn, tn=tn) for tp, tn in ((29, 38), (20, 25), (26, 39))]
    got = _lean(cms, metric, monkeypatch, tolerance=tolerance)
    m = get_metric(metric)
    sls = [slice_model(cm, "beta-binomial", tolerance=tolerance) for cm in cms]
    mass: dict[Fraction, float] = defaultdict(float)
    count: dict[Fraction, int] = defaultdict(int)
    value: dict[Fraction, float] = {}
    undefined = 0.0
    for tp in range(31):
        for tn in range(41):
            w = 0.0
            for sl in sls:
                i, j = tp - sl.tp_lo, tn - sl.tn_lo
                if 0 <= i < sl.tp_pmf.size and 0 <= j < sl.tn_pmf.size:
                    w += sl.tp_pmf[i] * sl.tn_pmf[j] / len(sls)
            if w == 0.0 and tolerance > 0:
                continue  # outside every refit's window
            counts = (tp, 30 - tp, 40 - tn, tn)
            form = m._exact(*(np.array(c, dtype=object) for c in counts))
            num, den = int(form.num), int(form.den)
            if den == 0:  # 0/0 takes the undefined value 0, x/0 is ±inf
                key = Fraction(0) if num == 0 else Fraction(10**30 if num > 0 else -(10**30))
                undefined += w if num == 0 else 0.0
            else:
                key = Fraction(num, den)
            mass[key] += w
            count[key] += 1
            value[key] = float(m.values(*counts))
    keys = sorted(mass)
    d = got.distribution
    assert len(d) == len(keys)
    np.testing.assert_allclose(d.values, [value[k] for k in keys], rtol=1e-13, atol=0)
    np.testing.assert_array_equal(d.multiplicities, [count[k] for k in keys])
    np.testing.assert_allclose(d.probabilities, [mass[k] for k in keys], rtol=1e-12, atol=1e-17)
    assert d.undefined_mass == pytest.approx(undefined, abs=1e-15)


@pytest.mark.parametrize("metric", ["f1", "precision", "balanced_accuracy", "g_mean", "accuracy", "recall"])
def test_a_large_union_lattice_takes_the_lean_path_and_the_general_answer(metric, monkeypatch):
    """1.2 million points (20 refits of p = 11,003, n = 13,001): above LEAN_POINTS the default
    path; the same values and multiplicities as the general grouping, masses and the refits'
    moments to rounding. Few integer keys (accuracy, recall) keep the general bincount."""
    cms = _matrices(11_003, 13_001, 20, seed=1)
    got = slice_mixture(cms, metric)
    ref = _general(cms, metric, monkeypatch)
    a, b = ref.distribution, got.distribution
    assert b.lattice_points > 900_000  # of a bounding box above LEAN_POINTS
    assert ("lean" in b.strategy) == (metric not in ("accuracy", "recall"))
    np.testing.assert_array_equal(b.values, a.values)
    np.testing.assert_array_equal(b.multiplicities, a.multiplicities)
    np.testing.assert_allclose(b.probabilities, a.probabilities, rtol=1e-11, atol=1e-18)
    assert (b.lattice_points, b.pruned_mass, b.undefined_points) == (a.lattice_points, a.pruned_mass, 0)
    assert b.interval(0.95) == a.interval(0.95)
    np.testing.assert_array_equal(got.means, ref.means)
    np.testing.assert_array_equal(got.variances, ref.variances)


@pytest.mark.parametrize("metric", ["f1", "balanced_accuracy"])
def test_the_lean_mixture_needs_about_half_the_memory(metric, monkeypatch):
    """The general grouping copied the lattice without its zero-weight corners several times and
    sorted integer keys with an argsort: 100 bytes a point (f1) and 120 (balanced accuracy) at
    200,000 objects, measured. Lean: the weights, one key and the sort, below 80 bytes a point,
    within the estimate check_memory is given (mixture_bytes)."""
    cms = _matrices(11_003, 13_001, 20, seed=2)
    sls = [slice_model(cm, "beta-binomial") for cm in cms]
    size_p = max(s.tp_lo + s.tp_pmf.size for s in sls) - min(s.tp_lo for s in sls)
    size_q = max(s.tn_lo + s.tn_pmf.size for s in sls) - min(s.tn_lo for s in sls)
    points = size_p * size_q
    peaks = {}
    for name, run in (
        ("lean", lambda: slice_mixture(cms, metric)),
        ("general", lambda: _general(cms, metric, monkeypatch)),
    ):
        tracemalloc.start()
        try:
            run()
            peaks[name] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peaks["lean"] <= 80 * points < peaks["general"], (peaks, points)
    assert peaks["lean"] <= mixture_bytes(get_metric(metric), 24_004, size_p, size_q, len(cms))


def test_evaluate_to_frame_is_the_same_on_either_path(monkeypatch):
    """The whole test set's rows of to_frame (every default metric, a refit mixture) from the lean
    path equal the general path's; the groups' rows are untouched."""
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 3_000)
    runs = np.where(rng.random((6, y.size)) < 0.85, y, 1 - y)
    g = rng.integers(0, 30, y.size)
    frames = []
    for points in (0, 2**62):
        with monkeypatch.context() as patch:
            patch.setattr(mixture_module, "LEAN_POINTS", points)
            frames.append(cl.evaluate(y, refits=runs, groups=g).to_frame())
    lean, general = frames
    pd.testing.assert_frame_equal(lean, general, check_exact=False, rtol=1e-12, atol=1e-15)
    assert (lean["lower"] == general["lower"]).all() and (lean["upper"] == general["upper"]).all()


def test_to_frame_columns_and_rows_are_those_of_one_row_per_group_and_metric():
    """to_frame builds columns, not one dict a row: the frame is still one row per (group,
    metric), metric-major, each row the group's distribution's mean and interval."""
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 400)
    runs = np.where(rng.random((3, y.size)) < 0.8, y, 1 - y)
    g = rng.choice(["a", "b", "c"], y.size)
    ev = cl.evaluate(y, refits=runs, groups=g, metrics=["f1", "recall"])
    frame = ev.to_frame(confidence=0.9)
    assert frame[["group", "metric"]].values.tolist() == [
        [x, m] for m in ("f1", "recall") for x in ["a", "b", "c", "all"]
    ]
    for row in frame.itertuples():
        d = ev.distribution(row.metric, row.group)
        assert (row.mean, row.lower, row.upper) == (d.mean(), *d.interval(0.9))
        assert row.objects == ev.sizes(row.group)["objects"]
        assert row.too_small == ev.too_small(row.metric, row.group)
    assert frame["too_small"].dtype == bool and frame["objects"].dtype == np.int64


@pytest.mark.parametrize("centre", [0.85, -0.85, 0.0, 1e-300, 1e300])
def test_doubles_of_a_narrow_range_sort_exactly(centre):
    """The doubles are packed relative to the smallest (more of their bits kept for a narrow
    range, as a large mixture's keys are); the order and the ties are numpy's stable order,
    signed zeros and a few far values included."""
    rng = np.random.default_rng(int(abs(centre) * 7) % 1000)
    steps = rng.integers(-2_000, 2_000, 200_000)
    f = centre + steps * np.spacing(centre if centre else 1e-300)
    f[rng.integers(0, f.size, 50)] = rng.choice([0.0, -0.0, np.inf, -np.inf, 1.0, -1.0], 50)
    order, same = sort_doubles(f)
    expected = np.lexsort((np.arange(f.size), f))
    np.testing.assert_array_equal(order, expected)
    np.testing.assert_array_equal(same, f[expected][1:] == f[expected][:-1])


def test_above_the_exact_budget_auto_samples_and_exact_stays_exact(monkeypatch):
    """method="auto" computes the refits' mixture exactly up to EXACT_MIXTURE_POINTS union-lattice
    points (about a second a metric); above, the refits' own distributions are sampled, labelled,
    and each end of the interval lies within the exact quantiles at levels shifted by cdf_error
    (the DKW bound, risk 1e-3). method="exact" keeps the exact mixture."""
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 4_000)
    runs = np.where(rng.random((5, y.size)) < 0.85, y, 1 - y)
    exact = cl.evaluate(y, refits=runs, metrics="f1", method="exact", target="next_test_set").distribution("f1")
    monkeypatch.setattr(distributions_module, "EXACT_MIXTURE_POINTS", exact.lattice_points // 2)
    sampled = cl.evaluate(y, refits=runs, metrics="f1", target="next_test_set").distribution("f1")
    assert exact.method == "exact" and sampled.method == "monte-carlo"
    assert sampled.mc_error > 0 and 0 < sampled.cdf_error < 0.02
    lo, hi = sampled.interval(0.95)
    assert exact.ppf(0.025 - sampled.cdf_error) <= lo <= exact.ppf(0.025 + sampled.cdf_error)
    assert exact.ppf(0.975 - sampled.cdf_error) <= hi <= exact.ppf(0.975 + sampled.cdf_error)
    assert abs(sampled.mean() - exact.mean()) < 6 * sampled.mc_error
    again = cl.evaluate(y, refits=runs, metrics="f1", method="exact", target="next_test_set").distribution("f1")
    assert again.method == "exact" and np.array_equal(again.values, exact.values)


def test_several_metrics_share_one_batch_and_equal_one_metric_at_a_time(monkeypatch):
    """to_frame() batched the groups once per metric (the marginals gathered and the weights
    multiplied four times); now one slice_mixtures call serves every metric, each answer equal
    to the one-metric call's."""
    from confusionlab.distribution import slice_mixtures

    rng = np.random.default_rng(9)
    counts = []
    for _ in range(30):
        p, n = int(rng.integers(1, 30)), int(rng.integers(1, 30))
        tps, tns = rng.integers(0, p + 1, 3), rng.integers(0, n + 1, 3)
        counts.append([(int(t), p - int(t), n - int(u), int(u)) for t, u in zip(tps, tns, strict=True)])
    names = ["f1", "recall", "mcc", "balanced_accuracy"]
    together = slice_mixtures(counts, names)
    for name in names:
        alone = slice_mixtures(counts, name)
        for x, y in zip(together[name], alone, strict=True):
            assert (x is None) == (y is None)
            if x is not None:
                np.testing.assert_array_equal(x.distribution.values, y.distribution.values)
                np.testing.assert_array_equal(x.distribution.probabilities, y.distribution.probabilities)
                np.testing.assert_array_equal(x.means, y.means)
    calls = []
    real = distributions_module.slice_mixtures
    monkeypatch.setattr(distributions_module, "slice_mixtures", lambda *a, **k: calls.append(a[1]) or real(*a, **k))
    y = rng.integers(0, 2, 2_000)
    runs = np.where(rng.random((4, y.size)) < 0.85, y, 1 - y)
    frame = cl.evaluate(y, refits=runs, groups=rng.integers(0, 50, y.size), target="next_test_set").to_frame()
    assert len(frame) == 4 * 51
    assert calls == [["f1", "recall", "precision", "balanced_accuracy"]]
