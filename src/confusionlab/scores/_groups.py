"""One curve per group (``groups=``): the groups' AUCs (or APs) with simultaneous intervals, and
the largest gap between two groups with its interval.

The groups hold disjoint examples, so their curves are independent. Every statement here holds
for all groups at once:

* **Intervals.** Each group's interval is taken at ``1 − (1 − confidence)/G`` (Bonferroni, as the
  audit's), so with probability ≥ ``confidence`` every group's interval holds.
* **Bands.** Each group's band is taken at ``confidence ** (1/G)`` (Šidák: the groups are
  independent), so every group's whole true curve lies in its band at once.
* **The largest gap** ``Δ = max_g A_g − min_g A_g`` (:attr:`value`, ``difference()``). Each ordered pair's
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

from .._deprecation import attribute_now_mapping_method, renamed_attribute
from .._deps import require
from .._grouped import GroupedResult
from .._result import new_figure
from .._text import as_written
from .._validation import InvalidParameterError, as_labels, check_choice, check_confidence, check_same_length
from ..labels import code_groups
from ..models.cluster import cluster_codes
from ..palette import CONTOUR_COLOURS, NEUTRAL
from ._cluster import check_nested, summarise
from ._compare import AucComparison
from ._input import Scores, split_scores
from ._results import TARGETS, PrecisionRecallCurve, RocCurve

__all__ = ["GroupedAucComparison", "GroupedCurves", "grouped_comparison", "grouped_curves"]

#: What each kind of curve's statistic is called.
_NAMES = {"roc": "AUC", "pr": "average precision"}


def _high_low(gap: Any) -> Any:
    """``(high, low)`` of a :class:`~confusionlab._grouped.Gap` (of each, in a mapping of them)."""
    if isinstance(gap, dict):
        return {key: _high_low(g) for key, g in gap.items()}
    return gap.high, gap.low


class GroupedCurves(GroupedResult):
    """One :class:`RocCurve` (or :class:`PrecisionRecallCurve`) per group, with simultaneous statements.

    Built by :func:`confusionlab.roc_curve` and :func:`confusionlab.precision_recall_curve` with
    ``groups=``. The grouped results' surface (:class:`confusionlab._grouped.GroupedResult`, as
    fairlearn's ``MetricFrame``): ``gc[name]`` is a group's curve, :attr:`names` lists the groups
    (sorted), :attr:`by_group` each group's AUC (AP), :meth:`difference` the largest gap with its
    two groups. :attr:`overall` is the curve of the whole test set, the groups pooled (what
    ``roc_curve(y_true, y_score)`` without ``groups=`` returns).

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
    >>> {k: round(v, 3) for k, v in gc.by_group.items()}
    {'F': 0.844, 'M': 0.637}
    >>> gap = gc.difference()
    >>> round(gap, 3), gap.high, gap.low
    (0.207, 'F', 'M')
    >>> lo, hi = gc.interval()
    >>> round(gc.value, 3), round(lo, 3), round(hi, 3)
    (0.207, 0.141, 0.273)
    >>> gc.overall.value == cl.roc_curve(y, s).value
    True
    """

    title = "Curves per group"
    mapping_noun = "set of curves"

    def __init__(self, members: dict[Any, RocCurve | PrecisionRecallCurve], kind: str, overall: Any = None) -> None:
        self.members = dict(members)
        self.kind = kind
        self._overall = overall

    values = attribute_now_mapping_method("by_group")
    largest_gap = renamed_attribute("difference", call=True, convert=_high_low, note="its groups: .high, .low")

    @property
    def value(self) -> float:
        """The largest gap between two groups: ``max_g A_g − min_g A_g`` (:meth:`difference`)."""
        return float(self.difference())

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
        (Bonferroni over ``G(G − 1)/2``), clipped to [-1, 1]; keyed ``(a, b)`` in the groups' order."""
        confidence = check_confidence(confidence)
        target = check_choice(target, "target", TARGETS)
        g = len(self.members)
        pairs = g * (g - 1) // 2
        z = float(norm.ppf(1.0 - (1.0 - confidence) / (2.0 * pairs)))
        inflation = 2.0 if target == "next_test_set" else 1.0
        v, var = np.array(list(self.by_group.values())), self._variances()
        out = {}
        for a in range(g):
            for b in range(a + 1, g):
                d = float(v[a] - v[b])
                half = z * math.sqrt(inflation * (var[a] + var[b]))
                out[(self.names[a], self.names[b])] = (max(d - half, -1.0), min(d + half, 1.0))  # the range
        return out

    def interval(self, confidence: float = 0.95, target: str = "true_value") -> tuple[float, float]:
        """The largest gap's conservative interval (see the module docstring), inside [0, 1].

        Without ``cluster=`` the rows are assumed independent (with it, each group's clustered
        variance, the clusters nested in the groups).
        """
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
        """One row per group: positives, negatives, the AUC (AP), its simultaneous 95 % interval and
        ``target``, the question the interval answers (``"true_value"``)."""
        pd = require("pandas", "notebooks", "to_frame()")

        target = "true_value"
        ends = self.intervals(0.95, target=target)
        return pd.DataFrame(
            {
                "group": self.names,
                "p": [c.p for c in self.members.values()],
                "n": [c.n for c in self.members.values()],
                "value": list(self.by_group.values()),
                "lower": [ends[k][0] for k in self.names],
                "upper": [ends[k][1] for k in self.names],
                "target": target,
            }
        )

    def summary(self, confidence: float = 0.95) -> str:
        confidence = check_confidence(confidence)
        name = _NAMES[self.kind]
        gap = self.difference()
        best, worst = gap.high, gap.low
        lo, hi = self.interval(confidence)
        ends = self.intervals(confidence)
        per = "; ".join(f"{k}: {c.value:.3f} [{ends[k][0]:.3f}, {ends[k][1]:.3f}]" for k, c in self.members.items())
        clustered = getattr(self.overall, "_cluster", None)
        if clustered is not None:
            per += f" ({clustered.method}; the clusters nested in the groups)"
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
        as_written(ax.legend(loc="lower right" if self.kind == "roc" else "lower left", frameon=False, fontsize=8))
        return fig


def grouped_curves(
    is_pos: np.ndarray, scores: np.ndarray, label: Any, groups: Any, kind: str, cluster: Any = None
) -> GroupedCurves:
    """Split checked labels and scores by ``groups`` (labels of any type, one per example); with
    ``cluster`` (ROC only) each group's curve and the pooled one carry Obuchowski's clustered
    variance, the clusters nested in the groups (a cluster in two groups refused by name)."""
    names, codes = _group_codes(is_pos, groups, "curves per group", "one curve")
    clusters = None
    if cluster is not None:
        c_names, c_codes = cluster_codes(cluster, is_pos.shape[0])
        check_nested(c_codes, c_names, codes, names)
        clusters = (c_names, c_codes)
    cls = RocCurve if kind == "roc" else PrecisionRecallCurve
    members: dict[Any, RocCurve | PrecisionRecallCurve] = {}
    for k, name in enumerate(names):
        rows = codes == k
        _check_both_classes(name, is_pos[rows])
        s: Scores = split_scores(is_pos[rows], scores[rows], label)
        members[name] = _clustered(cls(s), is_pos, scores, clusters, rows, f" in group {name!r}")
    everything = np.ones(is_pos.shape[0], dtype=bool)
    overall = _clustered(cls(split_scores(is_pos, scores, label)), is_pos, scores, clusters, everything, "")
    return GroupedCurves(members, kind, overall=overall)


def _clustered(curve: Any, is_pos: np.ndarray, scores: np.ndarray, clusters: Any, rows: np.ndarray, where: str) -> Any:
    """``curve`` with Obuchowski's variance of its ``rows`` set when ``clusters`` (names, codes) are given."""
    if clusters is not None:
        names, codes = clusters
        curve._cluster = summarise(is_pos[rows], scores[rows], codes[rows], names, curve.variance, where=where)
    return curve


# ---- compare_auc(groups=): the comparison of classifiers in each group ---------------------------


class GroupedAucComparison(GroupedResult):
    """One :class:`AucComparison` per group, with statements simultaneous over the groups.

    Built by :func:`confusionlab.compare_auc` with ``groups=``. The grouped results' surface
    (:class:`confusionlab._grouped.GroupedResult`, as fairlearn's ``MetricFrame``): ``gc[name]``
    is a group's comparison (DeLong's paired covariance, Holm over the classifier pairs),
    :attr:`names` lists the groups (sorted), :attr:`by_group` each group's difference
    ``AUC_a − AUC_b``, :meth:`difference` its largest gap between two groups with the two groups.
    :attr:`overall` is the comparison on the whole test set, the groups pooled (what
    ``compare_auc`` without ``groups=`` returns). The groups hold disjoint examples, so their
    comparisons are independent.

    * :meth:`intervals`: each group's interval of the difference ``d_g = AUC_a − AUC_b``, taken at
      ``1 − (1 − confidence)/G`` (Bonferroni, as :class:`GroupedCurves`): for each classifier pair,
      every group's interval holds at once with probability ≥ ``confidence``.
    * :attr:`value`: the largest gap of the difference between two groups (:meth:`difference`),
      ``max_g d_g − min_g d_g`` — does A's advantage over B depend on the group? Its
      :meth:`interval` is built as :class:`GroupedCurves`' largest gap: each ordered pair of
      groups ``(g, h)`` has ``d_g − d_h`` with variance ``V_g + V_h`` (``V`` DeLong's paired
      variance of the difference), intervals at the Bonferroni level over the ``G(G − 1)/2``
      pairs of groups, and the true largest gap lies in ``[max(0, max lower), max upper]``.

    With two classifiers these are numbers; with more, mappings over the classifier pairs
    ``(a, b)`` (as :class:`AucComparison`).

    Examples
    --------
    >>> import numpy as np
    >>> import confusionlab as cl
    >>> rng = np.random.default_rng(0)
    >>> g = np.repeat(["F", "M"], 600)
    >>> y = rng.integers(0, 2, 1200)
    >>> base = rng.normal(size=1200)
    >>> a = base + 1.2 * y                                       # A: as good in both groups
    >>> b = base + np.where(g == "F", 1.2, 0.4) * y + 0.5 * rng.normal(size=1200)  # B: worse on M
    >>> c = cl.compare_auc(y, a, b, groups=g)
    >>> {k: round(v, 3) for k, v in c.by_group.items()}
    {'F': 0.034, 'M': 0.192}
    >>> lo, hi = c.interval()
    >>> gap = c.difference()
    >>> round(c.value, 3), round(lo, 3), round(hi, 3), gap.high, gap.low
    (0.159, 0.128, 0.189, 'M', 'F')
    >>> c.overall.value == cl.compare_auc(y, a, b).value
    True
    """

    title = "AUC comparison per group"
    mapping_noun = "comparison per group"

    def __init__(self, members: dict[Any, AucComparison], overall: AucComparison | None = None) -> None:
        self.members = dict(members)
        self._overall = overall
        first = next(iter(self.members.values()))
        self.classifiers = list(first.names)
        self.pairs = list(first.pairs)

    def _keyed(self, values: list[Any]) -> Any:
        if len(self.pairs) == 1:
            return values[0]
        names = self.classifiers
        return {(names[a], names[b]): v for (a, b), v in zip(self.pairs, values, strict=True)}

    def _d(self) -> np.ndarray:
        """Differences, groups × pairs."""
        return np.array([m._difference for m in self.members.values()])

    def _sd(self) -> np.ndarray:
        """DeLong's standard deviations of the differences, groups × pairs."""
        return np.array([m._sd for m in self.members.values()])

    @property
    def by_group(self) -> dict[Any, Any]:
        """Each group's ``AUC_a − AUC_b`` (a mapping over the pairs with more than two classifiers)."""
        return {name: m.value for name, m in self.members.items()}

    differences = renamed_attribute("by_group")

    @property
    def aucs(self) -> dict[Any, dict[str, float]]:
        """Each group's AUC of each classifier."""
        return {name: dict(m.aucs) for name, m in self.members.items()}

    def p_value(self) -> dict[Any, Any]:
        """Each group's two-sided p-value of no difference, a float (Holm over the pairs within the
        group, then a mapping over the pairs)."""
        return {name: m.p_value() for name, m in self.members.items()}

    p_values = renamed_attribute("p_value", call=True)

    @property
    def value(self) -> Any:
        """The largest gap of the AUC difference between two groups: ``max_g d_g − min_g d_g``
        (:meth:`difference`, a plain float or a mapping of them)."""
        gap = self.difference()
        return {key: float(g) for key, g in gap.items()} if isinstance(gap, dict) else float(gap)

    largest_gap = renamed_attribute("difference", call=True, convert=_high_low, note="its groups: .high, .low")

    def intervals(self, confidence: float = 0.95, target: str = "true_value") -> dict[Any, Any]:
        """Each group's interval of the difference, simultaneous over the groups (per classifier pair)."""
        level = self.member_confidence(confidence)
        return {name: m.interval(level, target=target) for name, m in self.members.items()}

    def gap_intervals(self, confidence: float = 0.95, target: str = "true_value") -> Any:
        """For each pair of groups ``(g, h)`` (in the groups' order), ``d_g − d_h`` with its interval,
        simultaneous over the pairs of groups (Bonferroni over ``G(G − 1)/2``), clipped to [-2, 2]; a
        mapping over the classifier pairs with more than two classifiers."""
        confidence = check_confidence(confidence)
        target = check_choice(target, "target", TARGETS)
        g = len(self.members)
        z = float(norm.ppf(1.0 - (1.0 - confidence) / (2.0 * (g * (g - 1) // 2))))
        inflation = 2.0 if target == "next_test_set" else 1.0
        d, var = self._d(), self._sd() ** 2
        out = []
        for k in range(len(self.pairs)):
            one = {}
            for a in range(g):
                for b in range(a + 1, g):
                    diff = float(d[a, k] - d[b, k])
                    half = z * math.sqrt(inflation * (var[a, k] + var[b, k]))
                    one[(self.names[a], self.names[b])] = (max(diff - half, -2.0), min(diff + half, 2.0))
            out.append(one)
        return self._keyed(out)

    def interval(self, confidence: float = 0.95, target: str = "true_value") -> Any:
        """The largest gap's conservative interval (see the class docstring), inside [0, 2]."""
        gaps = self.gap_intervals(confidence, target)
        out = []
        for one in [gaps] if len(self.pairs) == 1 else list(gaps.values()):
            ends = np.array(list(one.values()))
            lower = max(float(ends[:, 0].max()), float((-ends[:, 1]).max()))
            upper = max(float(ends[:, 1].max()), float((-ends[:, 0]).max()))
            out.append((min(max(lower, 0.0), 2.0), min(max(upper, 0.0), 2.0)))
        return self._keyed(out)

    # -- the protocol -------------------------------------------------------------------
    def to_frame(self) -> Any:
        """One row per group and classifier pair: the AUCs, the difference, its standard deviation,
        its 95 % interval simultaneous over the groups, the p-values (raw and Holm within the group)
        and ``target``, the question the interval answers (``"true_value"``)."""
        pd = require("pandas", "notebooks", "to_frame()")

        ends = self.intervals(0.95, target="true_value")
        rows = []
        for name, m in self.members.items():
            frame = m.to_frame()
            lo_hi = [ends[name]] if len(self.pairs) == 1 else list(ends[name].values())
            frame["lower"] = [v[0] for v in lo_hi]
            frame["upper"] = [v[1] for v in lo_hi]
            frame.insert(0, "group", [name] * len(frame))
            frame.insert(1, "p", m.p)
            frame.insert(2, "n", m.n)
            rows.append(frame)
        return pd.concat(rows, ignore_index=True)

    def summary(self, confidence: float = 0.95) -> str:
        confidence = check_confidence(confidence)
        k = 0
        if len(self.pairs) > 1:  # the pair whose difference varies most across the groups
            k = int(np.argmax(list(self.value.values())))
        a, b = self.classifiers[self.pairs[k][0]], self.classifiers[self.pairs[k][1]]
        pick = (lambda v: v) if len(self.pairs) == 1 else (lambda v: v[(a, b)])
        gap, (high, low) = pick(self.value), pick(_high_low(self.difference()))
        lo, hi = pick(self.interval(confidence))
        ends = self.intervals(confidence)
        per = "; ".join(
            f"{g}: {pick(m.value):+.3f} [{pick(ends[g])[0]:+.3f}, {pick(ends[g])[1]:+.3f}], p = {pick(m.p_value()):.3g}"
            for g, m in self.members.items()
        )
        holm_note = ", Holm over the classifier pairs" if len(self.pairs) > 1 else ""
        return (
            f"Does the AUC difference AUC({a}) − AUC({b}) depend on the group? Its largest gap between {len(self)} "
            f"groups is {gap:.3f} ({high} − {low}); the true largest gap lies in [{lo:.3f}, {hi:.3f}] with "
            f"{confidence:.0%} confidence (conservative, over every pair of groups). Each group's true difference "
            f"with intervals simultaneous over the groups (DeLong, paired{holm_note}): {per}."
        )

    def plot(self, ax: Any = None) -> Any:
        """Each group's difference (per classifier pair) with its interval simultaneous over the
        groups; returns the Figure."""
        fig, ax = new_figure(ax, figsize=(6.0, 0.5 + 0.35 * len(self) * len(self.pairs) + 1.0))
        frame = self.to_frame()
        y = np.arange(len(frame))[::-1]
        pair_index = {pair: k for k, pair in enumerate(self.pairs)}
        names = self.classifiers
        codes = [pair_index[(names.index(a), names.index(b))] for a, b in zip(frame["a"], frame["b"], strict=True)]
        colours = [CONTOUR_COLOURS[c % len(CONTOUR_COLOURS)] for c in codes]
        ax.hlines(y, frame["lower"], frame["upper"], colors=colours, lw=2)
        ax.scatter(frame["difference"], y, color=colours, zorder=3)
        ax.axvline(0, color=NEUTRAL, lw=0.8)
        labels = [f"{g}: {a} − {b}" for g, a, b in zip(frame["group"], frame["a"], frame["b"], strict=True)]
        as_written(ax.set_yticks(y, labels))
        ax.set_xlabel("difference of AUC (95 % intervals simultaneous over the groups)")
        gap = self.value if len(self.pairs) == 1 else max(self.value.values())
        ax.set_title(f"{self.title}: largest gap {gap:.3f}")
        return fig


def _group_codes(is_pos: np.ndarray, groups: Any, what: str, alone: str) -> tuple[list[Any], np.ndarray]:
    """The sorted groups and each example's group index (at least two groups)."""
    g = as_labels(groups, "groups")
    check_same_length({"y_true": is_pos, "groups": g}, what)
    return group_names(g, alone)


def group_names(g: np.ndarray, alone: str) -> tuple[list[Any], np.ndarray]:
    """The sorted distinct labels of ``g`` (no missing ones) and each entry's index among them;
    refused unless there are two or more (``alone`` says what to do with one)."""
    names, codes = code_groups(g)
    if len(names) < 2:
        raise InvalidParameterError(
            f"groups holds {len(names)} group(s) ({', '.join(map(repr, names))}); a comparison of groups needs at "
            f"least two (omit groups= for {alone})"
        )
    return names, codes


def _check_both_classes(name: Any, is_pos: np.ndarray) -> None:
    pos = int(np.count_nonzero(is_pos))
    refuse_one_class(name, pos, is_pos.shape[0] - pos)


def refuse_one_class(name: Any, pos: int, neg: int) -> None:
    """Refuse group ``name`` of ``pos`` positive and ``neg`` negative examples unless it has both."""
    if pos == 0 or neg == 0:
        missing = "positives" if pos == 0 else "negatives"
        raise InvalidParameterError(
            f"groups: group {name!r} has no {missing} ({pos + neg} examples); every group needs positive and "
            "negative examples for an AUC: merge it with another group or drop its rows"
        )


def grouped_comparison(
    is_pos: np.ndarray, scores: list[np.ndarray], names: list[str], label: Any, groups: Any
) -> GroupedAucComparison:
    """Split checked labels and scores (one array per classifier) by ``groups`` and compare in each."""
    from ._compare import paired_comparison

    groups_, codes = _group_codes(is_pos, groups, "an AUC comparison per group", "one comparison")
    members: dict[Any, AucComparison] = {}
    for k, name in enumerate(groups_):
        rows = codes == k
        _check_both_classes(name, is_pos[rows])
        members[name] = paired_comparison(is_pos[rows], [x[rows] for x in scores], names, label)
    return GroupedAucComparison(members, overall=paired_comparison(is_pos, scores, names, label))
