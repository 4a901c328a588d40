"""The simultaneous band of the decision curve against brute force (counts by a loop over the examples, the
Kolmogorov–Smirnov quantiles from scipy.stats.kstwo, the prevalence's Clopper–Pearson interval from
scipy.stats.binomtest, net benefit minimised and maximised over every corner of the box), and its coverage
of a known true curve in a seeded simulation."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import special, stats

import confusionlab as cl


def _brute_band(y, risk, thresholds, confidence, prevalence=None, harm=0.0):
    y, risk = np.asarray(y, bool), np.asarray(risk, float)
    p, n = int(y.sum()), int((~y).sum())
    if prevalence is None:
        level = confidence ** (1 / 3)
        ci = stats.binomtest(p, p + n).proportion_ci(level, method="exact")
        pis = (ci.low, ci.high)
    else:
        level = confidence**0.5
        pis = (prevalence,)
    d_p, d_n = stats.kstwo(p).ppf(level), stats.kstwo(n).ppf(level)
    lower, upper = [], []
    for t in thresholds:
        positive = [(r >= t and r != 0) or r == 1 for r in risk]
        tpr = sum(1 for yi, pi in zip(y, positive, strict=True) if yi and pi) / p
        fpr = sum(1 for yi, pi in zip(y, positive, strict=True) if not yi and pi) / n
        w = t / (1 - t)
        values = [
            pi * a - w * (1 - pi) * b - harm
            for pi, a, b in itertools.product(
                pis, (max(tpr - d_p, 0), min(tpr + d_p, 1)), (max(fpr - d_n, 0), min(fpr + d_n, 1))
            )
        ]
        lower.append(min(values))
        upper.append(max(values))
    return np.array(lower), np.array(upper)


@pytest.mark.parametrize(("prevalence", "harm"), [(None, 0.0), (0.2, 0.01)])
def test_band_equals_brute_force_at_every_distinct_risk(prevalence, harm):
    rng = np.random.default_rng(4)
    y = rng.uniform(size=150) < 0.3
    risk = np.round(np.clip(0.3 + 0.3 * (y - 0.3) + rng.normal(0, 0.15, 150), 0, 1), 2)
    thresholds = np.unique(risk[risk < 1])  # every distinct risk: where the counts change
    dc = cl.decision_curve(y, risk, thresholds=thresholds, prevalence=prevalence, harm=harm)
    band = dc.band(0.9)
    lower, upper = _brute_band(y, risk, thresholds, 0.9, prevalence, harm)
    np.testing.assert_allclose(band.lower["model"], lower, rtol=0, atol=1e-12)
    np.testing.assert_allclose(band.upper["model"], upper, rtol=0, atol=1e-12)
    lo, hi = band
    assert lo is band.lower and hi is band.upper
    assert np.all(band.lower["model"] <= dc.net_benefit["model"] + 1e-12)
    assert np.all(dc.net_benefit["model"] <= band.upper["model"] + 1e-12)


def test_all_and_none_in_the_band():
    rng = np.random.default_rng(5)
    y = rng.uniform(size=400) < 0.2
    dc = cl.decision_curve(y, rng.uniform(size=400))
    band = dc.band(0.95)
    ci = stats.binomtest(int(y.sum()), 400).proportion_ci(0.95 ** (1 / 3), method="exact")
    t = dc.thresholds
    np.testing.assert_allclose(band.lower["all"], (ci.low - t) / (1 - t), rtol=1e-12)
    np.testing.assert_allclose(band.upper["all"], (ci.high - t) / (1 - t), rtol=1e-12)
    assert np.all(band.lower["none"] == 0) and np.all(band.upper["none"] == 0)


def _true_nb(t, prevalence, shift):
    """True NB of risks expit(score), score ~ N(shift, 1) for positives and N(−1, 1) for negatives."""
    cut = special.logit(t)
    tpr, fpr = stats.norm.sf(cut - shift), stats.norm.sf(cut + 1.0)
    return prevalence * tpr - t / (1 - t) * (1 - prevalence) * fpr


def test_band_covers_the_true_curve_in_a_seeded_simulation():
    """200 test sets of 300 from a known binormal model: the whole true curve (thresholds 0.01–0.99) must lie
    in the 90 % band in at least 85 % of them (a pointwise interval read as a band covers far less)."""
    rng = np.random.default_rng(2026)
    t = np.arange(1, 100) / 100
    truth = _true_nb(t, 0.3, 1.0)
    covered = 0
    reps = 200
    for _ in range(reps):
        y = rng.uniform(size=300) < 0.3
        risk = special.expit(np.where(y, rng.normal(1.0, 1.0, 300), rng.normal(-1.0, 1.0, 300)))
        band = cl.decision_curve(y, risk, thresholds=t).band(0.9)
        covered += bool(np.all((band.lower["model"] <= truth) & (truth <= band.upper["model"])))
    assert covered / reps >= 0.85
