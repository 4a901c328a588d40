"""``GroupedDecisionCurve``: one decision curve per group, on the library's one grouped surface."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .._grouped import GroupedResult
from .._result import new_figure
from .._text import as_written
from .._validation import check_confidence
from ..palette import THEME

__all__ = ["GroupedDecisionCurve"]


class GroupedDecisionCurve(GroupedResult):
    """A :class:`~confusionlab.decision.DecisionCurve` per group (``decision_curve(..., groups=)``).

    ``r[group]`` is the group's curve; :attr:`by_group` maps each group to its net benefits
    ((strategy, threshold) → NB); :meth:`difference` is, per (strategy, threshold), the largest gap
    between two groups; :meth:`intervals` and :meth:`bands` hold over all groups at once
    (Bonferroni over the groups for the pointwise intervals, Šidák for the bands: the groups hold
    disjoint examples).
    """

    title = "Decision curves by group"
    mapping_noun: ClassVar[str] = "grouped decision curve"

    def __init__(self, members: dict[Any, Any], overall: Any = None) -> None:
        self.members = members
        self._overall = overall  # the curve of every group's rows pooled (fairlearn's overall)

    @property
    def value(self) -> dict[Any, Any]:
        """Group → its curve's :attr:`~DecisionCurve.value` ((strategy, threshold) → net benefit)."""
        return self.by_group

    def interval(self, confidence: float = 0.95, *, target: str = "true_value") -> dict[Any, Any]:
        """Group → its curve's pointwise intervals, each at ``confidence`` (simultaneous: :meth:`intervals`)."""
        confidence = check_confidence(confidence)
        return {name: m.interval(confidence, target=target) for name, m in self.members.items()}

    def bands(self, confidence: float = 0.95) -> dict[Any, Any]:
        """Group → its curve's band, all of them holding at once with probability ≥ ``confidence``."""
        level = self.member_confidence(confidence, what="band")
        return {name: m.band(level) for name, m in self.members.items()}

    def to_frame(self) -> Any:
        """Every group's :meth:`~DecisionCurve.to_frame`, a ``group`` column first."""
        import pandas as pd

        frames = []
        for name, m in self.members.items():
            f = m.to_frame()
            f.insert(0, "group", [name] * len(f))
            frames.append(f)
        return pd.concat(frames, ignore_index=True)

    def summary(self, confidence: float = 0.95) -> str:
        """Each group's summary."""
        confidence = check_confidence(confidence)
        return " ".join(f"[{name!s}] {m.summary(confidence)}" for name, m in self.members.items())

    def plot(self, ax: Any = None) -> Any:
        """Each group's first model's net benefit, and its treat-all line (dotted)."""
        fig, ax = new_figure(ax, figsize=(6.0, 4.0))
        colours = [THEME["accent"], THEME["warning"], "#2ca02c", "#9467bd", "#8c564b"]
        top = 0.01
        for k, (name, m) in enumerate(self.members.items()):
            colour = colours[k % len(colours)]
            model = m.models[0]
            ax.plot(m.thresholds, m.net_benefit[model], color=colour, lw=1.3, label=f"{name!s}: {model!s}")
            ax.plot(m.thresholds, m.net_benefit["all"], color=colour, lw=0.8, ls=":")
            top = max(top, float(np.nanmax(m.net_benefit[model])), float(np.nanmax(m.net_benefit["all"])))
        ax.axhline(0.0, color="black", lw=0.8)
        ax.set_ylim(-0.05 * top - 0.01, top * 1.15)
        ax.set_xlabel("threshold probability")
        ax.set_ylabel("net benefit")
        as_written(ax.set_title("Decision curves by group (dotted: treat all)", fontsize=9))
        as_written(ax.legend(loc="upper right", fontsize=8, frameon=False))
        return fig
