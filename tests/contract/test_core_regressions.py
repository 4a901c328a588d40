"""One named regression test per core defect, with independent references.

References are computed without confusionlab: exact ``fractions.Fraction`` arithmetic
and exact beta-binomial masses (factorials), scipy.stats, scikit-learn, and hand
computation. Calls that could allocate in proportion to a huge input run in the capped
child process of ``_hostile_worker.py`` (address space = baseline + 3 GiB, library
memory limit 512 MiB), so a defect is reported instead of exhausting the machine.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from math import comb, gcd

import numpy as np
import pandas as pd
import polars as pl
import pytest
from _hostile_worker import Worker
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (
    class_likelihood_ratios,
    confusion_matrix,
    f1_score,
    matthews_corrcoef,
    precision_score,
    recall_score,
)
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import confusionlab as cl
from confusionlab.metrics import fbeta_metric
from confusionlab.models import slice_model

MODELS = ("binomial", "beta-binomial", "dirichlet-multinomial")


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()


@pytest.fixture(scope="module")
def breast_cancer_predictions() -> tuple[np.ndarray, np.ndarray]:
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.4, random_state=0, stratify=y)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.01, max_iter=5000)).fit(X_train, y_train)
    return y_test, model.predict(X_test)


def refusal(reply: dict) -> str:
    """The message of a ValueError/TypeError refusal from the worker (fails otherwise)."""
    assert reply["kind"] == "error", f"expected a refusal, got {reply}"
    assert "ValueError" in reply["mro"] or "TypeError" in reply["mro"], reply
    return reply["message"]


# ----------------------------------------------------------------------------- exact references
def betabinom_exact(k: int, n: int, a: int, b: int) -> Fraction:
    """BetaBin(k; n, a, b) for integer a, b: C(n, k) B(k+a, n-k+b) / B(a, b), exactly."""

    def beta(x: int, y: int) -> Fraction:
        return Fraction(math.factorial(x - 1) * math.factorial(y - 1), math.factorial(x + y - 1))

    return comb(n, k) * beta(k + a, n - k + b) / beta(a, b)


def lr_plus_exact(tp: int, fn: int, fp: int, tn: int) -> Fraction | float | None:
    """TPR / FPR: +inf where FPR = 0 < TPR, None (undefined) at 0/0."""
    p, n = tp + fn, fp + tn
    if fp == 0:
        return math.inf if tp > 0 else None
    return Fraction(tp * n, p * fp)


def dor_exact(tp: int, fn: int, fp: int, tn: int) -> Fraction | float | None:
    if fn * fp == 0:
        return math.inf if tp * tn > 0 else None
    return Fraction(tp * tn, fn * fp)


def brute_pmf(cm: cl.ConfusionMatrix, value, undefined: float = 0.0) -> dict:
    """Exact beta-binomial (uniform prior, tolerance 0) PMF of a metric, value -> Fraction mass."""
    p, n = cm.p, cm.n
    tp_mass = [betabinom_exact(k, p, cm.tp + 1, cm.fn + 1) for k in range(p + 1)]
    tn_mass = [betabinom_exact(k, n, cm.tn + 1, cm.fp + 1) for k in range(n + 1)]
    out: dict = {}
    for tp in range(p + 1):
        for tn in range(n + 1):
            v = value(tp, p - tp, n - tn, tn)
            v = Fraction(undefined) if v is None else v
            out[v] = out.get(v, 0) + tp_mass[tp] * tn_mass[tn]
    return out


def brute_quantile(pmf: dict, q: float) -> float:
    """Smallest value v with P(X <= v) >= q (scipy's discrete ppf)."""
    acc = Fraction(0)
    for v in sorted(pmf, key=float):
        acc += pmf[v]
        if acc >= Fraction(q):
            return float(v)
    return math.inf


# ----------------------------------------------------------------------------- counts by name
def test_positional_sklearn_ravel_is_refused_with_the_order_explained() -> None:
    y = [1, 1, 1, 0, 0, 0, 0, 1]
    p = [1, 0, 1, 0, 1, 0, 0, 1]
    with pytest.raises(TypeError) as err:
        cl.ConfusionMatrix(*confusion_matrix(y, p).ravel())
    message = str(err.value)
    assert "from_sklearn" in message and "from_predictions" in message
    assert "(tn, fp, fn, tp)" in message and "tp=" in message


def test_from_sklearn_and_from_predictions_agree_with_scikit_learn_on_a_real_model(breast_cancer_predictions) -> None:
    y, pred = breast_cancer_predictions
    a = cl.ConfusionMatrix.from_sklearn(confusion_matrix(y, pred))
    b = cl.ConfusionMatrix.from_predictions(y, pred)
    assert a == b
    tn, fp, fn, tp = confusion_matrix(y, pred).ravel().tolist()
    assert a.as_tuple() == (tp, fn, fp, tn) and 0 < fn and 0 < fp  # a real, imperfect classifier
    for metric, reference in (
        ("f1", f1_score),
        ("recall", recall_score),
        ("precision", precision_score),
        ("mcc", matthews_corrcoef),
    ):
        assert cl.metric_value(a, metric) == pytest.approx(reference(y, pred), rel=1e-12, abs=1e-15), metric


def test_from_predictions_with_string_labels_and_positive(breast_cancer_predictions) -> None:
    y, pred = breast_cancer_predictions
    names = np.array(["malignant", "benign"])  # load_breast_cancer: 0 = malignant
    ys, ps = names[y], names[pred]
    cm = cl.ConfusionMatrix.from_predictions(ys, ps, positive="malignant")
    assert cl.metric_value(cm, "recall") == pytest.approx(recall_score(ys, ps, pos_label="malignant"), rel=1e-12)
    assert cl.metric_value(cm, "f1") == pytest.approx(f1_score(ys, ps, pos_label="malignant"), rel=1e-12)
    assert cm == cl.ConfusionMatrix.from_predictions(y, pred).swapped()
    with pytest.raises(ValueError, match="positive"):
        cl.ConfusionMatrix.from_predictions(ys, ps)  # no default positive among strings


def test_from_predictions_accepts_pandas_and_polars_series(breast_cancer_predictions) -> None:
    y, pred = breast_cancer_predictions
    expected = cl.ConfusionMatrix.from_predictions(y, pred)
    assert cl.ConfusionMatrix.from_predictions(pd.Series(y), pd.Series(pred)) == expected
    assert cl.ConfusionMatrix.from_predictions(pd.Series(y, dtype="Int64"), pd.Series(pred, dtype="Int64")) == expected
    assert cl.ConfusionMatrix.from_predictions(pl.Series(y), pl.Series(pred)) == expected


@pytest.mark.parametrize(
    ("y_true", "y_pred", "blamed"),
    [
        (pd.Series([1, 0, pd.NA, 1], dtype="Int64"), [1, 0, 0, 1], "y_true"),
        ([1, 0, 0, 1], pd.Series([1, None, 0, 1], dtype="Int64"), "y_pred"),
        ([1, 0, None, 1], [1, 0, 0, 1], "y_true"),
        ([1, 0, 0, 1], [1.0, np.nan, 0.0, 1.0], "y_pred"),
        (pl.Series([1, 0, None, 1]), [1, 0, 0, 1], "y_true"),
        (pd.Series(["a", None, "b"], dtype="string"), ["a", "b", "b"], "y_true"),
    ],
)
def test_missing_labels_are_refused_naming_the_array(y_true, y_pred, blamed) -> None:
    with pytest.raises(ValueError, match=rf"{blamed} has 1 missing value"):
        cl.ConfusionMatrix.from_predictions(y_true, y_pred)


def test_from_predictions_refuses_mismatched_lengths_and_an_absent_positive() -> None:
    with pytest.raises(ValueError, match=r"same length.*3.*2"):
        cl.ConfusionMatrix.from_predictions([1, 0, 1], [1, 0])
    with pytest.raises(ValueError, match=r"positive='dog'"):
        cl.ConfusionMatrix.from_predictions(["cat", "cat"], ["cat", "cat"], positive="dog")
    with pytest.raises(ValueError, match=r"positive=2"):
        cl.ConfusionMatrix.from_predictions([0, 1, 1], [1, 1, 0], positive=2)


# ----------------------------------------------------------------------------- x/0 is not 0/0
def test_likelihood_ratios_and_dor_are_inf_at_x_over_zero() -> None:
    assert cl.metric_value(cl.ConfusionMatrix(tp=16, fn=4, fp=0, tn=40), "lr_plus") == math.inf
    assert cl.metric_value(cl.ConfusionMatrix(tp=16, fn=4, fp=40, tn=0), "lr_minus") == math.inf  # TNR = 0
    assert cl.metric_value(cl.ConfusionMatrix(tp=16, fn=0, fp=8, tn=32), "diagnostic_odds_ratio") == math.inf
    assert cl.metric_value(cl.ConfusionMatrix(tp=16, fn=4, fp=0, tn=40), "diagnostic_odds_ratio") == math.inf
    # only 0/0 takes `undefined`
    assert cl.metric_value(cl.ConfusionMatrix(tp=0, fn=20, fp=0, tn=40), "lr_plus", undefined=7.0) == 7.0
    assert cl.metric_value(cl.ConfusionMatrix(tp=0, fn=4, fp=0, tn=32), "diagnostic_odds_ratio") == 0.0
    assert cl.metric_value(cl.ConfusionMatrix(tp=16, fn=0, fp=40, tn=0), "lr_minus", undefined=-1.0) == -1.0


def test_likelihood_ratios_agree_with_scikit_learn_where_defined() -> None:
    """sklearn's test_likelihood_ratios case (tn=9, fp=8, fn=1, tp=2: LR+ = 34/24, LR- = 17/27) and one more."""
    for tp, fn, fp, tn in ((2, 1, 8, 9), (16, 4, 8, 32), (7, 3, 2, 11)):
        y = [1] * (tp + fn) + [0] * (fp + tn)
        pred = [1] * tp + [0] * fn + [1] * fp + [0] * tn
        pos, neg = class_likelihood_ratios(y, pred)
        cm = cl.ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn)
        assert cl.metric_value(cm, "lr_plus") == pytest.approx(pos, rel=1e-12)
        assert cl.metric_value(cm, "lr_minus") == pytest.approx(neg, rel=1e-12)
        assert cl.metric_value(cm, "lr_plus") == pytest.approx(float(lr_plus_exact(tp, fn, fp, tn)), rel=1e-15)
    assert cl.metric_value(cl.ConfusionMatrix(tp=2, fn=1, fp=8, tn=9), "lr_plus") == pytest.approx(34 / 24, rel=1e-15)


def test_prevalence_threshold_is_one_half_on_the_chance_diagonal() -> None:
    assert cl.metric_value(cl.ConfusionMatrix(tp=10, fn=10, fp=20, tn=20), "prevalence_threshold") == 0.5
    assert cl.metric_value(cl.ConfusionMatrix(tp=30, fn=10, fp=15, tn=5), "prevalence_threshold") == 0.5
    # TPR = FPR = 0 is 0/0: `undefined` applies
    cm0 = cl.ConfusionMatrix(tp=0, fn=10, fp=0, tn=20)
    assert cl.metric_value(cm0, "prevalence_threshold", undefined=-1.0) == -1.0
    # hand computation off the diagonal: TPR = 0.8, FPR = 0.2 -> (0.4 - 0.2) / 0.6 = 1/3
    assert cl.metric_value(cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "prevalence_threshold") == pytest.approx(1 / 3)


def test_prevalence_threshold_distribution_keeps_the_diagonal_at_one_half() -> None:
    cm = cl.ConfusionMatrix(tp=2, fn=2, fp=2, tn=2)
    d = cl.metric_distribution(cm, "prevalence_threshold", tolerance=0, undefined="exclude")
    # at p = n = 4 the diagonal TPR = FPR holds 5 lattice points, one of them (TP, FP) = (0, 0) is 0/0
    diagonal = [(tp, 4 - tp) for tp in range(5)]  # (TP, TN) with TP/4 = (4 - TN)/4
    tp_m = [betabinom_exact(k, 4, 3, 3) for k in range(5)]
    expected = sum(tp_m[tp] * tp_m[tn] for tp, tn in diagonal if tp > 0)
    assert d.undefined_points == 1
    assert float(d.probabilities[d.values == 0.5].sum()) == pytest.approx(float(expected), rel=1e-12)


@pytest.mark.parametrize(("metric", "value"), [("lr_plus", lr_plus_exact), ("diagnostic_odds_ratio", dor_exact)])
@pytest.mark.parametrize("counts", [(8, 2, 0, 10), (16, 4, 0, 40)])
def test_distribution_with_infinite_values_is_exact(metric, value, counts) -> None:
    cm = cl.ConfusionMatrix(tp=counts[0], fn=counts[1], fp=counts[2], tn=counts[3])
    d = cl.metric_distribution(cm, metric, tolerance=0)
    ref = brute_pmf(cm, value)
    inf_mass = float(ref.get(math.inf, 0))
    assert inf_mass > 0.5
    assert d.values[-1] == math.inf and d.pmf(math.inf) == pytest.approx(inf_mass, rel=1e-12)
    assert float(d.probabilities[np.isinf(d.values)].sum()) == pytest.approx(inf_mass, rel=1e-12)
    assert math.isinf(d.mean()) and math.isinf(d.std())
    finite = sorted((v for v in ref if v != math.inf), key=float)
    assert np.array_equal(d.values[:-1], [float(v) for v in finite])
    assert np.allclose(d.probabilities[:-1], [float(ref[v]) for v in finite], rtol=1e-10, atol=0)
    acc = Fraction(0)
    for v in finite:
        acc += ref[v]
        assert d.cdf(float(v)) == pytest.approx(float(acc), rel=1e-10)
    assert d.cdf(math.inf) == 1.0 and d.cdf(-math.inf) == 0.0 and math.isnan(d.cdf(math.nan))
    assert d.cdf(1e308) == pytest.approx(1 - inf_mass, rel=1e-10)
    for q in (0.01, 0.025, 0.2, 0.5, 0.975):
        assert d.ppf(q) == brute_quantile(ref, q), q
    assert d.interval(0.95) == (brute_quantile(ref, 0.025), brute_quantile(ref, 0.975))
    # scipy agrees with the exact marginals used above
    assert float(betabinom_exact(3, 10, 9, 3)) == pytest.approx(stats.betabinom.pmf(3, 10, 9, 3), rel=1e-12)


# ----------------------------------------------------------------------------- probabilities stay probabilities
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("tolerance", [0, 1e-9])
@pytest.mark.parametrize("undefined", [0.0, "exclude"])
def test_every_model_and_metric_sums_to_one(model, tolerance, undefined) -> None:
    cm = cl.ConfusionMatrix(tp=8, fn=2, fp=3, tn=12)
    for metric in cl.METRICS:
        d = cl.metric_distribution(cm, metric, model, tolerance=tolerance, undefined=undefined)
        total = d.probabilities.sum() + d.pruned_mass + (d.undefined_mass if undefined == "exclude" else 0.0)
        assert abs(total - 1) <= 1e-9, (metric, total)
        assert np.all(d.probabilities >= 0)


@pytest.mark.parametrize(
    ("counts", "kwargs"),
    [
        ((800_000, 200_000, 200_000, 800_000), {"tolerance": 0.01}),
        ((8 * 10**8, 2 * 10**8, 2 * 10**8, 8 * 10**8), {"tolerance": 0.01, "future_size": (1000, 1000)}),
        ((8 * 10**11, 2 * 10**11, 2 * 10**11, 8 * 10**11), {"tolerance": 0.01, "future_size": (1000, 1000)}),
        ((8 * 10**11, 2 * 10**11, 2 * 10**11, 8 * 10**11), {"tolerance": 0.01}),
        ((16, 4, 8, 32), {"prior": 1e20}),
        ((16, 4, 8, 32), {"prior": 1e20, "tolerance": 0}),
    ],
)
def test_large_counts_give_a_distribution_or_a_clear_refusal(worker, counts, kwargs) -> None:
    for metric in ("mcc", "balanced_accuracy"):
        reply = worker.call("metric_distribution", counts=counts, metric=metric, **kwargs)
        assert reply["kind"] in ("ok", "error"), reply
        if reply["kind"] == "ok":
            assert reply["violations"] == [], (counts, kwargs, reply["violations"])
        else:
            message = refusal(reply)
            assert any(w in message for w in ("tolerance", "future_size", "memory limit", "prior")), message


def test_cdf_and_sf_edges() -> None:
    d = cl.metric_distribution(cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "mcc")
    assert math.isnan(d.cdf(math.nan)) and math.isnan(d.sf(math.nan))
    assert d.cdf(math.inf) == 1.0 and d.cdf(-math.inf) == 0.0
    assert d.sf(math.inf) == 0.0 and d.sf(-math.inf) == 1.0
    grid = np.linspace(-1.5, 1.5, 3001)
    cdf, sf = d.cdf(grid), d.sf(grid)
    assert np.all((cdf >= 0) & (cdf <= 1)) and np.all((sf >= 0) & (sf <= 1))
    assert d.cdf(d.values[-1]) == 1.0


def test_all_undefined_distribution_refuses_interval_and_mean() -> None:
    # p = 0: TPR is 0/0 at every lattice point, so balanced accuracy is undefined everywhere
    cm = cl.ConfusionMatrix(tp=0, fn=0, fp=3, tn=5)
    d = cl.metric_distribution(cm, "balanced_accuracy", tolerance=0, undefined="exclude")
    assert len(d) == 0 and d.undefined_mass == pytest.approx(1.0)
    for call in (d.mean, d.std, lambda: d.interval(0.95), lambda: d.ppf(0.5)):
        with pytest.raises(ValueError, match="undefined"):
            call()


# ----------------------------------------------------------------------------- refuse before allocating
def test_huge_lattices_are_refused_before_allocating(worker) -> None:
    big = (10**9, 10**9, 10**9, 10**9)
    reply = worker.call("metric_distribution", counts=big, metric="mcc", tolerance=0, trace=True)
    assert "TooLargeError" in reply.get("mro", []) or "ValueError" in reply.get("mro", []), reply
    assert reply["peak_bytes"] < 64 * 1024**2, f"allocated {reply['peak_bytes']:,} bytes before refusing"
    reply = worker.call("slice_lattice", p=10**9, n=10**9, trace=True)
    assert "ValueError" in reply.get("mro", []), reply
    assert reply["peak_bytes"] < 64 * 1024**2, f"allocated {reply['peak_bytes']:,} bytes before refusing"


def test_1e8_per_class_at_the_default_tolerance_stays_within_the_memory_bound(worker) -> None:
    counts = (8 * 10**7, 2 * 10**7, 2 * 10**7, 8 * 10**7)
    reply = worker.call("metric_distribution", counts=counts, metric="mcc", trace=True)
    assert reply["kind"] in ("ok", "error"), reply
    assert reply["peak_bytes"] <= 768 * 1024**2, f"peak {reply['peak_bytes']:,} bytes above the 512 MiB limit"
    if reply["kind"] == "ok":
        assert reply["violations"] == []
    else:
        assert any(w in refusal(reply) for w in ("tolerance", "future_size", "memory limit"))


LARGE = ((64, 16, 32, 128), "mcc")


@pytest.mark.parametrize(
    ("call", "kwargs", "blamed"),
    [
        ("compare", {"a": LARGE, "b": LARGE, "max_pairs": 10**12}, "max_pairs"),
        ("compare", {"a": LARGE, "b": LARGE, "max_pairs": 100, "bins": 10**9}, "bins"),
        ("compare", {"a": LARGE, "b": LARGE, "bins": 0}, "bins"),
        ("compare", {"a": LARGE, "b": LARGE, "bins": 2.5}, "bins"),
        ("contour", {"metric": "mcc", "level": 0.5, "p": 20, "n": 40, "num": 10**9}, "num"),
        ("metric_distribution", {"counts": (16, 4, 8, 32), "metric": "mcc", "tolerance": 0.5}, "tolerance"),
    ],
)
def test_oversized_or_invalid_requests_are_refused(worker, call, kwargs, blamed) -> None:
    reply = worker.call(call, trace=True, **kwargs)
    assert blamed in refusal(reply)
    assert reply["peak_bytes"] < 256 * 1024**2


def test_from_rates_and_fbeta_blame_the_right_argument() -> None:
    with pytest.raises(ValueError, match=r"\btpr\b"):
        cl.ConfusionMatrix.from_rates(20, 40, float("nan"), 0.8)
    with pytest.raises(ValueError) as err:
        cl.ConfusionMatrix.from_rates(20, 40, 1.2, 0.8)
    assert re.search(r"\btpr\b", str(err.value)) and not re.match(r"\s*fn\b", str(err.value))
    with pytest.raises(ValueError) as err:
        cl.ConfusionMatrix.from_rates(20, 40, 0.8, 1.5)
    assert re.search(r"\btnr\b", str(err.value)) and not re.match(r"\s*fp\b", str(err.value))
    with pytest.raises(ValueError, match=r"\bbeta\b"):
        fbeta_metric(float("nan"))
    with pytest.raises(ValueError, match=r"\bbeta\b"):
        fbeta_metric(float("inf"))


# ----------------------------------------------------------------------------- exact beyond 64 bits
def _mcc_key(tp: int, fn: int, fp: int, tn: int):
    """MCC as an exact key: (sign, reduced num/den of MCC**2); None when undefined."""
    num = tp * tn - fp * fn
    den = (tp + fp) * (fn + tn) * (tp + fn) * (fp + tn)
    if den == 0:
        return None
    sq, g = num * num, gcd(num * num, den)
    return ((num > 0) - (num < 0), sq // g, den // g)


def test_mcc_at_n_100000_is_answered() -> None:
    cm = cl.ConfusionMatrix(tp=24000, fn=6000, fp=14000, tn=56000)
    d = cl.metric_distribution(cm, "mcc")
    assert d.probabilities.sum() + d.pruned_mass == pytest.approx(1.0, abs=1e-9)
    assert d.mean() == pytest.approx(cl.metric_value(cm, "mcc"), abs=5e-3)


@pytest.mark.parametrize(
    "counts",
    [(24000, 6000, 14000, 56000), (40000, 10000, 10000, 40000)],  # the second has p = n: many exact ties
)
def test_mcc_grouping_beyond_64_bits_is_exact(counts) -> None:
    """Brute force with Python integers over the lattice kept at tolerance 0.01 (~400,000 points)."""
    cm = cl.ConfusionMatrix(tp=counts[0], fn=counts[1], fp=counts[2], tn=counts[3])
    d = cl.metric_distribution(cm, "mcc", tolerance=0.01)
    m = slice_model(cm, tolerance=0.01)
    p, n = m.p, m.n
    groups: dict = {}
    for i, tp in enumerate(range(m.tp_lo, m.tp_lo + m.tp_pmf.size)):
        for j, tn in enumerate(range(m.tn_lo, m.tn_lo + m.tn_pmf.size)):
            key = _mcc_key(tp, p - tp, n - tn, tn)
            count, mass = groups.get(key, (0, 0.0))
            groups[key] = (count + 1, mass + m.tp_pmf[i] * m.tn_pmf[j])
    assert None not in groups
    assert len(d) == len(groups)
    order = sorted(groups, key=lambda k: (k[0], Fraction(k[1], k[2]) * k[0]))
    assert d.multiplicities.tolist() == [groups[k][0] for k in order]
    assert np.allclose(d.probabilities, [groups[k][1] for k in order], rtol=1e-9, atol=1e-300)
    if counts[0] == counts[3]:
        assert len(groups) < m.size  # the case really has ties to group


def test_too_large_advice_never_suggests_a_smaller_tolerance(worker) -> None:
    reply = worker.call("metric_distribution", counts=(10**6, 10**6, 10**6, 10**6), metric="mcc", tolerance=1e-6)
    if reply["kind"] == "ok":
        assert reply["violations"] == []
        return
    message = refusal(reply)
    assert "tolerance" in message or "future_size" in message, message
    suggested = [float(x) for x in re.findall(r"e\.g\.[^)]*?(\d+(?:\.\d+)?e-?\d+)", message)]
    assert all(s > 1e-6 for s in suggested), f"advice suggests a tolerance below 1e-6: {message}"
    assert "1e-9" not in message and "1e-12" not in message.split("default")[0], message
