"""slice_mixture: the refits' mixture on one slice, against brute force and the core."""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
from brute import as_float, slice_distribution
from hypothesis import given, settings
from hypothesis import strategies as st

import confusionlab as cl
from confusionlab.distribution import decompose, slice_mixture

SLICE = (6, 9)  # p, n
COMPONENTS = [(4, 6), (2, 8), (6, 3)]  # (TP, TN) of three refits on that slice


def cm(tp: int, tn: int, p: int = SLICE[0], n: int = SLICE[1]) -> cl.ConfusionMatrix:
    return cl.ConfusionMatrix(tp=tp, fn=p - tp, fp=n - tn, tn=tn)


@pytest.mark.parametrize("metric", ["f1", "mcc", "balanced_accuracy", "lr_plus", "prevalence_threshold"])
@pytest.mark.parametrize("model", ["binomial", "beta-binomial"])
def test_mixture_equals_the_pooled_brute_force(metric: str, model: str) -> None:
    """Equal-weight pooling of exact Fraction enumerations (tests/core/brute.py), undefined → 0."""
    pooled: dict = defaultdict(Fraction)
    for tp, tn in COMPONENTS:
        groups, (undef_mass, _) = slice_distribution(metric, tp, SLICE[0] - tp, SLICE[1] - tn, tn, model)
        for key, (mass, _) in groups.items():
            pooled[as_float(key)] += mass / len(COMPONENTS)
        pooled[0.0] += undef_mass / len(COMPONENTS)
    expected = {v: m for v, m in pooled.items() if m > 0}
    mix = slice_mixture([cm(tp, tn) for tp, tn in COMPONENTS], metric, model, tolerance=0).distribution
    live = mix.probabilities > 0
    np.testing.assert_allclose(mix.values[live], sorted(expected), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(mix.probabilities[live], [float(expected[v]) for v in sorted(expected)], atol=1e-15)
    assert mix.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    assert int(mix.multiplicities.sum()) == (SLICE[0] + 1) * (SLICE[1] + 1)  # each lattice point once


@pytest.mark.parametrize("undefined", [0.0, "exclude"])
@pytest.mark.parametrize("metric", ["f1", "mcc", "precision"])
def test_component_moments_and_the_decomposition(metric: str, undefined) -> None:
    """Each component's mean and variance equal the core's distribution of that matrix."""
    cms = [cm(tp, tn, 40, 70) for tp, tn in [(30, 50), (25, 61), (33, 44), (30, 50)]]
    mix = slice_mixture(cms, metric, undefined=undefined)
    singles = [cl.metric_distribution(c, metric, undefined=undefined) for c in cms]
    np.testing.assert_allclose(mix.means, [d.mean() for d in singles], rtol=1e-11)
    np.testing.assert_allclose(mix.variances, [d.var() for d in singles], rtol=1e-9)
    parts = mix.decompose()
    # law of total variance: the mixture's variance is the sum of the two parts
    assert parts["total_sd"] ** 2 == pytest.approx(mix.distribution.var(), rel=1e-9)
    assert parts["total_sd"] ** 2 == pytest.approx(parts["test_set_sd"] ** 2 + parts["refit_sd"] ** 2, rel=1e-12)


def test_infinite_values_make_a_component_mean_infinite() -> None:
    # the first has no false positive, so LR+ = +inf carries mass; the second has FPR = 1 (TN = 0): finite
    cms = [cm(5, 9), cm(3, 0)]
    mix = slice_mixture(cms, "lr_plus", "binomial")
    assert mix.means[0] == np.inf and np.isfinite(mix.means[1])
    assert mix.means[1] == pytest.approx(cl.metric_distribution(cms[1], "lr_plus", "binomial").mean(), rel=1e-12)


def test_decomposition_with_infinite_moments_says_so() -> None:
    parts = slice_mixture([cm(5, 9), cm(3, 0)], "lr_plus", "binomial").decompose()
    assert parts["test_set_sd"] == np.inf and np.isnan(parts["refit_sd"]) and parts["total_sd"] == np.inf


def test_refuses_what_is_not_one_slice() -> None:
    with pytest.raises(ValueError, match="share one slice"):
        slice_mixture([cm(3, 4), cm(3, 4, p=7)], "f1")
    with pytest.raises(TypeError, match="cms must be a non-empty sequence"):
        slice_mixture([], "f1")
    with pytest.raises(TypeError, match="cms must be a non-empty sequence"):
        slice_mixture(cm(3, 4), "f1")
    with pytest.raises(ValueError, match="unknown model"):
        slice_mixture([cm(3, 4)], "f1", "dirichlet-multinomial")
    with pytest.raises(ValueError, match="tolerance"):
        slice_mixture([cm(3, 4)], "f1", tolerance=0.5)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    counts=st.lists(st.tuples(st.integers(0, 12), st.integers(0, 15)), min_size=1, max_size=5),
    metric=st.sampled_from(["f1", "mcc", "accuracy", "lr_minus", "g_mean"]),
    tolerance=st.sampled_from([0.0, 1e-12, 1e-3]),
)
def test_mixture_matches_pooling_the_core(counts, metric, tolerance) -> None:
    cms = [cm(min(tp, 12), min(tn, 15), 12, 15) for tp, tn in counts]
    mix = slice_mixture(cms, metric, tolerance=tolerance).distribution
    singles = [cl.metric_distribution(c, metric, tolerance=tolerance) for c in cms]
    pooled: dict = defaultdict(float)
    for d in singles:
        for v, m in zip(d.values.tolist(), d.probabilities.tolist(), strict=True):
            pooled[v] += m / len(cms)
    live = mix.probabilities > 0
    expected = sorted(v for v, m in pooled.items() if m > 0)
    np.testing.assert_allclose(mix.values[live], expected, rtol=1e-12)
    np.testing.assert_allclose(mix.probabilities[live], [pooled[v] for v in expected], atol=1e-14)
    assert mix.pruned_mass == pytest.approx(np.mean([d.pruned_mass for d in singles]), abs=1e-15)


def test_decompose_by_hand() -> None:
    """Law of total variance written out: means 0.5, 0.7 → refit variance 0.01; variances 0.01, 0.03 → 0.02."""
    parts = decompose([0.5, 0.7], [0.01, 0.03])
    assert parts["test_set_sd"] == pytest.approx(math.sqrt(0.02), rel=1e-15)
    assert parts["refit_sd"] == pytest.approx(0.1, rel=1e-15)
    assert parts["total_sd"] == pytest.approx(math.sqrt(0.03), rel=1e-15)
    assert decompose([0.4], [0.04]) == {
        "test_set_sd": pytest.approx(0.2),
        "refit_sd": 0.0,
        "total_sd": pytest.approx(0.2),
    }


def test_decompose_reports_infinite_and_undefined_means() -> None:
    inf, nan = math.inf, math.nan
    one = decompose([inf], [inf])
    assert one == {"test_set_sd": inf, "refit_sd": 0.0, "total_sd": inf}  # one component: no refit spread
    same_sign = decompose([inf, inf, 0.3], [inf, inf, 0.01])
    assert same_sign["test_set_sd"] == inf and math.isnan(same_sign["refit_sd"]) and same_sign["total_sd"] == inf
    both_signs = decompose([inf, -inf], [inf, inf])  # +inf and −inf both carry mass: the mixture has no variance
    assert (
        both_signs["test_set_sd"] == inf and math.isnan(both_signs["refit_sd"]) and math.isnan(both_signs["total_sd"])
    )
    undefined = decompose([nan, 0.2], [nan, 0.01])  # a component whose mean is already NaN
    assert all(math.isnan(v) for v in undefined.values())


def test_slice_mixture_refusals_are_invalid_parameter_errors() -> None:
    for call in (
        lambda: slice_mixture([cm(3, 4), cm(3, 4, p=7)], "f1"),
        lambda: slice_mixture([], "f1"),
        lambda: slice_mixture([cm(3, 4), "cm"], "f1"),
        lambda: slice_mixture([cm(3, 4)], "f1", "dirichlet-multinomial"),
    ):
        with pytest.raises(cl.InvalidParameterError):
            call()


def test_the_old_mixture_module_warns_and_gives_the_same_functions() -> None:
    """``confusionlab.mixture`` moved into ``confusionlab.distribution``: importing the old path
    still works for one release, with a FutureWarning naming the new module."""
    import importlib
    import sys

    import confusionlab.distribution as new

    sys.modules.pop("confusionlab.mixture", None)
    with pytest.warns(FutureWarning, match=r"confusionlab\.mixture is moved to confusionlab\.distribution"):
        old = importlib.import_module("confusionlab.mixture")
    for name in old.__all__:
        assert getattr(old, name) is getattr(new, name)
