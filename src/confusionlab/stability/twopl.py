r"""The two-parameter logistic (2PL) model of stability against the number of learners.

.. math::

    S(n) = \frac{1}{1 + (p_1 / n)^{p_2}}

is logistic in log n: p1 is the number of learners at which S = ½ and p2 the slope
(SPEC C3, from the optRF package). The number of learners reaching a target S* is
:math:`n(S^*) = p_1 / (1/S^* - 1)^{1/p_2}`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import least_squares

__all__ = ["Recommendation", "TwoPLFit", "fit_2pl", "twopl"]

MIN_GRID_POINTS = 4


def twopl(n_learners: ArrayLike, p1: float, p2: float) -> np.ndarray:
    """The 2PL curve S(n) = 1 / (1 + (p1/n)^p2), evaluated stably in log space.

    Examples
    --------
    >>> from confusionlab.stability import twopl
    >>> twopl([100.0, 400.0], p1=100.0, p2=1.0)
    array([0.5, 0.8])
    """
    n = np.asarray(n_learners, dtype=np.float64)
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(p2 * (np.log(p1) - np.log(n))))


@dataclass(frozen=True)
class Recommendation:
    """optRF-style recommended number of learners.

    Attributes
    ----------
    n_learners : int
        Recommended number of learners.
    stability : float
        Stability predicted by the 2PL fit at ``n_learners``.
    gain_per_learner : float
        Predicted gain in stability per added learner at the point where the search stopped.
    expected_seconds : float or None
        Expected time for one fit with ``n_learners`` learners, from a straight line fitted
        to the measured fit times (None when no times were given).
    """

    n_learners: int
    stability: float
    gain_per_learner: float
    expected_seconds: float | None = None

    def __str__(self) -> str:
        t = f", expected fit time {self.expected_seconds:.3g} s" if self.expected_seconds is not None else ""
        return (
            f"{self.n_learners} learners (predicted stability {self.stability:.4f}, gain per "
            f"added learner {self.gain_per_learner:.2g}{t})"
        )


@dataclass(frozen=True, eq=False)
class TwoPLFit:
    """A fitted 2PL curve.

    Attributes
    ----------
    p1 : float
        Learners at S = ½.
    p2 : float
        Slope in log n.
    n_learners, stability : numpy.ndarray
        The data the curve was fitted to.
    rmse : float
        Root mean squared residual.
    converged : bool
        Whether Levenberg–Marquardt reported convergence.
    time_model : tuple of float or None
        (intercept, seconds per learner) of the linear run-time model, if times were given.
    """

    p1: float
    p2: float
    n_learners: np.ndarray = field(repr=False)
    stability: np.ndarray = field(repr=False)
    rmse: float = float("nan")
    converged: bool = True
    time_model: tuple[float, float] | None = None

    def predict(self, n_learners: ArrayLike) -> np.ndarray:
        """Fitted stability at ``n_learners``."""
        return twopl(n_learners, self.p1, self.p2)

    def learners_for(self, target: float) -> float:
        """Number of learners at which the fitted curve reaches ``target``.

        n(S*) = p1 / (1/S* − 1)^(1/p2). Not rounded: take ``math.ceil`` for a count.

        Parameters
        ----------
        target : float
            Target stability S* in (0, 1).

        Examples
        --------
        >>> from confusionlab.stability import fit_2pl, twopl
        >>> n = [10, 20, 50, 100, 200, 500]
        >>> fit = fit_2pl(n, twopl(n, 40.0, 1.5))
        >>> round(fit.learners_for(0.95), 1)
        284.8
        """
        if not isinstance(target, float | int) or not 0.0 < float(target) < 1.0:
            raise ValueError(f"target must be a stability in (0, 1); got {target!r}")
        if self.p2 <= 0:
            raise ValueError(
                f"the fitted slope p2={self.p2:.3g} is not positive: stability does not grow "
                "with the number of learners, so no count reaches a target"
            )
        return float(self.p1 / (1.0 / float(target) - 1.0) ** (1.0 / self.p2))

    def expected_seconds(self, n_learners: float) -> float | None:
        """Expected time of one fit with ``n_learners`` from the linear time model."""
        if self.time_model is None:
            return None
        a, b = self.time_model
        return float(max(a + b * float(n_learners), 0.0))

    def recommendation(
        self,
        step: int = 10,
        tol: float = 1e-6,
        round_to: int = 1000,
        minimum: int = 500,
        max_learners: int = 10_000_000,
    ) -> Recommendation:
        """optRF's automatic recommendation (SPEC C3).

        Walk n = step, 2·step, … and stop at the first n ≥ p1 where the predicted gain per
        added learner, (S(n + step) − S(n)) / step, falls below ``tol``; round to the
        nearest multiple of ``round_to`` (halves up) and take at least ``minimum`` (the
        floor only matters when rounding gives 0, which is why optRF has it).

        Parameters
        ----------
        step, tol, round_to, minimum : numbers
            optRF's defaults: 10, 1e-6, 1000, 500.
        max_learners : int
            Give up (ValueError) if the gain is still above ``tol`` here.

        Returns
        -------
        Recommendation

        Examples
        --------
        >>> from confusionlab.stability import fit_2pl, twopl
        >>> n = [250, 500, 750, 1000, 2000]
        >>> fit_2pl(n, twopl(n, 30.0, 1.0)).recommendation().n_learners
        5000
        """
        if self.p2 <= 0:
            raise ValueError(f"the fitted slope p2={self.p2:.3g} is not positive; no recommendation possible")
        # S'(n) = p2 S(1 − S)/n has a single maximum; past p1 the gain decreases, so the
        # first grid point with a small enough gain is found on a vectorised grid block.
        start = max(step, math.ceil(self.p1 / step) * step)
        n_found = None
        lo = start
        while lo <= max_learners:
            grid = np.arange(lo, min(lo + 1_000_000 * step, max_learners + step), step, float)
            gain = (self.predict(grid + step) - self.predict(grid)) / step
            below = np.flatnonzero(gain < tol)
            if below.size:
                n_found = grid[below[0]]
                break
            lo = grid[-1] + step
        if n_found is None:
            raise ValueError(
                f"the gain per learner is still above {tol:g} at {max_learners} learners; raise max_learners or tol"
            )
        n_rec = max(int(math.floor(n_found / round_to + 0.5) * round_to), int(minimum))
        gain_at = float((self.predict(n_found + step) - self.predict(n_found)) / step)
        return Recommendation(
            n_learners=n_rec,
            stability=float(self.predict(n_rec)),
            gain_per_learner=gain_at,
            expected_seconds=self.expected_seconds(n_rec),
        )


def _as_grid(n_learners: ArrayLike, stability: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    n = np.asarray(n_learners, dtype=np.float64).reshape(-1)
    s = np.asarray(stability, dtype=np.float64).reshape(-1)
    if n.shape != s.shape:
        raise ValueError(f"n_learners and stability must have the same length; got {n.size} and {s.size}")
    keep = ~np.isnan(s)
    n, s = n[keep], s[keep]
    if np.any(~np.isfinite(n)) or np.any(n <= 0):
        raise ValueError("n_learners must be positive and finite")
    n_grid = np.unique(n).size
    if n_grid < MIN_GRID_POINTS:
        raise ValueError(
            f"fit_2pl needs at least {MIN_GRID_POINTS} distinct numbers of learners; got "
            f"{n_grid}. Add grid points (optRF's default grid is 250, 500, 750, 1000, 2000)."
        )
    bad = s <= 0
    if np.any(bad):
        raise ValueError(
            "stability must be positive to fit the 2PL curve (which lives in (0, 1)); got "
            f"S <= 0 at n_learners={np.unique(n[bad]).astype(int).tolist()}. "
            "Such points are less stable than chance: start the grid at more learners, drop "
            "those points, or clip them explicitly (e.g. np.clip(S, 1e-3, None)) if you "
            "accept the distortion."
        )
    if np.any(s > 1):
        raise ValueError("stability cannot exceed 1")
    if np.all(s == 1):
        raise ValueError("stability is 1 at every grid point: there is no curve to fit")
    return n, s


def fit_2pl(
    n_learners: ArrayLike,
    stability: ArrayLike,
    fit_seconds: ArrayLike | None = None,
    **least_squares_kwargs: Any,
) -> TwoPLFit:
    """Fit S(n) = 1/(1 + (p1/n)^p2) by Levenberg–Marquardt.

    Parameters
    ----------
    n_learners : array_like
        Number of learners of each observation (grid values may repeat, e.g. one entry per
        repetition). At least 4 distinct values.
    stability : array_like
        Observed stability per entry of ``n_learners``, all in (0, 1]. NaN entries are dropped.
    fit_seconds : array_like, optional
        Measured time of a fit per entry of ``n_learners``; a straight line
        seconds = a + b·n is fitted to it and used for expected run times.
    **least_squares_kwargs
        Passed to :func:`scipy.optimize.least_squares` (``method="lm"`` is used).

    Returns
    -------
    TwoPLFit

    Raises
    ------
    ValueError
        Fewer than 4 distinct grid points, or stability ≤ 0 (with advice).

    Notes
    -----
    The start is p1 = the middle grid value, p2 = 0.5 (optRF). Internally p1 is
    optimised as log p1, which keeps it positive and does not change the least-squares
    solution.

    Examples
    --------
    >>> import numpy as np
    >>> from confusionlab.stability import fit_2pl, twopl
    >>> n = np.array([250, 500, 750, 1000, 2000])
    >>> fit = fit_2pl(n, twopl(n, 120.0, 1.3))
    >>> round(fit.p1, 3), round(fit.p2, 3)
    (120.0, 1.3)
    """
    n, s = _as_grid(n_learners, stability)
    grid = np.unique(n)
    p1_start = float(grid[(grid.size - 1) // 2])
    x0 = np.array([math.log(p1_start), 0.5])
    log_n = np.log(n)

    def residuals(theta: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            return 1.0 / (1.0 + np.exp(theta[1] * (theta[0] - log_n))) - s

    def jacobian(theta: np.ndarray) -> np.ndarray:
        f = residuals(theta) + s
        d = f * (1.0 - f)
        return np.column_stack((-d * theta[1], -d * (theta[0] - log_n)))

    opts = {"method": "lm", "x_scale": "jac"} | least_squares_kwargs
    res = least_squares(residuals, x0, jac=jacobian, **opts)
    time_model = None
    if fit_seconds is not None:
        t = np.asarray(fit_seconds, dtype=np.float64).reshape(-1)
        n_all = np.asarray(n_learners, dtype=np.float64).reshape(-1)
        if t.shape != n_all.shape:
            raise ValueError("fit_seconds must have the same length as n_learners")
        ok = np.isfinite(t)
        b, a = np.polyfit(n_all[ok], t[ok], 1)
        time_model = (float(a), float(b))
    return TwoPLFit(
        p1=float(math.exp(res.x[0])),
        p2=float(res.x[1]),
        n_learners=n,
        stability=s,
        rmse=float(np.sqrt(np.mean(res.fun**2))),
        converged=bool(res.success),
        time_model=time_model,
    )
