"""The base of a size plan: what a test-size plan and a facet-size plan share.

:class:`SizePlan` holds the curve a size search evaluated (size → half-width), its table, its
figure and the interval of the metric at the planned size; :class:`~confusionlab.TestSizePlan`
and :class:`~confusionlab.bias.GroupSizePlan` derive from it.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._deps import require
from .._result import Result, new_figure
from .._validation import check_confidence
from ..distribution import MetricDistribution
from ..palette import NEUTRAL, THEME
from ._search import with_slack

__all__ = ["SizePlan"]


class _DefaultConfidence(float):
    """The default ``confidence`` of a plan's :meth:`~SizePlan.interval` (0.95 in the signature).

    Told apart from a 0.95 the caller passes, so that for one release ``interval()`` keeps
    giving the plan's own confidence (with a FutureWarning when that is not 0.95).
    """


_DEFAULT_CONFIDENCE = _DefaultConfidence(0.95)


class SizePlan(Result, abstract=True):
    """The base of a size plan (:class:`~confusionlab.TestSizePlan`, :class:`~confusionlab.bias.GroupSizePlan`).

    What a test-size plan and a facet-size plan share: the curve, its table, figure and interval.

    A subclass is a frozen dataclass with the fields ``half_width`` (achieved),
    ``requested_half_width`` (the goal), ``confidence`` and ``curve`` (size → half-width),
    and says which attribute holds the planned size (``_size_attribute``) and how the size
    is called (``_size_label``).
    """

    _size_attribute = "N"
    _size_label = "test-set size N"
    # the fields every subclass has (declared here for the methods below; the dataclass defines them)
    half_width: float
    requested_half_width: float
    confidence: float
    curve: dict[int, float]

    @property
    def _size(self) -> int:
        return getattr(self, self._size_attribute)

    def distribution(self) -> MetricDistribution:
        raise NotImplementedError

    def interval(self, confidence: float = _DEFAULT_CONFIDENCE) -> tuple[float, float]:
        """The central ``confidence`` interval of the metric's distribution at the planned size.

        The planned rows are assumed independent (with ``icc=`` and ``cluster_size=`` the plan's
        ``N_clustered`` carries the design effect).

        Parameters
        ----------
        confidence : float, default 0.95
            Level of the interval, in (0, 1). Pass it explicitly: for one more release a
            call without it gives the interval at the plan's own :attr:`confidence` (what
            the criterion read), with a FutureWarning when that is not 0.95; from the next
            release the default is 0.95, as for every result. ``None`` (the old default) is
            accepted with the same warning.

        Returns
        -------
        (float, float)
        """
        if confidence is None or confidence is _DEFAULT_CONFIDENCE:
            if confidence is None or self.confidence != 0.95:
                warnings.warn(
                    f"{type(self).__name__}.interval() without a confidence gives the plan's own "
                    f"{self.confidence:g} interval for one more release, then the 0.95 interval as every "
                    f"result's; pass confidence={self.confidence:g} (the plan's confidence) explicitly",
                    FutureWarning,
                    stacklevel=2,
                )
            confidence = self.confidence
        return self.distribution().interval(check_confidence(confidence))

    def to_frame(self) -> Any:
        """The curve: one row per size the search evaluated exactly, ascending.

        Columns: the size, ``half_width`` there, ``reached`` (at most the requested
        half-width) and ``planned`` (the planned size).
        """
        pd = require("pandas", "notebooks", "to_frame()")

        sizes = np.fromiter(self.curve, dtype=np.int64, count=len(self.curve))
        widths = np.fromiter(self.curve.values(), dtype=np.float64, count=len(self.curve))
        return pd.DataFrame(
            {
                self._size_attribute: sizes,
                "half_width": widths,
                "reached": widths <= with_slack(self.requested_half_width),
                "planned": sizes == self._size,
            }
        )

    def plot(self, ax: Any = None) -> Any:
        """The half-width at every size the search evaluated (dots), the requested half-width
        (dashed) and the plan (circle); returns the Figure (drawn into ``ax`` when given)."""
        fig, ax = new_figure(ax)
        frame = self.to_frame()
        finite = np.isfinite(frame["half_width"].to_numpy())
        ax.plot(frame[self._size_attribute][finite], frame["half_width"][finite], "o", ms=3, color=NEUTRAL,
                label="exact half-width (evaluated)")  # fmt: skip
        goal = self.requested_half_width
        ax.axhline(goal, ls="--", color=THEME["accent"], label=f"requested ± {goal:g}")
        ax.plot([self._size], [self.half_width], "o", mfc="none", ms=10, color=THEME["accent"],
                label=f"plan: {self._size_attribute} = {self._size:,}")  # fmt: skip
        ax.set_xlabel(self._size_label)
        ax.set_ylabel(f"half-width of the {self.confidence:.0%} interval")
        ax.set_title(self.title, fontsize=10)
        ax.legend(fontsize=8)
        return fig
