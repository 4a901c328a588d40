"""choose_threshold against independent references: brute force over the distinct scores with
fractions.Fraction (the chosen threshold, its confusion matrix and value), scipy.stats (the Beta
tails of prob_constraint, the Beta posterior of the pointwise interval, the Kolmogorov–Smirnov and
Clopper–Pearson quantiles of the band) and numpy's Dirichlet draws (the cost's posterior)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import confusionlab as cl
from confusionlab.decision import GroupedThresholdChoice, ThresholdChoice


def _data(seed: int, n: int = 60, prevalence: float = 0.35, decimals: int = 1):
    rng = np.random.default_rng(seed)
    y = (rng.uniform(size=n) < prevalence).astype(int)
    y[:2] = [0, 1]
    s = (rng.normal(size=n) + 1.1 * y).round(decimals)  # ties within and across the classes
    return y, s


def _brute_counts(y, s):
    """Per candidate (ascending distinct scores, then +inf): (threshold, tp, fn, fp, tn) by counting."""
    rows = []
    for t in [*sorted(set(s.tolist())), float("inf")]:
        tp = sum(1 for yi, si in zip(y, s, strict=True) if yi == 1 and si >= t)
        fp = sum(1 for yi, si in zip(y, s, strict=True) if yi == 0 and si >= t)
        p, n = int(sum(y)), len(y) - int(sum(y))
        rows.append((t, tp, p - tp, fp, n - fp))
    return rows


def _brute_best(rows, value, minimize, ok=lambda r: True):
    """The best candidate by exact values (Fractions), ties to the lowest threshold; None values skipped."""
    best = None
    for r in rows:
        v = value(r)
        if v is None or not ok(r):
            continue
        if best is None or (v < best[1] if minimize else v > best[1]):
            best = (r, v)
    return best


def _ratio(a, b):
    return None if b == 0 else Fraction(a, b)


METRICS = {
    "f1": lambda r: _ratio(2 * r[1], 2 * r[1] + r[2] + r[3]),
    "balanced_accuracy": lambda r: (Fraction(r[1], r[1] + r[2]) + Fraction(r[4], r[3] + r[4])) / 2,
    "accuracy": lambda r: Fraction(r[1] + r[4], sum(r[1:])),
    "precision": lambda r: _ratio(r[1], r[1] + r[3]),
    "npv": lambda r: _ratio(r[4], r[4] + r[2]),
    "informedness": lambda r: Fraction(r[1], r[1] + r[2]) + Fraction(r[4], r[3] + r[4]) - 1,
}


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("cost", [(1.0, 1.0), (1.0, 4.0), (0.1, 0.3), (2.5, 0.7), (0.0, 1.0)])
def test_cost_choice_equals_brute_force_with_fractions(seed, cost):
    y, s = _data(seed)
    rows = _brute_counts(y, s)
    c_fp, c_fn = (Fraction(repr(c)) for c in cost)  # the decimal costs as written, exactly
    (t, tp, fn, fp, tn), v = _brute_best(rows, lambda r: (c_fp * r[3] + c_fn * r[2]) / len(y), minimize=True)
    choice = cl.choose_threshold(y, s, cost=cost)
    assert choice.threshold == t
    assert choice.confusion_matrix == cl.ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn)
    assert choice.value == pytest.approx(float(v), rel=1e-14, abs=1e-15)
    assert choice.candidates.tolist() == [r[0] for r in rows]


def test_a_tie_in_exact_arithmetic_is_a_tie_despite_rounding():
    # FP = 3 costs 0.1·3 = 0.30000000000000004 in floats, FN = 1 costs 0.3: equal in exact arithmetic
    y = np.array([0, 0, 0, 1, 1])
    s = np.array([0.6, 0.7, 0.8, 0.5, 0.9])
    rows = _brute_counts(y, s)
    (t, *_), _ = _brute_best(rows, lambda r: Fraction("0.1") * r[3] + Fraction("0.3") * r[2], minimize=True)
    assert cl.choose_threshold(y, s, cost=(0.1, 0.3)).threshold == t


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("metric", sorted(METRICS))
def test_metric_choice_equals_brute_force_with_fractions(seed, metric):
    y, s = _data(seed)
    rows = _brute_counts(y, s)
    (t, tp, fn, fp, tn), v = _brute_best(rows, METRICS[metric], minimize=False)
    choice = cl.choose_threshold(y, s, maximize=metric)
    assert (choice.threshold, choice.confusion_matrix) == (t, cl.ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn))
    assert choice.value == pytest.approx(float(v), rel=1e-14)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    ("maximize", "subject_to"),
    [("recall", {"precision": 0.7}), ("tnr", {"recall": 0.8}), ("f1", {"npv": 0.8, "tnr": 0.5})],
)
def test_constrained_choice_equals_brute_force(seed, maximize, subject_to):
    y, s = _data(seed, n=80)
    rows = _brute_counts(y, s)
    rates = {
        "precision": lambda r: _ratio(r[1], r[1] + r[3]),
        "recall": lambda r: Fraction(r[1], r[1] + r[2]),
        "tnr": lambda r: Fraction(r[4], r[3] + r[4]),
        "npv": lambda r: _ratio(r[4], r[4] + r[2]),
    }
    objective = {**METRICS, **rates}[maximize]

    def ok(r):
        return all(rates[k](r) is not None and rates[k](r) >= Fraction(repr(b)) for k, b in subject_to.items())

    found = _brute_best(rows, objective, minimize=False, ok=ok)
    if found is None:
        with pytest.raises(cl.InvalidParameterError, match="subject_to"):
            cl.choose_threshold(y, s, maximize=maximize, subject_to=subject_to)
        return
    (t, tp, fn, fp, tn), _ = found
    choice = cl.choose_threshold(y, s, maximize=maximize, subject_to=subject_to)
    assert choice.threshold == t
    frame = choice.to_frame()
    assert frame["meets_constraints"].tolist() == [ok(r) for r in rows]
    cells = {"tp": tp, "fn": fn, "fp": fp, "tn": tn}
    pairs = {"precision": ("tp", "fp"), "recall": ("tp", "fn"), "tnr": ("tn", "fp"), "npv": ("tn", "fn")}
    for name, bound in subject_to.items():
        a, b = (cells[k] + 0.5 for k in pairs[name])  # Jeffreys' prior, the default
        assert choice.prob_constraint[name] == pytest.approx(stats.beta(a, b).sf(bound), rel=1e-12)


def test_prob_constraint_takes_the_prior():
    y, s = _data(3, n=100)
    choice = cl.choose_threshold(y, s, maximize="recall", subject_to={"specificity": 0.6}, prior="uniform")
    cm = choice.confusion_matrix
    assert choice.prior == 1.0
    assert choice.prob_constraint == {"tnr": pytest.approx(stats.beta(cm.tn + 1, cm.fp + 1).sf(0.6), rel=1e-12)}
    assert cl.choose_threshold(y, s, cost=(1, 1)).prob_constraint is None


def test_none_positive_is_a_candidate_and_can_be_chosen():
    y = np.array([0] * 9 + [1])
    s = np.arange(10.0)[::-1]  # the positive has the lowest score
    choice = cl.choose_threshold(y, s, cost=(1, 1))
    assert np.isinf(choice.threshold)
    assert choice.confusion_matrix == cl.ConfusionMatrix(tp=0, fn=1, fp=0, tn=9)
    assert choice.value == pytest.approx(0.1)
    assert "no example positive" in choice.summary()


def test_pointwise_interval_of_equal_costs_is_the_beta_of_the_errors():
    y, s = _data(1, n=200)
    choice = cl.choose_threshold(y, s, cost=(2.0, 2.0))
    cm = choice.confusion_matrix
    lo, hi = stats.beta(cm.fp + cm.fn + 1.0, cm.tp + cm.tn + 1.0).interval(0.9)  # Dirichlet(cells + ½) aggregated
    assert choice.interval(0.9, kind="pointwise") == pytest.approx((2 * lo, 2 * hi), rel=1e-12)


def test_pointwise_interval_of_a_recall_is_its_beta():
    y, s = _data(2, n=200)
    choice = cl.choose_threshold(y, s, maximize="recall", subject_to={"precision": 0.6})
    cm = choice.confusion_matrix
    ref = stats.beta(cm.tp + 0.5, cm.fn + 0.5).interval(0.95)
    assert choice.interval(kind="pointwise") == pytest.approx(ref, rel=1e-10)


@pytest.mark.parametrize("cost", [(1.0, 4.0), (3.0, 0.5)])
def test_pointwise_interval_of_a_cost_matches_dirichlet_draws(cost):
    y, s = _data(4, n=150)
    choice = cl.choose_threshold(y, s, cost=cost)
    cm = choice.confusion_matrix
    draws = np.random.default_rng(0).dirichlet([cm.tp + 0.5, cm.fn + 0.5, cm.fp + 0.5, cm.tn + 0.5], 400_000)
    values = cost[0] * draws[:, 2] + cost[1] * draws[:, 1]
    ref = np.quantile(values, [0.025, 0.975])
    assert choice.interval(kind="pointwise") == pytest.approx(tuple(ref), abs=2e-3 * max(cost))


def test_after_selection_interval_is_the_band_from_kolmogorov_smirnov_and_clopper_pearson():
    y, s = _data(5, n=300)
    choice = cl.choose_threshold(y, s, cost=(1.0, 3.0))
    cm, p, n = choice.confusion_matrix, int(y.sum()), int((1 - y).sum())
    level = 0.95 ** (1 / 3)  # Šidák over the three independent statements
    d_p, d_n = stats.kstwo(p).ppf(level), stats.kstwo(n).ppf(level)
    pi_lo, pi_hi = stats.beta.ppf((1 - level) / 2, p, n + 1), stats.beta.ppf(1 - (1 - level) / 2, p + 1, n)
    tpr, fpr = cm.tp / p, cm.fp / n
    corners = [
        (min(tpr + d_p, 1), max(fpr - d_n, 0), pi_lo),
        (min(tpr + d_p, 1), max(fpr - d_n, 0), pi_hi),
        (max(tpr - d_p, 0), min(fpr + d_n, 1), pi_lo),
        (max(tpr - d_p, 0), min(fpr + d_n, 1), pi_hi),
    ]
    costs = [1.0 * (1 - pi) * f + 3.0 * pi * (1 - t) for t, f, pi in corners]
    assert choice.interval() == pytest.approx((min(costs[:2]), max(costs[2:])), rel=1e-12)
    lo, hi = choice.interval()
    assert lo <= choice.value <= hi
    p_lo, p_hi = choice.interval(kind="pointwise")
    assert lo < p_lo and p_hi < hi  # valid after selection costs width


@pytest.mark.parametrize("metric", ["f1", "precision", "npv", "accuracy", "jaccard", "g_mean", "fowlkes_mallows"])
def test_metric_bounds_over_a_box_are_its_extremes_on_a_dense_grid(metric):
    from confusionlab.decision._objective import Objective
    from confusionlab.metrics import get_metric

    m = get_metric(metric)
    rng = np.random.default_rng(11)
    for _ in range(20):
        t_lo, t_hi = np.sort(rng.uniform(size=2))
        f_lo, f_hi = np.sort(rng.uniform(size=2))
        pi_lo, pi_hi = np.sort(rng.uniform(0.02, 0.98, size=2))
        lo, hi = Objective(metric=m).bounds(
            (np.array([t_lo]), np.array([t_hi])), (np.array([f_lo]), np.array([f_hi])), (pi_lo, pi_hi)
        )
        grid = np.meshgrid(np.linspace(t_lo, t_hi, 15), np.linspace(f_lo, f_hi, 15), np.linspace(pi_lo, pi_hi, 15))
        t, f, pi = (g.ravel() for g in grid)
        v = m.values(pi * t, pi * (1 - t), (1 - pi) * f, (1 - pi) * (1 - f), undefined=np.nan)
        v = v[~np.isnan(v)]
        assert lo[0] <= v.min() + 1e-12 and v.max() <= hi[0] + 1e-12
        assert v.min() == pytest.approx(lo[0], abs=1e-9) and v.max() == pytest.approx(hi[0], abs=1e-9)


def test_the_plausible_set_holds_the_chosen_threshold_and_shrinks_with_data():
    rng = np.random.default_rng(2)
    sizes = {}
    for n in (200, 5000):
        y = rng.uniform(size=n) < 0.3
        s = (rng.normal(size=n) + 2.0 * y).round(2)
        choice = cl.choose_threshold(y, s, cost=(1, 2))
        assert choice.threshold in choice.plausible_thresholds
        assert choice.is_plausible(choice.threshold)
        band = choice.band(choice.confidence)
        assert band.plausible.tolist() == (band.lower <= band.upper.min()).tolist()
        sizes[n] = choice.plausible_thresholds.max() - choice.plausible_thresholds.min()
    assert sizes[5000] < sizes[200]


def test_a_wider_confidence_gives_a_wider_interval_and_more_plausible_thresholds():
    y, s = _data(6, n=400)
    choice = cl.choose_threshold(y, s, maximize="balanced_accuracy")
    (lo90, hi90), (lo99, hi99) = choice.interval(0.9), choice.interval(0.99)
    assert lo99 < lo90 and hi90 < hi99
    assert choice.band(0.99).plausible.sum() >= choice.band(0.9).plausible.sum()


def test_groups_each_choose_on_their_own_rows_with_sidak_levels():
    rng = np.random.default_rng(9)
    y = (rng.uniform(size=600) < 0.4).astype(int)
    s = (rng.normal(size=600) + y).round(2)
    g = rng.choice(["a", "b", "c"], size=600)
    grouped = cl.choose_threshold(y, s, cost=(1, 2), groups=g)
    assert isinstance(grouped, GroupedThresholdChoice)
    assert grouped.names == ["a", "b", "c"]
    level = 0.95 ** (1 / 3)
    for name in grouped.names:
        alone = cl.choose_threshold(y[g == name], s[g == name], cost=(1, 2))
        member = grouped[name]
        assert (member.threshold, member.confusion_matrix) == (alone.threshold, alone.confusion_matrix)
        assert member.confidence == pytest.approx(level)
        assert grouped.interval(0.95)[name] == alone.interval(level)
        assert member.plausible_thresholds.tolist() == alone.candidates[alone.band(level).plausible].tolist()
    assert grouped.threshold == {n: grouped[n].threshold for n in grouped.names}
    pooled = cl.choose_threshold(y, s, cost=(1, 2))  # fairlearn's overall: the call without groups
    overall = grouped.overall
    assert (overall.threshold, overall.confusion_matrix) == (pooled.threshold, pooled.confusion_matrix)
    assert overall.confidence == 0.95 and overall.interval() == pooled.interval()
    frame = grouped.to_frame()
    assert frame.columns[0] == "group" and frame.columns[-1] == "target"


def test_the_frame_lists_every_candidate():
    y, s = _data(7)
    choice = cl.choose_threshold(y, s, cost=(1, 1))
    frame = choice.to_frame()
    rows = _brute_counts(y, s)
    assert frame[["threshold", "tp", "fn", "fp", "tn"]].values.tolist() == [list(r) for r in rows]
    assert frame["chosen"].sum() == 1 and frame.loc[frame["chosen"], "threshold"].item() == choice.threshold
    assert isinstance(choice, ThresholdChoice)
