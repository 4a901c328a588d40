"""Peer libraries' own test cases for binary metrics, computed through ConfusionLab.

Data and expected numbers are copied (not code) from:

* scikit-learn 1.7.1, ``sklearn/metrics/tests/test_classification.py`` (read from the
  installed package; the repository snapshot was too large to fetch);
* pycm 4.4 (github.com/sepandhaghighi/pycm, commit 88b1f690), ``Test/verified_test.py``
  (cases pycm verified against papers) and ``Test/overall_test.py`` (the per-class
  one-vs-rest statistics of its standard 3-class example). pycm's ``matrix`` is
  ``{actual: {predicted: count}}`` (``transpose=True``: ``{predicted: {actual: count}}``).

Ours: ``cl.ConfusionMatrix(tp=, fn=, fp=, tn=)`` + ``cl.metric_value``.
"""

from __future__ import annotations

import math

import pytest

import confusionlab as cl


def value(metric: str, tp: int, fn: int, fp: int, tn: int, **kw: float) -> float:
    return cl.metric_value(cl.ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn), metric, **kw)


def labels(tp: int, fn: int, fp: int, tn: int) -> tuple[list[int], list[int]]:
    return [1] * (tp + fn) + [0] * (fp + tn), [1] * tp + [0] * fn + [1] * fp + [0] * tn


# ----------------------------------------------------------------------------- scikit-learn
def test_sklearn_precision_recall_f_binary() -> None:
    """sklearn test_precision_recall_f1_score_binary: per-class precision [0.73, 0.85], recall
    [0.88, 0.68], F1 [0.80, 0.76], support [25, 25] (2 decimals). Those fix the counts:
    tp = 0.68·25 = 17, fn = 8, fp = 17/0.85 − 17 = 3, tn = 22. F2 = 5·P·R / (4·P + R)."""
    cm = (17, 8, 3, 22)
    assert value("precision", *cm) == pytest.approx(0.85, abs=0.005)
    assert value("recall", *cm) == pytest.approx(0.68, abs=0.005)
    assert value("f1", *cm) == pytest.approx(0.76, abs=0.005)
    assert value("npv", *cm) == pytest.approx(0.73, abs=0.005)  # class 0's precision
    assert value("tnr", *cm) == pytest.approx(0.88, abs=0.005)  # class 0's recall
    p, r = 17 / 20, 17 / 25
    assert value("f2", *cm) == pytest.approx(5 * p * r / (4 * p + r), rel=1e-12)


def test_sklearn_precision_recall_f_binary_single_class() -> None:
    """sklearn test_precision_recall_f_binary_single_class: y = y_pred = [1, 1] gives precision,
    recall, F1 and F-beta(0) = 1. For y = y_pred = [-1, -1] scikit-learn gives 0.0 (its
    zero_division); ours is 0/0 too and takes ``undefined`` (0.0 by default, the same)."""
    assert value("precision", 2, 0, 0, 0) == value("recall", 2, 0, 0, 0) == value("f1", 2, 0, 0, 0) == 1.0
    assert value("precision", 0, 0, 0, 2) == value("recall", 0, 0, 0, 2) == value("f1", 0, 0, 0, 2) == 0.0
    assert value("f1", 0, 0, 0, 2, undefined=1.0) == 1.0  # the value is ours to choose, as zero_division


def test_sklearn_likelihood_ratios() -> None:
    """sklearn test_likelihood_ratios: tn=9, fp=8, fn=1, tp=2 -> LR+ = 34/24, LR- = 17/27; with the
    last 5 samples weighted 0: tn=9, fp=3, fn=1, tp=2 -> LR+ = 24/9, LR- = 12/27. For y_pred = y_true
    scikit-learn returns LR+ = nan and LR- = 0; our convention (x/0 is ±inf, only 0/0 is undefined)
    is LR+ = +inf there (FPR = 0 < TPR: x/0, not 0/0), LR- = 0 as theirs."""
    assert value("lr_plus", 2, 1, 8, 9) == pytest.approx(34 / 24, rel=1e-12)
    assert value("lr_minus", 2, 1, 8, 9) == pytest.approx(17 / 27, rel=1e-12)
    assert value("lr_plus", 2, 1, 3, 9) == pytest.approx(24 / 9, rel=1e-12)
    assert value("lr_minus", 2, 1, 3, 9) == pytest.approx(12 / 27, rel=1e-12)
    assert value("lr_plus", 3, 0, 0, 17) == math.inf
    assert value("lr_minus", 3, 0, 0, 17) == 0.0


def test_sklearn_likelihood_ratios_zero_fp_and_zero_tn() -> None:
    """sklearn test_likelihood_ratios_replace_undefined_by_0_fp / _0_tn: y=[1,1,0], y_pred=[1,0,0]
    (fp = 0, tp = 1) and y=[1,0,0], y_pred=[1,1,1] (tn = 0). scikit-learn replaces these by a
    user value (nan by default). Ours (x/0 is ±inf, only 0/0 is undefined): LR+ = +inf at fp = 0 < tp;
    in the tn = 0 case fn = 0 as well, so LR- = FNR/TNR is 0/0 and takes ``undefined``."""
    assert value("lr_plus", 1, 1, 0, 1) == math.inf
    assert value("lr_minus", 1, 1, 0, 1) == pytest.approx(0.5, rel=1e-12)  # FNR 1/2 over TNR 1
    assert value("lr_minus", 1, 0, 2, 0, undefined=-7.0) == -7.0  # FNR = 0, TNR = 0: 0/0
    assert value("lr_plus", 1, 0, 2, 0) == pytest.approx(1.0, rel=1e-12)  # TPR 1 over FPR 1


def test_sklearn_cohen_kappa() -> None:
    """sklearn test_cohen_kappa: Artstein & Poesio (2008) Table 1, contingency [[20, 20], [10, 50]]
    (rows y1 = 0/1, columns y2 = 0/1) -> kappa 0.348 (3 decimals); kappa is symmetric in the two
    raters (transposing swaps fn and fp)."""
    kappa = value("cohen_kappa", 50, 10, 20, 20)
    assert kappa == pytest.approx(0.348, abs=5e-4)
    assert value("cohen_kappa", 50, 20, 10, 20) == pytest.approx(kappa, rel=1e-15)
    assert value("cohen_kappa", 40, 0, 0, 60) == 1.0


def test_sklearn_matthews_corrcoef() -> None:
    """sklearn test_matthews_corrcoef: identical vectors -> 1, opposite -> -1; a constant prediction
    (zero variance) -> 0 (ours: 0/0 takes ``undefined``, 0.0 by default, the same); the pair
    y_1, y_2 below has MCC exactly 0."""
    y_1 = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1]
    y_2 = [1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1]
    assert cl.metric_value(cl.ConfusionMatrix.from_predictions(y_1, y_2), "mcc") == pytest.approx(0.0, abs=1e-15)
    assert cl.metric_value(cl.ConfusionMatrix.from_predictions(y_1, y_1), "mcc") == 1.0
    inverse = [1 - v for v in y_1]
    assert cl.metric_value(cl.ConfusionMatrix.from_predictions(y_1, inverse), "mcc") == -1.0
    assert cl.metric_value(cl.ConfusionMatrix.from_predictions(y_1, [1] * 20), "mcc") == 0.0
    assert cl.metric_value(cl.ConfusionMatrix.from_predictions([0, 0, 0, 0], [0, 0, 0, 0]), "mcc") == 0.0


def test_sklearn_matthews_corrcoef_overflow() -> None:
    """sklearn test_matthews_corrcoef_overflow (issue #9622): MCC of arrays of length 2·10⁴ and of
    np.repeat([0., 1.], n) with itself is 1; the 'safe' formula in rates agrees at large counts."""
    n = 10**4
    assert value("mcc", n, 0, 0, n) == 1.0
    tp, fn, fp, tn = 4_000_000_000, 1_000_000_000, 500_000_000, 4_500_000_000
    N = tp + fn + fp + tn
    pos_rate, activity = (tp + fn) / N, (tp + fp) / N
    safe = (tp / N - pos_rate * activity) / math.sqrt(activity * pos_rate * (1 - activity) * (1 - pos_rate))
    assert value("mcc", tp, fn, fp, tn) == pytest.approx(safe, rel=1e-12)


@pytest.mark.parametrize(
    ("y_true", "y_pred"),
    [(["a", "b", "a", "b"], ["a", "a", "a", "b"])],
)
def test_sklearn_balanced_accuracy(y_true, y_pred) -> None:
    """sklearn test_balanced_accuracy_score (binary case): balanced accuracy = macro recall
    = (1 + 1/2)/2 = 0.75; adjusted = (BA − chance)/(1 − chance) with chance 0.5 = informedness."""
    cm = cl.ConfusionMatrix.from_predictions(y_true, y_pred, positive="b")
    assert cl.metric_value(cm, "balanced_accuracy") == 0.75
    assert cl.metric_value(cm, "informedness") == pytest.approx((0.75 - 0.5) / (1 - 0.5), rel=1e-15)


# ----------------------------------------------------------------------------- pycm
# pycm overall_test.py: y_actu = [2, 0, 2, 2, 0, 1, 1, 2, 2, 0, 1, 2],
# y_pred = [0, 0, 2, 1, 0, 2, 1, 0, 2, 0, 2, 2]; class statistics (one class against the rest),
# printed with 5 decimals.
PYCM_CLASSES = {
    0: {"counts": (3, 0, 2, 7), "ACC": 0.83333, "BM": 0.77778, "F0.5": 0.65217, "F1": 0.75, "F2": 0.88235,
        "GM": 0.88192, "J": 0.6, "MCC": 0.68313, "MK": 0.6, "NLR": 0.0, "NPV": 1.0, "PLR": 4.5, "PPV": 0.6,
        "TNR": 0.77778, "TPR": 1.0, "FPR": 0.22222, "FNR": 0.0, "OOC": 0.7746, "DOR": None},
    1: {"counts": (1, 2, 1, 8), "ACC": 0.75, "BM": 0.22222, "F0.5": 0.45455, "F1": 0.4, "F2": 0.35714,
        "GM": 0.54433, "J": 0.25, "MCC": 0.2582, "MK": 0.3, "NLR": 0.75, "NPV": 0.8, "PLR": 3.0, "PPV": 0.5,
        "TNR": 0.88889, "TPR": 0.33333, "FPR": 0.11111, "FNR": 0.66667, "OOC": 0.40825, "DOR": 4.0},
    2: {"counts": (3, 3, 2, 4), "ACC": 0.58333, "BM": 0.16667, "F0.5": 0.57692, "F1": 0.54545, "F2": 0.51724,
        "GM": 0.57735, "J": 0.375, "MCC": 0.16903, "MK": 0.17143, "NLR": 0.75, "NPV": 0.57143, "PLR": 1.5,
        "PPV": 0.6, "TNR": 0.66667, "TPR": 0.5, "FPR": 0.33333, "FNR": 0.5, "OOC": 0.54772, "DOR": 2.0},
}  # fmt: skip
PYCM_NAMES = {"ACC": "accuracy", "BM": "informedness", "F0.5": "f0.5", "F1": "f1", "F2": "f2", "GM": "g_mean",
              "J": "jaccard", "MCC": "mcc", "MK": "markedness", "NLR": "lr_minus", "NPV": "npv", "PLR": "lr_plus",
              "PPV": "precision", "TNR": "tnr", "TPR": "recall", "FPR": "fpr", "FNR": "fnr",
              "OOC": "fowlkes_mallows", "DOR": "diagnostic_odds_ratio"}  # fmt: skip


@pytest.mark.parametrize("cls", sorted(PYCM_CLASSES))
def test_pycm_class_statistics(cls) -> None:
    """pycm Test/overall_test.py, 'Class Statistics' of the standard example (5 decimals).
    pycm's Otsuka-Ochiai coefficient OOC = TP/√(TOP·P) is the Fowlkes–Mallows index. Class 0
    has fn = 0: pycm prints DOR 'None' (it divides PLR by NLR = 0); ours is +inf
    (TP·TN > 0 = FN·FP is x/0)."""
    case = PYCM_CLASSES[cls]
    tp, fn, fp, tn = case["counts"]
    for stat, ours in PYCM_NAMES.items():
        expected = case[stat]
        got = value(ours, tp, fn, fp, tn)
        if expected is None:
            assert got == math.inf, (cls, stat, got)
        else:
            assert got == pytest.approx(expected, abs=6e-6), (cls, stat, got)


def test_pycm_mcc_calc() -> None:
    """pycm Test/function_test.py: MCC_calc(TP=1, TN=2, FP=3, FN=4) = -0.408248290463863
    (to 1e-12); MCC_calc(0, 2, 0, 2) is 'None' (0/0) — ours takes ``undefined`` (0.0 by default)."""
    assert value("mcc", 1, 4, 3, 2) == pytest.approx(-0.408248290463863, abs=1e-12)
    assert value("mcc", 0, 2, 0, 2) == 0.0
    assert value("mcc", 0, 2, 0, 2, undefined=-5.0) == -5.0


def test_pycm_verified_garcia_2009() -> None:
    """pycm verified_test.py, Garcia et al. (2009): matrix {1: {1: 495, 0: 405}, 0: {0: 8645, 1: 455}};
    class 1: ACC 0.914, TNR 0.95, TPR 0.55, GM 0.722841614740048 (to 1e-12)."""
    cm = (495, 405, 455, 8645)
    assert value("accuracy", *cm) == pytest.approx(0.914, abs=1e-12)
    assert value("tnr", *cm) == pytest.approx(0.95, abs=1e-12)
    assert value("recall", *cm) == pytest.approx(0.55, abs=1e-12)
    assert value("g_mean", *cm) == pytest.approx(0.722841614740048, abs=1e-12)


@pytest.mark.parametrize("cm", [(828, 72, 182, 8918), (882, 18, 728, 8372)])
def test_pycm_verified_batuwita_palade_2009(cm) -> None:
    """pycm verified_test.py, Batuwita & Palade (2009): {1: {1: 828, 0: 72}, 0: {0: 8918, 1: 182}} and
    {1: {1: 882, 0: 18}, 0: {0: 8372, 1: 728}}; both have GM[1] = 0.9495261976375375 (to 1e-12)."""
    assert value("g_mean", *cm) == pytest.approx(0.9495261976375375, abs=1e-12)


@pytest.mark.parametrize(
    ("cm", "bm", "acc"),
    [((12806, 5484, 26332, 299777), 0.6194180158203517, 0.9076187793808925),
     ((13182, 5108, 30516, 295593), 0.627145631592811, 0.896561836706843)],
)  # fmt: skip
def test_pycm_verified_bekkar_2013(cm, bm, acc) -> None:
    """pycm verified_test.py, Bekkar et al. (2013), ``transpose=True`` (rows predicted):
    {1: {1: 12806, 2: 26332}, 2: {1: 5484, 2: 299777}} -> tp 12806, fp 26332, fn 5484, tn 299777;
    BM[1] = Y[1] 0.6194180158203517, Overall ACC 0.9076187793808925 (and the second matrix)."""
    assert value("informedness", *cm) == pytest.approx(bm, abs=1e-12)
    assert value("accuracy", *cm) == pytest.approx(acc, abs=1e-12)


def test_pycm_verified_likelihood_ratios() -> None:
    """pycm verified_test.py (bit.ly/34KcVfB), ``transpose=True``: {1: {1: 22, 0: 54}, 0: {1: 1, 0: 57}}
    -> tp 22, fp 54, fn 1, tn 57; TPR[1] 0.9565217391304348, PLR[1] 1.966183574879227,
    NLR[1] 0.08466819221967958 (to 1e-12)."""
    cm = (22, 1, 54, 57)
    assert value("recall", *cm) == pytest.approx(0.9565217391304348, abs=1e-12)
    assert value("lr_plus", *cm) == pytest.approx(1.966183574879227, abs=1e-12)
    assert value("lr_minus", *cm) == pytest.approx(0.08466819221967958, abs=1e-12)
    assert value("diagnostic_odds_ratio", *cm) == pytest.approx(1.966183574879227 / 0.08466819221967958, rel=1e-12)


def test_pycm_verified_f_scores() -> None:
    """pycm verified_test.py: {1: {1: 5, 0: 1}, 0: {0: 6, 1: 2}} -> F2[1] 0.8064516129032258 and
    F05[0] 0.8333333333333334 (class 0 positive: the swapped matrix)."""
    cm = cl.ConfusionMatrix(tp=5, fn=1, fp=2, tn=6)
    assert cl.metric_value(cm, "f2") == pytest.approx(0.8064516129032258, abs=1e-12)
    assert cl.metric_value(cm.swapped(), "f0.5") == pytest.approx(0.8333333333333334, abs=1e-12)


def test_pycm_verified_phi_from_chi_squared() -> None:
    """pycm verified_test.py (bit.ly/2LiCZXB): {1: {1: 22, 0: 18}, 0: {1: 2, 0: 14}} has
    Chi_Squared 8.429166666666667; for a 2 × 2 table |MCC| = √(χ²/N) (the phi coefficient)."""
    mcc = value("mcc", 22, 18, 2, 14)
    assert mcc == pytest.approx(math.sqrt(8.429166666666667 / 56), abs=1e-12)
    assert mcc > 0


def test_pycm_prevalence_threshold_not_in_pycm_hand_values() -> None:
    """pycm has no prevalence threshold; hand values from its definition (√(TPR·FPR) − FPR)/(TPR − FPR)
    on pycm's class 1 and 2 matrices: TPR 1/3, FPR 1/9 -> (1/√27 − 1/9)/(2/9); TPR 1/2, FPR 1/3 ->
    (1/√6 − 1/3)/(1/6)."""
    assert value("prevalence_threshold", 1, 2, 1, 8) == pytest.approx((1 / math.sqrt(27) - 1 / 9) / (2 / 9), rel=1e-12)
    assert value("prevalence_threshold", 3, 3, 2, 4) == pytest.approx((1 / math.sqrt(6) - 1 / 3) / (1 / 6), rel=1e-12)
