"""The posterior quantities of the decision curve against independent references: scipy.stats' Beta tails,
scipy.integrate's quadrature, a seeded Monte Carlo of the Dirichlet posterior of the four cells (tolerance
from its standard error), and the next test set's PMF enumerated with scipy.stats.dirichlet_multinomial."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import integrate, stats

import confusionlab as cl

DRAWS = 400_000


def _curve(prevalence=None, harm=0.0, thresholds=(0.05, 0.2, 0.35, 0.5), prior=None):
    rng = np.random.default_rng(11)
    y = rng.uniform(size=300) < 0.25
    risk = np.clip(0.25 + 0.3 * (y - 0.25) + rng.normal(0, 0.15, 300), 0, 1)
    return cl.decision_curve(y, risk, thresholds=list(thresholds), prevalence=prevalence, harm=harm, prior=prior)


def _cells(dc, j):
    c = dc.counts["model"]
    return int(c.tp[j]), int(c.fp[j]), int(c.fn[j]), int(c.tn[j])


def _draws(dc, j, seed=5):
    """Posterior draws of (NB_model, NB_all): the Dirichlet of the four cells (cohort), or TPR and FPR Betas
    with the prevalence fixed (a given prevalence)."""
    tp, fp, fn, tn = _cells(dc, j)
    a, t, h = dc.prior, dc.thresholds[j], dc.harm["model"]
    w = t / (1 - t)
    rng = np.random.default_rng(seed)
    if not dc.prevalence_given:
        d = rng.dirichlet([tp + a, fp + a, fn + a, tn + a], DRAWS)
        nb = d[:, 0] - w * d[:, 1] - h
        nb_all = d[:, 0] + d[:, 2] - w * (d[:, 1] + d[:, 3])
        return nb, nb_all
    pi = dc.prevalence
    tpr, fpr = rng.beta(tp + a, fn + a, DRAWS), rng.beta(fp + a, tn + a, DRAWS)
    return pi * tpr - w * (1 - pi) * fpr - h, np.full(DRAWS, (pi - t) / (1 - t))


def _close(estimate, draws_mean, draws_sd, slack=1e-6):
    assert abs(estimate - draws_mean) <= 5 * draws_sd / np.sqrt(DRAWS) + slack, (estimate, draws_mean)


def test_prob_useful_and_better_than_all_are_beta_tails():
    dc = _curve()
    for j, t in enumerate(dc.thresholds):
        tp, fp, fn, tn = _cells(dc, j)
        a = dc.prior
        assert dc.prob_useful["model"][j] == pytest.approx(stats.beta.sf(t, tp + a, fp + a), rel=1e-12, abs=1e-300)
        assert dc.prob_better_than_all["model"][j] == pytest.approx(
            stats.beta.sf(1 - t, tn + a, fn + a), rel=1e-12, abs=1e-300
        )


@pytest.mark.parametrize(("prevalence", "harm"), [(None, 0.01), (0.3, 0.0), (0.3, 0.02)])
def test_quadrature_tails_agree_with_monte_carlo(prevalence, harm):
    dc = _curve(prevalence=prevalence, harm=harm)
    for j in range(dc.thresholds.size):
        nb, nb_all = _draws(dc, j)
        for mine, event in ((dc.prob_useful, nb > 0), (dc.prob_better_than_all, nb > nb_all)):
            p = event.mean()
            _close(mine["model"][j], p, np.sqrt(p * (1 - p)))


@pytest.mark.parametrize(("prevalence", "harm"), [(None, 0.0), (None, 0.01), (0.3, 0.0)])
def test_prob_best_and_evpi_agree_with_monte_carlo(prevalence, harm):
    dc = _curve(prevalence=prevalence, harm=harm, thresholds=(0.1, 0.2, 0.25, 0.3))
    best, evpi = dc.prob_best["model"], dc.evpi["model"]
    for j in range(dc.thresholds.size):
        nb, nb_all = _draws(dc, j)
        stack = np.stack([nb, nb_all, np.zeros_like(nb)])
        winner = stack.argmax(axis=0)
        for k, name in enumerate(("model", "all", "none")):
            p = (winner == k).mean()
            _close(best[name][j], p, np.sqrt(p * (1 - p)), slack=2e-5)
        assert best["model"][j] + best["all"][j] + best["none"][j] == pytest.approx(1.0, abs=1e-9)
        top = stack.max(axis=0)
        value = top.mean() - max(nb.mean(), nb_all.mean(), 0.0)
        # the EVPI's Monte Carlo error: that of the mean of the maximum (the means' own is far smaller)
        _close(evpi[j], value, top.std() + stack.std(axis=1).max(), slack=2e-6)


def test_true_value_interval_agrees_with_quadrature_and_monte_carlo():
    dc = _curve(thresholds=(0.05, 0.2, 0.5, 0.8))
    lower, upper = dc.interval_arrays(0.9)["model"]
    a = dc.prior
    for j, t in enumerate(dc.thresholds):
        tp, fp, fn, tn = _cells(dc, j)
        k = 1 / (1 - t)
        rate = stats.beta(tp + fp + 2 * a, fn + tn + 2 * a)
        ppv = stats.beta(tp + a, fp + a)

        def cdf(x, rate=rate, ppv=ppv, k=k, t=t):
            """P(a·k·(PPV − t) ≤ x) by scipy's adaptive quadrature, split where PPV's cdf reaches 1."""
            kink = min(max(x / (k * (1 - t)), 0.0), 1.0)
            inner = integrate.quad(lambda u: rate.pdf(u) * ppv.cdf(t + x / (k * u)), kink, 1, limit=500, epsabs=1e-13)
            return rate.cdf(kink) + inner[0]

        # 1e-8; 1e-5 where a count is 0 (a Beta density unbounded at an end: the rule converges slowly there)
        tolerance = 1e-8 if min(tp, fp, fn, tn) > 0 else 1e-5
        assert cdf(lower[j]) == pytest.approx(0.05, abs=tolerance)
        assert cdf(upper[j]) == pytest.approx(0.95, abs=tolerance)
        nb, _ = _draws(dc, j)
        for edge, q in ((lower[j], 0.05), (upper[j], 0.95)):
            _close((nb <= edge).mean(), q, np.sqrt(q * (1 - q)))
    assert dc.interval(0.9)[("model", 0.2)] == (lower[1], upper[1])


def test_given_prevalence_interval_agrees_with_monte_carlo():
    dc = _curve(prevalence=0.3, harm=0.01)
    lower, upper = dc.interval_arrays(0.8)["model"]
    for j in range(dc.thresholds.size):
        nb, _ = _draws(dc, j)
        for edge, q in ((lower[j], 0.1), (upper[j], 0.9)):
            _close((nb <= edge).mean(), q, np.sqrt(q * (1 - q)))


def test_treat_all_interval_is_the_prevalence_beta_mapped():
    dc = _curve()
    lo, hi = dc.interval_arrays(0.95)["all"]
    p, n, a = dc.counts["model"].p, dc.counts["model"].n, dc.prior
    ref_lo, ref_hi = stats.beta.interval(0.95, p + 2 * a, n + 2 * a)
    t = dc.thresholds
    np.testing.assert_allclose(lo, (ref_lo - t) / (1 - t), rtol=1e-10)
    np.testing.assert_allclose(hi, (ref_hi - t) / (1 - t), rtol=1e-10)


def _dm_interval(cells, alpha, t, confidence):
    """The next test set's central interval of NB, every 4-cell table of size N enumerated (scipy's PMF)."""
    n = sum(cells)
    dm = stats.dirichlet_multinomial(np.array(cells, float) + alpha, n)
    values, probs = [], []
    for tp, fp, fn in itertools.product(range(n + 1), repeat=3):
        tn = n - tp - fp - fn
        if tn < 0:
            continue
        values.append((tp - t / (1 - t) * fp) / n)
        probs.append(dm.pmf([tp, fp, fn, tn]))
    order = np.argsort(values, kind="stable")
    v, cdf = np.array(values)[order], np.cumsum(np.array(probs)[order])
    tail = (1 - confidence) / 2
    return v[np.searchsorted(cdf, tail - 1e-12)], v[np.searchsorted(cdf, 1 - tail - 1e-12)]


def test_next_test_set_interval_is_the_enumerated_dirichlet_multinomial():
    y = [1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0]
    risk = [0.9, 0.6, 0.3, 0.7, 0.2, 0.1, 0.4, 0.05, 0.8, 0.3, 0.2, 0.5]
    dc = cl.decision_curve(y, risk, thresholds=[0.1, 0.25, 0.5])
    lower, upper = dc.interval_arrays(0.9, target="next_test_set")["model"]
    for j, t in enumerate(dc.thresholds):
        c = dc.counts["model"]
        cells = (int(c.tp[j]), int(c.fp[j]), int(c.fn[j]), int(c.tn[j]))
        ref = _dm_interval(cells, 1.0, t, 0.9)  # the next test set's default prior: α = 1 (the table)
        assert (lower[j], upper[j]) == pytest.approx(ref, abs=1e-12)


def test_next_test_set_is_refused_before_allocating_when_too_large():
    rng = np.random.default_rng(0)
    y = rng.uniform(size=200_000) < 0.3
    dc = cl.decision_curve(y, rng.uniform(size=200_000), thresholds=[0.3])
    with pytest.raises(cl.TooLargeError, match="target='true_value'"):
        dc.interval_arrays(target="next_test_set")


def test_an_explicit_prior_is_the_one_used():
    default, half, one = (_curve(prior=p) for p in (None, 0.5, 1.0))
    assert default.prior == 0.5
    np.testing.assert_array_equal(default.prob_useful["model"], half.prob_useful["model"])
    assert not np.array_equal(default.prob_useful["model"], one.prob_useful["model"])
