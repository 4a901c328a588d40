"""`RocSlice`: one slice (p, n) of the confusion simplex, drawn point by point.

The widget shows every confusion matrix with ``p`` positives and ``n`` negatives
as a lattice of points, either in ROC coordinates (FPR, TPR) or in counts
(FP, TP), coloured by a metric on a diverging palette, with the metric's
contours at chosen levels and the observed matrix (tp, tn) marked.

All numbers come from the exact core; the browser only projects, colours and
draws them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import traitlets

from .. import models
from .._validation import InvalidParameterError, check_int
from ..confusion import ConfusionMatrix
from ..contours import contour
from ..lattice import slice_lattice
from ..metrics import METRICS
from ..models import slice_model
from ._common import (
    Buffer,
    BundledWidget,
    Count,
    Integer,
    InvalidTraitError,
    MetricName,
    SliceCounts,
    Tolerance,
    buffer_array,
    colour_domain,
    observed_defaults,
)

__all__ = ["RocSlice"]

#: Default largest number of lattice points drawn individually; above it the
#: lattice is thinned (see :attr:`RocSlice.max_points`).
MAX_POINTS = 1_000_000

#: Parts of the state the observers recompute (see ``_refresh``).
_ALL_PARTS = frozenset({"observed", "lattice", "contours", "model"})

#: Largest number of contour levels accepted.
MAX_LEVELS = 64

#: What the slice can draw as bubbles: nothing, or the joint PMF of a model of one slice
#: (:data:`confusionlab.models.SLICE_MODELS`).
SLICE_MODELS = ("none", *models.SLICE_MODELS)

#: Largest number of extra contour metrics drawn at once.
MAX_CONTOUR_METRICS = 8


class RocSlice(BundledWidget, SliceCounts, bundle="roc_slice"):
    """The (p, n) slice of the confusion simplex as a lattice coloured by a metric.

    Every confusion matrix with ``p`` positives and ``n`` negatives is one point
    (TP, TN) of a (p + 1) × (n + 1) lattice. In ROC coordinates the point sits at
    (FPR, TPR) = ((n − TN)/n, TP/p); in counts coordinates at (FP, TP) =
    (n − TN, TP), where steps of one TP and one TN have equal length.

    Parameters
    ----------
    p, n : int
        Numbers of positives and negatives of the slice, each between 1 and
        10,000,000 (:data:`MAX_SIDE`).
    tp, tn : int
        The observed matrix, ``0 <= tp <= p`` and ``0 <= tn <= n``. Default to
        half of ``p`` and ``n`` (rounded down).
    metric : str
        A key of :data:`confusionlab.METRICS` (for example ``"mcc"``), or an alias
        the registry resolves (``"tpr"``, ``"f2"``); stored as the metric's name.
    levels : sequence of float
        Levels of the metric's contours. Empty (the default) draws the contour
        through the observed point.
    extend : bool
        Draw contours beyond the unit square and widen the view to show them.
    coordinates : {"roc", "counts"}
        Axes of the view.
    size : int
        Side of the square canvas in CSS pixels (200 to 2000).
    max_points : int
        Largest number of lattice points drawn one by one (default 1,000,000).
        A larger slice is thinned: every k-th TP and TN value is drawn, with the
        smallest k that fits, and the widget says so; ``data-points`` then
        counts the points actually drawn.
    model : {"none", "binomial", "beta-binomial"}
        Uncertainty model of a new test set of the same size (one of
        :data:`confusionlab.models.SLICE_MODELS`: TP and TN independent, ``p`` and
        ``n`` fixed), or ``"none"``. Other than ``"none"``, its joint PMF is drawn as
        bubbles (area ∝ probability)
        over the lattice and the marginal PMFs of FPR and TPR along the top and
        right axes; the numbers come from :func:`confusionlab.models.slice_model`.
    tolerance : float
        Tail mass each marginal may drop (``slice_model``'s ``tolerance``,
        default :data:`~confusionlab._validation.DEFAULT_TOLERANCE`, 1e-12); the
        dropped mass is reported under the plot.
    contour_metrics : list of str
        Further metrics whose contours are drawn on top, each in its own colour.
        Each is drawn at its value at the observed point, or at the levels given
        for it in ``contour_levels``.
    contour_levels : dict of str to list of float
        Levels per extra contour metric (optional).
    generation : int
        A counter set by a controller (``Explorer``) together with the state it
        belongs to, mirrored as ``data-generation``: all views showing the same
        generation show the same state.

    Notes
    -----
    Change several of ``p, n, tp, tn`` at once with :meth:`set_slice` (or inside
    ``with widget.hold_trait_notifications():``); one at a time, each value must
    be consistent with the others (``tp <= p``, ``tn <= n``).

    Use :meth:`update` to change any set of traits atomically (one computation,
    one message to the browser). A refused change — an invalid value, or a failure
    of the core while computing the new state — leaves every trait and every buffer
    as it was.

    Browser state: the root element has class ``confusionlab-roc-slice`` and data
    attributes ``data-p``, ``data-n``, ``data-tp``, ``data-tn``, ``data-metric``,
    ``data-points`` (lattice points drawn), ``data-model``, ``data-bubbles``
    (PMF bubbles drawn), ``data-contour-metrics`` and ``data-generation``.
    Clicking a lattice point, dragging the observed point or pressing the arrow
    keys moves the observed point (``tp``/``tn`` are written back to Python).

    Examples
    --------
    >>> import confusionlab as cl
    >>> w = cl.RocSlice(p=20, n=40, tp=16, tn=32, metric="mcc", levels=[0.0, 0.5])
    >>> w.lattice_points
    861
    >>> len(w._values) // 4
    861
    """

    metric = MetricName("mcc", help="key of confusionlab.METRICS").tag(sync=True)
    levels = traitlets.List(traitlets.Float(), help="contour levels").tag(sync=True)
    extend = traitlets.Bool(False, help="contours beyond the unit square").tag(sync=True)
    coordinates = traitlets.Enum(("roc", "counts"), "roc", help="axes of the view").tag(sync=True)
    size = Integer(480, min=200, max=2000, help="canvas side in CSS pixels").tag(sync=True)
    max_points = Count(MAX_POINTS, min=1, help="largest number of points drawn one by one")
    model = traitlets.Enum(SLICE_MODELS, "none", help="uncertainty model drawn as bubbles").tag(sync=True)
    tolerance = Tolerance(help="tail mass each marginal may drop")
    contour_metrics = traitlets.List(traitlets.Unicode(), help="further metrics' contours").tag(sync=True)
    contour_levels = traitlets.Dict(help="levels per extra contour metric")
    generation = Integer(0, help="state counter set by a controller").tag(sync=True)

    # Computed state shipped to the browser (binary buffers, little-endian).
    _metric_label = traitlets.Unicode("").tag(sync=True)
    _slice = traitlets.List(traitlets.Int()).tag(sync=True)  # [p, n, stride] of the buffers
    _tp_axis = Buffer("<i4").tag(sync=True)  # TP value of each row
    _tn_axis = Buffer("<i4").tag(sync=True)  # TN value of each column
    _values = Buffer("<f4").tag(sync=True)  # rows × columns, row-major
    _colour_domain = traitlets.List(traitlets.Float()).tag(sync=True)  # lo, mid, hi
    _contour_xy = Buffer("<f4").tag(sync=True)  # (fpr, tpr) pairs
    _contour_offsets = Buffer("<u4").tag(sync=True)  # polyline starts + end
    _contour_levels = Buffer("<f4").tag(sync=True)  # level of each polyline
    _observed_value = traitlets.Float(None, allow_none=True).tag(sync=True)
    _contour_metric = Buffer("<u4").tag(sync=True)  # metric index of each polyline
    _contour_labels = traitlets.List(traitlets.Unicode()).tag(sync=True)  # index 0: `metric`
    # Model marginals: TP = lo[0] + i has mass _pmf_tp[i]; TN = lo[1] + j has _pmf_tn[j].
    _pmf_lo = traitlets.List(traitlets.Int()).tag(sync=True)
    _pmf_tp = Buffer("<f4").tag(sync=True)
    _pmf_tn = Buffer("<f4").tag(sync=True)
    _pmf_pruned = traitlets.Float(0.0).tag(sync=True)

    _ALL_PARTS = _ALL_PARTS

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**observed_defaults(kwargs))

    # ----------------------------------------------------------------- validation
    @traitlets.validate("levels")
    def _check_levels(self, proposal: traitlets.Bunch) -> list[float]:
        levels = [float(v) for v in proposal.value]
        if len(levels) > MAX_LEVELS:
            raise InvalidTraitError(f"levels accepts at most {MAX_LEVELS} values, got {len(levels)}.")
        bad = [v for v in levels if not math.isfinite(v)]
        if bad:
            raise InvalidTraitError(f"levels must be finite numbers, got {bad}.")
        return levels

    @traitlets.validate("contour_metrics")
    def _check_contour_metrics(self, proposal: traitlets.Bunch) -> list[str]:
        names = []
        for value in proposal.value:
            try:
                name = METRICS[value].name
            except (KeyError, ValueError, TypeError):
                raise InvalidTraitError(
                    f"contour_metrics must name metrics of {list(METRICS)}, got {value!r}."
                ) from None
            if name not in names:
                names.append(name)
        if len(names) > MAX_CONTOUR_METRICS:
            raise InvalidTraitError(f"contour_metrics accepts at most {MAX_CONTOUR_METRICS} metrics, got {len(names)}.")
        return names

    @traitlets.validate("contour_levels")
    def _check_contour_levels(self, proposal: traitlets.Bunch) -> dict[str, list[float]]:
        out: dict[str, list[float]] = {}
        for key, levels in proposal.value.items():
            try:
                name = METRICS[key].name
            except (KeyError, ValueError, TypeError):
                raise InvalidTraitError(f"contour_levels has an unknown metric {key!r}.") from None
            try:
                values = [float(v) for v in levels]
            except (TypeError, ValueError):
                raise InvalidTraitError(f"contour_levels[{key!r}] must be a list of numbers.") from None
            if len(values) > MAX_LEVELS or not all(math.isfinite(v) for v in values):
                raise InvalidTraitError(
                    f"contour_levels[{key!r}] must hold at most {MAX_LEVELS} finite numbers, got {levels!r}."
                )
            out[name] = values
        return out

    # ------------------------------------------------------------------ public API
    def set_slice(
        self,
        p: int | None = None,
        n: int | None = None,
        tp: int | None = None,
        tn: int | None = None,
    ) -> None:
        """Change any of ``p, n, tp, tn`` together, validated once, redrawn once.

        Parameters
        ----------
        p, n, tp, tn : int, optional
            New values; ``None`` keeps the current one.

        Raises
        ------
        confusionlab.InvalidParameterError
            When the new values are inconsistent (e.g. ``tp > p``); nothing changes.
            (An :class:`~confusionlab.widgets._common.InvalidTraitError`, a
            ``traitlets.TraitError`` too.)
        """
        self.update(**{k: v for k, v in {"p": p, "n": n, "tp": tp, "tn": tn}.items() if v is not None})

    @property
    def lattice_points(self) -> int:
        """Number of matrices in the slice, (p + 1)(n + 1)."""
        return (self.p + 1) * (self.n + 1)

    @property
    def stride(self) -> int:
        """Every ``stride``-th TP and TN value is drawn (1 unless the slice is thinned)."""
        return self._slice[2] if self._slice else 1

    def lattice(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The drawn lattice as numpy arrays, decoded from the buffers sent to the browser.

        Returns
        -------
        tp : ndarray of int32, shape (rows,)
        tn : ndarray of int32, shape (columns,)
        values : ndarray of float32, shape (rows, columns)
            The metric at (tp[i], tn[j]).
        """
        tp, tn = buffer_array(self, "_tp_axis"), buffer_array(self, "_tn_axis")
        values = buffer_array(self, "_values").reshape(tp.size, tn.size)
        return tp, tn, values

    def contours(self) -> list[tuple[float, np.ndarray]]:
        """The drawn contours, decoded from the buffers: ``(level, (m, 2) array)`` pairs."""
        xy = buffer_array(self, "_contour_xy").reshape(-1, 2)
        offsets = buffer_array(self, "_contour_offsets")
        levels = buffer_array(self, "_contour_levels")
        return [(float(levels[k]), xy[offsets[k] : offsets[k + 1]]) for k in range(levels.size)]

    # ------------------------------------------------------------------ observers
    @traitlets.observe("p", "n", "metric", "max_points")
    def _on_slice(self, change: traitlets.Bunch) -> None:
        self._request(_ALL_PARTS)

    @traitlets.observe("levels", "extend", "contour_metrics", "contour_levels")
    def _on_levels(self, change: traitlets.Bunch) -> None:
        self._request({"contours"})

    @traitlets.observe("tp", "tn")
    def _on_observed(self, change: traitlets.Bunch) -> None:
        self._request({"observed", "model"} | ({"contours"} if self._contours_follow_observed() else set()))

    def _contours_follow_observed(self) -> bool:
        """Whether a contour is drawn at the observed point's value (so it moves with the point)."""
        return not self.levels or any(m not in self.contour_levels for m in self.contour_metrics)

    @traitlets.observe("model", "tolerance")
    def _on_model(self, change: traitlets.Bunch) -> None:
        self._request({"model"})

    def _refresh(self, parts: set[str]) -> None:
        # The base runs this in one transaction and one message with every buffer.
        if "observed" in parts:
            self._update_observed()
        if "lattice" in parts:
            self._update_lattice()
        if "contours" in parts:
            self._update_contours()
        if "model" in parts:
            self._update_model()

    def _update_lattice(self) -> None:
        p, n, metric = self.p, self.n, METRICS[self.metric]
        stride = thinning_stride(p, n, self.max_points)
        if stride == 1:
            tp, tn = slice_lattice(p, n)
            tp, tn = np.asarray(tp).reshape(-1, 1), np.asarray(tn).reshape(1, -1)
        else:  # every stride-th count, without materialising the whole slice's axes
            tp = np.arange(0, p + 1, stride, dtype=np.int64).reshape(-1, 1)
            tn = np.arange(0, n + 1, stride, dtype=np.int64).reshape(1, -1)
        values = np.asarray(metric.values(tp, p - tp, n - tn, tn), dtype=np.float64)
        values = np.broadcast_to(values, (tp.size, tn.size))
        self._metric_label = metric.label
        self._colour_domain = colour_domain(values, metric.range)
        self._tp_axis = tp.ravel()
        self._tn_axis = tn.ravel()
        self._values = values
        self._slice = [p, n, stride]

    def _value_at(self, metric: str, tp: int, tn: int) -> float | None:
        p, n = self.p, self.n
        value = float(np.asarray(METRICS[metric].values(tp, p - tp, n - tn, tn), dtype=np.float64))
        return value if math.isfinite(value) else None

    def _update_contours(self) -> None:
        self._set_traits(self._contour_state(self.tp, self.tn, self._observed_value))

    def _contour_state(self, tp: int, tn: int, observed: float | None) -> dict[str, Any]:
        """The contour traits with the observed point at (tp, tn), whose metric value is ``observed``."""
        # Polylines of the main metric first (index 0), then of each extra metric.
        metrics = [self.metric] + [m for m in self.contour_metrics if m != self.metric]
        lines: list[np.ndarray] = []
        line_levels: list[float] = []
        line_metric: list[int] = []
        for index, name in enumerate(metrics):
            if index == 0:
                levels = list(self.levels)
                if not levels and observed is not None:
                    levels = [observed]
            else:
                levels = self.contour_levels.get(name)
                if levels is None:
                    value = self._value_at(name, tp, tn)
                    levels = [] if value is None else [value]
            for level in levels:
                for line in contour(name, level, self.p, self.n, extend=self.extend):
                    line = np.asarray(line, dtype=np.float64).reshape(-1, 2)
                    if len(line) >= 2:
                        lines.append(line)
                        line_levels.append(level)
                        line_metric.append(index)
        counts = np.array([len(line) for line in lines], dtype=np.int64)
        return {
            "_contour_xy": np.concatenate(lines) if lines else np.zeros((0, 2)),
            "_contour_offsets": np.concatenate([[0], np.cumsum(counts)]),
            "_contour_levels": np.asarray(line_levels, dtype=np.float64),
            "_contour_metric": np.asarray(line_metric, dtype=np.int64),
            "_contour_labels": [METRICS[name].label for name in metrics],
        }

    def _update_model(self) -> None:
        self._set_traits(self._model_state(self.tp, self.tn))

    def _model_state(self, tp: int, tn: int) -> dict[str, Any]:
        """The bubbles' traits (the model's marginals) with the observed point at (tp, tn)."""
        if self.model == "none":
            return {"_pmf_lo": [], "_pmf_tp": b"", "_pmf_tn": b"", "_pmf_pruned": 0.0}
        sm = self._slice_model_at(tp, tn)
        return {
            "_pmf_lo": [sm.tp_lo, sm.tn_lo],
            "_pmf_tp": sm.tp_pmf,
            "_pmf_tn": sm.tn_pmf,
            "_pmf_pruned": float(sm.pruned_mass),
        }

    def _observed_state(self, tp: int, tn: int) -> dict[str, Any]:
        return {"_metric_label": METRICS[self.metric].label, "_observed_value": self._value_at(self.metric, tp, tn)}

    def _set_traits(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def state_at(self, tp: int, tn: int) -> dict[str, Any]:
        """The synced state a move of the observed point to ``(tp, tn)`` gives, without moving it.

        Every trait such a move changes (``tp``, ``tn``, the observed value, the bubbles' marginals
        and, when a contour goes through the observed point, the contours), as the browser receives
        it (buffers as bytes). A static page applies these states where no kernel computes them.

        Examples
        --------
        >>> import confusionlab as cl
        >>> w = cl.RocSlice(p=20, n=40, tp=16, tn=32, model="binomial")
        >>> state = w.state_at(10, 30)
        >>> w.update(tp=10, tn=30)
        >>> all(state[name] == getattr(w, name) for name in state), w.tp
        (True, 10)
        """
        tp, tn = self._check_observed_pair(tp, tn)
        state: dict[str, Any] = {"tp": tp, "tn": tn, **self._observed_state(tp, tn)}
        if self._contours_follow_observed():
            state.update(self._contour_state(tp, tn, state["_observed_value"]))
        state.update(self._model_state(tp, tn))
        traits = self.traits()
        return {name: traits[name].validate(self, value) for name, value in state.items()}

    def _check_observed_pair(self, tp: int, tn: int) -> tuple[int, int]:
        tp, tn = check_int(tp, "tp", minimum=0), check_int(tn, "tn", minimum=0)
        if tp > self.p or tn > self.n:
            raise InvalidParameterError(
                f"tp and tn must lie in the slice (tp in 0..p={self.p}, tn in 0..n={self.n}), got tp={tp}, tn={tn}"
            )
        return tp, tn

    def slice_model(self) -> Any:
        """The :class:`~confusionlab.models.SliceModel` drawn as bubbles (``model`` != "none").

        Returns
        -------
        SliceModel
            ``slice_model(ConfusionMatrix(tp=tp, fn=p - tp, fp=n - tn, tn=tn), model, tolerance=tolerance)``.
        """
        if self.model == "none":
            raise ValueError("model is 'none': set model='binomial' or 'beta-binomial' first")
        return self._slice_model_at(self.tp, self.tn)

    def _slice_model_at(self, tp: int, tn: int) -> Any:
        p, n = self.p, self.n
        return slice_model(ConfusionMatrix(tp=tp, fn=p - tp, fp=n - tn, tn=tn), self.model, tolerance=self.tolerance)

    def marginals(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The drawn model marginals, decoded from the buffers.

        Returns
        -------
        tp, tp_mass, tn, tn_mass : ndarray
            TP values and their masses, TN values and their masses (empty when
            ``model == "none"``).
        """
        tp_mass, tn_mass = buffer_array(self, "_pmf_tp"), buffer_array(self, "_pmf_tn")
        tp_lo, tn_lo = self._pmf_lo or [0, 0]
        return np.arange(tp_lo, tp_lo + tp_mass.size), tp_mass, np.arange(tn_lo, tn_lo + tn_mass.size), tn_mass

    def _update_observed(self) -> None:
        self._set_traits(self._observed_state(self.tp, self.tn))


def thinning_stride(p: int, n: int, max_points: int) -> int:
    """Smallest k such that every k-th TP and TN value of slice (p, n) gives at most
    ``max_points`` points, i.e. ``(p // k + 1) * (n // k + 1) <= max_points``.

    Examples
    --------
    >>> thinning_stride(499, 499, 250_000)
    1
    >>> thinning_stride(999, 999, 250_000)
    2
    """
    k = max(1, math.isqrt((p + 1) * (n + 1) // max(1, max_points)))
    while k > 1 and (p // (k - 1) + 1) * (n // (k - 1) + 1) <= max_points:
        k -= 1
    while (p // k + 1) * (n // k + 1) > max_points:
        k += 1
    return k
