"""`PairedView`: is B really better than A — one canvas view of a paired comparison.

Three things, every number from :class:`confusionlab.paired.PairedComparison`:

* the joint PMF of (metric_A, metric_B) on a new test set as a heat map
  (:meth:`PairedComparison.joint <confusionlab.paired.PairedComparison.joint>`), with the
  diagonal A = B and the band ``|A − B| ≤ margin``; the mass below the diagonal is P(A > B);
* the PMF of the difference A − B (:attr:`PairedComparison.difference`) with the margin band;
* the verdict (:meth:`PairedComparison.verdict`) and P(A > B), P(A = B), P(A < B) in words,
  under a sentence that names the question.

The browser only scales, colours and writes text. A canvas anywidget, so it renders in the
static HTML export offline.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import traitlets

from .._validation import check_instance, check_margin
from .._views import register_view
from ..metrics import METRICS, metric_value
from ..paired import PairedComparison
from ._common import Buffer, BundledWidget, Confidence, Integer, InvalidTraitError
from .metric_pmf import _aggregate, _domain, _json_safe

__all__ = ["PairedView"]

#: Most bins the joint is computed on over its full range (the shown square is cut from it).
MAX_FULL_BINS = 256


class Margin(traitlets.Float):
    """Half-width of the band of practical equivalence, checked by the library's one margin rule
    (:func:`confusionlab._validation.check_margin`, as :meth:`PairedComparison.prob_equivalent`):
    a finite number ≥ 0, bool refused."""

    def validate(self, obj: Any, value: Any) -> float:
        try:
            return check_margin(value, self.name)
        except (TypeError, ValueError) as error:
            raise InvalidTraitError(f"{self.name}: {error}") from None


class PairedView(BundledWidget, bundle="paired"):
    """The paired comparison of two classifiers scored on the same test set, drawn.

    Parameters
    ----------
    comparison : PairedComparison
        From :func:`confusionlab.paired.compare_paired` (or ``compare_paired_cells``); also
        :meth:`PairedComparison.view <confusionlab.paired.PairedComparison.view>`.
    margin : float
        Differences within ±margin count as practically equivalent (default 0): drawn as a
        band and used by the verdict and by ``P(|A − B| ≤ margin)``.
    confidence : float
        Level of the central interval of A − B the verdict rests on (default 0.95).
    bins : int
        Cells per side of the heat map over the shown square (4 to 200, default 48). The
        square holds all but about 1e-6 of each marginal's mass on each side; the joint is
        binned by :meth:`PairedComparison.joint` over the full range and cut to it.
    name_a, name_b : str
        Names of the two classifiers in the text (default "A" and "B").
    max_values : int
        Distinct differences sent before aggregating into ``max_values // 10`` bins.
    width : int
        Side of the heat map (and width of the difference panel) in CSS pixels.
    generation : int
        Counter set by a controller with the state, mirrored as ``data-generation``.

    Notes
    -----
    Browser state: root class ``confusionlab-paired`` with ``data-metric``,
    ``data-margin``, ``data-confidence``, ``data-bins`` (cells per side),
    ``data-cells`` (cells coloured), ``data-marks`` (difference sticks drawn),
    ``data-diff-values``, ``data-verdict``, ``data-method``, ``data-prob-greater``,
    ``data-prob-equal``, ``data-prob-less`` and ``data-generation``.

    A refused change (a negative margin, a confidence outside (0, 1), ...) leaves every
    trait and buffer as it was.

    Examples
    --------
    >>> from confusionlab.paired import compare_paired_cells
    >>> r = compare_paired_cells([[50, 3, 1, 6], [2, 4, 1, 33]], "accuracy")
    >>> w = PairedView(r, margin=0.02, bins=20)
    >>> w._summary["verdict"] == r.verdict(0.02, 0.95)
    True
    >>> w._summary["prob_greater"] == r.prob_greater
    True
    """

    margin = Margin(0.0, help="half-width of the band of practical equivalence").tag(sync=True)
    confidence = Confidence(0.95, help="level of the interval of A − B").tag(sync=True)
    bins = Integer(48, min=4, max=200, help="heat-map cells per side").tag(sync=True)
    name_a = traitlets.Unicode("A", help="name of classifier A").tag(sync=True)
    name_b = traitlets.Unicode("B", help="name of classifier B").tag(sync=True)
    max_values = Integer(4000, min=20, help="distinct differences sent before aggregating")
    width = Integer(320, min=160, max=1200, help="heat-map side in CSS pixels").tag(sync=True)
    generation = Integer(0, help="state counter set by a controller").tag(sync=True)

    metric = traitlets.Unicode("").tag(sync=True)
    _edges = Buffer("<f8").tag(sync=True)  # bins + 1 common edges of both axes
    _joint = Buffer("<f4").tag(sync=True)  # bins × bins, row = A's bin, column = B's bin
    _diff_values = Buffer("<f8").tag(sync=True)
    _diff_probabilities = Buffer("<f4").tag(sync=True)
    _diff_domain = traitlets.List(traitlets.Float()).tag(sync=True)
    _summary = traitlets.Dict().tag(sync=True)
    _question = traitlets.Unicode("").tag(sync=True)
    _metric_label = traitlets.Unicode("").tag(sync=True)

    _ALL_PARTS = frozenset({"joint", "difference", "decision"})
    _EXTRA_STATE = ("_facts",)

    def __init__(self, comparison: PairedComparison, **kwargs: Any) -> None:
        self._comparison = check_instance(
            comparison, "comparison", PairedComparison, "a PairedComparison (from compare_paired)"
        )
        self._facts: dict[str, Any] = {}
        kwargs["metric"] = comparison.metric
        super().__init__(**kwargs)

    @property
    def comparison(self) -> PairedComparison:
        """The comparison drawn."""
        return self._comparison

    # ----------------------------------------------------------------- validation
    @traitlets.validate("metric")
    def _fixed_metric(self, proposal: traitlets.Bunch) -> str:
        if proposal.value != self._comparison.metric:
            raise InvalidTraitError(
                f"metric is the comparison's ({self._comparison.metric!r}); make a new comparison for "
                f"{proposal.value!r}"
            )
        return proposal.value

    # ----------------------------------------------------------------- observers
    @traitlets.observe("bins")
    def _on_bins(self, change: traitlets.Bunch) -> None:
        self._request({"joint"})

    @traitlets.observe("max_values")
    def _on_max_values(self, change: traitlets.Bunch) -> None:
        self._request({"difference"})

    @traitlets.observe("margin", "confidence", "name_a", "name_b")
    def _on_decision(self, change: traitlets.Bunch) -> None:
        self._request({"difference", "decision"})  # the band widens the shown range

    def _refresh(self, parts: set[str]) -> None:
        r = self._comparison
        facts = dict(self._facts)
        if "joint" in parts:
            edges, mass = _shown_joint(r, self.bins)
            facts["joint"] = (edges, mass.astype(np.float32))
            facts["outside_mass"] = max(0.0, 1.0 - float(mass.sum()))
        if "difference" in parts:
            d = r.difference
            values, probs, _, _ = _aggregate(d, self.max_values)
            lo, hi = _domain([d])
            lo, hi = min(lo, -self.margin, 0.0), max(hi, self.margin, 0.0)
            if not hi > lo:
                lo, hi = lo - 0.05, hi + 0.05
            pad = (hi - lo) * 0.02
            facts["difference"] = (values, probs, [float(lo - pad), float(hi + pad)], values.size != len(d))
        if "decision" in parts:
            lo, hi = r.interval(self.confidence)
            facts["decision"] = {
                "margin": self.margin,
                "confidence": self.confidence,
                "verdict": r.verdict(self.margin, self.confidence),
                "prob_equivalent": r.prob_equivalent(self.margin),
                "interval": [lo, hi],
            }
        edges, mass = facts["joint"]
        values, probs, domain, aggregated = facts["difference"]
        p, n = r.future_size
        va = metric_value(r.counts.matrix_a, r.metric, undefined=r.undefined)
        vb = metric_value(r.counts.matrix_b, r.metric, undefined=r.undefined)
        summary = {
            "prob_greater": r.prob_greater,
            "prob_equal": r.prob_equal,
            "prob_less": r.prob_less,
            "value": r.value,
            "value_a": va,
            "value_b": vb,
            "method": r.method,
            "n_draws": r.n_draws,
            "mc_error": r.mc_error,
            "pruned_mass": r.pruned_mass,
            "outside_mass": facts["outside_mass"],
            "aggregated": aggregated,
            "discordant": r.counts.discordant_cells,
            "future_p": p,
            "future_n": n,
            "model": r.model,
            "interval_method": r.interval_method,
            "n_clusters": r.n_clusters,
            **facts["decision"],
        }
        # Everything computed: now the state changes (one message, see the base).
        self._facts = facts
        self._metric_label = METRICS[r.metric].label
        self._question = _question(r, self.name_a, self.name_b, self._metric_label) + _clustered_note(r)
        self._edges = edges
        self._joint = mass
        self._diff_values = values
        self._diff_probabilities = probs
        self._diff_domain = domain
        self._summary = _json_safe(summary)


def _question(r: PairedComparison, name_a: str, name_b: str, label: str) -> str:
    p, n = r.future_size
    err = f" Monte Carlo ({r.n_draws:,} draws, standard error {r.mc_error:.2g})." if r.method == "monte-carlo" else ""
    if getattr(r, "target", "next_test_set") == "true_value":
        return (
            f"Which of {name_a} and {name_b} has the better true {label} (on all examples like these, not on one "
            f"test set)? The posterior of the agreement shares of the {p + n:,} examples scored.{err}"
        )
    return (
        f"If a new test set of {p + n:,} examples ({p:,} positives, {n:,} negatives) were drawn and both "
        f"{name_a} and {name_b} scored on it, how would {name_a}'s {label} compare with {name_b}'s? "
        f"({r.model} model: the two are scored on the same examples){err}"
    )


def _clustered_note(r: PairedComparison) -> str:
    """With ``cluster=``: a sentence saying that the rows are clustered and which interval the verdict uses."""
    if r.n_clusters is None:
        return ""
    return (
        f" The rows are clustered ({r.n_clusters:,} clusters, design effect {r.design_effect:.3g}): the verdict "
        f"and its interval are the {r.interval_method}, of the true difference; the heat map, the difference's "
        "sticks and the probabilities take the rows as independent."
    )


def _shown_joint(r: PairedComparison, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Common edges and the ``bins`` × ``bins`` joint mass on the shown square.

    The square holds all but about DOMAIN_TAIL of each marginal's mass on each side; the
    joint is binned by :meth:`PairedComparison.joint` over its full range, with a bin width
    that puts about ``bins`` bins in the square, and cut to it.
    """
    lo, hi = _domain([r.distribution_a, r.distribution_b])
    full = r.joint(1).edges_a
    f_lo, f_hi = float(full[0]), float(full[-1])
    lo, hi = max(lo, f_lo), min(hi, f_hi)
    if not hi > lo:
        joint = r.joint(1)
        return joint.edges_a, joint.mass
    total = int(min(MAX_FULL_BINS, max(bins, math.ceil(bins * (f_hi - f_lo) / (hi - lo)))))
    joint = r.joint(total)
    edges = joint.edges_a
    first = max(0, int(np.searchsorted(edges, lo, side="right")) - 1)
    stop = min(total, int(np.searchsorted(edges, hi, side="left")))
    stop = max(stop, first + 1)
    return edges[first : stop + 1], joint.mass[first:stop, first:stop]


register_view(PairedComparison, PairedView)
