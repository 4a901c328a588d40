"""Issue 21: many small groups × refits in array operations across the groups (slice_mixtures).

The expected numbers come from :func:`confusionlab.mixture.slice_mixture`, the one-group path
(itself tested against pooling the refits' :func:`metric_distribution` in tests/core/test_mixture.py);
the work bound is counted (calls of the one-group path), not timed.
"""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl
import confusionlab.evaluation._result as result_module
from confusionlab import ConfusionMatrix
from confusionlab.mixture import BATCH_POINTS, decompose, slice_mixture, slice_mixtures


def _groups(rng: np.random.Generator, n_groups: int, r: int, most: int = 14) -> list[list[tuple[int, ...]]]:
    out = []
    for _ in range(n_groups):
        p, n = int(rng.integers(0, most)), int(rng.integers(0, most))
        p += p + n == 0
        rows = []
        for _ in range(r):
            tp, tn = int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1))
            rows.append((tp, p - tp, n - tn, tn))
        out.append(rows)
    return out


@pytest.mark.parametrize("tolerance", [1e-12, 0.0])
@pytest.mark.parametrize("metric", list(cl.METRICS))
def test_batched_mixtures_equal_the_one_group_path(metric, tolerance):
    """Every metric (0/0 and x/0 points included: precision at tp = fp = 0, LR+ at fp = 0), both
    pruned and whole slices: values, multiplicities, undefined points exactly; masses and the
    refits' moments to rounding."""
    groups = _groups(np.random.default_rng(len(metric)), 16, 4)
    batched = slice_mixtures(groups, metric, tolerance=tolerance)
    for rows, got in zip(groups, batched, strict=True):
        cms = [ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn) for tp, fn, fp, tn in rows]
        ref = slice_mixture(cms, metric, tolerance=tolerance)
        a, b = ref.distribution, got.distribution
        np.testing.assert_array_equal(b.values, a.values)
        np.testing.assert_array_equal(b.multiplicities, a.multiplicities)
        np.testing.assert_allclose(b.probabilities, a.probabilities, rtol=1e-12, atol=1e-16)
        assert (b.undefined_points, b.lattice_points, b.pruned_mass) == (a.undefined_points, a.lattice_points,
                                                                          a.pruned_mass)  # fmt: skip
        assert b.undefined_mass == pytest.approx(a.undefined_mass, abs=1e-15)
        np.testing.assert_allclose(got.means, ref.means, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(got.variances, ref.variances, rtol=1e-9, atol=1e-15)
        assert got.decompose() == pytest.approx(decompose(ref.means, ref.variances), rel=1e-9, abs=1e-12, nan_ok=True)


def test_a_group_beyond_the_batch_is_left_to_the_caller():
    big = int(np.sqrt(BATCH_POINTS)) + 10
    out = slice_mixtures([[(big, big, big, big)] * 2, [(3, 1, 2, 4), (2, 2, 1, 5)]], "f1", tolerance=0)
    assert out[0] is None and out[1] is not None


def test_many_groups_decompose_without_the_one_group_path(monkeypatch):
    """The issue's 10,000 groups × 20 refits took 29 s (about 3 ms of Python per group): one
    slice_mixture per group. Now one slice_mixtures call answers every small group; the old
    code called slice_mixture 300 times here (once per group)."""
    rng = np.random.default_rng(7)
    n, n_groups = 6000, 300
    y = rng.integers(0, 2, n)
    runs = np.where(rng.random((6, n)) < 0.85, y, 1 - y)
    g = rng.integers(0, n_groups, n)
    expected = {}
    ev_ref = cl.evaluate(y, refits=runs, groups=g, metrics="f1")
    for name in ev_ref.groups[:5]:
        expected[name] = ev_ref.decompose("f1", name)  # one group at a time: slice_mixture
    calls = {"one": 0, "many": 0}
    one, many = result_module.slice_mixture, result_module.slice_mixtures

    def counted_one(*args, **kwargs):
        calls["one"] += 1
        return one(*args, **kwargs)

    def counted_many(*args, **kwargs):
        calls["many"] += 1
        return many(*args, **kwargs)

    monkeypatch.setattr(result_module, "slice_mixture", counted_one)
    monkeypatch.setattr(result_module, "slice_mixtures", counted_many)
    ev = cl.evaluate(y, refits=runs, groups=g, metrics="f1")
    parts = ev.decompose("f1", by_group=True)
    assert len(parts) == n_groups
    assert calls == {"one": 0, "many": 1}
    for name, want in expected.items():
        assert parts[name] == pytest.approx(want, rel=1e-9, abs=1e-12)


def test_a_metric_of_tn_alone_with_refits():
    """specificity (TN/n) gave a lattice row, and the refits' moments crashed on ``a @ row``
    (ValueError: matmul mismatch) in slice_mixture: evaluate(refits=..., metrics=["specificity"])
    could not answer at all. The mixture's mean is the mean of the refits' own means."""
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 60)
    runs = np.where(rng.random((3, 60)) < 0.8, y, 1 - y)
    ev = cl.evaluate(y, refits=runs, metrics=["specificity", "fpr"])
    for metric in ("specificity", "fpr"):
        means = [cl.metric_distribution(ev.confusion_matrix(run=r), metric).mean() for r in range(3)]
        assert ev.distribution(metric).mean() == pytest.approx(np.mean(means), abs=1e-12)
        assert ev.refit_means(metric) == pytest.approx(means, abs=1e-12)
