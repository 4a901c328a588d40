"""One vocabulary with the rest of ConfusionLab: count order (tp, fn, fp, tn),
``random_state``, ``tolerance`` (mass dropped per marginal) and ``confidence``."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from scipy import stats

from confusionlab import bias
from confusionlab._validation import DEFAULT_TOLERANCE
from confusionlab.bias import label_metrics as lm
from confusionlab.bias import prediction_metrics as pm
from confusionlab.bias import uncertainty as un
from confusionlab.bias.counts import CountTable

# facet a: tp 5, fn 1, fp 2, tn 8; facet d: tp 3, fn 1, fp 2, tn 4
A = dict(tp=5, fn=1, fp=2, tn=8)
D = dict(tp=3, fn=1, fp=2, tn=4)
BY_HAND = {  # smclarify's definitions, by hand with fractions
    "RD": F(5, 6) - F(3, 4),  # recall a − d
    "DAR": F(5, 7) - F(3, 5),  # precision a − d
    "SD": F(4, 6) - F(8, 10),  # TNR d − a
    "DRR": F(4, 5) - F(8, 9),  # NPV d − a
    "TE": F(1, 2) - F(1, 2),  # FN/FP d − a
    "AD": F(13, 16) - F(7, 10),
    "DCA": F(6, 7) - F(4, 5),  # (TP+FN)/(TP+FP) a − d
    "DCR": F(6, 5) - F(10, 9),  # (TN+FP)/(TN+FN) d − a
    "DPPL": F(7, 16) - F(5, 10),
    "DI": F(5, 10) / F(7, 16),
}


def test_from_confusion_reads_tp_fn_fp_tn():
    t = CountTable.from_confusion(a=(5, 1, 2, 8), d=(3, 1, 2, 4))
    assert t.confusion().tolist() == [[5, 1, 2, 8], [3, 1, 2, 4]]
    by_name = CountTable.from_confusion(a=A, d={"TN": 4, "FP": 2, "FN": 1, "TP": 3})
    np.testing.assert_array_equal(by_name.counts, t.counts)
    # label positives = tp + fn; predicted positives = tp + fp
    assert t.label_distribution().tolist() == [[10, 6], [6, 4]]
    assert t.group_outcomes(predicted=True)[0].tolist() == [[9, 7], [5, 5]]


@pytest.mark.parametrize("name", list(BY_HAND))
def test_post_training_metrics_in_the_library_order(name):
    r = bias.report_from_counts(CountTable.from_confusion(a=A, d=D), stage="post", n_draws=100)
    assert r[name].value == pytest.approx(float(BY_HAND[name]), abs=1e-15)
    fn = {
        "RD": pm.recall_difference,
        "DAR": pm.difference_in_acceptance_rates,
        "SD": pm.specificity_difference,
        "DRR": pm.difference_in_rejection_rates,
        "TE": pm.treatment_equality,
        "AD": pm.accuracy_difference,
        "DCA": pm.difference_in_conditional_acceptance,
        "DCR": pm.difference_in_conditional_rejection,
        "DPPL": pm.difference_in_positive_predictions,
        "DI": pm.disparate_impact,
    }[name]
    cm = [[A[k] for k in ("tp", "fn", "fp", "tn")], [D[k] for k in ("tp", "fn", "fp", "tn")]]
    assert float(fn(cm)) == pytest.approx(float(BY_HAND[name]), abs=1e-15)


def test_generalized_entropy_reads_tp_fn_fp_tn():
    # benefits b: 0 for fn (2 rows), 1 for tp and tn (20 rows), 2 for fp (4 rows); GE = ½(E[b²]/E[b]² − 1)
    mean, mean_sq = F(20 + 8, 26), F(20 + 16, 26)
    assert float(pm.generalized_entropy([8, 2, 4, 12])) == pytest.approx(float((mean_sq / mean**2 - 1) / 2))


def test_cm_shape_is_checked():
    with pytest.raises(ValueError, match=r"cm must have shape \(\.\.\., 2, 4\)"):
        pm.recall_difference([1, 2, 3, 4])


def test_seed_is_now_random_state():
    t = CountTable.from_confusion(a=A, d=D)
    with pytest.raises(TypeError, match="seed"):
        bias.report_from_counts(t, seed=1)
    a = bias.report_from_counts(t, random_state=np.random.SeedSequence(5))["DCA"].interval()
    b = bias.report_from_counts(t, random_state=np.random.SeedSequence(5))["DCA"].interval()
    assert a == b
    g = bias.report_from_counts(t, random_state=np.random.default_rng(1))["DCA"]
    assert g.distribution.strategy.startswith("monte carlo: 20000 draws, random_state ")
    with pytest.raises(TypeError, match=r"random_state must be None, a non-negative integer seed"):
        bias.report_from_counts(t, random_state="7")
    with pytest.raises(TypeError, match=r"random_state must be"):
        bias.report_from_counts(t, random_state=-1)


def test_tolerance_is_mass_dropped_per_marginal():
    """Each marginal keeps all but at most tolerance/2 per tail (the core's ``prune_tails``);
    checked against scipy's beta-binomial cdf, not against our pmf."""
    tol = 1e-3
    k, _, dropped = un._support(60, 200, 1.0, tol, "positives")  # BetaBin(200, 61, 141)
    bb = stats.betabinom(200, 61, 141)
    left, right = bb.cdf(k[0] - 1), bb.sf(k[-1])
    assert left <= tol / 2 and right <= tol / 2  # at most half on each side
    assert bb.cdf(k[0]) > tol / 2 and bb.sf(k[-1] - 1) > tol / 2  # and no more than that is kept out
    # dropped bounds the true tail mass from above; the window adds at most tol·1e-4 (models.marginal)
    assert left + right - 1e-15 <= dropped <= left + right + tol * 1e-4 and dropped <= tol
    d = un.exact_binary_facets(lm.difference_in_proportions, np.array([[140, 60], [90, 15]]), tolerance=tol)
    assert d.pruned_mass <= 2 * tol  # two marginals
    full = un.exact_binary_facets(lm.difference_in_proportions, np.array([[140, 60], [90, 15]]), tolerance=0)
    assert full.pruned_mass == 0.0


def test_tolerance_keyword_and_default():
    t = CountTable.from_confusion(a=A, d=D)
    with pytest.raises(TypeError, match="tail"):
        bias.report_from_counts(t, tail=1e-10)
    with pytest.raises(ValueError, match=r"tolerance must lie in \[0, 0.01\]"):
        bias.report_from_counts(t, tolerance=0.5)
    with pytest.raises(ValueError, match=r"tolerance must lie in"):
        bias.report_from_counts(t, tolerance=float("nan"))
    r = bias.report_from_counts(t, stage="pre", target="next_test_set")  # the beta-binomial lattice
    assert r["DPL"].distribution.pruned_mass <= 2 * DEFAULT_TOLERANCE
    loose = bias.report_from_counts(t, stage="pre", tolerance=0.01, target="next_test_set")["DPL"].distribution
    assert 0 < loose.pruned_mass <= 0.02


def test_confidence_is_validated():
    r = bias.report_from_counts(CountTable.from_confusion(a=A, d=D), n_draws=100)
    for bad, exc in ((1.5, ValueError), (0.0, ValueError), ("0.9", TypeError), (float("nan"), ValueError)):
        with pytest.raises(exc, match="confidence"):
            r["DPPL"].interval(bad)
        with pytest.raises(exc, match="confidence"):
            r.to_frame(confidence=bad)
    with pytest.raises(ValueError, match="confidence"):
        r["DPPL"].contains_no_bias(2)
