"""One curve per group (``groups=``): the groups' AUCs (or APs) with simultaneous intervals, and
the largest gap between two groups with its interval.

The groups hold disjoint examples, so their curves are independent. Every statement here holds
for all groups at once:

* **Intervals.** Each group's interval is taken at ``1 − (1 − confidence)/G`` (Bonferroni, as the
  audit's), so with probability ≥ ``confidence`` every group's interval holds.
* **Bands.** Each group's band is taken at ``confidence ** (1/G)`` (Šidák: the groups are
  independent), so every group's whole true curve lies in its band at once.
* **The largest gap** ``Δ = max_g A_g − min_g A_g`` (:attr:`value`). Each ordered pair's
  difference ``d_ab = A_a − A_b`` has the variance ``V_a + V_b`` (independent groups; ``V`` the
  variance the group's own interval is built from: DeLong's, or the small-class rule's, see
  :meth:`RocCurve.interval <confusionlab.RocCurve.interval>`; for AP Boyd, Eng & Page's
  ``AP(1 − AP)/p``), and its interval ``d_ab ± z·√(V_a + V_b)`` at the Bonferroni level over the
  ``G(G − 1)/2`` pairs. When every pair's interval holds, the true largest gap
  ``max_{a≠b} d_ab`` lies in ``[max(0, max_{a≠b} lower_ab), max_{a≠b} upper_ab]``: a conservative
  interval of the largest gap, valid whichever pair it is.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.stats import norm

from .._result import Result, new_figure
from .._validation import InvalidParameterError, as_labels, check_choice, check_confidence, check_same_length
from ..confusion import _distinct
from ..palette import CONTOUR_COLOURS, NEUTRAL
from ._input import Scores, split_scores
from ._results import TARGETS, PrecisionRecallCurve, RocCurve, interim_view

__all__ = ["GroupedCurves", "grouped_curves"]

#: What each kind of curve's statistic is called.
_NAMES = {"roc": "AUC", "pr": "average precision"}


class GroupedCurves(Result):
    """One :class:`RocCurve` (or :class:`PrecisionRecallCurve`) per group, with simultaneous statements.

    Built by :func:`confusionlab.roc_curve` and :func:`confusionlab.precision_recall_curve` with
    ``groups=``. ``gc[name]`` is a group's curve, :attr:`names` lists the groups (sorted).

    :attr:`value` is the largest gap between two groups' AUCs (APs), :meth:`interval` its
    conservative interval, :meth:`intervals` every group's interval simultaneous over the groups
    (Bonferroni), :meth:`band` every group's band simultaneous over the groups (Šidák).

    Examples
    --------
    >>> import numpy as np
    >>> import confusionlab as cl
    >>> rng = np.random.default_rng(0)
    >>> g = np.repeat(["F", "M"], 400)
    >>> y = rng.integers(0, 2, 800)
    >>> s = rng.normal(y * np.where(g == "F", 1.5, 0.5), 1.0)  # the model ranks M's examples worse
    >>> gc = cl.roc_curve(y, s, groups=g)
    >>> {k: round(v, 3) for k, v in gc.values.items()}, gc.largest_gap
    ({'F': 0.844, 'M': 0.637}, ('F', 'M'))
    >>> lo, hi = gc.interval()
    >>> round(gc.value, 3), round(lo, 3), round(hi, 3)
    (0.207, 0.141, 0.273)
    """

    title = "Curves per group"

    def __init__(self, members: dict[Any, RocCurve | PrecisionRecallCurve], kind: str) -> None:
        self.members = dict(members)
        self.kind = kind

    @property
    def names(self) -> list[Any]:
        """The groups, sorted."""
        return list(self.members)

    def __getitem__(self, name: Any) -> RocCurve | PrecisionRecallCurve:
        return self.members[name]

    def __iter__(self) -> Any:
        return iter(self.members)

    def __len__(self) -> int:
        return len(self.members)

    @property
    def values(self) -> dict[Any, float]:
        """Each group's AUC (or average precision)."""
        return {name: c.value for name, c in self.members.items()}

    @property
    def largest_gap(self) -> tuple[Any, Any]:
        """``(best, worst)``: the groups of the largest and the smallest AUC (AP); the first of equals."""
        names, v = self.names, np.array(list(self.values.values()))
        return names[int(np.argmax(v))], names[int(np.argmin(v))]

    @property
    def value(self) -> float:
        """The largest gap between two groups: ``max_g A_g − min_g A_g``."""
        v = np.array(list(self.values.values()))
        return float(v.max() - v.min())

    def member_confidence(self, confidence: float = 0.95, *, what: str = "interval") -> float:
        """The level each group's interval (``what="interval"``, Bonferroni) or band (``"band"``,
        Šidák) is taken at for statements simultaneous over the groups."""
        c, m = check_confidence(confidence), len(self.members)
        what = check_choice(what, "what", ("interval", "band"))
        return float(c ** (1.0 / m)) if what == "band" else 1.0 - (1.0 - c) / m

    def intervals(self, confidence: float = 0.95, target: str = "true_value") -> dict[Any, tuple[float, float]]:
        """Every group's interval (its curve's default method), simultaneous over the groups."""
        level = self.member_confidence(confidence)
        return {name: c.interval(level, target=target) for name, c in self.members.items()}

    def _variances(self) -> np.ndarray:
        return np.array([c._interval_variance() for c in self.members.values()])

    def gap_intervals(
        self, confidence: float = 0.95, target: str = "true_value"
    ) -> dict[tuple[Any, Any], tuple[float, float]]:
        """Each pair's difference ``A_a − A_b`` with its interval, simultaneous over the pairs
        (Bonferroni over ``G(G − 1)/2``); keyed ``(a, b)`` in the groups' order."""
        confidence = check_confidence(confidence)
        target = check_choice(target, "target", TARGETS)
        g = len(self.members)
        pairs = g * (g - 1) // 2
        z = float(norm.ppf(1.0 - (1.0 - confidence) / (2.0 * pairs)))
        inflation = 2.0 if target == "next_test_set" else 1.0
        v, var = np.array(list(self.values.values())), self._variances()
        out = {}
        for a in range(g):
            for b in range(a + 1, g):
                d = float(v[a] - v[b])
                half = z * math.sqrt(inflation * (var[a] + var[b]))
                out[(self.names[a], self.names[b])] = (d - half, d + half)
        return out

    def interval(self, confidence: float = 0.95, target: str = "true_value") -> tuple[float, float]:
        """The largest gap's conservative interval (see the module docstring), inside [0, 1]."""
        ends = np.array(list(self.gap_intervals(confidence, target).values()))
        # the ordered pair (b, a) has the interval (−upper, −lower)
        lower = max(float(ends[:, 0].max()), float((-ends[:, 1]).max()))
        upper = max(float(ends[:, 1].max()), float((-ends[:, 0]).max()))
        return min(max(lower, 0.0), 1.0), min(max(upper, 0.0), 1.0)

    def band(self, confidence: float = 0.95) -> dict[Any, Any]:
        """Every group's band (Campbell's simultaneous band; for PR mapped to precision), all of them
        at once with probability ≥ ``confidence``."""
        level = self.member_confidence(confidence, what="band")
        return {name: c.band(level) for name, c in self.members.items()}

    # -- the protocol -------------------------------------------------------------------
    def to_frame(self) -> Any:
        """One row per group: positives, negatives, the AUC (AP) and its simultaneous 95 % interval."""
        import pandas as pd

        ends = self.intervals(0.95)
        return pd.DataFrame(
            {
                "group": self.names,
                "p": [c.p for c in self.members.values()],
                "n": [c.n for c in self.members.values()],
                "value": list(self.values.values()),
                "lower": [ends[k][0] for k in self.names],
                "upper": [ends[k][1] for k in self.names],
            }
        )

    def summary(self, confidence: float = 0.95) -> str:
        confidence = check_confidence(confidence)
        name = _NAMES[self.kind]
        best, worst = self.largest_gap
        lo, hi = self.interval(confidence)
        ends = self.intervals(confidence)
        per = "; ".join(f"{k}: {c.value:.3f} [{ends[k][0]:.3f}, {ends[k][1]:.3f}]" for k, c in self.members.items())
        return (
            f"The largest {name} gap between {len(self)} groups is {self.value:.3f} ({best} − {worst}); the true "
            f"largest gap lies in [{lo:.3f}, {hi:.3f}] with {confidence:.0%} confidence (conservative, over every "
            f"pair). Each group's {name} with intervals simultaneous over the groups: {per}."
        )

    def plot(self, ax: Any = None) -> Any:
        """Each group's curve on one axes; returns the Figure."""
        fig, ax = new_figure(ax, figsize=(4.6, 4.2))
        if self.kind == "roc":
            ax.plot([0, 1], [0, 1], color=NEUTRAL, lw=0.8, ls=":")
        for k, (name, c) in enumerate(self.members.items()):
            colour = CONTOUR_COLOURS[k % len(CONTOUR_COLOURS)]
            label = f"{name}: {c.value:.3f}"
            if self.kind == "roc":
                ax.plot(c.fpr, c.tpr, color=colour, lw=1.4, label=label)
            else:
                ax.step(c.recall, c.precision, where="post", color=colour, lw=1.4, label=label)
        xlabel, ylabel = (
            ("false-positive rate", "true-positive rate") if self.kind == "roc" else ("recall", "precision")
        )
        ax.set(xlim=(0, 1), ylim=(0, 1.01), xlabel=xlabel, ylabel=ylabel)
        ax.set_title(f"{self.title}: largest {_NAMES[self.kind]} gap {self.value:.3f}")
        ax.legend(loc="lower right" if self.kind == "roc" else "lower left", frameon=False, fontsize=8)
        return fig

    def view(self) -> Any:
        """The interim widget: an ``ipywidgets.HTML`` with the summary and the figure of :meth:`plot`
        (each group's own :meth:`RocCurve.view` is the interactive one)."""
        return interim_view(self)


def grouped_curves(is_pos: np.ndarray, scores: np.ndarray, label: Any, groups: Any, kind: str) -> GroupedCurves:
    """Split checked labels and scores by ``groups`` (labels of any type, one per example)."""
    g = as_labels(groups, "groups")
    check_same_length({"y_true": is_pos, "groups": g}, "curves per group")
    names = _distinct(g)
    if len(names) < 2:
        raise InvalidParameterError(
            f"groups holds {len(names)} group(s) ({', '.join(map(repr, names))}); a comparison of groups needs at "
            "least two (omit groups= for one curve)"
        )
    lookup = {v: k for k, v in enumerate(names)}
    codes = np.fromiter((lookup[v] for v in g.tolist()), dtype=np.int64, count=g.shape[0])
    cls = RocCurve if kind == "roc" else PrecisionRecallCurve
    members: dict[Any, RocCurve | PrecisionRecallCurve] = {}
    for k, name in enumerate(names):
        rows = codes == k
        pos = int(np.count_nonzero(is_pos[rows]))
        if pos == 0 or pos == int(rows.sum()):
            missing = "positives" if pos == 0 else "negatives"
            raise InvalidParameterError(
                f"groups: group {name!r} has no {missing} ({int(rows.sum())} examples); every group needs positive and "
                "negative examples for a curve: merge it with another group or drop its rows"
            )
        s: Scores = split_scores(is_pos[rows], scores[rows], label)
        members[name] = cls(s)
    return GroupedCurves(members, kind)
