"""`MetricPMF`: exact PMFs of a metric under the binomial and beta-binomial models.

Panels side by side (one per model, same axes), each with the PMF as sticks or as a
histogram, a rug of the distinct values, the number of lattice points giving each
value (multiplicity), the mean and a central interval. Every number comes from
:func:`confusionlab.metric_distribution`; the browser only scales and draws.

Why a canvas anywidget and not bqplot: a PMF at N = 10,000 has up to hundreds of
thousands of distinct values (far beyond bqplot's ~10k marks), and anywidget
state, unlike bqplot figures, renders in a static HTML export (the front-end travels
in the state, see :func:`confusionlab.export.to_html`).
"""

from __future__ import annotations

import html
import math
from typing import Any

import ipywidgets
import numpy as np
import traitlets

from .._validation import TooLargeError, check_int
from .._views import register_view
from ..confusion import ConfusionMatrix
from ..distribution import Comparison, MetricDistribution, metric_distribution
from ..metrics import METRICS
from ..models import SLICE_MODELS, slice_model
from ..palette import PAIR_COLOURS
from ._common import (
    Buffer,
    BundledWidget,
    Confidence,
    Integer,
    InvalidTraitError,
    MetricName,
    SliceCounts,
    Tolerance,
    buffer_array,
    observed_defaults,
    too_large,
)

__all__ = ["MetricPMF", "comparison_view", "distribution_view"]

#: Models a panel can show: the models of one slice (:data:`confusionlab.models.SLICE_MODELS`).
PMF_MODELS = SLICE_MODELS

#: Lattice points up to which a panel is exact (beyond: Monte Carlo of the same model).
EXACT_POINTS = 4_000_000
#: Monte Carlo draws of a panel beyond :data:`EXACT_POINTS`.
PANEL_DRAWS = 200_000

#: Mass left outside the shown value range on each side (the axis zooms on the mass).
DOMAIN_TAIL = 1e-6


class MetricPMF(BundledWidget, SliceCounts, bundle="metric_pmf"):
    """Exact PMFs of a metric for a new test set, one panel per uncertainty model.

    Parameters
    ----------
    p, n : int
        Positives and negatives of the observed (and predicted) test set.
    tp, tn : int
        The observed matrix (``0 <= tp <= p``, ``0 <= tn <= n``); default half of
        ``p`` and ``n``.
    metric : str
        A key of :data:`confusionlab.METRICS` (or an alias).
    models : list of str
        Panels, left to right; default ``["binomial", "beta-binomial"]``.
    mode : {"pmf", "histogram"}
        Sticks at each distinct value, or the mass in ``bins`` equal bins.
    bins : int
        Number of histogram bins over the shown range (2 to 400).
    confidence : float
        Mass of the central interval marked on each panel (default 0.95).
    tolerance : float
        Tail mass each marginal may drop (``metric_distribution``'s
        ``tolerance``, default :data:`~confusionlab._validation.DEFAULT_TOLERANCE`,
        1e-12); reported per panel.
    max_values : int
        Largest number of distinct values sent per panel (default 20,000). A
        larger PMF is sent aggregated into ``max_values // 10`` equal-width bins
        (mass, multiplicity and number of distinct values per bin); the panel
        says so. Mean and interval are always those of the exact distribution.
    width : int
        Width of each panel in CSS pixels.
    generation : int
        Counter set by a controller with the state, mirrored as ``data-generation``.

    Notes
    -----
    Change several traits at once with :meth:`update`. A refused change — an invalid
    value, or a failure of :func:`metric_distribution` (e.g. a lattice above the
    memory limit) — leaves every trait, every buffer and :meth:`distributions` as
    they were.

    Browser state: root class ``confusionlab-metric-pmf`` with ``data-p``,
    ``data-n``, ``data-tp``, ``data-tn``, ``data-metric``, ``data-mode``,
    ``data-values`` (distinct values per panel, comma-separated),
    ``data-marks`` (sticks or bars drawn) and ``data-generation``.

    Examples
    --------
    >>> from confusionlab.widgets.metric_pmf import MetricPMF
    >>> w = MetricPMF(p=20, n=40, tp=16, tn=32, metric="balanced_accuracy", tolerance=0)
    >>> [len(d) for d in w.distributions().values()]
    [81, 81]
    """

    metric = MetricName("mcc", help="key of confusionlab.METRICS").tag(sync=True)
    models = traitlets.List(traitlets.Unicode(), list(PMF_MODELS), help="one panel per model").tag(sync=True)
    mode = traitlets.Enum(("pmf", "histogram"), "pmf", help="sticks or histogram").tag(sync=True)
    bins = Integer(30, min=2, max=400, help="histogram bins").tag(sync=True)
    confidence = Confidence(0.95, help="central interval marked").tag(sync=True)
    tolerance = Tolerance(help="tail mass each marginal may drop")
    max_values = Integer(20_000, min=20, help="distinct values sent per panel before aggregating")
    width = Integer(360, min=200, max=2000, help="panel width in CSS pixels").tag(sync=True)
    generation = Integer(0, help="state counter set by a controller").tag(sync=True)

    # Computed state (binary buffers, little-endian), panels concatenated.
    _panels = traitlets.List(traitlets.Dict()).tag(sync=True)  # per panel: summary numbers
    _offsets = traitlets.List(traitlets.Int()).tag(sync=True)  # start of each panel's values + end
    _values = Buffer("<f8").tag(sync=True)  # ascending per panel
    _probabilities = Buffer("<f4").tag(sync=True)
    _multiplicities = Buffer("<u4").tag(sync=True)  # lattice points per value
    _distinct = Buffer("<u4").tag(sync=True)  # distinct values per entry (1 unless binned)
    _domain = traitlets.List(traitlets.Float()).tag(sync=True)  # shown value range [lo, hi]
    _metric_label = traitlets.Unicode("").tag(sync=True)

    #: The exact distributions shown roll back with the buffers drawn from them.
    _EXTRA_STATE = ("_distributions",)

    def __init__(self, **kwargs: Any) -> None:
        self._distributions: dict[str, MetricDistribution] = {}
        super().__init__(**observed_defaults(kwargs))

    # ----------------------------------------------------------------- validation
    @traitlets.validate("models")
    def _check_models(self, proposal: traitlets.Bunch) -> list[str]:
        models = list(proposal.value)
        bad = [m for m in models if m not in PMF_MODELS]
        if bad or not 1 <= len(models) <= 4:
            raise InvalidTraitError(f"models must be 1 to 4 of {list(PMF_MODELS)}, got models={models!r}.")
        return models

    def _distribution(self, cm: ConfusionMatrix, model: str) -> MetricDistribution:
        """One panel's distribution: exact up to :data:`EXACT_POINTS` lattice points (and
        within the memory limit), else :data:`PANEL_DRAWS` Monte Carlo draws of the same
        model — the panel's ``method`` says which (a slider must answer in a second or two:
        MCC at p = n = 10⁵ took 105 s and 3.7 GB exactly)."""
        sl = slice_model(cm, model, tolerance=self.tolerance)
        exact = sl.tp_pmf.size * sl.tn_pmf.size <= EXACT_POINTS
        return metric_distribution(
            cm,
            self.metric,
            model,
            tolerance=self.tolerance,
            method="auto" if exact else "monte-carlo",
            n_draws=PANEL_DRAWS,
        )

    # ------------------------------------------------------------------ public API
    def distributions(self) -> dict[str, MetricDistribution]:
        """The exact distributions shown, by model (computed by :func:`metric_distribution`)."""
        return dict(self._distributions)

    def panel_data(self, index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Values, probabilities, multiplicities and distinct counts sent for panel ``index``.

        ``index`` is a panel, ``0 <= index < len(models)`` (numpy integers too; booleans and
        negative indices are refused with :class:`~confusionlab.InvalidParameterError`).
        """
        index = check_int(index, "index", minimum=0, maximum=len(self._offsets) - 2)
        start, stop = self._offsets[index], self._offsets[index + 1]
        names = ("_values", "_probabilities", "_multiplicities", "_distinct")
        values, probs, mult, distinct = (buffer_array(self, name)[start:stop] for name in names)
        return values, probs, mult, distinct

    # ------------------------------------------------------------------ observers
    @traitlets.observe("p", "n", "tp", "tn", "metric", "models", "confidence", "tolerance", "max_values")
    def _on_change(self, change: traitlets.Bunch) -> None:
        self._request(self._ALL_PARTS)

    def _refresh(self, parts: set[str]) -> None:
        cm = ConfusionMatrix(tp=self.tp, fn=self.p - self.tp, fp=self.n - self.tn, tn=self.tn)
        try:
            dists = {m: self._distribution(cm, m) for m in self.models}
        except TooLargeError as error:  # the core's advice names future_size, which the widget does not have
            raise too_large(
                error,
                f"MetricPMF cannot show p = {self.p:,}, n = {self.n:,} with {self.metric} within the memory limit",
                f"raise tolerance (now {self.tolerance:g}), choose a metric that needs less (accuracy, the rates), "
                "or raise the limit (confusionlab.set_memory_limit)",
            ) from None
        panels, chunks = [], []
        offsets = [0]
        for model, d in dists.items():
            chunk = _aggregate(d, self.max_values)
            chunks.append(chunk)
            offsets.append(offsets[-1] + chunk[0].size)
            i_lo, i_hi = d.interval(self.confidence)
            mean, std = _mean_std(d)
            panels.append(
                {
                    "model": model,
                    "distinct": len(d),
                    "lattice_points": d.lattice_points,
                    "mean": mean,
                    "std": std,
                    "interval": [i_lo, i_hi],
                    "confidence": self.confidence,
                    "mode_value": d.mode(),
                    "undefined_mass": d.undefined_mass,
                    "pruned_mass": d.pruned_mass,
                    "aggregated": chunk[0].size != len(d),
                    "method": d.method,
                    "mc_error": d.mc_error,
                    "cdf_error": d.cdf_error,
                }
            )
        lo, hi = _domain(dists.values())  # after the intervals: reads the cdf they computed
        if not hi > lo:
            pad = max(abs(lo), 1.0) * 0.05
            lo, hi = lo - pad, hi + pad
        values, probs, mult, distinct = (np.concatenate([c[k] for c in chunks]) for k in range(4))
        # Everything computed: now the state changes (in one message, see the base).
        self._distributions = dists
        self._metric_label = METRICS[self.metric].label
        self._domain = [float(lo), float(hi)]
        self._values = values
        self._probabilities = probs
        self._multiplicities = np.minimum(mult, 2**32 - 1)
        self._distinct = distinct
        self._offsets = offsets
        self._panels = [_json_safe(p) for p in panels]


def _all_finite(values: np.ndarray) -> bool:
    """Whether sorted ``values`` are all finite (±inf can only sit at the ends)."""
    return values.size > 0 and bool(np.isfinite(values[0]) and np.isfinite(values[-1]))


def _domain(dists: Any) -> tuple[float, float]:
    """Value range holding all but DOMAIN_TAIL of each distribution's mass on each side,
    over finite values (LR+ and the odds ratio reach infinity).

    A distribution with finite values only is read through its own quantiles (:meth:`ppf`
    on the cdf it keeps, the one its interval already computed): no second pass over it.
    """
    lo, hi = math.inf, -math.inf
    for d in dists:
        if isinstance(d, MetricDistribution) and _all_finite(d.values):
            a, b = d.ppf(np.array([DOMAIN_TAIL, 1 - DOMAIN_TAIL]))
            lo, hi = min(lo, float(a)), max(hi, float(b))
            continue
        finite = np.isfinite(d.values)
        if not finite.any():
            continue
        v, w = d.values[finite], d.probabilities[finite]
        cdf = np.cumsum(w) / w.sum()
        lo = min(lo, float(v[min(np.searchsorted(cdf, DOMAIN_TAIL), v.size - 1)]))
        hi = max(hi, float(v[min(np.searchsorted(cdf, 1 - DOMAIN_TAIL), v.size - 1)]))
    return (0.0, 1.0) if lo > hi else (lo, hi)


def _mean_std(d: MetricDistribution) -> tuple[float, float]:
    """``(d.mean(), d.std())`` in one pass over the values (the same sums as the core's)
    when every value is finite; the core's own methods otherwise (±inf, no values)."""
    values = d.values
    if not _all_finite(values):
        return d.mean(), d.std()
    total = d.probabilities.sum()
    p = d.probabilities / total if total > 0 else d.probabilities
    mean = float(np.sum(p * values))
    return mean, math.sqrt(float(np.sum(p * (values - mean) ** 2)))


def _aggregate(d: MetricDistribution, max_values: int) -> tuple[np.ndarray, ...]:
    """The distribution's (values, probabilities, multiplicities, distinct counts), or,
    above ``max_values`` distinct values, the same summed into ``max_values // 10``
    equal-width bins over the support (value = mass-weighted mean of the bin)."""
    values, probs, mult = d.values, d.probabilities, d.multiplicities
    if values.size <= max_values:
        return values, probs, mult, np.ones(values.size, dtype=np.int64)
    bins = max(2, max_values // 10)
    if _all_finite(values):
        lo, hi = float(values[0]), float(values[-1])
    else:
        finite = values[np.isfinite(values)]
        lo, hi = float(finite[0]), float(finite[-1])
        values = np.clip(values, lo, hi)  # ±inf (LR+, odds ratio) go to the end bins; order kept
    # Values are sorted: each bin is a run [start, next start), found by searchsorted.
    edges = lo + (hi - lo) * np.arange(bins) / bins
    starts = np.searchsorted(values, edges, side="left")
    stops = np.append(starts[1:], values.size)
    runs = starts[stops > starts]  # first index of each non-empty bin
    count = np.diff(np.append(runs, values.size))
    mass = np.add.reduceat(probs, runs)
    weighted = np.add.reduceat(probs * values, runs)
    empty = mass <= 0
    centre = weighted / np.where(empty, 1, mass)
    if empty.any():  # bins of zero mass: the plain mean of their values
        centre[empty] = (np.add.reduceat(values, runs) / count)[empty]
    multiplicity = np.add.reduceat(mult, runs)
    return centre, mass, multiplicity.astype(np.int64), count


def _json_safe(panel: dict[str, Any]) -> dict[str, Any]:
    """Floats that JSON can carry (NaN/inf become None)."""

    def fix(v: Any) -> Any:
        if isinstance(v, float):
            return v if math.isfinite(v) else None
        if isinstance(v, list):
            return [fix(x) for x in v]
        return v

    return {k: fix(v) for k, v in panel.items()}


def distribution_view(distribution: MetricDistribution) -> MetricPMF:
    """The view of a :class:`~confusionlab.MetricDistribution`: the :class:`MetricPMF` of its observed
    matrix, one panel for its model (:meth:`MetricDistribution.view
    <confusionlab.MetricDistribution.view>` first refuses what this widget cannot show)."""
    origin = distribution.origin
    assert origin is not None
    cm = origin.cm
    return MetricPMF(
        p=cm.p,
        n=cm.n,
        tp=cm.tp,
        tn=cm.tn,
        metric=distribution.metric,
        models=[distribution.model],
        tolerance=origin.tolerance,
    )


def comparison_view(comparison: Comparison) -> ipywidgets.HBox:
    """The view of a :class:`~confusionlab.Comparison`: its two sides' :class:`MetricPMF`, A beside B."""
    panels = []
    for name, side in (("A", comparison.a), ("B", comparison.b)):
        heading = ipywidgets.HTML(f"<b style='color:{PAIR_COLOURS[name]}'>{name}</b>: {html.escape(side.metric)}")
        panels.append(ipywidgets.VBox([heading, side.view()]))
    return ipywidgets.HBox(panels)


register_view(MetricDistribution, distribution_view)
register_view(Comparison, comparison_view)
