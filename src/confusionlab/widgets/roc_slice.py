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
import operator
from pathlib import Path
from typing import Any

import anywidget
import numpy as np
import traitlets

from ..contours import contour
from ..lattice import slice_lattice
from ..metrics import METRICS

__all__ = ["RocSlice"]

_STATIC = Path(__file__).resolve().parent.parent / "static"
if not (_STATIC / "roc_slice.js").is_file():
    raise FileNotFoundError(
        f"The RocSlice front-end bundle {_STATIC / 'roc_slice.js'} is missing. In a checkout, "
        "build it with `make install` (or `npm ci && npm run build`); `pip install` of the "
        "repository builds it too."
    )

#: Default largest number of lattice points drawn individually; above it the
#: lattice is thinned (see :attr:`RocSlice.max_points`).
MAX_POINTS = 1_000_000

#: Largest p or n accepted (a slice this size is drawn thinned).
MAX_SIDE = 10_000_000

#: Largest number of contour levels accepted.
MAX_LEVELS = 64


class _Count(traitlets.Int):
    """A non-negative integer count; accepts numpy integers, rejects bool and floats."""

    info_text = "a non-negative integer"

    def validate(self, obj: Any, value: Any) -> int:
        if isinstance(value, bool | np.bool_):
            self.error(obj, value)
        try:
            value = operator.index(value)
        except TypeError:
            self.error(obj, value)
        if value < 0:
            raise traitlets.TraitError(
                f"The '{self.name}' trait of {type(obj).__name__} must be a non-negative integer, got {value!r}."
            )
        return super().validate(obj, value)


def _f32(array: np.ndarray) -> bytes:
    return np.ascontiguousarray(array, dtype="<f4").tobytes()


def _u32(array: np.ndarray) -> bytes:
    return np.ascontiguousarray(array, dtype="<u4").tobytes()


def _i32(array: np.ndarray) -> bytes:
    return np.ascontiguousarray(array, dtype="<i4").tobytes()


class RocSlice(anywidget.AnyWidget):
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

    Notes
    -----
    Change several of ``p, n, tp, tn`` at once with :meth:`set_slice` (or inside
    ``with widget.hold_trait_notifications():``); one at a time, each value must
    be consistent with the others (``tp <= p``, ``tn <= n``).

    Browser state: the root element has class ``confusionlab-roc-slice`` and data
    attributes ``data-p``, ``data-n``, ``data-tp``, ``data-tn``, ``data-metric``
    and ``data-points`` (lattice points drawn). Clicking a lattice point or
    pressing the arrow keys moves the observed point.

    Examples
    --------
    >>> import confusionlab as cl
    >>> w = cl.RocSlice(p=20, n=40, tp=16, tn=32, metric="mcc", levels=[0.0, 0.5])
    >>> w.lattice_points
    861
    >>> len(w._values) // 4
    861
    """

    _esm = _STATIC / "roc_slice.js"
    _css = _STATIC / "roc_slice.css"

    p = _Count(20, help="number of positives").tag(sync=True)
    n = _Count(40, help="number of negatives").tag(sync=True)
    tp = _Count(10, help="observed true positives").tag(sync=True)
    tn = _Count(20, help="observed true negatives").tag(sync=True)
    metric = traitlets.Unicode("mcc", help="key of confusionlab.METRICS").tag(sync=True)
    levels = traitlets.List(traitlets.Float(), help="contour levels").tag(sync=True)
    extend = traitlets.Bool(False, help="contours beyond the unit square").tag(sync=True)
    coordinates = traitlets.Enum(("roc", "counts"), "roc", help="axes of the view").tag(sync=True)
    size = traitlets.Int(480, help="canvas side in CSS pixels").tag(sync=True)
    max_points = _Count(MAX_POINTS, help="largest number of points drawn one by one")

    # Computed state shipped to the browser (binary buffers, little-endian).
    _metric_label = traitlets.Unicode("").tag(sync=True)
    _slice = traitlets.List(traitlets.Int()).tag(sync=True)  # [p, n, stride] of the buffers
    _tp_axis = traitlets.Bytes(b"").tag(sync=True)  # int32, TP value of each row
    _tn_axis = traitlets.Bytes(b"").tag(sync=True)  # int32, TN value of each column
    _values = traitlets.Bytes(b"").tag(sync=True)  # float32, rows × columns, row-major
    _colour_domain = traitlets.List(traitlets.Float()).tag(sync=True)  # lo, mid, hi
    _contour_xy = traitlets.Bytes(b"").tag(sync=True)  # float32 (fpr, tpr) pairs
    _contour_offsets = traitlets.Bytes(b"").tag(sync=True)  # uint32, polyline starts + end
    _contour_levels = traitlets.Bytes(b"").tag(sync=True)  # float32, level of each polyline
    _observed_value = traitlets.Float(None, allow_none=True).tag(sync=True)

    _batching = False

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("tp", kwargs.get("p", 20) // 2 if _is_int(kwargs.get("p", 20)) else 0)
        kwargs.setdefault("tn", kwargs.get("n", 40) // 2 if _is_int(kwargs.get("n", 40)) else 0)
        self._batching = True  # compute once, below, not once per trait set here
        try:
            super().__init__(**kwargs)
        finally:
            self._batching = False
        self._refresh({"lattice", "contours", "observed"})

    # ----------------------------------------------------------------- validation
    @traitlets.validate("p", "n")
    def _check_side(self, proposal: traitlets.Bunch) -> int:
        name = proposal.trait.name
        value = proposal.value
        if not 1 <= value <= MAX_SIDE:
            raise traitlets.TraitError(f"{name} must be between 1 and {MAX_SIDE:,}, got {name}={value}.")
        inner = "tp" if name == "p" else "tn"
        if getattr(self, inner) > value:
            raise traitlets.TraitError(
                f"{name}={value} is smaller than {inner}={getattr(self, inner)}; change both "
                f"together with set_slice({name}=..., {inner}=...)."
            )
        return value

    @traitlets.validate("tp", "tn")
    def _check_observed(self, proposal: traitlets.Bunch) -> int:
        name = proposal.trait.name
        side = "p" if name == "tp" else "n"
        if proposal.value > getattr(self, side):
            raise traitlets.TraitError(
                f"{name} must be between 0 and {side}={getattr(self, side)}, got {name}={proposal.value}."
            )
        return proposal.value

    @traitlets.validate("metric")
    def _check_metric(self, proposal: traitlets.Bunch) -> str:
        # The registry also resolves aliases ("tpr", "ba") and "f<beta>"; keep its name.
        try:
            return METRICS[proposal.value].name
        except (KeyError, ValueError, TypeError):
            raise traitlets.TraitError(
                f"metric must be one of {list(METRICS)} (or an alias, or 'f<beta>'), got metric={proposal.value!r}."
            ) from None

    @traitlets.validate("levels")
    def _check_levels(self, proposal: traitlets.Bunch) -> list[float]:
        levels = [float(v) for v in proposal.value]
        if len(levels) > MAX_LEVELS:
            raise traitlets.TraitError(f"levels accepts at most {MAX_LEVELS} values, got {len(levels)}.")
        bad = [v for v in levels if not math.isfinite(v)]
        if bad:
            raise traitlets.TraitError(f"levels must be finite numbers, got {bad}.")
        return levels

    @traitlets.validate("size")
    def _check_size(self, proposal: traitlets.Bunch) -> int:
        if not 200 <= proposal.value <= 2000:
            raise traitlets.TraitError(f"size must be between 200 and 2000, got {proposal.value}.")
        return proposal.value

    @traitlets.validate("max_points")
    def _check_max_points(self, proposal: traitlets.Bunch) -> int:
        if proposal.value < 1:
            raise traitlets.TraitError("max_points must be at least 1.")
        return proposal.value

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
        traitlets.TraitError
            When the new values are inconsistent (e.g. ``tp > p``); nothing changes.
        """
        new = {k: v for k, v in {"p": p, "n": n, "tp": tp, "tn": tn}.items() if v is not None}
        self._batching = True
        try:
            # On a TraitError, hold_trait_notifications restores every trait it changed.
            with self.hold_sync(), self.hold_trait_notifications():
                for key, value in new.items():
                    setattr(self, key, value)
        finally:
            self._batching = False
        self._refresh({"lattice", "contours", "observed"})

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
        tp = np.frombuffer(self._tp_axis, dtype="<i4")
        tn = np.frombuffer(self._tn_axis, dtype="<i4")
        values = np.frombuffer(self._values, dtype="<f4").reshape(tp.size, tn.size)
        return tp, tn, values

    def contours(self) -> list[tuple[float, np.ndarray]]:
        """The drawn contours, decoded from the buffers: ``(level, (m, 2) array)`` pairs."""
        xy = np.frombuffer(self._contour_xy, dtype="<f4").reshape(-1, 2)
        offsets = np.frombuffer(self._contour_offsets, dtype="<u4")
        levels = np.frombuffer(self._contour_levels, dtype="<f4")
        return [(float(levels[k]), xy[offsets[k] : offsets[k + 1]]) for k in range(levels.size)]

    # ------------------------------------------------------------------ observers
    @traitlets.observe("p", "n", "metric", "max_points")
    def _on_slice(self, change: traitlets.Bunch) -> None:
        self._refresh({"lattice", "contours", "observed"})

    @traitlets.observe("levels", "extend")
    def _on_levels(self, change: traitlets.Bunch) -> None:
        self._refresh({"contours"})

    @traitlets.observe("tp", "tn")
    def _on_observed(self, change: traitlets.Bunch) -> None:
        self._refresh({"observed"} | (set() if self.levels else {"contours"}))

    def _refresh(self, parts: set[str]) -> None:
        if self._batching:
            return
        # One message with every buffer, so the browser never mixes two slices.
        with self.hold_sync():
            if "observed" in parts:
                self._update_observed()
            if "lattice" in parts:
                self._update_lattice()
            if "contours" in parts:
                self._update_contours()

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
        self._colour_domain = _colour_domain(values, metric.range)
        self._tp_axis = _i32(tp.ravel())
        self._tn_axis = _i32(tn.ravel())
        self._values = _f32(values)
        self._slice = [p, n, stride]

    def _update_contours(self) -> None:
        levels = list(self.levels)
        if not levels and self._observed_value is not None:
            levels = [self._observed_value]
        lines: list[np.ndarray] = []
        line_levels: list[float] = []
        for level in levels:
            for line in contour(self.metric, level, self.p, self.n, extend=self.extend):
                line = np.asarray(line, dtype=np.float64).reshape(-1, 2)
                if len(line) >= 2:
                    lines.append(line)
                    line_levels.append(level)
        counts = np.array([len(line) for line in lines], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(counts)])
        xy = np.concatenate(lines) if lines else np.zeros((0, 2))
        self._contour_xy = _f32(xy)
        self._contour_offsets = _u32(offsets)
        self._contour_levels = _f32(np.asarray(line_levels, dtype=np.float64))

    def _update_observed(self) -> None:
        p, n, tp, tn = self.p, self.n, self.tp, self.tn
        metric = METRICS[self.metric]
        value = float(np.asarray(metric.values(tp, p - tp, n - tn, tn), dtype=np.float64))
        self._metric_label = metric.label
        self._observed_value = value if math.isfinite(value) else None


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


def _is_int(value: Any) -> bool:
    try:
        operator.index(value)
    except TypeError:
        return False
    return not isinstance(value, bool)


def _colour_domain(values: np.ndarray, metric_range: tuple[float, float]) -> list[float]:
    """(lo, mid, hi) of the diverging colour scale.

    lo and hi are the extreme finite values on the lattice; mid is the middle of the
    metric's range when that range is finite (0 for MCC, 0.5 for accuracy), otherwise
    the median of the finite values; mid is kept inside [lo, hi].
    """
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return [0.0, 0.5, 1.0]
    lo, hi = float(finite.min()), float(finite.max())
    r_lo, r_hi = (float(v) for v in metric_range)
    mid = (r_lo + r_hi) / 2 if math.isfinite(r_lo) and math.isfinite(r_hi) else float(np.median(finite))
    return [lo, min(max(mid, lo), hi), hi]
