"""Results of a bias report: :class:`BiasMetric` and :class:`BiasReport`.

A :class:`BiasReport` is a read-only mapping from Clarify's abbreviation to a
:class:`BiasMetric`: the value (smclarify 0.5's number), or ``None`` with the
error text where smclarify's report has a null, and the metric's posterior
predictive distribution, computed on first use.

Both are results of the library's one protocol (:class:`confusionlab._result.Result`):
``value``, ``interval(confidence)``, ``to_frame()``, ``to_html(path)``, ``plot(ax)``,
``view()``. A metric's ``value`` is its number; a report's is the mapping metric →
number (NaN where a metric could not be computed), and its ``interval`` the mapping
metric → interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cached_property
from typing import Any

from .._deps import require
from .._grouped import ResultMapping
from .._result import Result, new_figure
from .._validation import check_choice, check_confidence, check_margin
from ..distribution import MetricDistribution
from ..distribution.posterior import interval_mc_error, prob_sign_real
from ..models import TARGETS
from .counts import CountTable

__all__ = [
    "DESCRIPTIONS",
    "FAVOURS_A_WHEN_ABOVE",
    "PLAIN_NAMES",
    "POSTTRAINING",
    "PRETRAINING",
    "QUESTIONS",
    "VERDICTS",
    "BiasMetric",
    "BiasReport",
    "favoured",
    "verdict_of",
]

PRETRAINING = ("CDDL", "CI", "DPL", "JS", "KL", "KS", "LP", "TVD")
POSTTRAINING = ("AD", "CDDPL", "DAR", "DCA", "DCR", "DI", "DPPL", "DRR", "FT", "GE", "RD", "SD", "TE")

#: smclarify 0.5's descriptions (the first line of its docstrings, spelling included).
DESCRIPTIONS = {
    "CI": "Class Imbalance (CI)",
    "DPL": "Difference in Positive Proportions in Labels (DPL)",
    "KL": "Kullback-Liebler Divergence (KL)",
    "JS": "Jensen-Shannon Divergence (JS)",
    "LP": "L-p Norm (LP)",
    "TVD": "Total Variation Distance (TVD)",
    "KS": "Kolmogorov-Smirnov Distance (KS)",
    "CDDL": "Conditional Demographic Disparity in Labels (CDDL)",
    "DPPL": "Difference in Positive Proportions in Predicted Labels (DPPL)",
    "DI": "Disparate Impact (DI)",
    "DCA": "Difference in Conditional Acceptance (DCA)",
    "DCR": "Difference in Conditional Rejection (DCR)",
    "RD": "Recall Difference (RD)",
    "DAR": "Difference in Acceptance Rates (DAR)",
    "DRR": "Difference in Rejection Rates (DRR)",
    "SD": "Specificity Difference (SD)",
    "AD": "Accuracy Difference (AD)",
    "TE": "Treatment Equality (TE)",
    "CDDPL": "Conditional Demographic Disparity in Predicted Labels (CDDPL)",
    "FT": "Flip Test (FT)",
    "GE": "Generalized Entropy (GE)",
}


def _plain(description: str) -> str:
    """A description as words in a sentence: the abbreviation dropped, common words in lower case
    (names joined by a hyphen kept), smclarify's "Liebler" spelled as Kullback and Leibler did."""
    words = description.rsplit(" (", 1)[0].replace("Liebler", "Leibler").split()
    return " ".join(w if "-" in w else w.lower() for w in words)


#: Each metric's name in words, for views that show the abbreviations (``CI`` is class imbalance,
#: never a confidence interval): ``PLAIN_NAMES["CI"] == "class imbalance"``.
PLAIN_NAMES = {name: _plain(text) for name, text in DESCRIPTIONS.items()}

#: The question each ``target`` answers, in words (every page and view says which one it shows).
QUESTIONS = {
    "true_value": "the true disparity in the population the data were drawn from (the posterior of the facets' "
    "true rates)",
    "next_test_set": "the disparity on a new sample with the same facet sizes (the posterior predictive distribution)",
}

#: Signed metrics whose value above the no-bias value means facet *a* (the rest, or the reference group) is
#: favoured (True) or facet *d* is (False), reading the positive label as the favourable outcome: a higher
#: positive (prediction) rate, recall or accuracy for a; fewer false acceptances for d (SD: d's higher
#: specificity; TE: more false negatives per false positive in d); CI: facet a is the larger. DCA, DCR, DAR and
#: DRR the other way (a's qualified rows under-accepted relative to d's, …). DI below 1 favours a. The KL family
#: is unsigned.
FAVOURS_A_WHEN_ABOVE = {
    "CI": True,
    "DPL": True,
    "DPPL": True,
    "RD": True,
    "AD": True,
    "SD": True,
    "TE": True,
    "CDDL": False,
    "CDDPL": False,
    "DCA": False,
    "DCR": False,
    "DAR": False,
    "DRR": False,
    "DI": False,
}


def favoured(metric: str, value: float, no_bias: float = 0.0) -> str | None:
    """Which facet the metric's value favours, ``"a"`` or ``"d"``; None when unsigned, NaN or at no bias.

    The positive label is read as the favourable outcome (a loan granted, a high income predicted).

    >>> favoured("DPPL", 0.09), favoured("DI", 0.33, 1.0), favoured("KL", 0.1), favoured("AD", 0.0)
    ('a', 'a', None, None)
    """
    if metric not in FAVOURS_A_WHEN_ABOVE or value is None or math.isnan(value) or value == no_bias:
        return None
    return "a" if (value > no_bias) == FAVOURS_A_WHEN_ABOVE[metric] else "d"


#: The three verdicts of :meth:`BiasMetric.verdict`, from "an effect beyond the margin" to "cannot say".
VERDICTS = ("bias", "no material bias", "insufficient evidence")


def verdict_of(lower: float, upper: float, no_bias: float, margin: float) -> str:
    """The verdict of an interval ``[lower, upper]`` against the band ``no_bias ± margin``.

    Entirely outside the (closed) band → ``"bias"``; entirely inside →
    ``"no material bias"``; overlapping its edge, or NaN (no interval) →
    ``"insufficient evidence"``. With ``margin = 0`` the band is the no-bias value
    itself: "no material bias" then needs an interval that is that single value.
    Arguments are trusted (see :meth:`BiasMetric.verdict`).

    Examples
    --------
    >>> verdict_of(0.12, 0.30, 0.0, 0.1), verdict_of(-0.05, 0.08, 0.0, 0.1), verdict_of(0.05, 0.2, 0.0, 0.1)
    ('bias', 'no material bias', 'insufficient evidence')
    >>> verdict_of(0.5, float("inf"), 1.0, 0.2)      # DI: the band is [0.8, 1.2]
    'insufficient evidence'
    >>> verdict_of(0.0, 0.0, 0.0, 0.0), verdict_of(0.01, 0.2, 0.0, 0.0)
    ('no material bias', 'bias')
    """
    lo_band, hi_band = no_bias - margin, no_bias + margin
    if upper < lo_band or lower > hi_band:
        return "bias"
    if lo_band <= lower and upper <= hi_band:
        return "no material bias"
    return "insufficient evidence"


class BiasMetric(Result):
    """One bias metric: its value, description and posterior predictive uncertainty.

    Parameters
    ----------
    name : str
        Clarify's abbreviation (``"DPPL"``).
    description : str
    value : float or None
        None when the metric could not be computed; then ``error`` says why.
    error : str or None
    no_bias : float
        The value meaning "no bias" (1 for DI, 0 otherwise).
    posterior : callable, optional
        Computes the distribution of the default ``target`` (called on first use).
    posterior_of : callable, optional
        Computes the distribution for a target (``posterior_of("true_value")``); with
        it, :meth:`interval` answers both questions.
    target : {"next_test_set", "true_value"}, default "next_test_set"
        The question :attr:`distribution` and :meth:`interval` answer by default.

    Attributes
    ----------
    name, description, value, error, no_bias
        As given. ``value`` is the result's number (the protocol's ``value``).

    Examples
    --------
    >>> from confusionlab.bias import report_from_counts
    >>> t = CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))
    >>> m = report_from_counts(t, n_draws=2000)["DPPL"]
    >>> m.description, round(m.value, 4)
    ('Difference in Positive Proportions in Predicted Labels (DPPL)', 0.0922)
    >>> lo, hi = m.interval(0.95); bool(0.08 < lo < m.value < hi < 0.11)
    True
    >>> m.prob_sign_real, m.contains_no_bias()
    (1.0, False)
    >>> m.summary()
    'DPPL = 0.0922; its 95% posterior interval of the true value [0.085..., 0.098...] excludes the no-bias value 0. ...'
    >>> lo, hi = m.interval(0.95, target="next_test_set"); bool(0.08 < lo < m.value < hi < 0.11)
    True
    """

    title = "Bias metric"

    def __init__(
        self,
        name: str,
        description: str,
        value: float | None,
        error: str | None = None,
        no_bias: float = 0.0,
        posterior: Callable[[], MetricDistribution | None] | None = None,
        *,
        posterior_of: Callable[[str], MetricDistribution | None] | None = None,
        target: str = "next_test_set",
    ) -> None:
        self.name = name
        self.description = description
        self._value = value
        self.error = error
        self.no_bias = no_bias
        self.target = check_choice(target, "target", TARGETS)
        self._posterior_of = posterior_of
        if posterior is None and posterior_of is not None:
            posterior = lambda: posterior_of(self.target)  # noqa: E731
        self._posterior = posterior
        self._other: dict[str, MetricDistribution | None] = {}

    @property
    def value(self) -> float | None:
        """smclarify's number for this metric, or None when it could not be computed (see ``error``)."""
        return self._value

    def __repr__(self) -> str:
        return (
            f"BiasMetric(name={self.name!r}, description={self.description!r}, value={self.value!r}, "
            f"error={self.error!r}, no_bias={self.no_bias!r})"
        )

    @cached_property
    def distribution(self) -> MetricDistribution | None:
        """The distribution of the default :attr:`target` (None for FT and failed metrics).

        A :class:`confusionlab.distribution.MetricDistribution` (``pmf``, ``cdf``,
        ``ppf``, ``interval``, ``to_scipy``…); its ``strategy`` says whether it is
        exact or Monte Carlo (see :mod:`confusionlab.bias.uncertainty`).
        """
        if self._posterior is None or self.value is None:
            return None
        return self._posterior()

    def distribution_for(self, target: str | None = None) -> MetricDistribution | None:
        """The distribution answering ``target`` (default: :attr:`target`), computed once.

        ``"true_value"``: the posterior of the metric's true value (each facet's true
        rates, Beta or Dirichlet of its counts + α). ``"next_test_set"``: the posterior
        predictive distribution of the metric on a new sample with the same facet sizes.
        """
        target = self.target if target is None else check_choice(target, "target", TARGETS)
        if target == self.target:
            return self.distribution
        if self._posterior_of is None or self.value is None:
            if self._posterior is not None and self.value is not None:
                raise ValueError(f"{self.name} has only its {self.target} distribution")
            return None
        if target not in self._other:
            self._other[target] = self._posterior_of(target)
        return self._other[target]

    def interval(self, confidence: float = 0.95, target: str | None = None) -> tuple[float, float]:
        """Central interval at ``confidence``; (nan, nan) when there is none.

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.

        ``target`` is the question: ``"true_value"`` (the true disparity) or
        ``"next_test_set"`` (a new sample with the same facet sizes); by default the
        metric's own :attr:`target` (a report's ``target=``).
        """
        confidence = check_confidence(confidence)
        d = self.distribution_for(target)
        if d is None:
            return (math.nan, math.nan)
        return d.interval(confidence)

    def mc_error(self, confidence: float = 0.95, target: str | None = None) -> float:
        """How far the interval's ends may move with another ``random_state`` (0 when exact).

        See :func:`~confusionlab.distribution.posterior.interval_mc_error`; NaN without an interval.
        """
        confidence = check_confidence(confidence)
        return interval_mc_error(self.distribution_for(target), confidence)

    @property
    def prob_sign_real(self) -> float:
        """Probability that the metric lies on the observed side of the no-bias value."""
        d = self.distribution
        return math.nan if d is None else prob_sign_real(d, self.value, self.no_bias)

    def contains_no_bias(self, confidence: float = 0.95) -> bool:
        """True when the interval includes the no-bias value (the sign is not established)."""
        lo, hi = self.interval(confidence)
        return bool(lo <= self.no_bias <= hi)

    def verdict(self, margin: float, confidence: float = 0.95, target: str | None = None) -> str:
        """Is there bias beyond ``margin``? A decision an auditor can defend.

        Parameters
        ----------
        margin : float
            Half-width of the band of immaterial values around the no-bias
            value v₀ (1 for DI, 0 for the others): a difference within
            ``v₀ ± margin`` is not material. Finite and ≥ 0; a margin of 0 asks
            whether the metric is exactly its no-bias value.
        confidence : float, default 0.95
            Level of the central interval *I*.
        target : {"true_value", "next_test_set"}, optional
            The question *I* answers (default: the metric's :attr:`target`).

        Returns
        -------
        {"bias", "no material bias", "insufficient evidence"}
            *I* entirely outside ``[v₀ − margin, v₀ + margin]`` → ``"bias"``;
            entirely inside → ``"no material bias"``; otherwise (it overlaps an
            edge of the band) → ``"insufficient evidence"``.

        Raises
        ------
        InvalidParameterError
            ``margin`` not a finite number ≥ 0, ``confidence`` not in (0, 1).
        ValueError
            The metric could not be computed (an empty facet, …: its ``error``
            is the message) or has no posterior (FT).

        Notes
        -----
        A verdict of no bias needs the whole interval inside the band, so a
        small facet, whose interval is wide, is never reported as fair: with
        three rows in facet d the interval of a rate difference spans about a
        third of the scale and the verdict is "insufficient evidence" for any
        margin below that. The interval is the one :meth:`interval` gives (the
        uncertainty of the metric on a new sample with the facet sizes
        observed); for many verdicts at once use simultaneous intervals
        (:func:`confusionlab.bias.audit` does, by Bonferroni).

        Examples
        --------
        >>> from confusionlab.bias import report_from_counts
        >>> big = CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))
        >>> report_from_counts(big)["DPPL"].verdict(margin=0.05)
        'bias'
        >>> report_from_counts(big)["DI"].verdict(margin=0.2)  # DI ≈ 0.33, far below 0.8
        'bias'
        >>> tiny = CountTable.from_confusion(a=(300, 100, 50, 550), d=(1, 0, 0, 2))
        >>> m = report_from_counts(tiny)["DPPL"]
        >>> round(m.value, 3), m.verdict(margin=0.1)
        (0.017, 'insufficient evidence')
        >>> even = CountTable.from_confusion(a=(4000, 1000, 1000, 4000), d=(4000, 1000, 1000, 4000))
        >>> report_from_counts(even)["DPPL"].verdict(margin=0.05)
        'no material bias'
        """
        margin = check_margin(margin)
        confidence = check_confidence(confidence)
        if self.value is None:
            raise ValueError(f"{self.name} has no value, so no verdict: {self.error}")
        if self._posterior is None:
            raise ValueError(f"{self.name} has no posterior interval, so no verdict")
        lo, hi = self.interval(confidence, target)
        return verdict_of(lo, hi, self.no_bias, margin)

    # -- the result protocol ---------------------------------------------------------------
    def _row(self, confidence: float) -> dict[str, Any]:
        lo, hi = self.interval(confidence) if self.value is not None else (math.nan, math.nan)
        return {
            "metric": self.name,
            "description": self.description,
            "value": math.nan if self.value is None else self.value,
            "lower": lo,
            "upper": hi,
            "no_bias": self.no_bias,
            "prob_sign_real": self.prob_sign_real,
            "error": self.error,
            "target": self.target,
        }

    def to_frame(self, confidence: float = 0.95) -> Any:
        """A one-row pandas DataFrame (index: the metric), the columns of :meth:`BiasReport.to_frame`."""
        pd = require("pandas", "bias", "to_frame()")

        confidence = check_confidence(confidence)
        return pd.DataFrame([self._row(confidence)]).set_index("metric")

    def summary(self, confidence: float = 0.95) -> str:
        """The value and whether its interval at ``confidence`` holds the no-bias value, in one sentence."""
        confidence = check_confidence(confidence)
        if self.value is None:
            return f"{self.name} could not be computed: {self.error}"
        if self.distribution is None:
            return f"{self.name} = {self.value:.4g} (no posterior interval: it is not a function of counts)."
        lo, hi = self.interval(confidence)
        holds = "holds" if lo <= self.no_bias <= hi else "excludes"
        kind = (
            "posterior interval of the true value" if self.target == "true_value" else "posterior predictive interval"
        )
        side = favoured(self.name, self.value, self.no_bias)
        who = f" The value favours facet {side}." if side and holds == "excludes" else ""
        return (
            f"{self.name} = {self.value:.4g}; its {confidence:.0%} {kind} "
            f"[{lo:.4g}, {hi:.4g}] {holds} the no-bias value {self.no_bias:g}.{who}"
        )

    def plot(self, ax: Any = None, *, confidence: float = 0.95) -> Any:
        """The posterior predictive distribution, its ``confidence`` interval shaded, and the no-bias value.

        Returns the matplotlib Figure (``ax``'s own when given).
        """
        from .figures import draw_distribution

        confidence = check_confidence(confidence)
        fig, ax = new_figure(ax)
        draw_distribution(ax, self, confidence)
        return fig


class BiasReport(ResultMapping):
    """Read-only mapping abbreviation → :class:`BiasMetric`, sorted by name.

    It shares the mapping part of the grouped results (:class:`confusionlab._grouped.ResultMapping`):
    ``r["DPPL"]`` is a metric, ``r.names`` the metrics, ``r.members`` the dict, ``len``, ``in`` and
    iteration over the names. It is keyed by metric, not by group, so it has no ``by_group``,
    ``overall`` or ``difference()``: the report compares one facet (d) with the rest (a), and each
    metric is already such a difference between the two groups (``|DPPL|`` is fairlearn's
    ``demographic_parity_difference`` of the two); :attr:`value` is metric → number.

    Attributes
    ----------
    members : dict
        Metric → :class:`BiasMetric`, sorted by name.
    counts : CountTable
        The group-by count table every count-based metric came from.
    value_or_threshold : str
        The facet description Clarify writes (``"Female"``, ``"(40.0, 90.0]"``).
    value : dict
        Metric → its value (NaN where it could not be computed).

    Examples
    --------
    >>> from confusionlab.bias import report_from_counts
    >>> t = CountTable.from_confusion(a=(30, 10, 5, 55), d=(0, 0, 0, 0))
    >>> r = report_from_counts(t, stage="post", value_or_threshold="Female")
    >>> r["DPPL"].value is None, r["DPPL"].error
    (True, 'facet d is empty: no row matches the sensitive facet values or threshold')
    >>> first = r.to_clarify_json()[0]["metrics"][0]
    >>> first["name"], first["value"], first["error"].startswith("facet d is empty")
    ('AD', None, True)
    """

    title = "Bias report"
    member_noun = "metric"
    mapping_noun = "report"
    repr_attributes = ("value_or_threshold",)

    def __init__(
        self,
        metrics: dict[str, BiasMetric],
        counts: CountTable,
        value_or_threshold: str,
        *,
        target: str = "next_test_set",
    ) -> None:
        self.members = dict(sorted(metrics.items()))
        self.counts = counts
        self.value_or_threshold = value_or_threshold
        self.target = check_choice(target, "target", TARGETS)

    @property
    def value(self) -> dict[str, float]:
        """Metric → its value, NaN where the metric could not be computed (its ``error`` says why).

        >>> from confusionlab.bias import report_from_counts
        >>> t = CountTable.from_confusion(a=(50, 10, 5, 35), d=(20, 10, 5, 15))
        >>> round(report_from_counts(t, stage="post", n_draws=500).value["DPPL"], 4)  # 55/100 − 25/50
        0.05
        """
        return {k: math.nan if m.value is None else float(m.value) for k, m in self.members.items()}

    def interval(self, confidence: float = 0.95, target: str | None = None) -> dict[str, tuple[float, float]]:
        """Metric → its central interval for ``target`` (default the report's; (nan, nan) where there is none).

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.
        """
        confidence = check_confidence(confidence)
        return {k: m.interval(confidence, target) for k, m in self.members.items()}

    def to_frame(self, confidence: float = 0.95) -> Any:
        """A pandas DataFrame: one row per metric with value, interval, sign probability, the error
        where there is one and ``target``, the question the interval answers."""
        pd = require("pandas", "bias", "to_frame()")

        confidence = check_confidence(confidence)
        return pd.DataFrame([m._row(confidence) for m in self.members.values()]).set_index("metric")

    def summary(self, confidence: float = 0.95) -> str:
        """Which metrics' intervals at ``confidence`` exclude their no-bias value, in one sentence."""
        confidence = check_confidence(confidence)
        shown = [m for m in self.members.values() if m.value is not None and m.distribution is not None]
        excludes = [m.name for m in shown if not m.contains_no_bias(confidence)]
        failed = sum(m.value is None for m in self.members.values())
        text = (
            f"Facet {self.value_or_threshold} (d) against the rest (a); the question: {QUESTIONS[self.target]}. "
            f"{len(excludes)} of {len(shown)} metrics with an interval exclude their no-bias value at {confidence:.0%}"
        )
        text += f" ({', '.join(excludes)})" if excludes else ""
        text += f"; {failed} could not be computed." if failed else "."
        return text

    def plot(self, ax: Any = None, *, confidence: float = 0.95) -> Any:
        """Forest plot: every metric with an interval, measured from its no-bias value.

        Red where the interval at ``confidence`` excludes the no-bias value, grey where
        it holds it; a circle for an exact interval, a square for a Monte Carlo one. A
        symmetric-log axis when a metric reaches far beyond ±1 (TE, DI). Returns the
        matplotlib Figure.
        """
        from .figures import draw_intervals

        confidence = check_confidence(confidence)
        fig, ax = new_figure(ax, figsize=(6.5, 0.3 * len(self) + 1.5))
        draw_intervals(ax, list(self.members.values()), confidence)
        ends = [abs(x) for line in ax.lines[:-1] for x in line.get_xdata() if math.isfinite(x)]
        if ends and max(ends) > 2.0:
            ax.set_xscale("symlog", linthresh=1.0)
        return fig

    def to_clarify_json(self) -> list[dict[str, Any]]:
        """The report in smclarify's ``bias_report`` shape.

        One facet entry ``{"value_or_threshold": ..., "metrics": [...]}``;
        metrics sorted by name, each ``{"name", "description", "value"}`` plus
        ``"error"`` when it failed (value None); ±inf written ``"Infinity"`` /
        ``"-Infinity"``.
        """
        out = []
        for m in self.members.values():
            entry: dict[str, Any] = {"name": m.name, "description": m.description}
            if m.value is None:
                entry["value"] = None
                entry["error"] = m.error
            elif math.isinf(m.value):
                entry["value"] = "Infinity" if m.value > 0 else "-Infinity"
            else:
                entry["value"] = m.value
            out.append(entry)
        return [{"value_or_threshold": self.value_or_threshold, "metrics": out}]
