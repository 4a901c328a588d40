"""The results of scores: :class:`RocCurve` and :class:`PrecisionRecallCurve` (the protocol of
:class:`confusionlab._result.Result`), built by :func:`confusionlab.roc_curve` and
:func:`confusionlab.precision_recall_curve`."""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from .._deprecation import float_with_moved_attributes, value_now_means
from .._deps import require
from .._result import Result, new_figure
from .._validation import (
    InvalidParameterError,
    TooLargeError,
    check_choice,
    check_confidence,
    check_score_threshold,
)
from ..confusion import ConfusionMatrix
from ..models import TARGETS
from ..palette import NEUTRAL, THEME
from . import _bootstrap, _curves, _delong, _null
from ._band import PrecisionRecallBand, RocBand, ap_logit_interval, precision_recall_band, roc_band
from ._cluster import ClusteredAuc
from ._input import Scores

__all__ = ["PrecisionRecallCurve", "RocCurve"]

#: Resamples of a bootstrap interval unless told otherwise.
N_RESAMPLES = 2000


class _ScoreCurve(Result):
    """What both curves share: the sorted scores, the confusion matrix at a threshold, the widget."""

    def __init__(self, scores: Scores) -> None:
        self._scores = scores

    @property
    def p(self) -> int:
        """The number of positives."""
        return self._scores.p

    @property
    def n(self) -> int:
        """The number of negatives."""
        return self._scores.n

    @property
    def positive_label(self) -> Any:
        """The label scored as positive."""
        return self._scores.positive_label

    def at_threshold(self, threshold: float) -> ConfusionMatrix:
        """The confusion matrix of "positive when score ≥ ``threshold``" (the exact core applies to it).

        ``threshold`` may be ±inf (+inf: nobody is called positive).
        """
        t = np.array([check_score_threshold(threshold)])
        tp, fp = _curves.counts_at(self._scores, t)
        tp, fp = int(tp[0]), int(fp[0])
        return ConfusionMatrix(tp=tp, fn=self.p - tp, fp=fp, tn=self.n - fp)

    def operating_points(self) -> list[tuple[float, ConfusionMatrix]]:
        """Every ``(threshold, ConfusionMatrix)`` of the staircase, thresholds decreasing, the first
        (+inf) calling nobody positive."""
        thresholds, tp, fp = _curves.staircase(self._scores)
        out = [(float("inf"), ConfusionMatrix(tp=0, fn=self.p, fp=0, tn=self.n))]
        for t, a, b in zip(thresholds.tolist(), tp.tolist(), fp.tolist(), strict=True):
            out.append((t, ConfusionMatrix(tp=a, fn=self.p - a, fp=b, tn=self.n - b)))
        return out

    def _operating_counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(thresholds, tp, fp)`` of every operating point, thresholds decreasing from +inf
        (nobody positive), one point per distinct score after it."""
        thresholds, tp, fp = _curves.staircase(self._scores)
        return (
            np.concatenate([[np.inf], thresholds]),
            np.concatenate([[0], tp]).astype(np.int64),
            np.concatenate([[0], fp]).astype(np.int64),
        )

    def _bootstrap_interval(self, statistic, confidence, target, n_resamples, random_state) -> tuple[float, float]:
        values = _bootstrap.bootstrap(self._scores, statistic, n_resamples, random_state)
        return _bootstrap.percentile_interval(values, self.value, confidence, target)


class RocCurve(_ScoreCurve):
    """The empirical ROC curve of one classifier's scores, its AUC and the AUC's uncertainty.

    Built by :func:`confusionlab.roc_curve`. ``fpr``, ``tpr``, ``thresholds`` are
    scikit-learn's ``roc_curve(drop_intermediate=False)``; :attr:`value` is the AUC
    (scikit-learn's ``roc_auc_score``).
    """

    title = "ROC curve"
    #: With ``cluster=``: Obuchowski's clustered AUC variance (set by :func:`~confusionlab.roc_curve`).
    _cluster: ClusteredAuc | None = None

    @cached_property
    def _points(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return _curves.roc_points(self._scores)

    @property
    def fpr(self) -> np.ndarray:
        """False-positive rates of the staircase, from 0."""
        return self._points[0]

    @property
    def tpr(self) -> np.ndarray:
        """True-positive rates of the staircase, from 0."""
        return self._points[1]

    @property
    def thresholds(self) -> np.ndarray:
        """The thresholds (decreasing; the first, +inf, calls nobody positive)."""
        return self._points[2]

    @cached_property
    def _delong(self) -> tuple[float, float]:
        return _delong.auc_and_variance(self._scores)

    @property
    def value(self) -> float:
        """The AUC: the probability that a random positive scores above a random negative (ties ½)."""
        return self._delong[0]

    @property
    def variance(self) -> float:
        """DeLong's variance of the AUC (placement values, ddof 1)."""
        return self._delong[1]

    def interval(
        self,
        confidence: float = 0.95,
        method: str = "auto",
        target: str = "true_value",
        *,
        n_resamples: int = N_RESAMPLES,
        random_state: Any = 0,
    ) -> tuple[float, float]:
        """The AUC's central interval.

        Without ``cluster=`` the rows are assumed independent (with it, the clustered interval).

        Parameters
        ----------
        confidence : float, default 0.95
        method : {"auto", "delong", "logit", "score", "bootstrap", "obuchowski"}
            With ``cluster=`` (:func:`~confusionlab.roc_curve`), ``"auto"`` is ``"obuchowski"``:
            Obuchowski's (1997) clustered variance on the logit scale (DeLong's construction with
            the clustered variance; its boundary rule where that variance is 0 or the AUC 0 or 1);
            the other methods then treat the examples as independent.
            Without ``cluster=``, ``"auto"`` (default): the rule the coverage study chose (see Notes): ``"score"`` when
            the smaller class has fewer than 100 examples
            (:data:`confusionlab.scores._delong.SMALL_CLASS`) or the AUC is 0 or 1 (the classes
            perfectly separated: the logit scale has no width to give there, and the boundary
            rule's width grows with the sample), else ``"delong"``; :attr:`interval_method` says
            which. ``"delong"``: DeLong's interval at every class size and AUC, DeLong's variance
            on the logit scale (inside (0, 1)); at the boundary — AUC 0 or 1, or DeLong's variance
            0 — the sample gives no variance, and the boundary rule of
            :mod:`confusionlab.scores._delong` (Hanley & McNeil's variance half a pair from the
            boundary) keeps a positive width, which grows with the sample there.
            ``"logit"``: the same interval, named by its scale. ``"score"``: the score-type
            interval, every θ with (Â − θ)² ≤ z²·r·V_BN(θ), V_BN the equal-variance binormal
            variance and r = max(1, DeLong's variance / V_BN(Â)) (see
            :func:`confusionlab.scores._delong.score_interval`). ``"bootstrap"``: the stratified
            percentile bootstrap. Until this release ``"delong"`` was the default and meant
            ``"auto"``; where the two differ, ``method="delong"`` warns (FutureWarning) for one
            release.
        target : {"true_value", "next_test_set"}
            The question: the true AUC, or the AUC of a new test set of the same size (the
            variance doubled).
        n_resamples, random_state
            The bootstrap's size and seed (default 0; None: fresh entropy).

        Notes
        -----
        Coverage of the 95 % intervals by simulation (``benchmarks/bench_scores_coverage.py``,
        2,000 test sets a cell; binormal, unequal-variance binormal and exponential scores, AUC
        0.6–0.99, 20–500 per class; table in ``benchmarks/RESULTS.md``). DeLong-logit covers
        0.93–0.97 with both classes ≥ 200 and AUC ≤ 0.95; it under-covers when a class is small
        and the AUC high (20 against 500 binormal: 0.87 at AUC 0.99): a high estimate comes with
        a small estimated variance. The score interval takes the larger of DeLong's variance and
        the binormal variance at the same AUC, which restores the coverage there on binormal
        scores; with scores far from binormal and a small class it can still fall short (see
        RESULTS.md), and with both classes ≥ 100 DeLong-logit is used, which under-covers at AUC
        0.99 (≈ 0.92–0.93 at 200 + 200).

        **Without** ``cluster=`` every method assumes independent examples. With clustered
        examples (``benchmarks/coverage_roc_cluster.py``: 10, 50 or 200 clusters of 2–18 rows,
        a random effect on the scores and the prevalence of ICC 0, 0.3 or 0.7, true AUC 0.75;
        2,000 test sets a cell) the naive intervals (DeLong, Hanley & McNeil, the default) cover
        84–89 % at ICC 0.3 and 56–62 % at ICC 0.7, at any number of clusters. Obuchowski's
        clustered interval (``cluster=``) covers 94–95 % from 50 clusters on at every ICC; it
        falls short with 10 clusters: 92 % at ICC 0, 88–92 % at 0.3, 85–88 % at 0.7 (ten cluster
        sums estimate the variance poorly, and the quantile is the normal one).
        """
        confidence = check_confidence(confidence)
        method = check_choice(method, "method", ("auto", "delong", "logit", "score", "bootstrap", "obuchowski"))
        target = check_choice(target, "target", TARGETS)
        if method == "obuchowski" or (method == "auto" and self._cluster is not None):
            if self._cluster is None:
                raise InvalidParameterError("method='obuchowski' needs cluster ids: roc_curve(..., cluster=ids)")
            centre, variance = _delong.delong_variance(self.value, self._cluster.variance, self.p, self.n)
            return _delong.logit_interval(centre, variance, confidence, 2.0 if target == "next_test_set" else 1.0)
        if method == "delong" and self._method() == "score":
            value_now_means(
                "RocCurve.interval",
                "method",
                "delong",
                "gives DeLong's interval (logit scale) at every class size and AUC",
                "method='auto' (the default: the score interval below 100 examples in the smaller class or at AUC 0 "
                "or 1)",
            )
        if method == "bootstrap":
            return self._bootstrap_interval("auc", confidence, target, n_resamples, random_state)
        inflation = 2.0 if target == "next_test_set" else 1.0
        if self._method(method) == "score":
            return _delong.score_interval(self.value, self.variance, self.p, self.n, confidence, inflation)
        centre, variance = _delong.delong_variance(self.value, self.variance, self.p, self.n)
        return _delong.logit_interval(centre, variance, confidence, inflation)

    @property
    def interval_method(self) -> str:
        """How the default interval is built at these class sizes, in words."""
        if self._cluster is not None:
            return f"{self._cluster.method}, {self._cluster.n_clusters} clusters"
        if self._method() == "score":
            why = "a class below 100" if min(self.p, self.n) < _delong.SMALL_CLASS else "the classes separated"
            return f"score interval, the larger of DeLong's and the binormal variance ({why})"
        return "DeLong, logit scale"

    @property
    def n_clusters(self) -> int | None:
        """With ``cluster=``: the number of clusters; None without (the examples taken as independent)."""
        return None if self._cluster is None else self._cluster.n_clusters

    @property
    def design_effect(self) -> float:
        """With ``cluster=``: Obuchowski's variance over DeLong's, the inflation clustering brings (1 without)."""
        return 1.0 if self._cluster is None else self._cluster.design_effect

    @property
    def effective_size(self) -> float:
        """The examples (P + N) over :attr:`design_effect`: how many independent examples they are worth."""
        return (self.p + self.n) / self.design_effect

    def _method(self, method: str = "auto") -> str:
        """``"score"`` or ``"logit"`` (DeLong's): what ``method`` gives at these class sizes and this AUC."""
        if method == "delong":
            return "logit"
        if method != "auto":
            return method
        separated = self.value in (0.0, 1.0)
        return "score" if min(self.p, self.n) < _delong.SMALL_CLASS or separated else "logit"

    def _interval_variance(self) -> float:
        """The AUC's variance the default interval is built from (for the groups' gap): DeLong's
        (boundary rule), or for a small class or separated classes the larger of it and the
        binormal variance at Â; with ``cluster=`` Obuchowski's (boundary rule)."""
        if self._cluster is not None:
            return _delong.delong_variance(self.value, self._cluster.variance, self.p, self.n)[1]
        if self._method() == "score":
            at = self.value
            if at <= 0.0 or at >= 1.0:  # V_BN is 0 there: half a pair from the boundary, as the logit rule
                at = (at * self.p * self.n + 0.5) / (self.p * self.n + 1.0)
            return max(self.variance, float(_delong.binormal_variance(at, self.p, self.n)))
        return _delong.delong_variance(self.value, self.variance, self.p, self.n)[1]

    def null_distribution(self) -> _null.AucNullDistribution:
        """The exact permutation distribution of the AUC under no discrimination, given the ties.

        Raises :class:`~confusionlab.TooLargeError` beyond the exact counting's size (see
        :data:`confusionlab.scores.EXACT_WORK_LIMIT`); :meth:`p_value` then falls back to the
        normal approximation.
        """
        self._check_exact_size()
        return _null.null_distribution(self._scores)

    def _check_exact_size(self) -> None:
        sizes, _ = _null.tie_blocks(self._scores)
        work = _null.counting_work(sizes, min(self.p, self.n))
        if work > _null.EXACT_WORK_LIMIT:
            raise TooLargeError(
                f"the exact null distribution at {self.p} + {self.n} examples would visit {work:.3g} cells, more "
                f"than {_null.EXACT_WORK_LIMIT:.3g}; use p_value(method='normal')"
            )

    def p_value(self, alternative: str = "greater", method: str = "auto") -> float:
        """The permutation p-value of the AUC under no discrimination, a float.

        ``alternative="greater"`` asks whether the scores rank positives higher than chance
        (``"less"``, ``"two-sided"``). ``method="auto"`` is exact up to the counting's size,
        then the tie-corrected normal approximation; ``"exact"`` and ``"normal"`` force one.
        The exact p-value counts only the tail(s) it needs (the same number as
        ``null_distribution().p_value_at``, for less work). :meth:`test` says which method
        gave it.
        """
        test = self.test(alternative, method)
        return float_with_moved_attributes(
            float(test), test, ("method",), old="RocCurve.p_value()", new="RocCurve.test()"
        )

    def test(self, alternative: str = "greater", method: str = "auto") -> _null.PValue:
        """The test of no discrimination: its p-value (a float, the number :meth:`p_value` gives)
        with ``.method``, ``"exact"`` or ``"normal"`` (arguments as :meth:`p_value`)."""
        method = check_choice(method, "method", ("auto", "exact", "normal"))
        if method == "auto":
            sizes, _ = _null.tie_blocks(self._scores)
            work = _null.counting_work(sizes, min(self.p, self.n))
            method = "exact" if work <= _null.EXACT_WORK_LIMIT else "normal"
        elif method == "exact":
            self._check_exact_size()
        if method == "normal":
            return _null.normal_p_value(self._scores, alternative)
        return _null.exact_p_value(self._scores, alternative)

    def band(self, confidence: float = 0.95, kind: str = "simultaneous") -> RocBand:
        """A band around the curve: Campbell's simultaneous fixed-width band (contains the whole true
        ROC curve with probability ≥ ``confidence``) or the pointwise beta-binomial band."""
        confidence = check_confidence(confidence)
        kind = check_choice(kind, "kind", ("simultaneous", "pointwise"))
        return roc_band(self.fpr, self.tpr, self.p, self.n, confidence, kind)

    def view(self, **kwargs: Any) -> Any:
        """A :class:`~confusionlab.RocView`: the curve with its band, the AUC with its interval, a
        threshold slider and the linked slice of the operating point (``kwargs`` go to it)."""
        return super().view(**kwargs)

    def to_frame(self) -> Any:
        """One row per point of the staircase: threshold, fpr, tpr, tp, fp."""
        pd = require("pandas", "notebooks", "to_frame()")

        return pd.DataFrame(
            {
                "threshold": self.thresholds,
                "fpr": self.fpr,
                "tpr": self.tpr,
                "tp": np.rint(self.tpr * self.p).astype(np.int64),
                "fp": np.rint(self.fpr * self.n).astype(np.int64),
            }
        )

    def summary(self, confidence: float = 0.95) -> str:
        lo, hi = self.interval(confidence)
        return (
            f"AUC {self.value:.3f} on {self.p} positives and {self.n} negatives; the true AUC lies in "
            f"[{lo:.3f}, {hi:.3f}] with {confidence:.0%} confidence ({self.interval_method})."
        )

    def plot(self, ax: Any = None) -> Any:
        """The staircase with its 95 % simultaneous band and the chance diagonal; returns the Figure."""
        fig, ax = new_figure(ax, figsize=(4.6, 4.2))
        band = self.band()
        ax.fill_between(band.fpr, band.lower, band.upper, color=THEME["grid"], alpha=0.7, lw=0, label="95 % band")
        ax.plot([0, 1], [0, 1], color=NEUTRAL, lw=0.8, ls=":")
        ax.plot(self.fpr, self.tpr, color=THEME["accent"], lw=1.6, label=f"AUC {self.value:.3f}")
        ax.set(xlim=(0, 1), ylim=(0, 1.01), xlabel="false-positive rate", ylabel="true-positive rate")
        ax.set_title(self.title)
        ax.legend(loc="lower right", frameon=False)
        return fig


class PrecisionRecallCurve(_ScoreCurve):
    """The empirical precision–recall curve of one classifier's scores and its average precision.

    Built by :func:`confusionlab.precision_recall_curve`. ``precision``, ``recall``,
    ``thresholds`` are scikit-learn's ``precision_recall_curve``; :attr:`value` is the average
    precision (scikit-learn's ``average_precision_score``).
    """

    title = "Precision–recall curve"

    @cached_property
    def _points(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return _curves.pr_points(self._scores)

    @property
    def precision(self) -> np.ndarray:
        """Precision at each threshold (increasing thresholds), then 1 at recall 0."""
        return self._points[0]

    @property
    def recall(self) -> np.ndarray:
        """Recall at each threshold, then 0."""
        return self._points[1]

    @property
    def thresholds(self) -> np.ndarray:
        """The distinct scores, increasing."""
        return self._points[2]

    @cached_property
    def value(self) -> float:
        """The average precision Σ (R_k − R_{k−1})·P_k."""
        return _curves.average_precision(self._scores)

    def interval(
        self,
        confidence: float = 0.95,
        method: str = "logit",
        target: str = "true_value",
        *,
        n_resamples: int = N_RESAMPLES,
        random_state: Any = 0,
    ) -> tuple[float, float]:
        """The average precision's central interval: Boyd, Eng & Page's logit interval (``"logit"``)
        or the stratified percentile bootstrap (``"bootstrap"``); ``target="next_test_set"`` doubles
        the variance (the bootstrap's deviations scaled by √2).

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.
        """
        confidence = check_confidence(confidence)
        method = check_choice(method, "method", ("logit", "bootstrap"))
        target = check_choice(target, "target", TARGETS)
        if method == "bootstrap":
            return self._bootstrap_interval("average_precision", confidence, target, n_resamples, random_state)
        return ap_logit_interval(self.value, self.p, confidence, 2.0 if target == "next_test_set" else 1.0)

    def _interval_variance(self) -> float:
        """AP's variance on its own scale behind Boyd, Eng & Page's interval: ``AP(1 − AP)/p`` (the AP
        half a positive from the boundary at 0 or 1), for the groups' gap."""
        ap, p = self.value, self.p
        centre = (p * ap + 0.5) / (p + 1.0) if ap <= 0.0 or ap >= 1.0 else ap
        return centre * (1.0 - centre) / p

    @cached_property
    def _roc(self) -> RocCurve:
        return RocCurve(self._scores)

    def band(self, confidence: float = 0.95) -> PrecisionRecallBand:
        """The simultaneous ROC band mapped to precision at the observed ``p``, ``n``."""
        return precision_recall_band(self._roc.band(confidence), self.p, self.n)

    def view(self, **kwargs: Any) -> Any:
        """A :class:`~confusionlab.PrecisionRecallView`: the curve with its band, AP with its
        interval, a threshold slider and the linked slice of the operating point (``kwargs`` go to it)."""
        return super().view(**kwargs)

    def to_frame(self) -> Any:
        """One row per threshold (increasing): threshold, precision, recall."""
        pd = require("pandas", "notebooks", "to_frame()")

        return pd.DataFrame(
            {"threshold": self.thresholds, "precision": self.precision[:-1], "recall": self.recall[:-1]}
        )

    def summary(self, confidence: float = 0.95) -> str:
        lo, hi = self.interval(confidence)
        return (
            f"Average precision {self.value:.3f} on {self.p} positives and {self.n} negatives; the true value "
            f"lies in [{lo:.3f}, {hi:.3f}] with {confidence:.0%} confidence (logit interval)."
        )

    def plot(self, ax: Any = None) -> Any:
        """The curve with its 95 % band and the prevalence line; returns the Figure."""
        fig, ax = new_figure(ax, figsize=(4.6, 4.2))
        band = self.band()
        ax.fill_between(band.recall, band.lower, band.upper, color=THEME["grid"], alpha=0.7, lw=0, label="95 % band")
        ax.axhline(self.p / (self.p + self.n), color=NEUTRAL, lw=0.8, ls=":")
        ax.step(self.recall, self.precision, where="post", color=THEME["accent"], lw=1.6, label=f"AP {self.value:.3f}")
        ax.set(xlim=(0, 1), ylim=(0, 1.01), xlabel="recall", ylabel="precision")
        ax.set_title(self.title)
        ax.legend(loc="lower left", frameon=False)
        return fig
