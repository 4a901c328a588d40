"""`EvaluationView`: how sure, for whom, would a refit agree — one canvas view of an Evaluation.

Per group (then the whole test set): the metric's PMF (the test-set uncertainty; with refits,
the mixture over refits) as sticks, the refits' means overlaid as ticks with their range, the
decomposition of the spread into test-set and refit parts as a bar, and a verdict (too small to
say anything). Below: the least stable objects across refits (psi). Every number comes from
:class:`confusionlab.evaluation.Evaluation`; the browser only scales and draws. A canvas
anywidget, so it renders in the static HTML export offline.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import traitlets

from ..evaluation import MACRO_PREFIX, Evaluation, _metric_name
from ..metrics import get_metric
from ._common import Buffer, BundledWidget, Confidence
from .metric_pmf import _aggregate, _domain, _json_safe

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

    Notes
    -----
    Browser state: root class ``confusionlab-evaluation`` with ``data-metric``,
    ``data-target``, ``data-groups`` (panels drawn), ``data-refits``, ``data-marks``
    (sticks drawn) and ``data-generation``. The question answered is written above the
    panels in words.

    Examples
    --------
    >>> from confusionlab.evaluation import evaluate
    >>> ev = evaluate([1, 0, 1, 0, 1, 0], refits=[[1, 0, 0, 0, 1, 1], [1, 0, 1, 0, 1, 0]], groups=list("aabbab"))
    >>> w = EvaluationView(ev, metric="recall")
    >>> [p["group"] for p in w._panels]
    ['a', 'b', 'all']
    """

    metric = traitlets.Unicode("", help="metric shown").tag(sync=True)
    confidence = Confidence(0.95, help="central interval").tag(sync=True)
    least_stable = traitlets.Int(10, min=0, max=200, help="least stable objects listed")
    max_values = traitlets.Int(4000, min=20, help="distinct values sent per group before aggregating")
    width = traitlets.Int(520, min=240, max=2000, help="PMF width in CSS pixels").tag(sync=True)
    generation = traitlets.Int(0, help="state counter set by a controller").tag(sync=True)

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

    def __init__(self, evaluation: Evaluation, **kwargs: Any) -> None:
        if not isinstance(evaluation, Evaluation):
            raise TypeError(f"evaluation must be an Evaluation (from evaluate), got {type(evaluation).__name__}")
        self._evaluation = evaluation
        kwargs.setdefault("metric", evaluation.metrics[0])
        super().__init__(**kwargs)

    @property
    def evaluation(self) -> Evaluation:
        return self._evaluation

    @traitlets.validate("metric")
    def _check_metric(self, proposal: traitlets.Bunch) -> str:
        try:
            return _metric_name(proposal.value, "metric")
        except (TypeError, ValueError) as err:
            raise traitlets.TraitError(str(err)) from None

    @traitlets.observe("metric", "confidence", "least_stable", "max_values")
    def _on_change(self, change: traitlets.Bunch) -> None:
        self._request(self._ALL_PARTS)

    def _refresh(self, parts: set[str]) -> None:
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
            lo, hi = d.interval(self.confidence)
            panels.append(
                _json_safe(
                    {
                        "group": str(name),
                        "value": ev.value(metric, name),
                        "mean": d.mean(),
                        "interval": [lo, hi],
                        "confidence": self.confidence,
                        **ev.decompose(metric, name),
                        **ev.sizes(name),
                        "too_small": ev.too_small(metric, name),
                        "mc_error": float(getattr(d, "mc_error", 0.0)),
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
        if not hi > lo:
            lo, hi = lo - 0.05, hi + 0.05
        label = metric if metric.startswith(MACRO_PREFIX) else get_metric(metric).label
        self._metric_label = label
        self._question = ev.question(metric)
        self._target = ev.target
        self._n_refits = ev.n_refits
        self._domain = [float(lo), float(hi)]
        self._values = np.concatenate([c[0] for c in chunks])
        self._probabilities = np.concatenate([c[1] for c in chunks])
        self._refit_means = np.concatenate(means) if means else np.empty(0)
        self._offsets = offsets
        self._refit_offsets = refit_offsets
        self._unstable = unstable
        self._panels = panels
