"""`RocView` and `PrecisionRecallView`: a curve of scores with its band, its summary with its
interval, and a threshold slider walking the operating point along the staircase.

The curve (every point of the staircase, its counts and thresholds) and the band are sent to
the browser once, as binary buffers; the slider only moves an index into them, so a threshold
change redraws without a message from the kernel. The kernel hears of the new index and moves
the linked :class:`~confusionlab.RocSlice`: that point's confusion matrix on the slice lattice,
with the exact beta-binomial PMF of a new test set of the same size as bubbles and the
empirical ROC staircase drawn as a path through the lattice (every vertex of the staircase is
a lattice point: ``(FP, TP)`` after each tie block). Canvas anywidgets: they draw offline in
the static HTML export.
"""

from __future__ import annotations

from typing import Any, ClassVar

import ipywidgets
import numpy as np
import traitlets

from .._validation import InvalidParameterError, check_flag, check_instance, check_int, check_score_threshold
from .._views import register_view
from ..scores import PrecisionRecallCurve, RocCurve
from . import _static as page_states
from ._common import Buffer, BundledWidget, Confidence, Integer, InvalidTraitError, buffer_array
from .roc_slice import RocSlice

__all__ = ["PrecisionRecallView", "RocView", "StaircaseSlice"]

#: Label of the staircase among the slice's contour legends.
STAIRCASE_LABEL = "empirical ROC (staircase)"


class StaircaseSlice(RocSlice):
    """A :class:`~confusionlab.RocSlice` that also draws the empirical ROC staircase through its lattice.

    The staircase is drawn as one more polyline with the contours (its own colour and legend
    entry, :data:`STAIRCASE_LABEL`); everything else is the RocSlice's. ``levels`` defaults to
    ``[0.0]``: with the default metric (MCC) that contour is the chance diagonal, and fixed levels
    keep a move of the observed point from resending the contours.

    Parameters
    ----------
    staircase : array of shape (m, 2)
        The staircase's (FPR, TPR) vertices, from (0, 0) to (1, 1).
    **kwargs
        :class:`~confusionlab.RocSlice` traits.
    """

    def __init__(self, staircase: Any, **kwargs: Any) -> None:
        self._staircase = np.asarray(staircase, dtype=np.float64).reshape(-1, 2)
        kwargs.setdefault("levels", [0.0])
        super().__init__(**kwargs)

    def staircase(self) -> np.ndarray:
        """The drawn staircase, decoded from the buffers: an (m, 2) array of (FPR, TPR)."""
        index = self._contour_labels.index(STAIRCASE_LABEL)
        lines = self.contours()
        metric = buffer_array(self, "_contour_metric")
        return next(xy for (_, xy), k in zip(lines, metric, strict=True) if k == index)

    def _contour_state(self, tp: int, tn: int, observed: float | None) -> dict[str, Any]:
        state = super()._contour_state(tp, tn, observed)
        xy, offsets, levels = state["_contour_xy"], state["_contour_offsets"], state["_contour_levels"]
        index = len(state["_contour_labels"])
        level = float(levels[0]) if levels.size else 0.0  # shown once among the contours' levels
        return {
            "_contour_xy": np.concatenate([xy, self._staircase]),
            "_contour_offsets": np.concatenate([offsets, [xy.shape[0] + len(self._staircase)]]),
            "_contour_levels": np.concatenate([levels, [level]]),
            "_contour_metric": np.concatenate([state["_contour_metric"], [index]]),
            "_contour_labels": [*state["_contour_labels"], STAIRCASE_LABEL],
        }


class _CurveView(BundledWidget, bundle="roc"):
    """What both views share: the staircase sent once, the index of the operating point, the
    band and interval at ``confidence``, the linked slices."""

    kind: ClassVar[str] = "roc"
    _CURVE: ClassVar[type] = RocCurve

    index = traitlets.Int(0, help="index of the operating point on the staircase").tag(sync=True)
    confidence = Confidence(0.95, help="level of the band and the interval").tag(sync=True)
    size = Integer(400, min=200, max=2000, help="side of the plot in CSS pixels").tag(sync=True)
    generation = Integer(0, help="state counter set by a controller").tag(sync=True)

    _ALL_PARTS = frozenset({"curve", "band", "point"})

    _kind = traitlets.Unicode("roc").tag(sync=True)
    _x = Buffer("<f4").tag(sync=True)  # drawn coordinates of each staircase point
    _y = Buffer("<f4").tag(sync=True)
    _tp = Buffer("<i4").tag(sync=True)  # counts at each point (index 0: nobody positive)
    _fp = Buffer("<i4").tag(sync=True)
    _thresholds = Buffer("<f8").tag(sync=True)
    _band_x = Buffer("<f4").tag(sync=True)
    _band_lower = Buffer("<f4").tag(sync=True)
    _band_upper = Buffer("<f4").tag(sync=True)
    _summary = traitlets.Dict().tag(sync=True)
    _static = traitlets.Dict().tag(sync=True)  # the states a static page applies (see _static.py)

    def __init__(self, curve: Any, *, linked: bool = True, slice_options: dict | None = None, **kwargs: Any) -> None:
        name = self._CURVE.__name__
        check_instance(curve, "curve", self._CURVE, f"a {name}")
        linked = check_flag(linked, "linked")
        if slice_options is not None:
            check_instance(slice_options, "slice_options", dict, "a dict of RocSlice traits")
            if slice_options and not linked:
                raise InvalidParameterError("slice_options are the linked slice's traits: they need linked=True")
            fixed = sorted({"p", "n", "tp", "tn"} & set(slice_options))
            if fixed:
                raise InvalidParameterError(f"slice_options holds {fixed}: the linked slice shows the operating point")
        self._curve = curve
        thresholds, tp, fp = curve._operating_counts()
        self._counts = (thresholds, tp, fp)
        self._slices: list[RocSlice] = []
        kwargs.setdefault("index", self._default_index(tp, fp))
        super().__init__(**kwargs)
        self.slice = self.slice_view(**(slice_options or {})) if linked else None
        self._box: ipywidgets.HBox | None = None
        self._static_ready = True
        page_states.schedule(self)

    # ------------------------------------------------------------------ public API
    @property
    def curve(self) -> Any:
        """The curve shown."""
        return self._curve

    @property
    def points(self) -> int:
        """Number of operating points on the staircase (the distinct scores, plus "nobody positive")."""
        return int(self._counts[0].size)

    @property
    def threshold(self) -> float:
        """The threshold of the operating point: positive when score ≥ it (+inf: nobody)."""
        return float(self._counts[0][self.index])

    def set_threshold(self, threshold: float) -> None:
        """Move the operating point to "positive when score ≥ ``threshold``" (the staircase point with
        the same confusion matrix: the number of distinct scores ≥ ``threshold``)."""
        t = check_score_threshold(threshold)
        thresholds = self._counts[0]  # decreasing, +inf first
        self.index = int(np.searchsorted(-thresholds[1:], -t, side="right"))

    def confusion_matrix(self) -> Any:
        """The :class:`~confusionlab.ConfusionMatrix` of the operating point."""
        return self._curve.at_threshold(self.threshold)

    def slice_view(self, **kwargs: Any) -> StaircaseSlice:
        """A :class:`StaircaseSlice` of the operating point's confusion matrix that follows :attr:`index`.

        Defaults: ``model="beta-binomial"`` (the exact PMF of a new test set of the same size as
        bubbles), ``coordinates="counts"`` (one TP and one TN step have equal length, so the
        staircase's steps are lattice steps), ``size=400``. ``p, n, tp, tn`` follow the view.
        """
        fixed = sorted({"p", "n", "tp", "tn"} & set(kwargs))
        if fixed:
            raise InvalidParameterError(f"slice_view takes no {fixed}: the slice shows the operating point's counts")
        cm = self.confusion_matrix()
        kwargs.setdefault("model", "beta-binomial")
        kwargs.setdefault("coordinates", "counts")
        kwargs.setdefault("size", 400)
        staircase = np.column_stack([self._counts[2] / self._curve.n, self._counts[1] / self._curve.p])
        view = StaircaseSlice(staircase, p=cm.p, n=cm.n, tp=cm.tp, tn=cm.tn, **kwargs)
        view.observe(self._on_slice_moved, names=["tp", "tn"])
        view.observe(self._on_linked_change)
        self._slices.append(view)
        page_states.schedule(self)
        return view

    def nearest_index(self, tp: int, fp: int) -> int:
        """The staircase point nearest to the lattice point ``(FP, TP) = (fp, tp)`` in counts (the
        first of equals). When that is the current point and the lattice point is not, the
        neighbour in the direction of the move (the larger positive projection of its step on the
        move; none: stay): a drag or an arrow key on the slice always walks the staircase.

        >>> import confusionlab as cl
        >>> view = cl.RocView(cl.roc_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]), linked=False)
        >>> view.index, view.nearest_index(tp=3, fp=3), view.nearest_index(tp=2, fp=1)
        (2, 6, 3)
        """
        tp, fp = check_int(tp, "tp"), check_int(fp, "fp")
        _, tps, fps = self._counts
        d = (tps - tp) ** 2 + (fps - fp) ** 2
        k = int(np.argmin(d))
        here = self.index
        move = (tp - int(tps[here]), fp - int(fps[here]))
        if k == here and move != (0, 0):
            best = 0
            for j in (here - 1, here + 1):
                if 0 <= j < d.size:
                    along = (int(tps[j]) - int(tps[here])) * move[0] + (int(fps[j]) - int(fps[here])) * move[1]
                    if along > best:
                        best, k = along, j
        return k

    def _on_slice_moved(self, change: traitlets.Bunch) -> None:
        """A slice's observed point moved (dragged, clicked or stepped in the browser, or set in
        Python): move the operating point to the nearest staircase point, which snaps every linked
        slice onto the staircase (a point already on it changes nothing)."""
        view = change.owner
        if (view.p, view.n) != (self._curve.p, self._curve.n):
            return  # the slice was pointed elsewhere: it no longer follows the curve's lattice
        tp, fp = int(view.tp), int(view.n - view.tn)
        _, tps, fps = self._counts
        if (int(tps[self.index]), int(fps[self.index])) == (tp, fp):
            return
        k = self.nearest_index(tp, fp)
        if k != self.index:
            self.index = k
        else:
            self._follow()  # no other point: the slice goes back onto this one

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # Displayed next to its linked slice: the view and the lattice belong together.
        if self.slice is None:
            return super()._repr_mimebundle_(**kwargs)
        if self._box is None:
            self._box = ipywidgets.HBox([self, self.slice])
        return self._box._repr_mimebundle_(**kwargs)

    # ----------------------------------------------------------------- validation
    @traitlets.validate("index")
    def _check_index(self, proposal: traitlets.Bunch) -> int:
        value, count = proposal.value, self._counts[0].size
        if isinstance(value, (bool, np.bool_)):  # an Int to traitlets, but True would index a mask
            raise InvalidTraitError(f"index must be an integer (a staircase point), got {value!r}.")
        value = int(value)
        if not 0 <= value < count:
            raise InvalidTraitError(f"index must be between 0 and {count - 1} (the staircase's points), got {value}.")
        return value

    @traitlets.observe("index")
    def _on_index(self, change: traitlets.Bunch) -> None:
        self._request({"point"})
        if self.index not in self._static.get("positions", ()):
            page_states.schedule(self)  # a static page's states hold the exported point

    def _on_linked_change(self, change: traitlets.Bunch) -> None:
        if change.name in change.owner._public_traits() and change.name not in ("tp", "tn", "generation"):
            page_states.schedule(self)

    def _precompute_static(self) -> None:
        """Precompute the states a static page applies when its slider moves (``_static``; see
        :mod:`confusionlab.widgets._static`): each following slice at every staircase point (an even
        spread of them past the size cap)."""
        links = [s for s in self._slices if s.comm is not None and (s.p, s.n) == (self._curve.p, self._curve.n)]
        _, tps, fps = self._counts
        n = self._curve.n

        def states_at(k: int) -> list[dict[str, Any]]:
            return [view.state_at(int(tps[k]), n - int(fps[k])) for view in links]

        try:
            value = page_states.precompute(
                links, range(self.points), self.index, states_at, total=self.points, what="thresholds"
            )
        except Exception as error:  # said in the page; the slider is off there
            value = page_states.failed(links, self.points, error)
        self._static = value

    @traitlets.observe("confidence")
    def _on_confidence(self, change: traitlets.Bunch) -> None:
        self._request({"band"})

    def _refresh(self, parts: set[str]) -> None:
        if "curve" in parts:
            thresholds, tp, fp = self._counts
            x, y = self._coordinates(tp, fp)
            self._kind = self.kind
            self._thresholds, self._tp, self._fp, self._x, self._y = thresholds, tp, fp, x, y
        if "band" in parts:
            self._update_band()
        if "point" in parts:
            self._follow()

    def _follow(self) -> None:
        """Move every open linked slice to the operating point (all or none)."""
        self._slices = [s for s in self._slices if s.comm is not None]
        cm = self.confusion_matrix()
        done: list[tuple[RocSlice, dict[str, int]]] = []
        try:
            for view in self._slices:
                before = {"tp": view.tp, "tn": view.tn}
                view.update(tp=cm.tp, tn=cm.tn)
                done.append((view, before))
        except BaseException:
            for view, before in reversed(done):
                view.update(**before)
            raise

    # ------------------------------------------------------------------ per kind
    def _default_index(self, tp: np.ndarray, fp: np.ndarray) -> int:
        raise NotImplementedError

    def _coordinates(self, tp: np.ndarray, fp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    #: What the summary line says (the statistic, its interval's method, the band, the axes).
    _WORDS: ClassVar[dict[str, str]] = {}

    def _band_grid(self, band: Any) -> np.ndarray:
        raise NotImplementedError

    def _update_band(self) -> None:
        curve, confidence = self._curve, self.confidence
        band = curve.band(confidence)
        lo, hi = curve.interval(confidence)
        self._band_x, self._band_lower, self._band_upper = self._band_grid(band), band.lower, band.upper
        clustered = getattr(curve, "n_clusters", None) is not None  # roc_curve(..., cluster=): Obuchowski's interval
        self._summary = {
            **self._WORDS,
            **({"method": curve.interval_method} if self.kind == "roc" else {}),
            **({"band": f"{self._WORDS['band']} (rows taken as independent)"} if clustered else {}),
            "value": curve.value,
            "interval": [lo, hi],
            "confidence": confidence,
            "p": curve.p,
            "n": curve.n,
            "baseline": curve.p / (curve.p + curve.n) if self.kind == "pr" else None,
        }


class RocView(_CurveView):
    """The ROC curve of a :class:`~confusionlab.RocCurve` with its band, the AUC with its interval,
    and a threshold slider moving the operating point along the staircase.

    Parameters
    ----------
    curve : RocCurve
        From :func:`confusionlab.roc_curve`.
    linked : bool, default True
        Make a linked :class:`StaircaseSlice` (:attr:`slice`): the operating point's confusion
        matrix on the slice lattice with its exact beta-binomial PMF bubbles and the staircase as
        a path through the lattice. The view is displayed next to it.
    slice_options : dict, optional
        Further traits of the linked slice (see :meth:`slice_view`; with ``linked=True`` only).
    index : int
        The operating point: 0 calls nobody positive, ``k`` positive when the score is ≥ the
        k-th largest distinct score. Default: the point of largest TPR − FPR (Youden's J).
    confidence : float, default 0.95
        Level of Campbell's simultaneous band and of the AUC's interval (its default: DeLong's, or
        with ``roc_curve(..., cluster=)`` Obuchowski's clustered one, named in the summary line; the
        band then still takes the rows as independent, and says so).
    size : int
        Side of the plot in CSS pixels.

    Notes
    -----
    Browser state: root class ``confusionlab-roc`` with ``data-kind`` (``"roc"``),
    ``data-points`` (staircase points drawn), ``data-index``, ``data-tp``, ``data-fp``,
    ``data-threshold``, ``data-band`` (band vertices drawn), ``data-value`` (the AUC),
    ``data-generation`` and ``data-draw-ms`` (the last redraw's duration). The slider (class
    ``cl-threshold``) moves ``index`` in the browser and sends it to Python, which moves the
    linked slice; a refused index changes nothing. Dragging (or clicking, or stepping with the
    arrow keys) the linked slice's observed point walks the threshold the other way: the view
    moves to the nearest staircase point (:meth:`nearest_index`) and the slice snaps onto it.

    Examples
    --------
    >>> import confusionlab as cl
    >>> curve = cl.roc_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> view = RocView(curve)
    >>> view.points, view.index, view.threshold
    (7, 2, 0.8)
    >>> view.set_threshold(0.35)
    >>> view.index, (view.slice.tp, view.slice.tn)
    (4, (3, 2))
    """

    kind = "roc"
    _CURVE = RocCurve

    def _default_index(self, tp: np.ndarray, fp: np.ndarray) -> int:
        return int(np.argmax(tp * self._curve.n - fp * self._curve.p))  # in integers: ties go to the first

    def _coordinates(self, tp: np.ndarray, fp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return fp / self._curve.n, tp / self._curve.p

    _WORDS: ClassVar[dict[str, str]] = {
        "label": "AUC",
        "method": "DeLong, logit scale",
        "band": "Campbell's simultaneous band",
        "x_label": "false-positive rate",
        "y_label": "true-positive rate",
    }

    def _band_grid(self, band: Any) -> np.ndarray:
        return band.fpr


class PrecisionRecallView(_CurveView):
    """The precision–recall curve of a :class:`~confusionlab.PrecisionRecallCurve` with its band,
    the average precision with its interval, and a threshold slider.

    Parameters and browser state are those of :class:`RocView` (``data-kind="pr"``; the default
    operating point is the one of largest F1; the interval is Boyd, Eng & Page's logit interval,
    the band the simultaneous ROC band mapped to precision). The curve is drawn as the steps the
    average precision sums: precision ``P_k`` held from recall ``R_{k−1}`` to ``R_k``.

    Examples
    --------
    >>> import confusionlab as cl
    >>> pr = cl.precision_recall_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> view = PrecisionRecallView(pr, linked=False)
    >>> view.points, view.threshold, view.confusion_matrix()
    (7, 0.35, ConfusionMatrix(tp=3, fn=0, fp=1, tn=2))
    """

    kind = "pr"
    _CURVE = PrecisionRecallCurve

    def _default_index(self, tp: np.ndarray, fp: np.ndarray) -> int:
        f1 = 2 * tp / (tp + fp + self._curve.p)
        return int(np.argmax(f1))

    def _coordinates(self, tp: np.ndarray, fp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        called = tp + fp
        precision = np.divide(tp, called, out=np.ones(tp.size), where=called > 0)  # 1 at recall 0
        return tp / self._curve.p, precision

    _WORDS: ClassVar[dict[str, str]] = {
        "label": "AP",
        "method": "Boyd, Eng & Page's logit interval",
        "band": "the simultaneous ROC band mapped to precision",
        "x_label": "recall",
        "y_label": "precision",
    }

    def _band_grid(self, band: Any) -> np.ndarray:
        return band.recall


register_view(RocCurve, RocView)
register_view(PrecisionRecallCurve, PrecisionRecallView)
