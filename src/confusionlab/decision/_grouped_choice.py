"""``GroupedThresholdChoice``: a threshold per group, with statements that hold for every group at once."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._grouped import GroupedResult
from .._result import new_figure
from .._text import as_written
from .._validation import check_choice, check_confidence
from ._choice_result import KINDS, ThresholdChoice

__all__ = ["GroupedThresholdChoice"]


class GroupedThresholdChoice(GroupedResult):
    """A :class:`ThresholdChoice` per group (``choose_threshold(..., groups=)``).

    The groups hold disjoint examples, so statements made in each at level ``confidence ** (1/G)``
    (Šidák, :meth:`member_confidence` with ``what="band"``) hold in all ``G`` at once with
    probability ≥ ``confidence``. Each member's :attr:`~ThresholdChoice.confidence` is that level:
    its plausible set, and :meth:`interval`, hold simultaneously over the groups.

    Attributes
    ----------
    threshold, plausible_thresholds : dict
        Group → the member's.
    confidence : float
        The level of all the groups' statements together.
    overall : ThresholdChoice
        One threshold for the whole test set, the groups pooled (what ``groups=None`` returns).
    """

    title = "Threshold choice per group"
    headline = "threshold"
    target = "true_value"

    def __init__(
        self, members: dict[Any, ThresholdChoice], confidence: float, *, overall: ThresholdChoice | None = None
    ) -> None:
        self.members = members
        self.confidence = confidence
        self._overall = overall
        level = self.member_confidence(confidence, what="band")
        for member in members.values():
            member.confidence = level

    @property
    def value(self) -> dict[Any, float]:
        return self.by_group

    @property
    def threshold(self) -> dict[Any, float]:
        return {name: m.threshold for name, m in self.members.items()}

    @property
    def plausible_thresholds(self) -> dict[Any, np.ndarray]:
        return {name: m.plausible_thresholds for name, m in self.members.items()}

    def interval(self, confidence: float = 0.95, kind: str = "after_selection") -> dict[Any, tuple[float, float]]:
        """Each group's interval at its chosen threshold, all holding at once with probability ≥ ``confidence``
        (each member's at ``confidence ** (1/G)``); ``kind`` as :meth:`ThresholdChoice.interval`.

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.
        """
        level = self.member_confidence(check_confidence(confidence), what="band")
        kind = check_choice(kind, "kind", KINDS)
        return {name: m.interval(level, kind=kind) for name, m in self.members.items()}

    def to_frame(self) -> Any:
        """Every group's candidates (:meth:`ThresholdChoice.to_frame`) with a ``group`` column first."""
        import pandas as pd

        frames = []
        for name, member in self.members.items():
            frame = member.to_frame()
            frame.insert(0, "group", [name] * len(frame))
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

    def summary(self, confidence: float = 0.95) -> str:
        """Each group's threshold and value with its interval (simultaneous over the groups), in words."""
        intervals = self.interval(confidence)
        parts = [
            f"{name!s}: threshold {m.threshold:.4g}, {m.objective} {m.value:.4g} "
            f"[{intervals[name][0]:.4g}, {intervals[name][1]:.4g}], {m.plausible_thresholds.size} plausible"
            for name, m in self.members.items()
        ]
        return (
            f"A threshold per group; {confidence:.0%} intervals valid after the choice and simultaneous over the "
            f"{len(self.members)} groups — " + "; ".join(parts) + "."
        )

    def plot(self, ax: Any = None) -> Any:
        """Each group's objective against the threshold with its chosen threshold; the bands are each
        member's own plot (``result[group].plot()``). Returns the matplotlib Figure."""
        fig, ax = new_figure(ax)
        for name, m in self.members.items():
            finite = np.isfinite(m.candidates)
            (line,) = ax.step(m.candidates[finite], m.candidate_values[finite], where="post", lw=1.2, label=str(name))
            if np.isfinite(m.threshold):
                ax.plot([m.threshold], [m.value], "o", color=line.get_color(), ms=5)
        first = next(iter(self.members.values()))
        ax.set_xlabel("threshold (score ≥ threshold is positive)")
        ax.set_ylabel("expected cost per example" if first.cost is not None else first.objective)
        as_written(ax.set_title("threshold per group (dots: chosen)", fontsize=9))
        as_written(ax.legend(loc="best", fontsize=7, frameon=False))
        return fig
