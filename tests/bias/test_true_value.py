"""Issue 20: audit verdicts about the population — the posterior of each disparity's true value.

Expected numbers come from scipy: the difference of two independent Beta posteriors
(each facet's true rate, Beta(k + 1, n − k + 1) under the uniform prior) has the cdf
P(q_a − q_d ≤ t) = ∫ f_d(y) F_a(t + y) dy, integrated with ``scipy.integrate.quad`` and
inverted with ``brentq``. The library's true-value intervals of DPL/DPPL/DI are a
quadrature of the same posteriors on a grid (ends within about half a grid cell, 1e-3
here), those of RD/AD Monte Carlo draws, compared within the Monte Carlo error the
library itself states (``BiasMetric.mc_error``, a distribution-free order-statistic
band) plus a small slack; on the old code (predictive intervals only, no
``target=``) every test here fails: the lesson's interval was [0.004, 0.21].
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, optimize, stats

from confusionlab import bias
from confusionlab.bias import CountTable, report_from_counts


def diff_quantile(q: float, a: tuple[int, int], d: tuple[int, int], prior: float = 1.0) -> float:
    """Quantile ``q`` of q_a − q_d, q ~ Beta(k + prior, n − k + prior); a and d are (k, n)."""
    ba = stats.beta(a[0] + prior, a[1] - a[0] + prior)
    bd = stats.beta(d[0] + prior, d[1] - d[0] + prior)
    lo_y, hi_y = bd.ppf(1e-13), bd.isf(1e-13)

    def cdf(t: float) -> float:
        return integrate.quad(lambda y: bd.pdf(y) * ba.cdf(t + y), lo_y, hi_y, limit=200, epsabs=1e-13)[0]

    return optimize.brentq(lambda t: cdf(t) - q, -1.0, 1.0, xtol=1e-10)


def dppl_report(k_a: int, n_a: int, k_d: int, n_d: int, **kw):
    """A report whose predicted positives are k of n in each facet (DPPL depends on nothing else)."""
    t = CountTable.from_confusion(a=(k_a, 0, 0, n_a - k_a), d=(k_d, 0, 0, n_d - k_d))
    return report_from_counts(t, stage="post", **kw)


def test_the_lessons_example_is_about_the_population():
    """Amer-Indian-Eskimo women (1 of 66 predicted >50K) against the rest (3,243 of 16,215), at the
    Bonferroni level of 68 verdicts: the true disparity's interval is ≈ [0.056, 0.205]; the next test
    set's is [0.004, 0.21] (what lesson 13 showed before)."""
    level = 1 - 0.05 / 68
    m = dppl_report(3243, 16215, 1, 66, n_draws=100_000)["DPPL"]
    lo, hi = m.interval(level, target="true_value")
    tail = (1 - level) / 2
    exact = (diff_quantile(tail, (3243, 16215), (1, 66)), diff_quantile(1 - tail, (3243, 16215), (1, 66)))
    assert m.mc_error(level, target="true_value") == 0.0  # quadrature of the two posteriors, no draws
    assert m.distribution_for("true_value").strategy.startswith("exact")
    assert lo == pytest.approx(exact[0], abs=1e-3) and hi == pytest.approx(exact[1], abs=1e-3)
    assert exact[0] == pytest.approx(0.056, abs=0.002) and exact[1] == pytest.approx(0.205, abs=0.002)
    lo_next, hi_next = m.interval(level, target="next_test_set")  # exact lattice
    assert lo_next == pytest.approx(0.004, abs=0.003) and hi_next == pytest.approx(0.21, abs=0.005)
    assert m.verdict(0.05, level, target="next_test_set") == "insufficient evidence"
    assert m.verdict(0.05, level, target="true_value") == "bias"


@pytest.mark.parametrize(
    ("a", "d"),
    [((300, 1000), (20, 100)), ((50, 400), (30, 120)), ((700, 2000), (350, 1000)), ((5, 60), (0, 15))],
)
def test_dpl_true_value_interval_is_the_beta_difference(a, d):
    t = CountTable.from_confusion(a=(a[0], 0, a[1] - a[0], 0), d=(d[0], 0, d[1] - d[0], 0))
    m = report_from_counts(t, stage="pre", target="true_value")["DPL"]  # labels: k positives of n
    assert m.target == "true_value" and m.distribution.target == "true_value"
    for conf in (0.9, 0.99):
        lo, hi = m.interval(conf)
        err = m.mc_error(conf)
        tail = (1 - conf) / 2
        assert lo == pytest.approx(diff_quantile(tail, a, d), abs=err + 1e-3)
        assert hi == pytest.approx(diff_quantile(1 - tail, a, d), abs=err + 1e-3)


def test_recall_difference_is_the_difference_of_the_recall_posteriors():
    """RD's true value under Dirichlet(cells + 1): each facet's recall is Beta(tp + 1, fn + 1)
    (the Dirichlet's aggregation property), so RD's interval is a Beta difference."""
    t = CountTable.from_confusion(a=(120, 40, 30, 300), d=(25, 20, 10, 90))
    m = report_from_counts(t, stage="post", target="true_value")["RD"]
    lo, hi = m.interval(0.95)
    err = m.mc_error(0.95)
    assert lo == pytest.approx(diff_quantile(0.025, (120, 160), (25, 45)), abs=err + 1e-3)
    assert hi == pytest.approx(diff_quantile(0.975, (120, 160), (25, 45)), abs=err + 1e-3)


def test_class_imbalance_true_value_is_the_beta_share():
    """CI = 1 − 2π_d with π_d ~ Beta(n_d + 1, n_a + 1): its interval from scipy's beta quantiles."""
    m = report_from_counts(CountTable.from_confusion(a=(40, 30, 20, 210), d=(5, 5, 5, 35)), stage="pre")["CI"]
    lo, hi = m.interval(0.95, target="true_value")
    share = stats.beta(50 + 1, 300 + 1)
    assert lo == pytest.approx(1 - 2 * share.ppf(0.975), abs=1e-4)
    assert hi == pytest.approx(1 - 2 * share.ppf(0.025), abs=1e-4)
    assert m.mc_error(0.95, target="true_value") == 0.0  # quantile nodes, not draws


def test_true_value_about_sqrt2_narrower_than_the_next_test_set_for_large_groups():
    m = dppl_report(4000, 10000, 1500, 5000)["DPPL"]
    lo_t, hi_t = m.interval(0.95, target="true_value")
    lo_n, hi_n = m.interval(0.95, target="next_test_set")
    assert (hi_n - lo_n) / (hi_t - lo_t) == pytest.approx(math.sqrt(2), rel=0.05)


def _frame(groups: dict[str, tuple[int, int]], rest: tuple[int, int], seed: int = 0) -> pd.DataFrame:
    """Rows with the given (predicted positives, size) per group; labels equal to predictions."""
    parts = []
    for name, (k, n) in {**groups, "rest": rest}.items():
        p = np.r_[np.ones(k, int), np.zeros(n - k, int)]
        parts.append(pd.DataFrame({"g": name, "p": p, "y": p}))
    return pd.concat(parts, ignore_index=True)


def test_audit_verdicts_recomputed_from_scipy():
    """Each DPPL verdict of the audit is the rule applied to scipy's exact true-value interval at the
    Bonferroni level (rows whose exact end is within the Monte Carlo error of a band edge excepted)."""
    groups = {"A": (30, 100), "B": (55, 100), "C": (400, 1000), "D": (3, 40)}
    df = _frame(groups, (4000, 10000))
    a = bias.audit(df, label="y", positive_values=[1], predicted="p", facets="g", metrics=["DPPL"], margin=0.05)
    assert a.target == "true_value" and a.level == pytest.approx(1 - 0.05 / 5)
    tail = (1 - a.level) / 2
    sizes = {name: kn for name, kn in groups.items()} | {"rest": (4000, 10000)}
    errors = a.mc_error()
    checked = 0
    for row in a.itertuples():
        k, n = sizes[row.group]
        ka = sum(kk for g, (kk, _) in sizes.items() if g != row.group)
        na = sum(nn for g, (_, nn) in sizes.items() if g != row.group)
        lo, hi = diff_quantile(tail, (ka, na), (k, n)), diff_quantile(1 - tail, (ka, na), (k, n))
        err = errors[(row.facet, row.group, row.metric)]
        assert row.lower == pytest.approx(lo, abs=err + 1e-3) and row.upper == pytest.approx(hi, abs=err + 1e-3)
        if min(abs(x - e) for x in (lo, hi) for e in (-0.05, 0.05)) > err + 1e-3:
            expected = "bias" if hi < -0.05 or lo > 0.05 else "no material bias" if -0.05 <= lo and hi <= 0.05 else None
            assert row.verdict == (expected or "insufficient evidence"), row
            checked += 1
    assert checked >= 3


def test_next_test_set_keeps_the_predictive_interval():
    df = _frame({"A": (30, 100), "B": (55, 100)}, (400, 1000))
    a = bias.audit(df, label="y", positive_values=[1], predicted="p", facets="g", metrics=["DPPL"], margin=0.05,
                   target="next_test_set")  # fmt: skip
    rep = bias.report(df, label="y", positive_values=[1], predicted="p", facet="g", facet_values=["A"],
                      target="next_test_set")  # fmt: skip
    row = a.to_frame().query("group == 'A'").iloc[0]
    assert (row.lower, row.upper) == rep["DPPL"].interval(a.level)  # the exact beta-binomial lattice
    assert rep["DPPL"].distribution.strategy.startswith("exact")


def test_every_page_names_the_question_the_comparison_and_who_is_favoured():
    df = _frame({"A": (30, 100), "B": (55, 100)}, (400, 1000))
    a = bias.audit(df, label="y", positive_values=[1], predicted="p", facets="g", margin=0.05,
                   reference={"g": "rest"})  # fmt: skip
    page = a.to_html()
    assert "The question</b> (true_value)" in page and "population" in page
    assert "the reference group rest" in page and "Who is favoured" in page
    assert "Monte Carlo error" in page
    assert a.summary().startswith("The question: the true disparity")
    fav = a.favoured()[(a.metric == "DPPL").to_numpy()].tolist()
    assert fav == ["compared", "group"]  # A (0.30) below the rest (0.40); B (0.55) above
    nxt = bias.audit(df, label="y", positive_values=[1], predicted="p", facets="g", margin=0.05,
                     target="next_test_set")  # fmt: skip
    assert "new sample" in nxt.to_html() and "the rest of the data" in nxt.to_html()
    r = dppl_report(400, 1000, 30, 100, target="next_test_set")
    assert "the question: the disparity on a new sample" in r.summary()
    assert "true value" in dppl_report(400, 1000, 30, 100, target="true_value")["DPPL"].summary()


def test_report_and_audit_answer_the_same_question_by_default():
    """Issue 20: ``bias.report`` defaulted to the next test set while ``bias.audit`` defaulted to the true
    value. Both now answer the true disparity unless told otherwise, and say so; on the old code the
    report's summary named the new sample and its interval was the wider predictive one."""
    df = _frame({"A": (30, 100), "B": (55, 100)}, (400, 1000))
    kw = dict(label="y", positive_values=[1], predicted="p")
    rep = bias.report(df, **kw, facet="g", facet_values=["A"])
    a = bias.audit(df, **kw, facets="g", metrics=["DPPL"], margin=0.05, simultaneous=False)
    assert rep.target == a.target == "true_value" and rep["DPPL"].target == "true_value"
    assert "the question: the true disparity" in rep.summary()
    assert "true value" in rep["DPPL"].summary()
    row = a.to_frame().query("group == 'A'").iloc[0]
    assert (row.lower, row.upper) == rep["DPPL"].interval(0.95)
    # the predictive interval is still there on request, and wider (about √2)
    lo, hi = rep["DPPL"].interval(0.95, target="next_test_set")
    ratio = (hi - lo) / (row.upper - row.lower)
    assert 1.2 < ratio < 1.6
    counts = CountTable.from_confusion(a=(400, 0, 0, 600), d=(30, 0, 0, 70))
    assert report_from_counts(counts, stage="post").target == "true_value"


def test_monte_carlo_error_is_stated_and_holds_across_random_states():
    """Interval ends of two seeds differ by no more than the two stated Monte Carlo errors."""
    t = CountTable.from_confusion(a=(120, 40, 30, 300), d=(25, 20, 10, 90))
    one = report_from_counts(t, stage="post", target="true_value", random_state=1)["DCA"]
    two = report_from_counts(t, stage="post", target="true_value", random_state=2)["DCA"]
    level = 1 - 0.05 / 40
    e1, e2 = one.mc_error(level), two.mc_error(level)
    assert e1 > 0 and e2 > 0
    for x, y in zip(one.interval(level), two.interval(level), strict=True):
        assert abs(x - y) <= e1 + e2
