"""Figure of lesson 11's optional section: the 1/√N rule of thumb against the exact plan.

The rule measures the half-width h₀ once at a pilot size N₀ and scales, N ≈ N₀·(h₀/h)²; the
exact plan is the smallest N whose interval reaches ± h (``plan_test_size``). The lesson
computes both; :func:`plot_rule_of_thumb` draws the rule's relative error against the target
half-width, one line per pilot size, so that one figure shows where the shortcut holds.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from confusionlab.lessons.planning import plot_rule_of_thumb
>>> errors = plot_rule_of_thumb([0.1, 0.05], [415, 1695], {100: [404, 1614], 2000: [423, 1690]}, metric="mcc")
>>> [round(float(e), 1) for e in errors[100]], [round(float(e), 1) for e in errors[2000]]
([-2.7, -4.8], [1.9, -0.3])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .. import palette
from .._text import as_written
from .._validation import InvalidParameterError, check_half_width, check_positive_count
from ._colours import shades
from ._figure import FIGSIZE, axes
from .style import NEUTRAL

__all__ = ["MAX_PILOTS", "plot_rule_of_thumb"]

#: Most pilot sizes one figure draws (one line each).
MAX_PILOTS = 12


def _sizes(values: Any, name: str, length: int) -> np.ndarray:
    """``values`` as positive integer test-set sizes, one per half-width."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence | np.ndarray):
        raise InvalidParameterError(f"{name} must be a sequence of test-set sizes, got {type(values).__name__}")
    if len(values) != length:
        raise InvalidParameterError(f"{name} must hold one test-set size per half-width ({length}), got {len(values)}")
    return np.array([check_positive_count(v, name) for v in values], dtype=float)


def plot_rule_of_thumb(
    half_widths: Sequence[float],
    exact: Sequence[int],
    rules: Mapping[int, Sequence[int]],
    *,
    metric: str,
    ax: Any = None,
) -> dict[int, np.ndarray]:
    """The rule of thumb's N against the exact plan's N: its relative error at each target half-width.

    Parameters
    ----------
    half_widths : sequence of float
        The targets ± h, each a finite number > 0.
    exact : sequence of int
        The exact plan's N at each half-width (``plan_test_size(...).N``).
    rules : mapping of int to sequence of int
        Pilot size N₀ → the rule of thumb's N at each half-width, N₀·(h₀/h)² rounded up.
    metric : str
        The metric planned, written in the title as given.
    ax : matplotlib Axes, optional
        Drawn on a new figure when None.

    Returns
    -------
    dict
        Pilot size (ascending) → the rule's relative error in percent, 100·(N_rule / N_exact − 1), per
        half-width.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> errors = plot_rule_of_thumb([0.05], [1695], {100: [1614]}, metric="mcc")
    >>> round(float(errors[100][0]), 2)
    -4.78
    """
    if isinstance(half_widths, (str, bytes)) or not isinstance(half_widths, Sequence | np.ndarray):
        raise InvalidParameterError(f"half_widths must be a sequence of numbers, got {type(half_widths).__name__}")
    h = np.array([check_half_width(v, "half_widths") for v in half_widths], dtype=float)
    if h.size == 0:
        raise InvalidParameterError("half_widths must hold at least one half-width")
    n_exact = _sizes(exact, "exact", h.size)
    if not isinstance(rules, Mapping) or not 1 <= len(rules) <= MAX_PILOTS:
        raise InvalidParameterError(f"rules must map 1 to {MAX_PILOTS} pilot sizes to the rule's sizes")
    errors = dict(
        sorted(
            (check_positive_count(pilot, "rules"), 100.0 * (_sizes(sizes, f"rules[{pilot!r}]", h.size) / n_exact - 1.0))
            for pilot, sizes in rules.items()
        )
    )
    ax = axes(ax, FIGSIZE)
    ax.axhline(0.0, color=NEUTRAL, lw=1.0, ls="--", label="exact plan")
    for (pilot, error), colour in zip(errors.items(), shades(palette.SEQUENTIAL[-2], len(errors)), strict=True):
        ax.plot(h, error, "o-", color=colour, ms=4, label=f"rule from a pilot of N₀ = {pilot:,}")
    ax.set_xlabel("target half-width ± h")
    ax.set_ylabel("rule's N / exact N − 1 (%)")
    ax.invert_xaxis()  # narrower targets, larger plans, to the right
    as_written(ax.set_title(f"The 1/√N rule against the exact plan: {metric}", fontsize=10))
    as_written(ax.legend(frameon=False, fontsize=8))
    return errors
