"""`EvaluationView`: how sure, for whom, would a refit agree — one canvas view of an Evaluation.

Per group (then the whole test set): the metric's PMF (the test-set uncertainty; with refits,
the mixture over refits) as sticks, the refits' means overlaid as ticks with their range, the
decomposition of the spread into test-set and refit parts as a bar, and a verdict (too small to
say anything). Below: the least stable objects across refits (psi). Every number comes from
:class:`confusionlab.evaluation.Evaluation`; the browser only scales and draws. A canvas
anywidget, so it renders in the static HTML export offline.

A click on a group's panel sets :attr:`EvaluationView.selected`; a :class:`~confusionlab.RocSlice`
made by :meth:`EvaluationView.slice_view` follows it (the group's confusion matrix and the
model's bubbles).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import traitlets

from .._validation import InvalidParameterError
from .._views import register_view
from ..confusion import ConfusionMatrix
from ..evaluation import Evaluation, metric_label, metric_name
from ..metrics import METRICS
from ..models import SLICE_MODELS
from ..models.cluster import ClusterInterval
from ._common import MAX_SIDE, Buffer, BundledWidget, Confidence, Integer, InvalidTraitError
from .metric_pmf import _aggregate, _domain, _json_safe
from .roc_slice import RocSlice

__all__ = ["EvaluationView"]


class EvaluationView(BundledWidget, bundle="evaluation"):
    """One view of an :class:`~confusionlab.evaluation.Evaluation`, per group.

    Parameters
    ----------
    evaluation : Evaluation
        From :func:`confusionlab.evaluation.evaluate`.
    metric : str, optional
        One of ``evaluation.metrics`` or any metric it can compute (default: the first).
    confidence : float
        Level of the central intervals (default 0.95).
    least_stable : int
        How many of the least stable objects to list (needs refits).
    max_values : int
        Distinct values sent per group before aggregating into ``max_values // 10`` bins.
    selected : str
        The group shown by the linked :class:`~confusionlab.RocSlice` views (see
        :meth:`slice_view`), as written in ``evaluation.groups`` (default: ``"all"``, the
        whole test set). A click on a group's panel in the browser sets it.

    Notes
    -----
    Browser state: root class ``confusionlab-evaluation`` with ``data-metric``,
    ``data-target``, ``data-groups`` (panels drawn), ``data-refits``, ``data-marks``
    (sticks drawn), ``data-selected`` and ``data-generation``; each panel (class
    ``cl-group``) carries ``data-group``. The question answered is written above the
    panels in words.

    A refused ``selected`` (a name that is not a group, or a group a linked slice cannot
    show) changes nothing: neither this view nor a linked slice.

    Examples
    --------
    >>> from confusionlab.evaluation import evaluate
    >>> ev = evaluate([1, 0, 1, 0, 1, 0], refits=[[1, 0, 0, 0, 1, 1], [1, 0, 1, 0, 1, 0]], groups=list("aabbab"))
    >>> w = EvaluationView(ev, metric="recall")
    >>> [p["group"] for p in w._panels]
    ['a', 'b', 'all']
    >>> s = w.slice_view()
    >>> w.selected = "b"
    >>> (s.p, s.n, s.tp, s.tn)
    (1, 2, 0, 1)
    """

    metric = traitlets.Unicode("", help="metric shown").tag(sync=True)
    confidence = Confidence(0.95, help="central interval").tag(sync=True)
    least_stable = Integer(10, min=0, max=200, help="least stable objects listed")
    max_values = Integer(4000, min=20, help="distinct values sent per group before aggregating")
    width = Integer(520, min=240, max=2000, help="PMF width in CSS pixels").tag(sync=True)
    generation = Integer(0, help="state counter set by a controller").tag(sync=True)
    selected = traitlets.Unicode("", help="group shown by the linked RocSlice views").tag(sync=True)

    _ALL_PARTS = frozenset({"panels", "selection"})

    _panels = traitlets.List(traitlets.Dict()).tag(sync=True)
    _offsets = traitlets.List(traitlets.Int()).tag(sync=True)
    _values = Buffer("<f8").tag(sync=True)
    _probabilities = Buffer("<f4").tag(sync=True)
    _refit_means = Buffer("<f8").tag(sync=True)
    _refit_offsets = traitlets.List(traitlets.Int()).tag(sync=True)
    _domain = traitlets.List(traitlets.Float()).tag(sync=True)
    _question = traitlets.Unicode("").tag(sync=True)
    _target = traitlets.Unicode("").tag(sync=True)
    _metric_label = traitlets.Unicode("").tag(sync=True)
    _n_refits = traitlets.Int(0).tag(sync=True)
    _unstable = traitlets.List(traitlets.Dict()).tag(sync=True)
    _slice_note = traitlets.Unicode("").tag(sync=True)

    def __init__(self, evaluation: Evaluation, **kwargs: Any) -> None:
        if not isinstance(evaluation, Evaluation):
            raise InvalidParameterError(
                f"evaluation must be an Evaluation (from evaluate), got {type(evaluation).__name__}"
            )
        self._evaluation = evaluation
        self._slices: list[tuple[RocSlice, str]] = []
        kwargs.setdefault("metric", evaluation.metrics[0])
        kwargs.setdefault("selected", str(evaluation.groups[-1]))
        super().__init__(**kwargs)

    @property
    def evaluation(self) -> Evaluation:
        return self._evaluation

    @traitlets.validate("metric")
    def _check_metric(self, proposal: traitlets.Bunch) -> str:
        try:
            return metric_name(proposal.value, "metric")
        except (TypeError, ValueError) as err:
            raise InvalidTraitError(str(err)) from None

    @traitlets.validate("selected")
    def _check_selected(self, proposal: traitlets.Bunch) -> str:
        name = proposal.value
        names = [str(g) for g in self._evaluation.groups]
        if name not in names:
            raise InvalidTraitError(f"selected must be one of the groups {names}, got selected={name!r}.")
        if self._linked():
            try:
                _slice_counts(self._group_matrix(name))
            except ValueError as err:
                raise InvalidTraitError(f"selected={name!r} cannot be shown in the linked RocSlice: {err}") from None
        return name

    @traitlets.observe("metric", "confidence", "least_stable", "max_values")
    def _on_change(self, change: traitlets.Bunch) -> None:
        self._request({"panels"})

    @traitlets.observe("selected")
    def _on_selected(self, change: traitlets.Bunch) -> None:
        self._request({"selection"})

    # ----------------------------------------------------------------- the linked RocSlice
    def _group_matrix(self, group: str) -> ConfusionMatrix:
        """The observed binary confusion matrix of ``group``: of ``y_pred``, else of the first refit."""
        ev = self._evaluation
        if ev.positive_index is None:
            raise ValueError(
                f"a RocSlice shows a binary confusion matrix, and this evaluation has {len(ev.classes)} classes; "
                "pass positive=<label> to evaluate()"
            )
        return ev.confusion_matrix(group)

    def _linked(self) -> list[tuple[RocSlice, str]]:
        """The linked slices still open (a closed widget has no comm)."""
        self._slices = [(s, model) for s, model in self._slices if s.comm is not None]
        return self._slices

    def slice_view(self, **kwargs: Any) -> RocSlice:
        """A :class:`~confusionlab.RocSlice` of the selected group that follows :attr:`selected`.

        The slice shows the group's observed confusion matrix (positive class against the
        rest) — of ``y_pred``, or, **when only refits were given, of the first refit** — with
        the bubbles of the evaluation's uncertainty model for a new test set of the same size.
        Each later change of :attr:`selected` (a click on a group's panel) moves it with one
        ``RocSlice.update(p=, n=, tp=, tn=, model=)``.

        Parameters
        ----------
        **kwargs
            Further :class:`~confusionlab.RocSlice` traits (``metric``, ``size``,
            ``coordinates``, …). Defaults: ``metric`` is the view's metric (MCC for a macro
            average), ``model`` the evaluation's model (``"beta-binomial"`` for
            ``"dirichlet-multinomial"``, which a slice cannot draw), ``tolerance`` the
            evaluation's. ``p, n, tp, tn`` come from the selected group.

        Returns
        -------
        RocSlice

        Raises
        ------
        confusionlab.InvalidParameterError
            For ``p``, ``n``, ``tp`` or ``tn`` in ``kwargs`` (they follow the selection).
        ValueError
            When the evaluation has more than two classes and no ``positive``, or the
            selected group has no positives or no negatives (a slice needs ``p, n >= 1``).
        traitlets.TraitError
            For an invalid RocSlice trait.

        Notes
        -----
        The bubbles answer "what will a new test set of the same size show?" whatever the
        evaluation's ``target``; with refits they belong to the first refit's matrix only.
        """
        fixed = sorted({"p", "n", "tp", "tn"} & set(kwargs))
        if fixed:
            raise InvalidParameterError(f"slice_view takes no {fixed}: the slice shows the selected group's counts")
        counts = _slice_counts(self._group_matrix(self.selected))
        ev = self._evaluation
        default_model = ev.model if ev.model in SLICE_MODELS else "beta-binomial"
        kwargs.setdefault("model", default_model)
        kwargs.setdefault("tolerance", ev.tolerance)
        if "metric" not in kwargs and self.metric in METRICS:
            kwargs["metric"] = self.metric
        view = RocSlice(**counts, **kwargs)
        self._slices.append((view, view.model))
        return view

    def _follow(self) -> None:
        """Move every linked slice to the selected group: one update each, all or none."""
        linked = self._linked()
        if not linked:
            return
        counts = _slice_counts(self._group_matrix(self.selected))
        done: list[tuple[RocSlice, dict[str, Any]]] = []
        try:
            for view, model in linked:
                before = {"p": view.p, "n": view.n, "tp": view.tp, "tn": view.tn, "model": view.model}
                view.update(**counts, model=model)
                done.append((view, before))
        except BaseException:
            for view, before in reversed(done):
                view.update(**before)
            raise

    def _refresh(self, parts: set[str]) -> None:
        if "selection" in parts:
            self._follow()
        if "panels" in parts:
            self._refresh_panels()

    def _refresh_panels(self) -> None:
        ev, metric = self._evaluation, self.metric
        panels, chunks, means = [], [], []
        offsets, refit_offsets = [0], [0]
        dists = {}
        for name in ev.groups:
            d = ev.distribution(metric, name)
            dists[name] = d
            values, probs, _, _ = _aggregate(d, self.max_values)
            chunks.append((values, probs))
            offsets.append(offsets[-1] + values.size)
            run_means = ev.refit_means(metric, name) if ev.n_refits else []
            means.append(np.asarray(run_means, dtype=np.float64))
            refit_offsets.append(refit_offsets[-1] + len(run_means))
            interval = ev.interval_of(metric, self.confidence, group=name)  # the result's own: clustered or not
            spread = ev.decompose(metric, name)
            clustered = {}
            if isinstance(interval, ClusterInterval):  # cluster=: its standard error, not the independent rows'
                spread = {**spread, "test_set_sd": interval.std_error, "total_sd": interval.std_error}
                clustered = {"n_clusters": interval.n_clusters, "interval_method": interval.method}
            panels.append(
                _json_safe(
                    {
                        "group": str(name),
                        "value": ev.value_of(metric, name),
                        "mean": d.mean(),
                        "interval": [interval[0], interval[1]],
                        "confidence": self.confidence,
                        **spread,
                        **clustered,
                        **ev.sizes(name),
                        "too_small": ev.too_small(metric, name),
                        "mc_error": ev.mc_error(metric, name),
                        "method": d.method,
                        "distinct": len(d),
                    }
                )
            )
        unstable = []
        if ev.n_refits and self.least_stable:
            s = ev.stability.per_object
            names = ev.groups
            codes = ev._group_codes
            for i in ev.least_stable(self.least_stable).tolist():
                group = str(names[int(codes[i])]) if codes is not None else "all"
                unstable.append({"index": int(i), "stability": float(s[i]) if math.isfinite(s[i]) else None,
                                 "group": group})  # fmt: skip
        lo, hi = _domain(dists.values())
        ends = [e for p in panels for e in p["interval"] if e is not None and math.isfinite(e)]
        lo, hi = min([lo, *ends]), max([hi, *ends])  # a clustered interval, wider than the sticks, shown whole
        if not hi > lo:
            lo, hi = lo - 0.05, hi + 0.05
        self._metric_label = metric_label(metric)
        self._question = ev.question(metric) + _clustered_note(ev, panels)
        self._target = ev.target
        self._n_refits = ev.n_refits
        self._domain = [float(lo), float(hi)]
        self._values = np.concatenate([c[0] for c in chunks])
        self._probabilities = np.concatenate([c[1] for c in chunks])
        self._refit_means = np.concatenate(means) if means else np.empty(0)
        self._offsets = offsets
        self._refit_offsets = refit_offsets
        self._unstable = unstable
        self._slice_note = (
            "Click a group to show its confusion matrix"
            + (" (of the first refit: only refits were given)" if ev._record is None else "")
            + " in the linked ROC slice."
        )
        self._panels = panels


def _clustered_note(ev: Evaluation, panels: list[dict[str, Any]]) -> str:
    """With ``cluster=``: a sentence saying that the rows are clustered and which interval is shaded."""
    if not panels or "n_clusters" not in panels[-1]:
        return ""
    return (
        f" The rows are clustered ({panels[-1]['n_clusters']:,} clusters, design effect {ev.design_effect:.3g}): "
        f"the shaded interval and the sd are the {ev.interval_method}; the sticks are the distribution of "
        "independent rows."
    )


def _slice_counts(cm: ConfusionMatrix) -> dict[str, int]:
    """``p, n, tp, tn`` of a RocSlice showing ``cm`` (ValueError when a slice cannot show it)."""
    p, n = cm.p, cm.n
    for side, size in (("positives", p), ("negatives", n)):
        if not 1 <= size <= MAX_SIDE:
            raise ValueError(f"the group has {size:,} {side}; a RocSlice needs between 1 and {MAX_SIDE:,}")
    return {"p": p, "n": n, "tp": cm.tp, "tn": cm.tn}


register_view(Evaluation, EvaluationView)
