"""`ConfusionSimplex`: every confusion matrix of size N as a point of a rotatable tetrahedron.

All ``C(N+3, 3)`` matrices with ``N`` examples sit on a regular tetrahedron under
the isometric map of :mod:`confusionlab.lattice` (vertices TP, FN, FP, TN). The
widget draws them with WebGL, coloured by a metric, with chosen slices (fixed
``p``) highlighted, the observed matrix marked and, optionally, a probability
cloud: the beta-binomial mass on the observed slice or the dirichlet-multinomial
mass over the whole simplex (:mod:`confusionlab.models`).

Every number comes from the exact core; the browser only rotates, projects,
colours and draws.

Wire format: the lattice is implicit in ``(N, stride)``, so no position travels. The
browser enumerates the drawn matrices itself in the drawing order of
:func:`drawing_order` (view geometry, ``js/confusion_simplex/lattice.js``, tested
against this module). A metric travels as a table of its distinct values (float64)
and one code per matrix (uint16, or uint32 when the table has more than 65,536
entries) in the *lattice order* of :func:`lattice_columns`: the value of matrix ``j``
is ``table[codes[j]]``, exactly the core's value, and the browser reorders the codes
into its drawing order with :func:`drawing_permutation`, so a new N costs the kernel
the metric and its encoding only.

The lattice, its orders and the encoding of the values are computed in ``_simplex_lattice``
(pure functions, exported here); this module holds the widget, its traits, observers and
the parts it recomputes: the metric's values on the lattice (:func:`metric_values`) and the
probability cloud.
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
import traitlets

from .._validation import check_int
from ..confusion import ConfusionMatrix
from ..lattice import isometric
from ..metrics import METRICS, get_metric
from ..models import PRIORS, simplex_model, slice_model
from ._common import (
    Buffer,
    BundledWidget,
    Count,
    InvalidTraitError,
    MetricName,
    Tolerance,
    buffer_array,
    colour_domain,
    is_int,
    trait_check,
)
from ._simplex_lattice import (
    MAX_N,
    MAX_POINTS,
    _checked_lattice,
    _level_order,
    _pairs,
    drawing_order,
    drawing_permutation,
    encode_values,
    lattice_columns,
    level_ends,
    simplex_stride,
)

__all__ = [
    "CLOUDS",
    "MAX_N",
    "MAX_POINTS",
    "ConfusionSimplex",
    "drawing_order",
    "drawing_permutation",
    "encode_values",
    "lattice_columns",
    "level_ends",
    "metric_values",
    "simplex_stride",
]

#: Drawing orders (lattices) a widget keeps: the current and the previous (N, stride).
_ORDERS_KEPT = 2
#: Matrices per block when a metric is evaluated on the lattice (:func:`metric_values`).
_BLOCK = 1 << 15
#: Bytes of encoded metric values (codes + tables) a widget keeps for changes back.
_VALUES_BYTES_KEPT = 24 * 2**20

#: The probability clouds the widget can draw.
CLOUDS = ("none", "beta-binomial", "dirichlet-multinomial")

#: The traits :meth:`ConfusionSimplex.update` accepts.
STATE_TRAITS = ("N", "metric", "slices", "dim_others", "observed", "cloud", "prior", "size", "tolerance")


def metric_values(metric: str, N: int, stride: int = 1) -> np.ndarray:
    """``METRICS[metric].values`` at every matrix of :func:`lattice_columns`, in its order.

    The same floats as ``METRICS[metric].values(*lattice_columns(N, stride).T)`` (the
    metrics are elementwise), computed :data:`_BLOCK` matrices at a time in one reused
    buffer filled from the pair list of :func:`lattice_columns`: no (M, 4) lattice is
    built and every temporary of the metric stays in the CPU cache, which more than
    halves the time of a new N at N = 100.

    Examples
    --------
    >>> metric_values("accuracy", 1).tolist()
    [1.0, 0.0, 0.0, 1.0]
    """
    compute = get_metric(metric).values
    N, stride = _checked_lattice(N, stride)
    M = N // stride
    b, c = _pairs(M)
    out = np.empty(comb(M + 3, 3), dtype=np.float64)
    block = np.empty((4, min(_BLOCK, out.size)), dtype=np.float64)
    filled = done = 0

    def flush() -> None:
        nonlocal filled, done
        tp, fn, fp, tn = block[:, :filled]
        if stride > 1:
            block[1:3, :filled] *= stride
        np.subtract(N - tp, fn, out=tn)
        tn -= fp
        out[done : done + filled] = compute(tp, fn, fp, tn)
        done += filled
        filled = 0

    for a in range(M + 1):
        length = (M - a + 1) * (M - a + 2) // 2  # block a: the pairs with b + c <= M - a
        first = 0
        while first < length:
            take = min(length - first, block.shape[1] - filled)
            at = slice(filled, filled + take)
            block[0, at] = stride * a
            block[1, at] = b[first : first + take]
            block[2, at] = c[first : first + take]
            filled += take
            first += take
            if filled == block.shape[1]:
                flush()
    if filled:
        flush()
    return out


class ConfusionSimplex(BundledWidget, bundle="confusion_simplex"):
    """All confusion matrices with ``N`` examples on a rotatable tetrahedron, coloured by a metric.

    Each matrix (TP, FN, FP, TN) is the point x = FN − TN/3, y = FP − TN/3,
    z = TP − TN/3 (centred on the centroid), so the ``C(N+3, 3)`` matrices fill a
    regular tetrahedron whose vertices are the matrices with all N examples in one
    cell. A slice (fixed p = TP + FN) is a plane rectangle of (p + 1)(N − p + 1)
    points: the lattice the :class:`~confusionlab.widgets.roc_slice.RocSlice`
    shows.

    Parameters
    ----------
    N : int
        Number of examples, 1 to :data:`MAX_N` (300). Up to N = 150 (585,276
        matrices) every matrix is drawn; above :attr:`max_points` the simplex is
        thinned to the matrices whose TP, FN and FP are multiples of
        :attr:`stride`.
    metric : str
        A key of :data:`confusionlab.METRICS` or an alias; stored as the metric's name.
    slices : list of int
        Values of p (0 to N) whose slices are highlighted.
    dim_others : bool
        Dim the points outside the highlighted slices (when there are slices or a cloud).
    observed : list of int
        The observed matrix ``[TP, FN, FP, TN]`` (summing to N), marked in the view;
        ``[]`` for none.
    cloud : {"none", "beta-binomial", "dirichlet-multinomial"}
        Probability cloud drawn over the lattice (point area ∝ mass): the
        beta-binomial posterior predictive on the observed slice, or the
        dirichlet-multinomial over the whole simplex. Needs ``observed``; without
        it nothing is drawn and the widget says so.
    prior : {"uniform", "jeffreys"}
        Prior of the cloud models.
    size : int
        Side of the square canvas in CSS pixels (200 to 2000).
    tolerance : float
        Tail mass the cloud models may prune (default
        :data:`~confusionlab._validation.DEFAULT_TOLERANCE`, 1e-12); the pruned mass
        is reported as :attr:`cloud_pruned_mass`.
    max_points : int
        Largest number of matrices drawn one by one (default 1,000,000).

    Notes
    -----
    Change several traits at once with :meth:`update`: all are validated
    together and the browser receives one message. One at a time, each value
    must agree with the others (``sum(observed) == N``, every slice ``<= N``). A
    refused change (an invalid value, or a failure of the core while computing)
    leaves every trait and buffer as it was.

    Only what changed is recomputed and sent, and no position ever travels: the
    browser enumerates the points from ``(N, stride)`` (:func:`drawing_order`). A
    metric travels as the table of its distinct values and one 2-byte code per
    point (:func:`encode_values`), in the lattice order (:func:`lattice_columns`), which
    the browser reorders into its drawing order; a new metric or a new N sends these
    alone.

    Points are drawn coarse surface, surface, coarse interior, rest. When a
    frame of the whole simplex takes too long (software WebGL), the browser draws
    only a prefix of them while the view turns, and everything once it stops;
    ``data-points`` always counts the points of the last frame.

    The view is an orthographic turntable: drag or use the arrow keys to rotate
    (TP stays at the top), the wheel or ``+``/``-`` to zoom, ``0`` to reset. Its
    base orientation puts TP at the top, FN back-left, FP back-right and TN in
    front, which is the mirror image of the right-handed (FN, FP, TP) axes; the
    map preserves distances either way.

    Browser state: the root element has class ``confusionlab-simplex`` and data
    attributes ``data-n``, ``data-metric``, ``data-slices`` (comma-separated),
    ``data-cloud``, ``data-observed``, ``data-points`` (points drawn),
    ``data-lattice-points`` (points received), ``data-cloud-points``,
    ``data-rotation`` (yaw,pitch in degrees), ``data-frames`` (frames rendered),
    ``data-hover`` (the matrix under the pointer, ``"TP,FN,FP,TN"``) and
    ``data-hover-value`` (its metric value from the value table), ``data-drawing``
    (``"splat"``: the lattice is drawn on the CPU into one texture, as with software
    WebGL; ``"points"``: as GL points), and ``data-error`` when WebGL is unavailable.

    Examples
    --------
    >>> w = ConfusionSimplex(N=60, metric="mcc", slices=[20], observed=[16, 4, 8, 32])
    >>> w.points
    39711
    >>> len(w._codes) // 2, len(w._value_table) // 8  # 2-byte codes, distinct float64 values
    (39711, 9211)
    >>> w.update(N=61, observed=[16, 4, 9, 32])
    >>> w.points
    41664
    """

    N = Count(60, help="number of examples").tag(sync=True)
    metric = MetricName("mcc", help="key of confusionlab.METRICS").tag(sync=True)
    slices = traitlets.List(help="highlighted values of p").tag(sync=True)
    dim_others = traitlets.Bool(True, help="dim the points outside the slices").tag(sync=True)
    observed = traitlets.List(help="observed [TP, FN, FP, TN] or []").tag(sync=True)
    cloud = traitlets.Enum(CLOUDS, "none", help="probability cloud").tag(sync=True)
    prior = traitlets.Enum(("uniform", "jeffreys"), "uniform", help="prior of the cloud").tag(sync=True)
    size = traitlets.Int(520, min=200, max=2000, help="canvas side in CSS pixels").tag(sync=True)
    tolerance = Tolerance(help="tail mass the cloud may prune")
    max_points = Count(MAX_POINTS, min=1, help="largest number of points drawn one by one")

    # Computed state shipped to the browser (binary buffers, little-endian).
    # [N, stride, points, ends of the levels of detail: coarse surface, surface, coarse interior]
    _lattice = traitlets.List(traitlets.Int()).tag(sync=True)
    # The points are not sent: the browser enumerates them from (N, stride) (drawing_order).
    _vertices = traitlets.List(traitlets.Float()).tag(sync=True)  # 4 × xyz: TP, FN, FP, TN
    _codes = traitlets.Bytes(b"").tag(sync=True)  # (points,) uint16 (or uint32) index into _value_table
    _value_table = Buffer("<f8").tag(sync=True)  # distinct metric values, sorted
    # key "metric@N/stride" the codes belong to, bytes per code (2 or 4), entries of the table
    _values_info = traitlets.Dict().tag(sync=True)
    _metric_label = traitlets.Unicode("").tag(sync=True)
    _colour_domain = traitlets.List(traitlets.Float()).tag(sync=True)  # lo, mid, hi
    _observed_xyz = traitlets.List(traitlets.Float()).tag(sync=True)  # [] or xyz
    _observed_value = traitlets.Float(None, allow_none=True).tag(sync=True)
    _cloud_xyz = Buffer("<f4").tag(sync=True)  # (k, 3)
    _cloud_mass = Buffer("<f4").tag(sync=True)  # (k,)
    _cloud_info = traitlets.Dict().tag(sync=True)  # model, points, mass, pruned, note

    #: The traits :meth:`update` accepts, in the order it sets them.
    _UPDATE_TRAITS = STATE_TRAITS
    #: Keys of the inputs each part was computed from (rolled back with the buffers).
    _EXTRA_STATE = ("_computed",)

    def __init__(self, **kwargs: Any) -> None:
        self._computed: dict[str, Any] = {}
        super().__init__(**kwargs)

    # ----------------------------------------------------------------- validation
    @traitlets.validate("N")
    def _check_n(self, proposal: traitlets.Bunch) -> int:
        value = proposal.value
        if not 1 <= value <= MAX_N:
            raise InvalidTraitError(
                f"N must be between 1 and {MAX_N} (the largest simplex this widget draws: "
                f"{comb(MAX_N + 3, 3):,} matrices), got N={value}."
            )
        # observed and slices set in the same constructor or update are checked by their own
        # validators (a text among them is refused there, by name): compare only counts here
        if self.observed and all(map(is_int, self.observed)) and sum(self.observed) != value:
            raise InvalidTraitError(
                f"N={value} differs from sum(observed)={sum(self.observed)}; change both together "
                f"with update(N=..., observed=[...])."
            )
        above = [p for p in self.slices if is_int(p) and p > value]
        if above:
            raise InvalidTraitError(
                f"N={value} is smaller than the slices {above}; change both together with update(N=..., slices=[...])."
            )
        return value

    @traitlets.validate("slices")
    def _check_slices(self, proposal: traitlets.Bunch) -> list[int]:
        values = [trait_check(check_int, v, "slices") for v in proposal.value]
        bad = [v for v in values if not 0 <= v <= self.N]
        if bad:
            raise InvalidTraitError(f"slices must be values of p between 0 and N={self.N}, got {bad}.")
        return sorted(set(values))

    @traitlets.validate("observed")
    def _check_observed(self, proposal: traitlets.Bunch) -> list[int]:
        values = [trait_check(check_int, v, "observed") for v in proposal.value]
        if not values:
            return []
        if len(values) != 4:
            raise InvalidTraitError(
                f"observed must be [TP, FN, FP, TN] (4 counts) or [], got {len(values)} values {values}."
            )
        if min(values) < 0:
            raise InvalidTraitError(f"observed must hold non-negative counts, got {values}.")
        if sum(values) != self.N:
            raise InvalidTraitError(
                f"observed={values} sums to {sum(values)}, not N={self.N}; change both together "
                "with update(N=..., observed=[...])."
            )
        return values

    # ------------------------------------------------------------------ public API
    def update(self, **changes: Any) -> None:
        """Change several of ``N, metric, slices, dim_others, observed, cloud, prior, size,
        tolerance`` together: validated all at once, sent in one message; a refused
        change (:class:`~confusionlab.InvalidParameterError` for an unknown name or a bad
        or inconsistent value such as ``sum(observed) != N``, or an error of the core)
        changes nothing.

        Examples
        --------
        >>> w = ConfusionSimplex(N=60, observed=[16, 4, 8, 32])
        >>> w.update(N=61, slices=[20], observed=[16, 4, 9, 32])
        >>> w.N, w.slices
        (61, [20])
        """
        super().update(**changes)

    @property
    def points(self) -> int:
        """Number of matrices drawn (``C(N+3, 3)`` unless thinned)."""
        return self._lattice[2] if self._lattice else 0

    @property
    def stride(self) -> int:
        """TP, FN and FP of the drawn matrices are multiples of ``stride`` (1 unless thinned)."""
        return self._lattice[1] if self._lattice else 1

    @property
    def cloud_mass(self) -> float:
        """Total mass of the cloud sent to the browser (0 without a cloud)."""
        return float(self._cloud_info.get("mass", 0.0))

    @property
    def cloud_pruned_mass(self) -> float:
        """Mass the cloud model pruned from its tails (at most :attr:`tolerance` per marginal)."""
        return float(self._cloud_info.get("pruned", 0.0))

    def counts(self) -> np.ndarray:
        """The drawn matrices (TP, FN, FP, TN), shape (points, 4), in drawing order (:func:`drawing_order`)."""
        return self._points()[0].copy()

    def positions(self) -> np.ndarray:
        """The drawn points' centred isometric xyz as the browser draws them (float32), shape (points, 3).

        The order is the drawing order (surface, coarse interior, rest), not that of
        :func:`~confusionlab.lattice.simplex_points`.
        """
        return isometric(*self._points()[0].T).astype(np.float32)

    def values(self) -> np.ndarray:
        """The metric at each drawn point (float64), in drawing order, decoded from what is sent:
        ``table[codes]`` reordered by :func:`drawing_permutation`, as the browser does."""
        info = self._values_info
        if not info:
            return np.zeros(0)
        codes = np.frombuffer(self._codes, dtype="<u2" if info["code_bytes"] == 2 else "<u4")
        return buffer_array(self, "_value_table")[codes[self._points()[1]]]  # sent in the lattice order

    def cloud_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The cloud as sent: xyz (k, 3) and mass (k,), both float32."""
        return buffer_array(self, "_cloud_xyz").reshape(-1, 3), buffer_array(self, "_cloud_mass")

    # ------------------------------------------------------------------ observers
    # The base sends a trait and the buffers computed from it in one message, so the
    # browser never sees a new N with the old points.
    @traitlets.observe("N", "metric", "observed", "cloud", "prior", "tolerance", "max_points")
    def _on_change(self, change: traitlets.Bunch) -> None:
        self._request(self._ALL_PARTS)

    def _refresh(self, parts: set[str]) -> None:
        """Recompute (and so send) only the parts whose inputs changed."""
        lattice_key = (self.N, simplex_stride(self.N, self.max_points))
        keys = {
            "lattice": lattice_key,
            "values": (lattice_key, self.metric),
            "observed": (tuple(self.observed), self.metric),
            "cloud": (self.N, tuple(self.observed), self.cloud, self.prior, self.tolerance),
        }
        changed = [part for part, key in keys.items() if self._computed.get(part) != key]
        if not changed:
            return
        if "lattice" in changed:
            self._announce_lattice(*lattice_key)
            self._update_lattice(*lattice_key)
        if "values" in changed:
            self._update_values(*lattice_key)
        if "observed" in changed:
            self._update_observed()
        if "cloud" in changed:
            self._update_cloud()
        self._computed = keys

    # -------------------------------------------------------------- computations
    def _points(self) -> tuple[np.ndarray, np.ndarray]:
        """The widget's :func:`drawing_order` counts (int64, read-only) and :func:`drawing_permutation`.

        Computed when asked (:meth:`counts`, :meth:`positions`, :meth:`values`), never for a
        change: the browser builds the drawing order itself. The last :data:`_ORDERS_KEPT`
        are kept.
        """
        key = (self._lattice[0], self._lattice[1])
        cache = self.__dict__.setdefault("_orders", {})
        hit = cache.pop(key, None)
        if hit is None:
            columns = lattice_columns(*key)
            order, _ = _level_order(columns, key[1])
            counts = np.take(columns, order, axis=0).astype(np.int64)
            counts.flags.writeable = False  # shared by the callers: counts() returns a copy
            hit = (counts, order)
        cache[key] = hit  # most recent last
        while len(cache) > _ORDERS_KEPT:
            del cache[next(iter(cache))]
        return hit

    def _announce_lattice(self, N: int, stride: int) -> None:
        """Name the new lattice to the browser before its codes are computed.

        A custom message ``{"prepare_lattice": [N, stride]}``, sent at once (outside the
        held state message): the browser enumerates the points and their drawing order
        while the kernel computes the metric, so the state that follows finds them ready
        on arrival. It changes no state; a browser that ignores it loses nothing.
        """
        if self.comm is not None:
            self.send({"prepare_lattice": [N, stride]})

    def _update_lattice(self, N: int, stride: int) -> None:
        # The levels are counted, not enumerated: a new N costs no drawing order here.
        ends = level_ends(N, stride)
        corners = np.array([[N, 0, 0, 0], [0, N, 0, 0], [0, 0, N, 0], [0, 0, 0, N]])
        self._vertices = [float(v) for v in isometric(*corners.T).ravel()]
        self._lattice = [N, stride, ends[3], *ends[:3]]

    def _encoded(self, metric_name: str, N: int, stride: int) -> dict[str, Any]:
        """The value traits of ``metric_name`` on the lattice ``(N, stride)``, computed or kept.

        Each is a pure function of its key; the most recent ones are kept up to
        :data:`_VALUES_BYTES_KEPT` bytes, so a metric or N changed back is sent again without
        being computed again.
        """
        key = (metric_name, N, stride)
        cache = self.__dict__.setdefault("_encodings", {})
        hit = cache.pop(key, None)
        if hit is None:
            metric = METRICS[metric_name]
            values = metric_values(metric_name, N, stride)
            table, codes = encode_values(values)
            hit = {
                "_metric_label": metric.label,
                "_colour_domain": colour_domain(table, metric.range),
                "_value_table": table.astype("<f8", copy=False).tobytes(),  # bytes: assigned without a copy
                "_codes": codes.astype(codes.dtype.newbyteorder("<"), copy=False).tobytes(),
                "_values_info": {
                    "key": f"{metric.name}@{N}/{stride}",
                    "code_bytes": codes.dtype.itemsize,
                    "distinct": int(table.size),
                },
            }
        cache[key] = hit
        size = lambda e: len(e["_codes"]) + len(e["_value_table"])  # noqa: E731
        while len(cache) > 1 and sum(size(e) for e in cache.values()) > _VALUES_BYTES_KEPT:
            del cache[next(iter(cache))]
        return hit

    def _update_values(self, N: int, stride: int) -> None:
        encoded = self._encoded(self.metric, N, stride)
        self._metric_label = encoded["_metric_label"]
        self._colour_domain = list(encoded["_colour_domain"])
        self._value_table = encoded["_value_table"]
        self._codes = encoded["_codes"]
        self._values_info = dict(encoded["_values_info"])

    def _update_observed(self) -> None:
        if not self.observed:
            self._observed_xyz = []
            self._observed_value = None
            return
        counts = np.array(self.observed)
        self._observed_xyz = [float(v) for v in isometric(*counts)]
        value = float(np.asarray(METRICS[self.metric].values(*counts), dtype=np.float64))
        self._observed_value = value if np.isfinite(value) else None

    def _update_cloud(self) -> None:
        info: dict[str, Any] = {"model": self.cloud, "points": 0, "mass": 0.0, "pruned": 0.0, "note": ""}
        xyz = np.zeros((0, 3))
        mass = np.zeros(0)
        if self.cloud != "none" and not self.observed:
            info["note"] = "the cloud needs an observed matrix"
        elif self.cloud == "beta-binomial":
            cm = ConfusionMatrix(**dict(zip(("tp", "fn", "fp", "tn"), self.observed, strict=True)))
            model = slice_model(cm, "beta-binomial", prior=PRIORS[self.prior], tolerance=self.tolerance)
            tp, tn = np.broadcast_arrays(model.tp, model.tn)
            tp, tn = tp.ravel(), tn.ravel()
            mass = model.joint().ravel()
            xyz = isometric(tp, cm.p - tp, cm.n - tn, tn)
            info["pruned"] = model.pruned_mass
        elif self.cloud == "dirichlet-multinomial":
            cm = ConfusionMatrix(**dict(zip(("tp", "fn", "fp", "tn"), self.observed, strict=True)))
            model = simplex_model(cm, prior=PRIORS[self.prior], tolerance=self.tolerance)
            mass = model.pmf
            xyz = isometric(*model.counts.T)
            info["pruned"] = model.pruned_mass
        info["points"] = int(mass.size)
        info["mass"] = float(mass.sum())
        info["max"] = float(mass.max()) if mass.size else 0.0
        self._cloud_xyz = xyz
        self._cloud_mass = mass
        self._cloud_info = info
