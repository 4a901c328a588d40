"""The simplex, its isometric coordinates, and the dirichlet-multinomial model."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from brute import as_float, exact_value
from hypothesis import given, settings
from hypothesis import strategies as hs
from scipy import stats

import confusionlab as cl
from confusionlab.models import prune_tails, slice_model


@pytest.mark.parametrize("N", [0, 1, 7, 100])
def test_simplex_has_every_composition_once(N: int) -> None:
    pts = cl.simplex_points(N)
    assert len(pts) == comb(N + 3, 3)
    assert np.all(pts.counts >= 0) and np.all(pts.counts.sum(axis=1) == N)
    assert np.unique(pts.counts, axis=0).shape[0] == len(pts)


def test_isometric_projection_preserves_distances_and_places_vertices() -> None:
    pts = cl.simplex_points(12)
    rng = np.random.default_rng(0)
    i, j = rng.integers(0, len(pts), size=(2, 500))
    d_counts = np.linalg.norm(pts.counts[i] - pts.counts[j], axis=1)
    d_xyz = np.linalg.norm(pts.xyz[i] - pts.xyz[j], axis=1)
    np.testing.assert_allclose(d_xyz, d_counts, atol=1e-12)
    N = 12
    raw = cl.lattice.isometric(*np.eye(4, dtype=int).T * N, centre=False)
    np.testing.assert_allclose(raw, [[0, 0, N], [N, 0, 0], [0, N, 0], [-N / 3, -N / 3, -N / 3]])
    np.testing.assert_allclose(pts.xyz.mean(axis=0), 0, atol=1e-12)  # centred on the centroid


def test_simplex_size_is_refused_with_advice() -> None:
    assert len(cl.simplex_points(100)) == 176_851
    with pytest.raises(cl.InvalidParameterError, match="N <= 491"):
        cl.simplex_points(600)


def test_dirichlet_multinomial_matches_scipy() -> None:
    cm = cl.ConfusionMatrix(tp=3, fn=1, fp=2, tn=4)
    model = cl.models.simplex_model(cm, tolerance=0)
    alpha = np.array(cm.as_tuple()) + 1.0
    expected = stats.dirichlet_multinomial.pmf(model.counts, alpha, cm.N)
    np.testing.assert_allclose(model.pmf, expected, rtol=1e-10)
    assert model.pmf.sum() == pytest.approx(1.0)


def _dm_pmf_exact(x, alpha) -> Fraction:
    """DirMult pmf with integer alpha, exactly: N! Γ(A)/Γ(N+A) Π Γ(x+a)/(x! Γ(a))."""
    from math import factorial

    N, A = sum(x), sum(alpha)
    out = Fraction(factorial(N) * factorial(A - 1), factorial(N + A - 1))
    for xi, ai in zip(x, alpha, strict=True):
        out *= Fraction(factorial(xi + ai - 1), factorial(xi) * factorial(ai - 1))
    return out


@pytest.mark.parametrize("metric", ["accuracy", "balanced_accuracy", "f1", "mcc", "g_mean"])
def test_dirichlet_multinomial_metric_pmf_matches_brute_force(metric: str) -> None:
    cm = cl.ConfusionMatrix(tp=3, fn=1, fp=2, tn=4)
    d = cl.metric_distribution(cm, metric, "dirichlet-multinomial", tolerance=0, undefined="exclude")
    alpha = [c + 1 for c in cm.as_tuple()]
    groups: dict = defaultdict(Fraction)
    count: dict = defaultdict(int)
    undefined = Fraction(0)
    N = cm.N
    for tp in range(N + 1):
        for fn in range(N + 1 - tp):
            for fp in range(N + 1 - tp - fn):
                x = (tp, fn, fp, N - tp - fn - fp)
                key = exact_value(metric, *x)
                mass = _dm_pmf_exact(x, alpha)
                if key is None:
                    undefined += mass
                else:
                    groups[key] += mass
                    count[key] += 1
    keys = sorted(groups, key=as_float)
    assert len(d) == len(keys)
    np.testing.assert_allclose(d.values, [as_float(k) for k in keys], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(d.probabilities, [float(groups[k]) for k in keys], rtol=1e-9)
    np.testing.assert_array_equal(d.multiplicities, [count[k] for k in keys])
    assert d.undefined_mass == pytest.approx(float(undefined), rel=1e-9, abs=1e-15)


def test_dirichlet_multinomial_pruning_is_bounded_and_reported() -> None:
    cm = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    d = cl.metric_distribution(cm, "mcc", "dirichlet-multinomial", tolerance=1e-6)
    assert 0 < d.pruned_mass <= 1e-6
    assert d.probabilities.sum() == pytest.approx(1 - d.pruned_mass, abs=1e-12)
    full = cl.metric_distribution(cm, "mcc", "dirichlet-multinomial", tolerance=0)
    assert full.pruned_mass == 0 and full.lattice_points == comb(63, 3)
    assert d.mean() == pytest.approx(full.mean(), abs=1e-5)


def test_prune_tails_bounds_each_tail() -> None:
    pmf = stats.binom.pmf(np.arange(101), 100, 0.3)
    lo, hi, dropped = prune_tails(pmf, 1e-6)
    assert pmf[:lo].sum() <= 5e-7 and pmf[hi + 1 :].sum() <= 5e-7
    assert pmf[: lo + 1].sum() > 5e-7 and pmf[hi:].sum() > 5e-7  # nothing more could go
    assert dropped == pytest.approx(pmf[:lo].sum() + pmf[hi + 1 :].sum(), rel=1e-12)
    assert prune_tails(pmf, 0) == (0, 100, 0.0)


def test_slice_model_marginals_are_scipy_beta_binomials() -> None:
    cm = cl.ConfusionMatrix(tp=160, fn=40, fp=80, tn=320)
    m = slice_model(cm, tolerance=1e-9)
    k = np.arange(m.tp_lo, m.tp_lo + m.tp_pmf.size)
    np.testing.assert_allclose(m.tp_pmf, stats.betabinom.pmf(k, 200, 161, 41), rtol=1e-12)
    assert 0 < m.pruned_mass <= 2e-9


@pytest.mark.parametrize("prior", [1e20, 6.7e153, 1e300])
def test_a_huge_prior_is_the_binomial_at_one_half(prior: float) -> None:
    """Beta(α, α) with α → ∞ is a point mass at ½: the marginal tends to Bin(n, ½) (scipy), no overflow."""
    m = slice_model(cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), prior=prior, tolerance=0)
    np.testing.assert_allclose(m.tp_pmf, stats.binom.pmf(np.arange(21), 20, 0.5), rtol=1e-9, atol=1e-15)
    assert m.tp_pmf.sum() == pytest.approx(1.0, abs=1e-12)


def test_dirichlet_multinomial_with_a_huge_prior_is_the_multinomial_at_one_quarter() -> None:
    """α → ∞ in every cell: DirMult(N, α) tends to Multinomial(N, ¼, ¼, ¼, ¼) (scipy); the old
    difference of log-gammas lost every digit at α = 1e20."""
    from confusionlab.models import simplex_model

    m = simplex_model(cl.ConfusionMatrix(tp=2, fn=1, fp=1, tn=2), prior=1e20, tolerance=0)
    expected = stats.multinomial.pmf(m.counts, 6, [0.25] * 4)
    np.testing.assert_allclose(m.pmf, expected, rtol=1e-9)


def test_priors_beyond_the_largest_are_refused_by_name() -> None:
    with pytest.raises(cl.InvalidParameterError, match="prior must be at most"):
        slice_model(cl.ConfusionMatrix(tp=1, fn=1, fp=1, tn=1), prior=8.98e307)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(N=hs.one_of(hs.integers(-5, 40), hs.floats(allow_nan=True), hs.text(max_size=3), hs.none(), hs.just(10**6)))
def test_simplex_counts_is_simplex_points_without_coordinates(N) -> None:
    """Hostile N: a ValueError/TypeError naming N, or the counts simplex_points enumerates (brute force)."""
    from confusionlab.lattice import simplex_counts

    try:
        counts = simplex_counts(N)
    except (ValueError, TypeError) as error:
        assert "N" in str(error), error
        return
    n = int(N)
    brute = [(tp, fn, s - fn, n - tp - s) for tp in range(n + 1) for s in range(n - tp + 1) for fn in range(s + 1)]
    assert [tuple(r) for r in counts.tolist()] == brute
    np.testing.assert_array_equal(counts, cl.simplex_points(n).counts)
