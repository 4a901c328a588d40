"""Figures and small computations of the stability lesson (notebook 09).

:func:`learners_band` asks how much the 2PL's answer "how many trees for stability S*?" moves when
one refit is left out (a jackknife over the refits): the spread of those answers is the band
the lesson quotes with every extrapolated tree count. :func:`plot_curves` draws stability
against the number of trees with the fitted 2PL curves and shades the region beyond the
measured grid, where every read-off is an extrapolation; :func:`plot_small_sets` compares the
ICC with psi on small test sets.

Colours come from :mod:`confusionlab.palette`: phi green and psi purple (the pair colours), the
ICC red (the colour of low values on the diverging scale), the extrapolated region the light grey
of the page's grid.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import numpy as np
>>> sets = {2: (np.array([0.1, 0.9, 0.5]), np.array([0.8, 0.82, 0.81]))}
>>> ax = plot_small_sets(sets)
>>> ax.get_xlabel(), len(ax.patches)
('test objects', 2)
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._deprecation import renamed_arguments
from .._validation import InvalidParameterError, check_probability
from ..palette import DIVERGING, NEUTRAL, PAIR_COLOURS, THEME

__all__ = ["EXTRAPOLATION_COLOUR", "MEASURE_COLOURS", "learners_band", "plot_curves", "plot_small_sets"]

#: One colour per stability measure in the lesson's figures.
MEASURE_COLOURS: dict[str, str] = {"phi": PAIR_COLOURS["A"], "psi": PAIR_COLOURS["B"], "icc": DIVERGING[0]}
#: Shade of the region beyond the measured grid (extrapolation).
EXTRAPOLATION_COLOUR = THEME["grid"]


@renamed_arguments(target="stability_target")
def learners_band(curve: Any, stability_target: float = 0.95, measure: str | None = None) -> np.ndarray:
    """Learners reaching ``stability_target`` by the 2PL, once per refit left out (jackknife over refits).

    Parameters
    ----------
    curve : StabilityCurve
        From :func:`confusionlab.stability.stability_curve`, with at least 3 refits per grid point.
    stability_target : float, default 0.95
        Stability level S*, in (0, 1) (``target=`` is its old name, still accepted for one
        release with a FutureWarning).
    measure : str, optional
        Any measure of :meth:`StabilityCurve.stability` (default: the curve's own).

    Returns
    -------
    numpy.ndarray of shape (repeats,)
        ``learners_for(stability_target)`` of the curve without refit ``r``, for every ``r``; NaN where that
        2PL cannot be fitted or read (a degenerate fit or an undefined coefficient). Its range is a
        band over refits for the extrapolated tree count.

    Examples
    --------
    >>> import numpy as np
    >>> from confusionlab.stability.curve import StabilityCurve
    >>> rng = np.random.default_rng(0)
    >>> grid = np.array([2, 4, 8, 16, 32])
    >>> # each refit predicts 0/1 per object; with more "trees" fewer flips from the majority
    >>> flips = np.stack([rng.random((4, 40)) < 0.4 / np.sqrt(m) for m in grid])  # m trees
    >>> preds = np.where(flips, 1, 0)
    >>> c = StabilityCurve(grid, preds, np.array([0, 1] * 20), [None] * 5, np.ones((5, 4)), "phi", "nominal")
    >>> band = learners_band(c, 0.95)
    >>> band.shape, bool(np.all(band > 0))
    ((4,), True)
    """
    stability_target = check_probability(stability_target, "stability_target", open_interval=True)
    predictions = getattr(curve, "predictions", None)
    if not isinstance(predictions, np.ndarray) or predictions.ndim != 3:
        raise InvalidParameterError(f"curve must be a StabilityCurve, got {type(curve).__name__}")
    repeats = predictions.shape[1]
    if repeats < 3:
        raise InvalidParameterError(f"curve needs at least 3 refits per grid point to leave one out, it has {repeats}")
    out = np.full(repeats, np.nan)
    for r in range(repeats):
        keep = np.delete(np.arange(repeats), r)
        sub = dataclasses.replace(
            curve, predictions=predictions[:, keep], fit_seconds=curve.fit_seconds[:, keep], _cache={}
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out[r] = sub.fit_2pl(measure).learners_for(stability_target)
            except ValueError:
                pass
    return out


def plot_curves(
    curves: Mapping[str, Any], measures: Sequence[str] = ("phi", "psi"), *, axes: Any = None, upto: float = 1000.0
) -> Any:
    """Stability against the number of trees (log scale), one panel per curve, with the fitted 2PL.

    Parameters
    ----------
    curves : mapping of str to StabilityCurve
        Panel title → curve.
    measures : sequence of str, default ("phi", "psi")
        Drawn in each panel: measured points and the 2PL fitted to them.
    axes : sequence of matplotlib Axes, optional
        One per curve; a new row of panels when omitted.
    upto : float, default 1000
        The 2PL lines run to this many trees; beyond the largest measured forest the panel is
        shaded (:data:`EXTRAPOLATION_COLOUR`): read-offs there are extrapolations.

    Returns
    -------
    numpy.ndarray of Axes
        Each with one line per measure (the 2PL), one point series per measure, and one shaded span.
    """
    import matplotlib.pyplot as plt

    if not isinstance(curves, Mapping) or not curves:
        raise InvalidParameterError("curves must be a non-empty mapping of panel title to StabilityCurve")
    if isinstance(measures, str):
        raise InvalidParameterError("measures must be a sequence of measure names, not a string")
    if isinstance(upto, bool) or not isinstance(upto, (int, float)):
        raise InvalidParameterError(f"upto must be a number of trees, got {upto!r}")
    if not math.isfinite(upto) or not 1 < upto <= 1e9:
        raise InvalidParameterError(f"upto must be a number of trees in (1, 1e9], got {upto!r}")
    if axes is None:
        _, axes = plt.subplots(1, len(curves), figsize=(4.4 * len(curves), 3.4), sharey=True, squeeze=False)
    axes = np.ravel(axes)
    for ax, (name, curve) in zip(axes, curves.items(), strict=True):
        largest = float(np.max(curve.n_learners))
        grid = np.geomspace(1.0, max(upto, largest), 200)
        ax.axvspan(largest, grid[-1], color=EXTRAPOLATION_COLOUR, zorder=0, label="beyond the grid")
        for measure in measures:
            colour = MEASURE_COLOURS.get(measure, NEUTRAL)
            ax.plot(curve.n_learners, curve.stability(measure), "o", color=colour, label=measure)
            ax.plot(grid, curve.fit_2pl(measure).predict(grid), "-", color=colour, alpha=0.8)
        ax.set_xscale("log")
        ax.set_title(name)
        ax.set_xlabel("number of trees m")
        ax.set_ylabel("stability")
    axes[0].legend(fontsize="small", loc="lower right")
    return axes


def plot_small_sets(small: Mapping[int, tuple[Any, Any]], *, ax: Any = None) -> Any:
    """Box plots of ICC(1,1) (red) and psi (purple) over random test subsets of each size.

    Parameters
    ----------
    small : mapping of int to (array, array)
        Subset size → (ICC values, psi values) over the random subsets.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        With two boxes per size (``ax.patches``: the ICC boxes first, then the psi boxes).
    """
    import matplotlib.pyplot as plt

    if not isinstance(small, Mapping) or not small:
        raise InvalidParameterError("small must be a non-empty mapping of subset size to (ICC values, psi values)")
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.2))
    sizes = list(small)
    positions = np.arange(len(sizes), dtype=float)
    for k, (measure, shift) in enumerate((("icc", -0.18), ("psi", 0.18))):
        ax.boxplot(
            [np.asarray(small[s][k], dtype=float) for s in sizes],
            positions=positions + shift,
            widths=0.3,
            patch_artist=True,
            boxprops={"facecolor": MEASURE_COLOURS[measure], "alpha": 0.6},
            medianprops={"color": NEUTRAL},
        )
    ax.set_xticks(positions, [str(s) for s in sizes])
    ax.set_xlabel("test objects")
    ax.set_ylabel("stability")
    ax.set_title("ICC(1,1) (red) and psi (purple) on small test sets")
    return ax
