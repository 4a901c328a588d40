"""Issue 21: many small groups × refits in array operations across the groups (slice_mixtures).

The expected numbers come from :func:`confusionlab.distribution.slice_mixture`, the one-group path
(itself tested against pooling the refits' :func:`metric_distribution` in tests/core/test_mixture.py);
the work bound is counted (calls of the one-group path), not timed.
"""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl
import confusionlab.evaluation._distributions as distributions_module
from confusionlab import ConfusionMatrix
from confusionlab.distribution import BATCH_POINTS, decompose, slice_mixture, slice_mixtures


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
    ev_ref = cl.evaluate(y, refits=runs, groups=g, metrics="f1", target="next_test_set")
    for name in ev_ref.groups[:5]:
        expected[name] = ev_ref.decompose("f1", name)  # one group at a time: slice_mixture
    calls = {"one": 0, "many": 0}
    one, many = distributions_module.slice_mixture, distributions_module.slice_mixtures

    def counted_one(*args, **kwargs):
        calls["one"] += 1
        return one(*args, **kwargs)

    def counted_many(*args, **kwargs):
        calls["many"] += 1
        return many(*args, **kwargs)

    monkeypatch.setattr(distributions_module, "slice_mixture", counted_one)
    monkeypatch.setattr(distributions_module, "slice_mixtures", counted_many)
    ev = cl.evaluate(y, refits=runs, groups=g, metrics="f1", target="next_test_set")
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
    ev = cl.evaluate(y, refits=runs, metrics=["specificity", "fpr"], target="next_test_set")
    for metric in ("specificity", "fpr"):
        means = [cl.metric_distribution(ev.confusion_matrix(run=r), metric).mean() for r in range(3)]
        assert ev.distribution(metric).mean() == pytest.approx(np.mean(means), abs=1e-12)
        assert ev.refit_means(metric) == pytest.approx(means, abs=1e-12)


def test_to_frame_batches_the_groups_and_agrees_with_the_one_group_answers(monkeypatch):
    """to_frame() asked each (group, metric) for its distribution one at a time: 10,000 groups
    × 4 metrics timed out at 120 s in the issue's sweep. Now the small groups are batched (one
    slice_mixtures call per metric) and only the whole test set, above BATCH_POINTS, takes the
    one-group path (old code: one slice_mixture per group and metric, 2 × 41 here); every
    row equals the one-group methods' answers."""
    rng = np.random.default_rng(11)
    n, n_groups = 2400, 40
    y = rng.integers(0, 2, n)
    runs = np.where(rng.random((4, n)) < 0.85, y, 1 - y)
    g = rng.integers(0, n_groups, n)
    metrics = ["f1", "specificity"]
    ref = cl.evaluate(y, refits=runs, groups=g, metrics=metrics, target="next_test_set")
    calls = {"one": 0}
    one = distributions_module.slice_mixture

    def counted(*args, **kwargs):
        calls["one"] += 1
        return one(*args, **kwargs)

    monkeypatch.setattr(distributions_module, "slice_mixture", counted)
    frame = cl.evaluate(y, refits=runs, groups=g, metrics=metrics, target="next_test_set").to_frame()
    assert calls["one"] == len(metrics)  # the whole test set of each metric
    monkeypatch.setattr(distributions_module, "slice_mixture", one)
    assert len(frame) == len(metrics) * (n_groups + 1)
    for row in frame.itertuples():
        lo, hi = ref.interval_of(row.metric, 0.95, row.group)
        assert (row.lower, row.upper) == pytest.approx((lo, hi), abs=1e-12)
        assert row.value == pytest.approx(ref.value_of(row.metric, row.group), abs=1e-15)
        assert row.mean == pytest.approx(ref.distribution(row.metric, row.group).mean(), abs=1e-12)
        parts = ref.decompose(row.metric, row.group)
        assert row.total_sd == pytest.approx(parts["total_sd"], abs=1e-12)
        sizes = ref.sizes(row.group)
        assert (row.objects, row.positives, row.negatives, row.smallest_class) == (
            sizes["objects"], sizes["positives"], sizes["negatives"], sizes["smallest_class"])  # fmt: skip
        assert row.too_small == ref.too_small(row.metric, row.group)


def test_to_frame_of_macro_averages_keeps_the_one_group_values():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 300)
    runs = np.where(rng.random((3, 300)) < 0.8, y, (y + 1) % 3)
    g = np.where(np.arange(300) % 3 == 0, "a", "b")
    ev = cl.evaluate(y, refits=runs, groups=g, metrics=["macro_f1"], n_draws=600)
    frame = ev.to_frame()
    for row in frame.itertuples():
        assert row.value == pytest.approx(ev.value_of("macro_f1", row.group), abs=1e-15)
        assert row.too_small == ev.too_small("macro_f1", row.group)


def test_the_whole_test_sets_mixture_uses_the_slice_form(monkeypatch):
    """The refits share one slice, so slice_mixture hands (p, n) to lattice_distribution: the
    metric's slice form, bounds known without scanning the union lattice (200,000 objects × 20
    refits: the whole test set's F1 mixture 8.1 s → 4.0 s under load, the same numbers bit for
    bit). The old code passed no slice."""
    import confusionlab.distribution.mixtures as mixture_module

    seen = []
    original = mixture_module.lattice_distribution

    def spy(*args, **kwargs):
        seen.append(kwargs.get("slice_pn"))
        return original(*args, **kwargs)

    monkeypatch.setattr(mixture_module, "lattice_distribution", spy)
    cms = [ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), ConfusionMatrix(tp=14, fn=6, fp=6, tn=34)]
    mix = slice_mixture(cms, "f1")
    assert seen == [(20, 40)]
    pooled = [cl.metric_distribution(cm, "f1") for cm in cms]
    assert mix.distribution.mean() == pytest.approx(np.mean([d.mean() for d in pooled]), abs=1e-12)
