"""Two classifiers' metric distributions on independent test sets, compared."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from .._deps import require
from .._result import Result, new_figure
from .._validation import (
    InvalidParameterError,
    check_confidence,
    check_instance,
    check_int,
    check_memory,
)
from ..palette import NEUTRAL
from .plotting import _draw_pmf
from .pmf import MetricDistribution
from .pushforward import _merge_value

__all__ = ["BYTES_PER_PAIR", "MAX_BINS", "Comparison", "compare"]


#: Bytes per value pair while :func:`compare` enumerates differences.
BYTES_PER_PAIR = 48


@dataclass(frozen=True)
class Comparison(Result):
    """Result of :func:`compare`: how two independent metric distributions relate.

    Attributes
    ----------
    prob_greater, prob_equal, prob_less : float
        P(A > B), P(A = B), P(A < B) (normalised retained masses).
    difference : MetricDistribution
        Distribution of A − B.
    a, b : MetricDistribution or None
        The two distributions compared (None when the comparison was built by hand).
    value : float
        The difference A − B the interval surrounds: the observed difference
        ``a.observed − b.observed`` when both were computed from observed matrices,
        else the mean of :attr:`difference`. (``prob_greater`` is the answer to
        "is A better?"; ``value`` and :meth:`interval` say by how much.)

    Examples
    --------
    >>> from confusionlab import ConfusionMatrix, metric_distribution
    >>> da = metric_distribution(ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "recall")
    >>> db = metric_distribution(ConfusionMatrix(tp=12, fn=8, fp=8, tn=32), "recall")
    >>> c = compare(da, db)
    >>> round(c.value, 12), round(c.prob_greater, 3)  # 16/20 − 12/20; Σ P(TP_A = i) P(TP_B = j) over i > j
    (0.2, 0.79)
    """

    prob_greater: float
    prob_equal: float
    prob_less: float
    difference: MetricDistribution
    a: MetricDistribution | None = field(default=None, repr=False, compare=False)
    b: MetricDistribution | None = field(default=None, repr=False, compare=False)
    title: ClassVar[str] = "Comparison of two classifiers"

    @property
    def value(self) -> float:
        """The observed difference A − B when both sides know their observed matrix, else the mean of A − B."""
        if self.a is not None and self.b is not None:
            observed_a, observed_b = self.a.observed, self.b.observed
            if observed_a is not None and observed_b is not None:
                return observed_a - observed_b
        return self.difference.mean()

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Central interval of the difference A − B.

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.
        """
        return self.difference.interval(confidence)

    def to_frame(self) -> Any:
        """One row: the metric, P(A > B), P(A = B), P(A < B), the difference (:attr:`value`), its
        central 95 % interval and ``target``, the question of the two sides' distributions (the
        difference's when built without them; ``"<a's> - <b's>"`` when the sides ask different ones).
        The difference's PMF is ``self.difference.to_frame()``."""
        pd = require("pandas", "notebooks", "to_frame()")

        lo, hi = self.interval(0.95)
        sides = [side.target for side in (self.a, self.b) if side is not None]
        target = self.difference.target if not sides else " - ".join(dict.fromkeys(sides))
        row = {
            "metric": self.difference.metric.removesuffix(" difference"),
            "prob_greater": self.prob_greater,
            "prob_equal": self.prob_equal,
            "prob_less": self.prob_less,
            "difference": self.value,
            "lower": lo,
            "upper": hi,
            "confidence": 0.95,
            "target": target,
        }
        return pd.DataFrame([row])

    def plot(self, ax: Any = None) -> Any:
        """The PMF of A − B as sticks, its central 95 % interval shaded, 0 (no difference) marked.

        Returns the matplotlib Figure (``ax``'s own when given).
        """
        fig, ax = new_figure(ax)
        d = self.difference
        _draw_pmf(ax, d, NEUTRAL, self.value if d.values.size else None, "difference")
        ax.axvline(0.0, color=NEUTRAL, lw=0.8)
        ax.set_xlabel(f"{d.metric}: A − B")
        ax.set_title(f"P(A > B) = {self.prob_greater:.3g}, P(A = B) = {self.prob_equal:.3g}", fontsize=9)
        return fig

    def view(self) -> Any:
        """The two sides' :class:`~confusionlab.widgets.metric_pmf.MetricPMF` widgets, A beside B.

        Raises
        ------
        ValueError
            When a side cannot be shown (see :meth:`MetricDistribution.view`), e.g. a
            comparison built without its two distributions.
        """
        if self.a is None or self.b is None:
            raise ValueError("this comparison was built without its two distributions (a, b); draw it with .plot()")
        return super().view()

    def summary(self, confidence: float = 0.95) -> str:
        """One sentence: P(A > B), and where the difference A − B lies with probability ``confidence``."""
        confidence = check_confidence(confidence)
        lo, hi = self.interval(confidence)
        metric = self.a._label() if self.a is not None else self.difference.metric.removesuffix(" difference")
        return (
            f"P(A > B) = {self.prob_greater:.3g} for {metric} (P(A = B) = {self.prob_equal:.3g}, "
            f"P(A < B) = {self.prob_less:.3g}); the difference A − B lies in [{lo:.4g}, {hi:.4g}] with "
            f"{confidence:.0%} probability (value {self.value:.4g})."
        )


#: Largest ``bins`` of :func:`compare` (the histograms are convolved directly, in O(bins²)).
MAX_BINS = 20_001


def compare(
    a: MetricDistribution, b: MetricDistribution, *, max_pairs: int = 4_000_000, bins: int = 2001
) -> Comparison:
    """Compare classifier A's metric with classifier B's on independent test sets.

    The rows are assumed independent (one draw each): with several rows per patient, passage or speaker
    the intervals are too narrow (for clustered rows see ``cluster=`` of :func:`~confusionlab.evaluate`,
    :func:`~confusionlab.compare_paired` and :func:`~confusionlab.roc_curve`).

    Parameters
    ----------
    a, b : MetricDistribution
        Distributions of the same metric.
    max_pairs : int, default 4,000,000
        Up to this many value pairs the difference A − B is enumerated pair by
        pair (grouped on values rounded to 12 decimals); the pairs must fit in the
        memory limit. Beyond it both distributions are binned with a common width
        h = (range of A − B) / ``bins`` and the histograms convolved: each pair's
        difference is then placed within h of its true value. ``prob_greater``,
        ``prob_equal`` and ``prob_less`` are exact either way.
    bins : int, default 2001
        Between 1 and :data:`MAX_BINS`.

    Returns
    -------
    Comparison
        P(A > B), P(A = B), P(A < B) and the distribution of A − B.

    See Also
    --------
    metric_distribution : The distributions compared.
    confusionlab.compare_paired : Two classifiers scored on the *same* test set (their errors are
        correlated, which independent distributions cannot express; the paired answer is sharper).
    confusionlab.evaluate : Distributions from predictions, per group and across refits.
    confusionlab.plan_test_size : How large a test set makes one metric's interval narrow enough.

    Notes
    -----
    Infinite values (LR+, DOR) are kept: a finite value minus +inf is −inf, and
    +inf − +inf is undefined (the difference's ``undefined_mass``).

    Examples
    --------
    >>> from confusionlab import ConfusionMatrix, metric_distribution
    >>> da = metric_distribution(ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "mcc")
    >>> db = metric_distribution(ConfusionMatrix(tp=14, fn=6, fp=10, tn=30), "mcc")
    >>> c = compare(da, db)
    >>> 0.5 < c.prob_greater < 1
    True
    """
    for name, d in (("a", a), ("b", b)):
        check_instance(d, name, MetricDistribution, "a MetricDistribution (from metric_distribution)")
    if a.metric != b.metric:
        raise InvalidParameterError(
            f"a and b must be distributions of the same metric, got {a.metric!r} and {b.metric!r}"
        )
    max_pairs = check_int(max_pairs, "max_pairs", minimum=0)
    bins = check_int(bins, "bins", minimum=1, maximum=MAX_BINS)
    a._require_values("comparison")
    b._require_values("comparison")
    pa, pb = a._p, b._p
    below = np.searchsorted(b.values, a.values, side="left")
    upto = np.searchsorted(b.values, a.values, side="right")
    cdf_b = np.r_[0.0, b._cdf]
    greater = float(np.sum(pa * cdf_b[below]))
    equal = float(np.sum(pa * (cdf_b[upto] - cdf_b[below])))
    less = max(0.0, 1.0 - greater - equal)

    fa, fb = np.isfinite(a.values), np.isfinite(b.values)
    pairs = int(np.count_nonzero(fa)) * int(np.count_nonzero(fb))
    if pairs <= max_pairs:
        check_memory(
            float(pairs) * BYTES_PER_PAIR,
            f"enumerating {pairs:,} value pairs (max_pairs={max_pairs:,})",
            "lower max_pairs so that the difference is binned",
        )
        diff = np.subtract.outer(a.values[fa], b.values[fb]).ravel()
        mass = np.multiply.outer(pa[fa], pb[fb]).ravel()
        uniq, inv = np.unique(np.round(diff, 12), return_inverse=True)
        dmass = np.bincount(inv, weights=mass)
        mult = np.multiply.outer(a.multiplicities[fa], b.multiplicities[fb]).ravel()
        dcount = np.bincount(inv, weights=mult)
        strategy = "pairs"
    else:
        uniq, dmass, dcount = _binned_difference(
            a.values[fa], b.values[fb], pa[fa], pb[fb], a.multiplicities[fa], b.multiplicities[fb], bins
        )
        strategy = f"binned({bins})"
    undefined_mass, undefined_points = 0.0, 0
    if not (fa.all() and fb.all()):
        atoms = _infinite_differences(a, b)
        undefined_mass, undefined_points = atoms.pop(np.nan)
        for value, (m, c) in atoms.items():
            if m > 0:
                uniq, dmass, dcount = _merge_value(uniq, dmass, dcount, value, m, c)
    diff_dist = MetricDistribution(
        uniq,
        dmass,
        np.asarray(dcount).astype(np.int64),
        metric=f"{a.metric} difference",
        model=f"{a.model} - {b.model}",
        strategy=strategy,
        undefined_mass=undefined_mass,
        undefined_points=undefined_points,
        undefined_excluded=True,
        check_total=True,
    )
    return Comparison(greater, equal, less, diff_dist, a, b)


def _infinite_differences(a: MetricDistribution, b: MetricDistribution) -> dict[float, tuple[float, int]]:
    """Mass and multiplicity of A − B = +inf, −inf and undefined (key NaN: inf − inf)."""

    def parts(d: MetricDistribution) -> dict[str, tuple[float, int]]:
        kinds = {"-": d.values == -np.inf, "f": np.isfinite(d.values), "+": d.values == np.inf}
        return {k: (float(d._p[m].sum()), int(d.multiplicities[m].sum())) for k, m in kinds.items()}

    pa, pb = parts(a), parts(b)
    result = {np.inf: (0.0, 0), -np.inf: (0.0, 0), np.nan: (0.0, 0)}
    outcome = {("+", "-"): np.inf, ("+", "f"): np.inf, ("f", "-"): np.inf, ("-", "+"): -np.inf,
               ("-", "f"): -np.inf, ("f", "+"): -np.inf, ("+", "+"): np.nan, ("-", "-"): np.nan}  # fmt: skip
    for (ka, kb), value in outcome.items():
        mass, count = result[value]
        result[value] = (mass + pa[ka][0] * pb[kb][0], count + pa[ka][1] * pb[kb][1])
    return result


def _binned_difference(
    va: np.ndarray, vb: np.ndarray, pa: np.ndarray, pb: np.ndarray, ca: np.ndarray, cb: np.ndarray, bins: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Histogram of A − B from the convolution of the two histograms (common width)."""
    if va.size == 0 or vb.size == 0:
        return np.empty(0), np.empty(0), np.empty(0)
    width = ((va[-1] - va[0]) + (vb[-1] - vb[0])) / bins or 1.0
    ia = np.floor((va - va[0]) / width).astype(np.int64)
    ib = np.floor((vb - vb[0]) / width).astype(np.int64)
    mass_a, count_a = np.bincount(ia, weights=pa), np.bincount(ia, weights=ca)
    mass_b, count_b = np.bincount(ib, weights=pb), np.bincount(ib, weights=cb)
    # index k of the convolution is ia - ib + (len(b bins) - 1)
    dmass = np.convolve(mass_a, mass_b[::-1])
    dcount = np.rint(np.convolve(count_a, count_b[::-1]))
    shift = np.arange(dmass.size) - (mass_b.size - 1)
    centres = va[0] - vb[0] + shift * width
    keep = dcount > 0
    return centres[keep], np.clip(dmass[keep], 0.0, None), dcount[keep]
