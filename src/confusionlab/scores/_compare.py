"""Comparing the AUCs of classifiers scored on the same test set: DeLong's paired covariance.

Each classifier ``r`` has placement values ``V10_r(Xᵢ)`` on the positives and ``V01_r(Yⱼ)``
on the negatives (see :mod:`confusionlab.scores._delong`), computed by sorting. DeLong,
DeLong & Clarke-Pearson (1988) estimate the covariance of the AUCs as

    S = S10 / p + S01 / n,   S10 = cov(V10, ddof=1),  S01 = cov(V01, ddof=1)

(k × k matrices over the classifiers, the examples paired). The difference of two AUCs
has variance ``S_aa + S_bb − 2 S_ab``; its two-sided p-value ``2Φ(−|z|)`` is pROC's
``roc.test(method="delong")``, and ``prob_greater = Φ(d / sd)`` is the probability that
A's AUC exceeds B's under the same normal approximation. With k classifiers every pair
is tested and the p-values are adjusted by Holm's step-down method.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy.stats import norm

from .._deprecation import property_now_method
from .._deps import require
from .._result import Result, new_figure
from .._text import as_written
from .._validation import check_choice, check_classifiers, check_confidence, check_memory
from ..palette import CONTOUR_COLOURS, NEUTRAL, THEME
from ._checks import check_omitted, check_scores
from ._delong import placements
from ._input import split_scores, truth
from ._options import check_options
from ._results import TARGETS

if TYPE_CHECKING:
    from ._groups import GroupedAucComparison

__all__ = ["AucComparison", "compare_auc", "holm", "paired_comparison"]


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment of ``p_values``.

    >>> holm(np.array([0.01, 0.04, 0.03])).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    k = p.size
    stepped = np.maximum.accumulate((k - np.arange(k)) * p[order])
    out = np.empty(k)
    out[order] = np.minimum(stepped, 1.0)
    return out


class AucComparison(Result):
    """Paired comparison of the AUCs of classifiers scored on one test set (DeLong).

    With two classifiers :attr:`value` is ``AUC_A − AUC_B`` (a number); with more it is a
    mapping ``(a, b) → AUC_a − AUC_b`` over every pair, like :meth:`interval`,
    :meth:`p_value` (Holm-adjusted) and :attr:`prob_greater`.
    """

    title = "AUC comparison"

    def __init__(self, names: list[str], aucs: np.ndarray, covariance: np.ndarray, p: int, n: int) -> None:
        self.names = names
        self.aucs = dict(zip(names, aucs.tolist(), strict=True))
        self.covariance = covariance
        self.p, self.n = p, n
        self.pairs = list(combinations(range(len(names)), 2))
        d = np.array([aucs[a] - aucs[b] for a, b in self.pairs])
        var = np.array([covariance[a, a] + covariance[b, b] - 2 * covariance[a, b] for a, b in self.pairs])
        self._difference = d
        self._sd = np.sqrt(np.maximum(var, 0.0))
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.where(self._sd > 0, d / self._sd, np.where(d == 0, 0.0, np.sign(d) * np.inf))
        self._z = z
        self._raw_p = 2 * norm.sf(np.abs(z))
        self._holm = holm(self._raw_p)

    def _keyed(self, values: list[Any]) -> Any:
        if len(self.pairs) == 1:
            return values[0]
        return {(self.names[a], self.names[b]): v for (a, b), v in zip(self.pairs, values, strict=True)}

    @property
    def value(self) -> Any:
        """``AUC_A − AUC_B`` (or a mapping over every pair)."""
        return self._keyed(self._difference.tolist())

    def interval(self, confidence: float = 0.95, target: str = "true_value") -> Any:
        """The difference's central interval ``d ± z·sd`` (DeLong's paired variance; doubled for
        ``target="next_test_set"``), clipped to the range [-1, 1] of a difference of AUCs; a mapping
        over every pair with more than two classifiers.

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.
        """
        confidence = check_confidence(confidence)
        target = check_choice(target, "target", TARGETS)
        z = float(norm.ppf(0.5 + confidence / 2))
        half = z * self._sd * (math.sqrt(2.0) if target == "next_test_set" else 1.0)
        return self._keyed(
            [(max(float(d - h), -1.0), min(float(d + h), 1.0)) for d, h in zip(self._difference, half, strict=True)]
        )

    @property_now_method
    def p_value(self) -> Any:
        """The two-sided p-value of no difference, a float (Holm-adjusted with more than two
        classifiers, then a mapping keyed like :attr:`value`; the unadjusted ones are
        :meth:`to_frame`'s ``p_value`` column)."""
        return self._keyed(self._holm.tolist())

    @property
    def prob_greater(self) -> Any:
        """P(AUC_A > AUC_B) under the normal approximation of the difference."""
        return self._keyed(norm.cdf(self._z).tolist())

    def to_frame(self) -> Any:
        """One row per pair: the AUCs, the difference, its standard error and interval, the p-values
        and ``target``, the question the interval answers (``"true_value"``)."""
        pd = require("pandas", "notebooks", "to_frame()")

        target = "true_value"
        lo_hi = self.interval(target=target)
        lo_hi = [lo_hi] if len(self.pairs) == 1 else list(lo_hi.values())
        rows = []
        for k, (a, b) in enumerate(self.pairs):
            rows.append(
                {
                    "a": self.names[a],
                    "b": self.names[b],
                    "auc_a": self.aucs[self.names[a]],
                    "auc_b": self.aucs[self.names[b]],
                    "difference": float(self._difference[k]),
                    "sd": float(self._sd[k]),
                    "lower": lo_hi[k][0],
                    "upper": lo_hi[k][1],
                    "p_value": float(self._raw_p[k]),
                    "p_holm": float(self._holm[k]),
                    "prob_greater": float(norm.cdf(self._z[k])),
                    "target": target,
                }
            )
        return pd.DataFrame(rows)

    def summary(self, confidence: float = 0.95) -> str:
        confidence = check_confidence(confidence)
        frame = self.to_frame()
        best = frame.iloc[int(np.argmax(np.abs(frame["difference"].to_numpy())))]
        if len(self.pairs) > 1:
            z = float(norm.ppf(0.5 + confidence / 2))
            lo, hi = best["difference"] - z * best["sd"], best["difference"] + z * best["sd"]
        else:
            lo, hi = self.interval(confidence)
        return (
            f"AUC({best['a']}) − AUC({best['b']}) = {best['difference']:+.3f}, {confidence:.0%} interval for the "
            "true difference "
            f"[{lo:+.3f}, {hi:+.3f}], p = {best['p_holm']:.3g} (DeLong, paired"
            + (", Holm-adjusted over every pair)." if len(self.pairs) > 1 else ").")
        )

    def plot(self, ax: Any = None) -> Any:
        """Each pair's difference with its 95 % interval; returns the Figure."""
        fig, ax = new_figure(ax)
        frame = self.to_frame()
        y = np.arange(len(frame))
        colours = [CONTOUR_COLOURS[k % len(CONTOUR_COLOURS)] for k in range(len(frame))]
        ax.hlines(y, frame["lower"], frame["upper"], colors=colours, lw=2)
        ax.scatter(frame["difference"], y, color=colours, zorder=3)
        ax.axvline(0, color=NEUTRAL, lw=0.8)
        as_written(ax.set_yticks(y, [f"{html.unescape(a)} − {b}" for a, b in zip(frame["a"], frame["b"], strict=True)]))
        ax.set_xlabel("difference of AUC (95 % interval)")
        ax.set_title(self.title, color=THEME["foreground"])
        return fig


def compare_auc(
    y_true: Any,
    score_a: Any,
    score_b: Any = None,
    *,
    positive: Any = None,
    data: Any = None,
    score_bins: int | None = None,
    groups: Any = None,
) -> AucComparison | GroupedAucComparison:
    """Compare the AUCs of classifiers scored on the same examples (DeLong's paired test).

    The rows are assumed independent (one draw each): with several rows per patient, passage or speaker
    the intervals are too narrow (for clustered rows see ``cluster=`` of :func:`~confusionlab.evaluate`,
    :func:`~confusionlab.compare_paired` and :func:`~confusionlab.roc_curve`).

    Parameters
    ----------
    y_true : array-like of labels
        As :meth:`ConfusionMatrix.from_predictions <confusionlab.ConfusionMatrix.from_predictions>`.
    score_a, score_b : array-like of real scores
        Two classifiers' scores (higher = more positive). Or ``score_a`` a dict
        ``{name: scores}`` of two or more classifiers (``score_b`` then omitted).
    positive : label, optional
        The positive class (default 1/True for 0/1, False/True, −1/1 labels).
    data, score_bins : optional
        As in :func:`roc_curve`: column names of ``data`` (``score_a`` a dict name → column for
        more classifiers), counted by the engine (``scores/_data.py``).
    groups : array-like of labels, optional
        One group per example (at least two groups, each with positives and negatives): the
        comparison in each group, its intervals simultaneous over the groups (Bonferroni), and
        the largest gap of the AUC difference between two groups with its interval (a
        :class:`GroupedAucComparison`). With ``data=``, a column name: the (group, true label,
        scores) table is counted by the engine in one aggregation, the numbers the array path's.

    Returns
    -------
    AucComparison
        Or a :class:`GroupedAucComparison` with ``groups``.

    See Also
    --------
    roc_curve : one classifier's curve and AUC with its interval.
    compare_paired : the same comparison for hard labels, exact.

    Examples
    --------
    >>> import confusionlab as cl
    >>> y = [0, 0, 0, 1, 1, 1, 0, 1]
    >>> c = cl.compare_auc(y, [0.1, 0.3, 0.2, 0.8, 0.7, 0.9, 0.6, 0.4], [0.2, 0.1, 0.5, 0.6, 0.3, 0.7, 0.4, 0.8])
    >>> round(c.value, 4), round(c.p_value(), 3)
    (0.0625, 0.712)
    """
    options = check_options(positive=positive, score_bins=score_bins)
    if data is not None:  # data= with column names: the table counted by the data's own engine
        from ._data import AUC_DOOR, auc_from_counts

        return auc_from_counts(
            AUC_DOOR(data, options, y_true=y_true, score_a=score_a, score_b=score_b, groups=groups), options
        )
    options.refuse_bins()
    if isinstance(score_a, Mapping):
        check_omitted(score_b, "score_b", "score_a is a dict of classifiers")
        names = check_classifiers(dict(score_a), maximum=10**6, name="score_a")
        arguments = [f"score_a[{name!r}]" for name in names]
        raw = list(score_a.values())
    else:
        names, arguments, raw = ["A", "B"], ["score_a", "score_b"], [score_a, score_b]
    is_pos, label = truth(y_true, positive)
    length = is_pos.shape[0]
    check_memory(
        8.0 * len(raw) * length * 3, f"placements of {len(raw)} classifiers × {length:,} examples", "compare fewer"
    )
    checked = [check_scores(scores, argument, length) for argument, scores in zip(arguments, raw, strict=True)]
    if groups is not None:
        from ._groups import grouped_comparison

        return grouped_comparison(is_pos, checked, names, label, groups)
    return paired_comparison(is_pos, checked, names, label)


def paired_comparison(is_pos: np.ndarray, scores: list[np.ndarray], names: list[str], label: Any) -> AucComparison:
    """DeLong's paired comparison of checked ``scores`` (one array per classifier) on the examples
    ``is_pos`` marks positive (both classes present)."""
    v10, v01, aucs = [], [], []
    for x in scores:
        a, b = placements(split_scores(is_pos, x, label), x[is_pos], x[~is_pos])
        v10.append(a)
        v01.append(b)
        aucs.append(float(a.mean()))
    p, n = int(is_pos.sum()), int((~is_pos).sum())
    s10 = np.cov(np.array(v10), ddof=1) if p > 1 else np.zeros((len(names), len(names)))
    s01 = np.cov(np.array(v01), ddof=1) if n > 1 else np.zeros((len(names), len(names)))
    covariance = np.atleast_2d(s10) / p + np.atleast_2d(s01) / n
    return AucComparison(names, np.array(aucs), covariance, p, n)
