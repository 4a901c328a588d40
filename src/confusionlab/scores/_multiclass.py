"""More than two classes: one-vs-rest curves with the macro AUC, and Hand & Till's M.

One-vs-rest (``multi_class="ovr"``): class ``k``'s curve scores column ``k`` against every
other class; the macro AUC is their mean (scikit-learn's ``roc_auc_score(multi_class="ovr",
average="macro")``). Its variance extends DeLong's structural components to several
partitions of the same examples: linearised, ``AUC_k − A_k ≈ Σ_e φ_k(e)`` with

    φ_k(e) = (V10_k(e) − AUC_k) / m_k   if e is of class k,   (V01_k(e) − AUC_k) / n_k  otherwise,

the placements of example ``e`` in problem ``k``. The examples of one class are
exchangeable draws (the class sizes fixed), so ``Cov(AUC_k, AUC_l) ≈ Σ_c N_c · cov_c(φ_k, φ_l)``
with ``cov_c`` the sample covariance (ddof 1) over the examples of class ``c``. With two
classes this is DeLong's variance. The interval is on the logit scale like the binary one
(boundary rule at the smallest class); at a macro AUC of 0 or 1 it is the binary score
interval at the smallest class against the rest.

Hand & Till (2001) (``multi_class="hand-till"``): ``M = 2/(K(K − 1)) Σ_{j<k} [A(j|k) + A(k|j)]/2``,
``A(j|k)`` the AUC of column ``j`` for class ``j`` against class ``k`` on those two classes'
examples (scikit-learn's ``multi_class="ovo"``); its interval is the percentile bootstrap
stratified by class.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from .._deps import require
from .._result import Result, new_figure
from .._text import as_written
from .._validation import as_labels, check_choice, check_confidence, check_memory, check_n_resamples, check_random_state
from ..labels import distinct_labels
from ..palette import CONTOUR_COLOURS, NEUTRAL
from . import _delong
from ._checks import check_score_matrix
from ._input import split_scores
from ._results import N_RESAMPLES, TARGETS, RocCurve

__all__ = ["MulticlassRocCurve", "multiclass_roc"]


def _auc(pos: np.ndarray, neg: np.ndarray) -> float:
    """The AUC of two unsorted score samples (ties ½)."""
    neg = np.sort(neg)
    twice = np.searchsorted(neg, pos, "left").sum() + np.searchsorted(neg, pos, "right").sum()
    return float(twice) / (2.0 * pos.size * neg.size)


def _hand_till(codes: np.ndarray, scores: np.ndarray, k: int) -> float:
    total = 0.0
    for a, b in combinations(range(k), 2):
        in_a, in_b = codes == a, codes == b
        total += (_auc(scores[in_a, a], scores[in_b, a]) + _auc(scores[in_b, b], scores[in_a, b])) / 2
    return 2.0 * total / (k * (k - 1))


class MulticlassRocCurve(Result):
    """ROC analysis of scores for more than two classes (built by :func:`confusionlab.roc_curve`
    with a (samples × classes) score matrix).

    :attr:`value` is the macro one-vs-rest AUC (``multi_class="ovr"``) or Hand & Till's M
    (``"hand-till"``); :attr:`curves` maps each class to its one-vs-rest :class:`RocCurve`.
    """

    title = "Multi-class ROC"

    def __init__(self, classes: list[Any], codes: np.ndarray, scores: np.ndarray, multi_class: str) -> None:
        self.classes = classes
        self.multi_class = multi_class
        self._codes, self._scores = codes, scores
        k = len(classes)
        self.curves = {c: RocCurve(split_scores(codes == j, scores[:, j], c)) for j, c in enumerate(classes)}
        self._value = (
            float(np.mean([curve.value for curve in self.curves.values()]))
            if multi_class == "ovr"
            else _hand_till(codes, scores, k)
        )

    @property
    def value(self) -> float:
        """The macro one-vs-rest AUC, or Hand & Till's M."""
        return self._value

    def covariance(self) -> np.ndarray:
        """The (classes × classes) covariance of the one-vs-rest AUCs (structural components)."""
        k = len(self.classes)
        n_total = self._codes.shape[0]
        check_memory(8.0 * k * n_total * 2, f"structural components of {k} classes × {n_total:,} examples", "")
        phi = np.empty((k, n_total))
        for j, curve in enumerate(self.curves.values()):
            in_j = self._codes == j
            x = self._scores[:, j]
            v10, v01 = _delong.placements(curve._scores, x[in_j], x[~in_j])
            phi[j, in_j] = (v10 - curve.value) / curve.p
            phi[j, ~in_j] = (v01 - curve.value) / curve.n
        cov = np.zeros((k, k))
        for c in range(k):
            members = phi[:, self._codes == c]
            if members.shape[1] > 1:
                cov += members.shape[1] * np.cov(members, ddof=1)
        return cov

    def interval(
        self,
        confidence: float = 0.95,
        target: str = "true_value",
        *,
        n_resamples: int = N_RESAMPLES,
        random_state: Any = 0,
    ) -> tuple[float, float]:
        """The central interval of :attr:`value`: DeLong's structural components on the logit scale
        (``"ovr"``) or the class-stratified percentile bootstrap (``"hand-till"``).

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.
        """
        confidence = check_confidence(confidence)
        target = check_choice(target, "target", TARGETS)
        if self.multi_class == "ovr":
            k = len(self.classes)
            variance = float(self.covariance().sum()) / (k * k)
            sizes = np.bincount(self._codes, minlength=k)
            smallest = int(sizes.min())
            rest, inflation = int(sizes.sum()) - smallest, 2.0 if target == "next_test_set" else 1.0
            if self.value in (0.0, 1.0):  # separated: the logit scale has no width to give
                return _delong.score_interval(self.value, variance, smallest, rest, confidence, inflation)
            centre, variance = _delong.delong_variance(self.value, variance, smallest, rest)
            return _delong.logit_interval(centre, variance, confidence, inflation)
        from ._bootstrap import percentile_interval

        n_resamples = check_n_resamples(n_resamples, bytes_per_resample=8.0 * self._codes.shape[0])
        rng = check_random_state(random_state)
        groups = [np.flatnonzero(self._codes == c) for c in range(len(self.classes))]
        values = np.empty(n_resamples)
        for r in range(n_resamples):
            rows = np.concatenate([rng.choice(g, g.size) for g in groups])
            values[r] = _hand_till(self._codes[rows], self._scores[rows], len(self.classes))
        return percentile_interval(values, self.value, confidence, target)

    def to_frame(self) -> Any:
        """One row per class: its one-vs-rest AUC, positives and negatives."""
        pd = require("pandas", "notebooks", "to_frame()")

        return pd.DataFrame(
            {
                "class": self.classes,
                "auc": [c.value for c in self.curves.values()],
                "p": [c.p for c in self.curves.values()],
                "n": [c.n for c in self.curves.values()],
            }
        )

    def summary(self, confidence: float = 0.95) -> str:
        lo, hi = self.interval(confidence, random_state=0)
        name = "macro one-vs-rest AUC" if self.multi_class == "ovr" else "Hand & Till's M"
        return (
            f"{name} {self.value:.3f} over {len(self.classes)} classes; the true value lies in "
            f"[{lo:.3f}, {hi:.3f}] with {confidence:.0%} confidence."
        )

    def plot(self, ax: Any = None) -> Any:
        """Each class's one-vs-rest curve; returns the Figure."""
        fig, ax = new_figure(ax, figsize=(4.6, 4.2))
        ax.plot([0, 1], [0, 1], color=NEUTRAL, lw=0.8, ls=":")
        for j, (c, curve) in enumerate(self.curves.items()):
            colour = CONTOUR_COLOURS[j % len(CONTOUR_COLOURS)]
            ax.plot(curve.fpr, curve.tpr, color=colour, lw=1.4, label=f"{c}: AUC {curve.value:.3f}")
        ax.set(xlim=(0, 1), ylim=(0, 1.01), xlabel="false-positive rate", ylabel="true-positive rate")
        ax.set_title(self.title)
        as_written(ax.legend(loc="lower right", frameon=False, fontsize=8))
        return fig


def multiclass_roc(y_true: Any, y_score: Any, multi_class: str) -> MulticlassRocCurve:
    """The multi-class result; the columns of ``y_score`` follow the sorted classes of ``y_true``."""
    multi_class = check_choice(multi_class, "multi_class", ("ovr", "hand-till"))
    t = as_labels(y_true, "y_true")
    classes = distinct_labels(t)
    scores = check_score_matrix(y_score, "y_score", t.shape[0], len(classes))
    lookup = {c: i for i, c in enumerate(classes)}
    codes = np.fromiter((lookup[v] for v in t.tolist()), dtype=np.int64, count=t.shape[0])
    return MulticlassRocCurve(classes, codes, scores, multi_class)
