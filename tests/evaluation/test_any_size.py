"""Issue 24, "an answer at every size": evaluate(method="auto") samples where exact does not fit.

Each distribution says how it was computed (``.method``, the ``method`` column of to_frame) and
how far it may be from exact (``mc_error``, ``cdf_error``); the sampled answers are checked
against the exact ones where both fit (the exact path is itself checked against brute force in
tests/core), and the failing calls of the issue return answers.
"""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl
import confusionlab.distribution.build as distribution_module
import confusionlab.models.simplex as models_module
from confusionlab._validation import set_memory_limit


def _data(n: int, seed: int = 0, accuracy: float = 0.85) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, np.where(rng.random(n) < accuracy, y, 1 - y)


@pytest.fixture
def memory():
    yield set_memory_limit
    set_memory_limit(None)


def test_two_million_rows_answer_with_a_labelled_approximation():
    """Issue 24: ``evaluate(np.tile(y, 400), np.tile(p, 400)).interval("f1")`` was a TooLargeError."""
    y, p = _data(5000)
    ev = cl.evaluate(np.tile(y, 400), np.tile(p, 400), target="next_test_set")
    lo, hi = ev.interval_of("f1")
    d = ev.distribution("f1")
    assert d.method == "monte-carlo" and d.mc_error > 0 and d.cdf_error > 0
    assert lo < ev.value["f1"] < hi and hi - lo < 0.01
    frame = ev.to_frame()
    assert set(frame["method"]) == {"monte-carlo"}
    assert (frame["mc_error"] > 0).all()


def test_exact_is_refused_at_the_call_with_advice_that_works():
    y, p = _data(5000)
    with pytest.raises(cl.TooLargeError, match="method='auto'"):
        cl.evaluate(np.tile(y, 400), np.tile(p, 400), method="exact", target="next_test_set")


def test_dirichlet_multinomial_at_5000_answers_at_the_call_and_in_the_table():
    """Issue 24: a plain ValueError at .table(), "use N <= 492"."""
    y, p = _data(5000)
    ev = cl.evaluate(y, p, model="dirichlet-multinomial", target="next_test_set")
    frame = ev.to_frame()
    assert set(frame["method"]) == {"monte-carlo"}
    # the simplex model's spread exceeds the slice model's (its prevalence is uncertain too)
    slice_ev = cl.evaluate(y, p, target="next_test_set")
    assert ev.distribution("f1").std() >= slice_ev.distribution("f1").std() * 0.95
    assert abs(ev.distribution("f1").mean() - slice_ev.distribution("f1").mean()) < 0.005


def test_dirichlet_multinomial_builds_the_simplex_once_per_matrix(monkeypatch):
    """N = 300 took 8–17 s: the simplex (4.6 million matrices) was built once per metric, with
    isometric coordinates nobody read. Now once per matrix, without coordinates; numbers unchanged."""
    y, p = _data(120)
    before = cl.evaluate(y, p, model="dirichlet-multinomial", target="next_test_set").to_frame()
    calls = []
    real = models_module.simplex_model

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(distribution_module, "simplex_model", counting)
    monkeypatch.setattr(models_module, "simplex_points", lambda *a, **k: pytest.fail("coordinates computed"))
    ev = cl.evaluate(y, p, model="dirichlet-multinomial", target="next_test_set")
    frame = ev.to_frame()
    assert len(calls) == 1  # one matrix (the whole test set), four metrics
    assert set(frame["method"]) == {"exact"}
    np.testing.assert_allclose(frame[["lower", "upper", "mean"]], before[["lower", "upper", "mean"]], rtol=0, atol=0)


def test_simplex_pruning_drops_the_same_mass_as_sorting_everything():
    """The faster pruning (sort only masses between tolerance/M and tolerance) against the
    definition: the lightest points whose running sum stays within the tolerance."""
    cm = cl.ConfusionMatrix(tp=30, fn=6, fp=9, tn=35)
    for tolerance in (1e-12, 1e-6, 1e-3):
        full = models_module.simplex_model(cm, tolerance=0)
        pruned = models_module.simplex_model(cm, tolerance=tolerance)
        order = np.sort(full.pmf)
        expected = order[np.cumsum(order) <= tolerance].sum()
        assert pruned.pruned_mass == pytest.approx(expected, rel=1e-9, abs=1e-300)
        assert len(pruned.pmf) == len(full.pmf) - int((np.cumsum(order) <= tolerance).sum())


def test_monte_carlo_matches_exact_where_both_fit():
    y, p = _data(400, seed=2)
    g = np.repeat(["a", "b"], 200)
    exact = cl.evaluate(y, p, groups=g, method="exact", target="next_test_set")
    sampled = cl.evaluate(y, p, groups=g, method="monte-carlo", n_draws=40_000, target="next_test_set")
    for group in ("a", "b", None):
        for metric in exact.metrics:
            e, s = exact.distribution(metric, group), sampled.distribution(metric, group)
            assert e.method == "exact" and s.method == "monte-carlo"
            xs = np.union1d(e.values, s.values)
            assert np.abs(np.asarray(e.cdf(xs)) - np.asarray(s.cdf(xs))).max() <= s.cdf_error
            assert abs(e.mean() - s.mean()) <= 5 * s.mc_error


def test_monte_carlo_multiclass_and_refits():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 300)
    runs = np.stack([np.where(rng.random(300) < 0.8, y, rng.integers(0, 3, 300)) for _ in range(3)])
    ev = cl.evaluate(y, refits=runs, method="monte-carlo", metrics=["macro_f1"], target="next_test_set")
    assert ev.to_frame()["method"].tolist() == ["monte-carlo"]
    per = ev.per_class("f1")
    assert all(d.method == "monte-carlo" for d in per.values())
    exact = cl.evaluate(y, refits=runs, method="exact", metrics=["macro_f1"], target="next_test_set").per_class("f1")
    for c in per:
        assert abs(per[c].mean() - exact[c].mean()) <= 5 * per[c].mc_error + 1e-12


def test_refits_whose_union_lattice_does_not_fit_pool_sampled_refits(memory):
    """Issue 21: 10⁶ objects × 50 refits, table()/decompose() refused with advice naming
    future_size, which evaluate does not take. Scaled down here by the memory limit: the
    refits' union lattice is refused, each refit is sampled, the split of the variance is
    within Monte Carlo error of the exact one."""
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 3000)
    runs = np.stack([np.where(rng.random(3000) < a, y, 1 - y) for a in (0.8, 0.85, 0.9)])
    exact = cl.evaluate(y, refits=runs, metrics=["recall"], target="next_test_set").decompose("recall")
    memory("6M")
    ev = cl.evaluate(y, refits=runs, metrics=["recall"], target="next_test_set")
    d = ev.distribution("recall")
    assert d.method == "monte-carlo"
    parts = ev.decompose("recall")
    # the refit part is the spread of three well-separated means: a few Monte Carlo errors
    assert parts["refit_sd"] == pytest.approx(exact["refit_sd"], rel=0.02)
    assert parts["test_set_sd"] == pytest.approx(exact["test_set_sd"], rel=0.05)
    # method="exact" pools the refits' own exact distributions instead: the same split, exactly
    pooled = cl.evaluate(y, refits=runs, metrics=["recall"], method="exact", target="next_test_set")
    assert pooled.distribution("recall").method == "exact"
    for key, value in pooled.decompose("recall").items():
        assert value == pytest.approx(exact[key], rel=1e-9)


def test_sampled_answers_do_not_depend_on_the_order_they_are_asked_in():
    y, p = _data(600, seed=6)
    g = np.repeat(["a", "b", "c"], 200)
    one = cl.evaluate(y, p, groups=g, method="monte-carlo", target="next_test_set")
    two = cl.evaluate(y, p, groups=g, method="monte-carlo", target="next_test_set")
    first = one.distribution("f1", "c").interval(), one.distribution("f1", "a").interval()
    second = two.distribution("f1", "a").interval(), two.distribution("f1", "c").interval()
    assert first == second[::-1]


@pytest.mark.parametrize("bad", ["approximate", 1, None])
def test_method_is_checked_at_the_call(bad):
    y, p = _data(50)
    with pytest.raises(cl.InvalidParameterError, match="method"):
        cl.evaluate(y, p, method=bad, target="next_test_set")
