"""The registered metrics other than MCC and F-beta: their values, exact forms and contours."""

from __future__ import annotations

import numpy as np

from ._curves import ParametricCurve, _horizontal, _u_param, _vertical, _x_param, _y_param
from ._exact import ExactForm, _ratio
from ._metric import Metric, _div


def _accuracy() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        if p == 0:
            return [_vertical(1 - k)]
        return [_x_param(lambda x: (k * (p + n) - n + n * x) / p)]

    return Metric(
        "accuracy",
        "Accuracy",
        (0.0, 1.0),
        "(TP + TN) / N",
        lambda tp, fn, fp, tn: _div(tp + tn, tp + fn + fp + tn),
        lambda tp, fn, fp, tn: _ratio(tp + tn, tp + fn + fp + tn),
        contour,
        swap="accuracy",
        geometry="parallel lines, slope n/p",
        aliases=("acc",),
        magnitude=lambda N: N,
    )


def _balanced_accuracy() -> Metric:
    return Metric(
        "balanced_accuracy",
        "Balanced accuracy",
        (0.0, 1.0),
        "(TPR + TNR) / 2",
        lambda tp, fn, fp, tn: (_div(tp, tp + fn) + _div(tn, fp + tn)) / 2,
        lambda tp, fn, fp, tn: _ratio((fp + tn) * tp + (tp + fn) * tn, 2 * (tp + fn) * (fp + tn)),
        lambda k, p, n: [_x_param(lambda x: 2 * k - 1 + x)],
        swap="balanced_accuracy",
        geometry="parallel lines, slope 1",
        aliases=("ba",),
    )


def _informedness() -> Metric:
    return Metric(
        "informedness",
        "Informedness (Youden's J)",
        (-1.0, 1.0),
        "TPR + TNR - 1",
        lambda tp, fn, fp, tn: _div(tp, tp + fn) + _div(tn, fp + tn) - 1,
        lambda tp, fn, fp, tn: _ratio((fp + tn) * tp + (tp + fn) * tn - (tp + fn) * (fp + tn), (tp + fn) * (fp + tn)),
        lambda k, p, n: [_x_param(lambda x: k + x)],
        swap="informedness",
        geometry="parallel lines, slope 1 (the balanced-accuracy family)",
        aliases=("bm", "youden_j", "bookmaker_informedness"),
    )


def _markedness() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        pi = p / (p + n)
        return [_u_param(lambda u: k * u * (1 - u) / (pi * (1 - pi)), pi, u01=False)]

    return Metric(
        "markedness",
        "Markedness",
        (-1.0, 1.0),
        "PPV + NPV - 1",
        lambda tp, fn, fp, tn: _div(tp, tp + fp) + _div(tn, fn + tn) - 1,
        lambda tp, fn, fp, tn: _ratio(tp * (fn + tn) + tn * (tp + fp) - (tp + fp) * (fn + tn), (tp + fp) * (fn + tn)),
        contour,
        swap="markedness",
        geometry="parabolas through (0,0) and (1,1)",
        aliases=("mk",),
    )


def _jaccard() -> Metric:
    return Metric(
        "jaccard",
        "Jaccard index (threat score)",
        (0.0, 1.0),
        "TP / (TP + FN + FP)",
        lambda tp, fn, fp, tn: _div(tp, tp + fn + fp),
        lambda tp, fn, fp, tn: _ratio(tp, tp + fn + fp),
        lambda k, p, n: [_x_param(lambda x: k * (p + n * x) / p)],
        swap=None,
        geometry="pencil of lines through (-p/n, 0), as F1",
        aliases=("threat_score", "critical_success_index", "iou"),
        magnitude=lambda N: N,
    )


def _precision() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        if k >= 1:
            return [_vertical(0.0)]
        return [_y_param(lambda y: p * (1 - k) * y / (k * n))] if k > 0 else [_horizontal(0.0)]

    return Metric(
        "precision",
        "Precision (PPV)",
        (0.0, 1.0),
        "TP / (TP + FP)",
        lambda tp, fn, fp, tn: _div(tp, tp + fp),
        lambda tp, fn, fp, tn: _ratio(tp, tp + fp),
        contour,
        swap="npv",
        geometry="lines through the origin",
        aliases=("ppv",),
        magnitude=lambda N: N,
    )


def _npv() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        if k <= 0:
            return [_vertical(1.0)]
        if k >= 1:
            return [_horizontal(1.0)]
        return [_x_param(lambda x: 1 - n * (1 - x) * (1 - k) / (k * p))]

    return Metric(
        "npv",
        "Negative predictive value",
        (0.0, 1.0),
        "TN / (TN + FN)",
        lambda tp, fn, fp, tn: _div(tn, tn + fn),
        lambda tp, fn, fp, tn: _ratio(tn, tn + fn),
        contour,
        swap="precision",
        geometry="lines through (1, 1)",
        aliases=("negative_predictive_value",),
        magnitude=lambda N: N,
    )


def _simple_rate(name: str, label: str, formula: str, which: str, swap: str, aliases: tuple[str, ...]) -> Metric:
    pick = {
        "tpr": (lambda tp, fn, fp, tn: (tp, tp + fn), lambda k: _horizontal(k)),
        "fnr": (lambda tp, fn, fp, tn: (fn, tp + fn), lambda k: _horizontal(1 - k)),
        "tnr": (lambda tp, fn, fp, tn: (tn, fp + tn), lambda k: _vertical(1 - k)),
        "fpr": (lambda tp, fn, fp, tn: (fp, fp + tn), lambda k: _vertical(k)),
    }[which]
    parts, curve = pick
    return Metric(
        name,
        label,
        (0.0, 1.0),
        formula,
        lambda tp, fn, fp, tn: _div(*parts(tp, fn, fp, tn)),
        lambda tp, fn, fp, tn: _ratio(*parts(tp, fn, fp, tn)),
        lambda k, p, n: [curve(k)],
        swap=swap,
        geometry="horizontal lines" if which in ("tpr", "fnr") else "vertical lines",
        aliases=aliases,
        magnitude=lambda N: N,
    )


def _cohen_kappa() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        den = p * (2 * n + k * (p - n))
        if den == 0:
            return []
        return [_x_param(lambda x: (k * (n * n - n * p) * x + k * n * p + k * p * p + 2 * n * p * x) / den)]

    return Metric(
        "cohen_kappa",
        "Cohen's kappa",
        (-1.0, 1.0),
        "2(TP·TN − FN·FP) / ((TP+FP)(FP+TN) + (TP+FN)(FN+TN))",
        lambda tp, fn, fp, tn: _div(2 * (tp * tn - fn * fp), (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn)),
        lambda tp, fn, fp, tn: _ratio(2 * (tp * tn - fn * fp), (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn)),
        contour,
        swap="cohen_kappa",
        geometry="pencil of lines through (p/(p−n), p/(p−n)); parallel, slope 1, when p = n",
        aliases=("kappa",),
        magnitude=lambda N: 2 * N * N,
    )


def _g_mean() -> Metric:
    return Metric(
        "g_mean",
        "Geometric mean of TPR and TNR",
        (0.0, 1.0),
        "√(TPR·TNR)",
        lambda tp, fn, fp, tn: np.sqrt(_div(tp, tp + fn) * _div(tn, fp + tn)),
        lambda tp, fn, fp, tn: ExactForm(tp * tn, (tp + fn) * (fp + tn), "signed_square"),
        lambda k, p, n: [_x_param(lambda x: k * k / (1 - x))],
        swap="g_mean",
        geometry="hyperbolas",
        aliases=("gmean", "geometric_mean"),
    )


def _fowlkes_mallows() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        if k == 0:
            return [_horizontal(0.0)]
        return [_y_param(lambda y: p * y * (y - k * k) / (k * k * n))]

    return Metric(
        "fowlkes_mallows",
        "Fowlkes–Mallows index",
        (0.0, 1.0),
        "√(PPV·TPR)",
        lambda tp, fn, fp, tn: np.sqrt(_div(tp, tp + fp) * _div(tp, tp + fn)),
        lambda tp, fn, fp, tn: ExactForm(tp * tp, (tp + fp) * (tp + fn), "signed_square"),
        contour,
        swap=None,
        geometry="parabolas",
        aliases=("fm", "fowlkes_mallows_index"),
    )


def _lr_plus() -> Metric:
    return Metric(
        "lr_plus",
        "Positive likelihood ratio",
        (0.0, np.inf),
        "TPR / FPR",
        lambda tp, fn, fp, tn: _div(_div(tp, tp + fn), _div(fp, fp + tn)),
        lambda tp, fn, fp, tn: _ratio(tp * (fp + tn), (tp + fn) * fp),
        lambda k, p, n: [_x_param(lambda x: k * x)],
        swap=None,
        geometry="lines through the origin",
        aliases=("positive_likelihood_ratio",),
    )


def _lr_minus() -> Metric:
    return Metric(
        "lr_minus",
        "Negative likelihood ratio",
        (0.0, np.inf),
        "FNR / TNR",
        lambda tp, fn, fp, tn: _div(_div(fn, tp + fn), _div(tn, fp + tn)),
        lambda tp, fn, fp, tn: _ratio(fn * (fp + tn), (tp + fn) * tn),
        lambda k, p, n: [_x_param(lambda x: 1 - k * (1 - x))],
        swap=None,
        geometry="lines through (1, 1)",
        aliases=("negative_likelihood_ratio",),
    )


def _diagnostic_odds_ratio() -> Metric:
    return Metric(
        "diagnostic_odds_ratio",
        "Diagnostic odds ratio",
        (0.0, np.inf),
        "(TP·TN) / (FP·FN)",
        lambda tp, fn, fp, tn: _div(tp * tn, fp * fn),
        lambda tp, fn, fp, tn: _ratio(tp * tn, fp * fn),
        lambda k, p, n: [_x_param(lambda x: k * x / (1 - x + k * x))],
        swap="diagnostic_odds_ratio",
        geometry="hyperbolas through (0, 0) and (1, 1)",
        aliases=("dor",),
    )


def _pt_transform(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    # w = num/den = FPR/(FPR + TPR); PT = √w / (√w + √(1 − w))
    a = np.sqrt(num)
    return a / (a + np.sqrt(den - num))


def _prevalence_threshold() -> Metric:
    def value(tp: np.ndarray, fn: np.ndarray, fp: np.ndarray, tn: np.ndarray) -> np.ndarray:
        # (√(TPR·FPR) − FPR)/(TPR − FPR) = √FPR / (√TPR + √FPR): the same wherever TPR ≠ FPR,
        # and its continuous limit ½ on the chance diagonal TPR = FPR > 0; 0/0 only at (0, 0).
        root_tpr, root_fpr = np.sqrt(_div(tp, tp + fn)), np.sqrt(_div(fp, fp + tn))
        return _div(root_fpr, root_tpr + root_fpr)

    def exact(tp: np.ndarray, fn: np.ndarray, fp: np.ndarray, tn: np.ndarray) -> ExactForm:
        x, y = fp * (tp + fn), tp * (fp + tn)  # FPR and TPR on the common denominator p·n
        undefined = (x + y == 0) | ((tp + fn) == 0) | ((fp + tn) == 0)
        return ExactForm(x, x + y, "custom", undefined=undefined, transform=_pt_transform)

    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        if k <= 0:
            return [_vertical(0.0)]
        c = ((1 - k) / k) ** 2
        return [_x_param(lambda x: c * x)]

    return Metric(
        "prevalence_threshold",
        "Prevalence threshold",
        (0.0, 1.0),
        "(√(TPR·FPR) − FPR) / (TPR − FPR)",
        value,
        exact,
        contour,
        swap=None,
        geometry="lines through the origin",
        aliases=("pt",),
        magnitude=lambda N: 2 * N * N,
    )
