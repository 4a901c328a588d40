"""`DecisionView`: which threshold, at what cost, and how sure — the choice moving with the cost.

The view of a :class:`~confusionlab.ThresholdChoice`. A slider sets the threshold probability
``p_t = cost_fp / (cost_fp + cost_fn)`` (the total cost kept), and the kernel answers with the
choice at that cost (:meth:`ThresholdChoice.with_cost <confusionlab.ThresholdChoice.with_cost>`:
the same candidates, constraints and prior, so equal to :func:`~confusionlab.choose_threshold` on
the same data with that cost). Drawn on one canvas: the ROC staircase with the band the choice's
statements stand on and the iso-cost line touching the chosen point; the expected cost over the
thresholds with the band valid after selection, pointwise intervals at some candidates, the
plausible thresholds shaded. The chosen matrix is shown on its slice lattice with the exact
beta-binomial PMF of a new test set as bubbles (a linked :class:`~confusionlab.RocSlice`, with
the staircase drawn through the lattice). Every number comes from the choice; the browser only
scales and draws. A canvas anywidget: it draws offline in the static HTML export.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import ipywidgets
import numpy as np
import traitlets

from .._validation import check_flag, check_instance
from .._views import register_view
from ..decision import ThresholdChoice
from . import _static as page_states
from ._common import Buffer, BundledWidget, Confidence, Integer, InvalidTraitError, trait_check
from .roc_view import StaircaseSlice

__all__ = ["DRAWN", "POINTWISE_SHOWN", "DecisionView", "drawn_blocks"]

#: Candidates whose pointwise interval is drawn (spread along the scores, and the chosen one).
POINTWISE_SHOWN = 15
#: Most blocks of neighbouring candidates sent to the browser (a million distinct scores stay drawable).
DRAWN = 2000
#: Spacing of the values of p_t whose state a static page carries (with the exported one).
STATIC_STEP = 0.05
#: Positions of the slider in Jupyter: p_t from 0.001 to 0.999 in steps of 0.001 (js/decision/widget.js).
LIVE_STEPS = 999


def drawn_blocks(size: int, chosen: int) -> np.ndarray:
    """The first candidate of each drawn block: at most about :data:`DRAWN`, every candidate when there
    are no more; the chosen one, the one after it and "none positive" (the last) are blocks of their own.

    >>> drawn_blocks(5, 2).tolist()
    [0, 1, 2, 3, 4]
    >>> b = drawn_blocks(100_000, 5_001)
    >>> b.size <= DRAWN + 3, b[0], 5_001 in b, 5_002 in b, int(b[-1])
    (True, np.int64(0), True, True, 99999)
    """
    if size <= DRAWN:
        return np.arange(size)
    starts = np.linspace(0, size, DRAWN, endpoint=False).astype(np.int64)
    return np.unique(np.concatenate([starts, [chosen, min(chosen + 1, size - 1), size - 1]]))


def _spread(usable: np.ndarray, count: int) -> np.ndarray:
    if usable.size == 0:
        return usable
    return usable[np.unique(np.linspace(0, usable.size - 1, min(usable.size, count)).round().astype(int))]


class CostPair(traitlets.TraitType):
    """``[cost_fp, cost_fn]`` as a list (JSON for the browser); the view checks the numbers."""

    default_value: ClassVar[list[float]] = []
    info_text = "[cost_fp, cost_fn]"

    def validate(self, obj: Any, value: Any) -> list[Any]:
        if isinstance(value, (list, tuple)):
            return list(value)
        raise InvalidTraitError(f"cost must be [cost_fp, cost_fn], a list of two numbers, got {value!r}")


class DecisionView(BundledWidget, bundle="decision"):
    """A :class:`~confusionlab.ThresholdChoice` whose cost moves: the ROC curve with its band and the
    iso-cost line, the cost over the thresholds with its bands and the plausible thresholds, and
    the chosen confusion matrix on its slice lattice.

    Parameters
    ----------
    choice : ThresholdChoice
        From :func:`confusionlab.choose_threshold` (one group: a grouped choice's ``members``).
    linked : bool, default True
        Make a linked :class:`~confusionlab.widgets.roc_view.StaircaseSlice` (:attr:`slice`) that
        shows the chosen matrix with its exact beta-binomial PMF bubbles; displayed beside the view.
    cost : [cost_fp, cost_fn]
        The expected cost minimised; default the choice's. Empty (``[]``) for a choice that
        maximises a metric: it has no cost to vary, and the slider is off.
    confidence : float, default 0.95
        Level of the band valid after selection, of the plausible set and of the pointwise intervals.
    width : int
        Width of the two panels in CSS pixels.

    Notes
    -----
    Browser state: root class ``confusionlab-decision`` with ``data-candidates`` (drawn: past
    :data:`DRAWN` candidates, blocks of neighbours with the band's envelope), ``data-index``
    (the chosen candidate), ``data-threshold`` (``inf``: none positive), ``data-tp``, ``data-fp``,
    ``data-value``, ``data-plausible`` (plausible candidates), ``data-runs`` (shaded runs),
    ``data-pointwise`` (intervals drawn), ``data-roc-band`` (band vertices drawn), ``data-iso``
    (1: iso-cost line drawn), ``data-pt``, ``data-confidence``, ``data-generation``.

    A refused value (a negative cost, a confidence outside (0, 1)) changes nothing, in Python or
    in the browser.

    Examples
    --------
    >>> import numpy as np
    >>> import confusionlab as cl
    >>> rng = np.random.default_rng(0)
    >>> y = rng.uniform(size=1000) < 0.3
    >>> s = rng.normal(loc=1.5 * y)
    >>> view = cl.DecisionView(cl.choose_threshold(y, s, cost=(1, 4)), linked=False)
    >>> view._summary["tp"], view._summary["fp"]
    (253, 300)
    >>> view.cost = (1, 9)
    >>> view.choice.threshold == cl.choose_threshold(y, s, cost=(1, 9)).threshold
    True
    """

    cost = CostPair(help="[cost_fp, cost_fn]; empty: the choice maximises a metric").tag(sync=True)
    confidence = Confidence(0.95, help="level of the bands and the plausible set").tag(sync=True)
    width = Integer(760, min=480, max=2400, help="width in CSS pixels").tag(sync=True)
    generation = Integer(0, help="state counter set by a controller").tag(sync=True)

    _ALL_PARTS = frozenset({"choice"})
    _EXTRA_STATE = ("_choice",)

    _fpr = Buffer("<f8").tag(sync=True)  # per candidate, ascending thresholds ("none positive" last)
    _tpr = Buffer("<f8").tag(sync=True)
    _thresholds = Buffer("<f8").tag(sync=True)
    _values = Buffer("<f8").tag(sync=True)
    _lower = Buffer("<f8").tag(sync=True)
    _upper = Buffer("<f8").tag(sync=True)
    _plausible = Buffer("<f8").tag(sync=True)
    _pointwise_index = Buffer("<i4").tag(sync=True)
    _pointwise_lower = Buffer("<f8").tag(sync=True)
    _pointwise_upper = Buffer("<f8").tag(sync=True)
    _roc_fpr = Buffer("<f8").tag(sync=True)
    _roc_lower = Buffer("<f8").tag(sync=True)
    _roc_upper = Buffer("<f8").tag(sync=True)
    _summary = traitlets.Dict().tag(sync=True)
    _static = traitlets.Dict().tag(sync=True)  # the states a static page applies (see _static.py)
    _static_costs: frozenset[tuple[float, ...]] = frozenset()  # the costs it holds

    def __init__(self, choice: ThresholdChoice, *, linked: bool = True, **kwargs: Any) -> None:
        self._base = check_instance(
            choice, "choice", ThresholdChoice, "a ThresholdChoice (from confusionlab.choose_threshold)"
        )
        linked = check_flag(linked, "linked")
        self._choice = choice
        kwargs.setdefault("cost", [] if choice.cost is None else list(choice.cost))
        self.slice: StaircaseSlice | None = None
        super().__init__(**kwargs)
        if linked:
            cm = self._choice.confusion_matrix
            counts = choice.candidate_counts
            staircase = np.column_stack([counts["fp"][::-1] / cm.n, counts["tp"][::-1] / cm.p])
            self.slice = StaircaseSlice(
                staircase, p=cm.p, n=cm.n, tp=cm.tp, tn=cm.tn, model="beta-binomial", coordinates="counts", size=380
            )
            self.slice.observe(self._on_linked_change)
        self._box: ipywidgets.HBox | None = None
        self._static_ready = True
        page_states.schedule(self)

    @property
    def choice(self) -> ThresholdChoice:
        """The choice shown: the given one at its own cost, else :meth:`ThresholdChoice.with_cost` at :attr:`cost`."""
        return self._choice

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # Displayed next to its linked slice: the choice and its lattice belong together.
        if self.slice is None:
            return super()._repr_mimebundle_(**kwargs)
        if self._box is None:
            self._box = ipywidgets.HBox([self, self.slice])
        return self._box._repr_mimebundle_(**kwargs)

    @traitlets.validate("cost")
    def _check_cost(self, proposal: traitlets.Bunch) -> list[float]:
        value = proposal.value
        if self._base.cost is None:
            if not value:
                return []
            raise InvalidTraitError(
                f"cost: this choice maximises {self._base.objective}; it has no cost to vary "
                "(choose with cost=(cost_fp, cost_fn) to see the cost move)"
            )
        return list(trait_check(self._base.with_cost, tuple(value)).cost)

    @traitlets.observe("cost", "confidence")
    def _on_change(self, change: traitlets.Bunch) -> None:
        self._request({"choice"})
        if change.name == "confidence" or tuple(self.cost) not in self._static_costs:
            page_states.schedule(self)  # a static page's states hold the exported cost and confidence

    def _on_linked_change(self, change: traitlets.Bunch) -> None:
        if change.name in self.slice._public_traits() and change.name not in ("tp", "tn", "generation"):
            page_states.schedule(self)

    def _precompute_static(self) -> None:
        """Precompute the states a static page applies when its slider moves (``_static``; see
        :mod:`confusionlab.widgets._static`): this view and its slice at values of p_t
        :data:`STATIC_STEP` apart and at the exported cost (same total cost, as the slider keeps it)."""
        links = [self] if self.slice is None else [self, self.slice]
        cost = list(self.cost)
        if not cost:  # a metric's choice: no slider
            self._static = page_states.precompute(links, [], 0, None, total=0, what="values of p_t")
            return
        total = cost[0] + cost[1]
        here = cost[0] / total
        grid = sorted({*(round(k * STATIC_STEP, 10) for k in range(1, round(1 / STATIC_STEP))), here})

        def states_at(pt: float) -> list[dict[str, Any]]:
            at = cost if pt == here else [total * pt, total * (1 - pt)]
            choice, state = self._state(at)
            traits = self.traits()
            own = {"cost": list(at), **{name: traits[name].validate(self, value) for name, value in state.items()}}
            if self.slice is None:
                return [own]
            cm = choice.confusion_matrix
            return [own, self.slice.state_at(cm.tp, cm.tn)]

        try:
            value = page_states.precompute(
                links, grid, grid.index(here), states_at, total=LIVE_STEPS, what="values of p_t"
            )
        except Exception as error:  # said in the page; the slider is off there
            value = page_states.failed(links, LIVE_STEPS, error)
        self._static_costs = frozenset(tuple(state[0]["cost"]) for state in value["states"] or [] if "cost" in state[0])
        self._static = value

    def _refresh(self, parts: set[str]) -> None:
        choice, state = self._state(self.cost)
        self._choice = choice
        for name, value in state.items():
            setattr(self, name, value)
        if self.slice is not None:
            cm = choice.confusion_matrix
            self.slice.update(tp=cm.tp, tn=cm.tn)

    def _state(self, cost: list[float]) -> tuple[ThresholdChoice, dict[str, Any]]:
        """The choice at ``cost`` (empty: the given choice) and the synced traits that draw it."""
        base = self._base
        choice = base if not cost or tuple(cost) == base.cost else base.with_cost(tuple(cost))
        level = self.confidence
        band = choice.band(level)
        roc = choice.roc_band(level)
        counts = choice.candidate_counts
        cm = choice.confusion_matrix
        # Many candidates are drawn as blocks of neighbours: a block shows its first candidate, the
        # band's envelope over the block and is plausible when any candidate in it is, so thinning
        # hides nothing the band says.
        blocks = drawn_blocks(choice.candidates.size, choice.index)
        values = choice.candidate_values[blocks]
        thresholds = choice.candidates[blocks]
        chosen = int(np.searchsorted(blocks, choice.index))
        shown = np.union1d(_spread(np.flatnonzero(~np.isnan(values)), POINTWISE_SHOWN), [chosen])
        bounds = np.array([choice.interval(level, "pointwise", threshold=thresholds[k]) for k in shown])
        return choice, {
            "_fpr": counts["fp"][blocks] / cm.n,
            "_tpr": counts["tp"][blocks] / cm.p,
            "_thresholds": thresholds,
            "_values": values,
            "_lower": np.minimum.reduceat(band.lower, blocks),
            "_upper": np.maximum.reduceat(band.upper, blocks),
            "_plausible": np.logical_or.reduceat(band.plausible, blocks),
            "_pointwise_index": shown,
            "_pointwise_lower": bounds[:, 0],
            "_pointwise_upper": bounds[:, 1],
            "_roc_fpr": roc.fpr,
            "_roc_lower": roc.lower,
            "_roc_upper": roc.upper,
            "_summary": {**self._words(choice, band.plausible, level), "index": chosen, "drawn": int(blocks.size)},
        }

    @staticmethod
    def _words(choice: ThresholdChoice, plausible: np.ndarray, level: float) -> dict[str, Any]:
        cm = choice.confusion_matrix
        cost = choice.cost
        lo, hi = choice.interval(level)
        p_lo, p_hi = choice.interval(level, "pointwise")
        minimise = cost is not None
        slope = None
        if minimise and cost[1] > 0:  # iso-cost: cost_fp·(1 − π)·FPR − cost_fn·π·TPR constant
            slope = cost[0] * cm.n / (cost[1] * cm.p)
        none = math.isinf(choice.threshold)
        pct = f"{level:.0%}"
        return {
            "index": int(choice.index),
            "threshold": None if none else choice.threshold,
            "none_positive": none,
            "tp": cm.tp,
            "fn": cm.fn,
            "fp": cm.fp,
            "tn": cm.tn,
            "p": cm.p,
            "n": cm.n,
            "value": choice.value,
            "interval": [lo, hi],
            "pointwise": [p_lo, p_hi],
            "confidence": level,
            "objective": choice.objective,
            "cost": None if cost is None else list(cost),
            "p_t": None if cost is None else cost[0] / (cost[0] + cost[1]),
            "iso_slope": slope,
            "plausible": int(plausible.sum()),
            "candidates": int(plausible.size),
            "y_label": "expected cost per example" if minimise else choice.objective,
            "title": f"Which threshold? Positive class: {choice.positive!r}",
            "text": choice.summary(level),
            "note": (
                f"Left: the ROC staircase with the {pct} band every true operating point lies in at once"
                + (", and the iso-cost line (dashed) touching the chosen point" if minimise else "")
                + f". Right: the {'expected cost' if minimise else choice.objective} at every threshold with the "
                f"{pct} band valid after choosing the best on these data (shaded blue), {pct} intervals as if "
                f"each threshold were fixed in advance (bars), and the thresholds that could be the best "
                f"(shaded grey). "
                + ("Move the slider to change p_t = cost_fp / (cost_fp + cost_fn)." if minimise else "")
            ),
        }


register_view(ThresholdChoice, DecisionView)
