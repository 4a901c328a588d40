"""Results of a bias report: :class:`BiasMetric` and :class:`BiasReport`.

A :class:`BiasReport` is a read-only mapping from Clarify's abbreviation to a
:class:`BiasMetric`: the value (smclarify 0.5's number), or ``None`` with the
error text where smclarify's report has a null, and the metric's posterior
predictive distribution, computed on first use.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .._validation import check_confidence
from ..distribution import MetricDistribution
from .counts import CountTable
from .uncertainty import prob_sign_real

__all__ = ["DESCRIPTIONS", "POSTTRAINING", "PRETRAINING", "BiasMetric", "BiasReport"]

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


@dataclass
class BiasMetric:
    """One bias metric: its value, description and posterior predictive uncertainty.

    Attributes
    ----------
    name : str
        Clarify's abbreviation (``"DPPL"``).
    description : str
    value : float or None
        None when the metric could not be computed; then ``error`` says why.
    error : str or None
    no_bias : float
        The value meaning "no bias" (1 for DI, 0 otherwise).

    Examples
    --------
    >>> from confusionlab.bias import report_from_counts
    >>> t = CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))
    >>> m = report_from_counts(t, n_samples=2000)["DPPL"]
    >>> m.description, round(m.value, 4)
    ('Difference in Positive Proportions in Predicted Labels (DPPL)', 0.0922)
    >>> lo, hi = m.interval(0.95); bool(0.08 < lo < m.value < hi < 0.11)
    True
    >>> m.prob_sign_real, m.contains_no_bias()
    (1.0, False)
    """

    name: str
    description: str
    value: float | None
    error: str | None = None
    no_bias: float = 0.0
    _posterior: Callable[[], MetricDistribution | None] | None = field(default=None, repr=False)

    @cached_property
    def distribution(self) -> MetricDistribution | None:
        """Posterior predictive distribution (None for FT and failed metrics).

        A :class:`confusionlab.distribution.MetricDistribution` (``pmf``, ``cdf``,
        ``ppf``, ``interval``, ``to_scipy``…); its ``strategy`` says whether it is
        exact or Monte Carlo (see :mod:`confusionlab.bias.uncertainty`).
        """
        if self._posterior is None or self.value is None:
            return None
        return self._posterior()

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Central posterior predictive interval; (nan, nan) when there is none."""
        confidence = check_confidence(confidence)
        d = self.distribution
        if d is None:
            return (math.nan, math.nan)
        return d.interval(confidence)

    @property
    def prob_sign_real(self) -> float:
        """Probability that the metric lies on the observed side of the no-bias value."""
        d = self.distribution
        return math.nan if d is None else prob_sign_real(d, self.value, self.no_bias)

    def contains_no_bias(self, confidence: float = 0.95) -> bool:
        """True when the interval includes the no-bias value (the sign is not established)."""
        lo, hi = self.interval(confidence)
        return bool(lo <= self.no_bias <= hi)


class BiasReport(Mapping[str, BiasMetric]):
    """Read-only mapping abbreviation → :class:`BiasMetric`, sorted by name.

    Attributes
    ----------
    counts : CountTable
        The group-by count table every count-based metric came from.
    value_or_threshold : str
        The facet description Clarify writes (``"Female"``, ``"(40.0, 90.0]"``).

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

    def __init__(self, metrics: dict[str, BiasMetric], counts: CountTable, value_or_threshold: str) -> None:
        self._metrics = dict(sorted(metrics.items()))
        self.counts = counts
        self.value_or_threshold = value_or_threshold

    def __getitem__(self, key: str) -> BiasMetric:
        try:
            return self._metrics[key]
        except KeyError:
            raise KeyError(f"{key!r} is not in this report; it has {list(self._metrics)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._metrics)

    def __len__(self) -> int:
        return len(self._metrics)

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={m.value if m.value is not None else 'error'}" for k, m in self._metrics.items())
        return f"BiasReport({self.value_or_threshold!r}: {body})"

    def to_frame(self, confidence: float = 0.95) -> Any:
        """A pandas DataFrame: one row per metric with value, interval and sign probability."""
        import pandas as pd

        confidence = check_confidence(confidence)
        rows = []
        for m in self._metrics.values():
            lo, hi = m.interval(confidence) if m.value is not None else (math.nan, math.nan)
            rows.append(
                {
                    "metric": m.name,
                    "description": m.description,
                    "value": math.nan if m.value is None else m.value,
                    "lower": lo,
                    "upper": hi,
                    "no_bias": m.no_bias,
                    "prob_sign_real": m.prob_sign_real,
                    "error": m.error,
                }
            )
        return pd.DataFrame(rows).set_index("metric")

    def to_clarify_json(self) -> list[dict[str, Any]]:
        """The report in smclarify's ``bias_report`` shape.

        One facet entry ``{"value_or_threshold": ..., "metrics": [...]}``;
        metrics sorted by name, each ``{"name", "description", "value"}`` plus
        ``"error"`` when it failed (value None); ±inf written ``"Infinity"`` /
        ``"-Infinity"``.
        """
        out = []
        for m in self._metrics.values():
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
