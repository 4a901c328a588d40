r"""The two-parameter logistic (2PL) model of stability against the number of learners.

.. math::

    S(n) = \frac{1}{1 + (p_1 / n)^{p_2}}

is logistic in log n: p1 is the number of learners at which S = ½ and p2 the slope (the
model of the optRF package). The number of learners reaching a stability target S* is
:math:`n(S^*) = p_1 / (1/S^* - 1)^{1/p_2}` (solve S(n) = S* for n; optRF once raised to the
power p2 instead of 1/p2, a bug). The fit is a least-squares Levenberg–Marquardt fit from
p1 = the middle grid value and p2 = 0.5, as optRF's, on at least :data:`MIN_GRID_POINTS`
distinct numbers of learners.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import least_squares
from scipy.special import expit

from .._deprecation import renamed_arguments
from .._validation import InvalidParameterError, check_int, check_positive_real, check_probability, check_real_array
from ._checks import check_learner_numbers

__all__ = [
    "DegenerateFitWarning",
    "ExtrapolationWarning",
    "Recommendation",
    "TwoPLFit",
    "fit_2pl",
    "twopl",
]

#: Fewest distinct numbers of learners a 2PL fit accepts.
MIN_GRID_POINTS = 4
#: An answer more than this factor beyond the largest measured number of learners (or below
#: the smallest divided by it) is an extrapolation and comes with an
#: :class:`ExtrapolationWarning`.
EXTRAPOLATION_FACTOR = 2.0
#: A fitted curve whose log-odds, p2 · log(n_max / n_min), rise by less than this across the
#: measured grid is flat: the data show no growth, and p1, p2 are not identified.
MIN_LOGIT_RISE = 0.05
#: Largest ``max_learners`` accepted by :meth:`TwoPLFit.recommendation` (counts stay exact
#: in float64).
MAX_LEARNERS = 2**53


class DegenerateFitWarning(UserWarning):
    """The 2PL fit is degenerate (plateau, decreasing data, no convergence).

    The fit is returned with ``converged=False`` and the ``reason``; :meth:`TwoPLFit.learners_for`
    and :meth:`TwoPLFit.recommendation` refuse it with that reason.
    """


class ExtrapolationWarning(UserWarning):
    """A learner count lies far outside the measured grid: it is an extrapolation of the fit."""


def twopl(n_learners: ArrayLike, p1: float, p2: float) -> np.ndarray:
    """The 2PL curve S(n) = 1 / (1 + (p1/n)^p2), evaluated stably in log space.

    Examples
    --------
    >>> from confusionlab.stability import twopl
    >>> twopl([100.0, 400.0], p1=100.0, p2=1.0)
    array([0.5, 0.8])
    """
    p1 = check_positive_real(p1, "p1")
    p2 = float(p2)
    n = np.asarray(n_learners, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return expit(p2 * (np.log(n) - math.log(p1)))


def _one_minus_twopl(n: np.ndarray | float, p1: float, p2: float) -> np.ndarray:
    """1 − S(n) = 1 / (1 + (n/p1)^p2), accurate where S is close to 1."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return expit(p2 * (math.log(p1) - np.log(n)))


@dataclass(frozen=True)
class Recommendation:
    """optRF-style recommended number of learners, with the criterion that produced it.

    Attributes
    ----------
    n_learners : int
        Recommended number of learners (also :attr:`value`).
    stability : float
        Stability predicted by the 2PL fit at ``n_learners``.
    gain_per_learner : float
        Predicted gain in stability per added learner where the search stopped
        (at ``n_unrounded``).
    expected_seconds : float or None
        Expected time for one fit with ``n_learners`` learners, from a straight line fitted
        to the measured fit times (None when no times were given).
    n_unrounded : int
        The first n on step, 2·step, … (n ≥ p1) where the gain fell below ``tol``.
    criterion : str
        The rule in words, with its parameters.
    extrapolated : bool
        True when ``n_learners`` lies more than :data:`EXTRAPOLATION_FACTOR` times beyond
        the largest measured number of learners.
    note : str
        How this answer relates to :meth:`TwoPLFit.learners_for`: the gain criterion does
        not aim at a stability level, so the two generally differ.
    """

    n_learners: int
    stability: float
    gain_per_learner: float
    expected_seconds: float | None = None
    n_unrounded: int = 0
    criterion: str = ""
    extrapolated: bool = False
    note: str = ""

    @property
    def value(self) -> int:
        """The recommended number of learners."""
        return self.n_learners

    def __str__(self) -> str:
        t = f", expected fit time {self.expected_seconds:.3g} s" if self.expected_seconds is not None else ""
        x = "; EXTRAPOLATED far beyond the measured grid" if self.extrapolated else ""
        return (
            f"{self.n_learners} learners (predicted stability {self.stability:.4f}, gain per "
            f"added learner {self.gain_per_learner:.2g}{t}{x})"
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
        Whether Levenberg–Marquardt converged *and* the fit is not degenerate.
    time_model : tuple of float or None
        (intercept, seconds per learner) of the linear run-time model, if times were given.
    reason : str or None
        Why the fit is degenerate (plateau, decreasing data, no convergence); None for a
        usable fit. :meth:`learners_for` and :meth:`recommendation` refuse a degenerate fit.
    """

    p1: float
    p2: float
    n_learners: np.ndarray = field(repr=False)
    stability: np.ndarray = field(repr=False)
    rmse: float = float("nan")
    converged: bool = True
    time_model: tuple[float, float] | None = None
    reason: str | None = None
    log_p1: float = field(default=float("nan"), repr=False)

    def __post_init__(self) -> None:
        # log p1 as fitted: a degenerate fit may drive p1 below the smallest float while
        # p2 · (log n − log p1) stays finite, and predict() must still draw that curve
        if math.isnan(self.log_p1):
            p1 = float(self.p1)
            log_p1 = math.log(p1) if p1 > 0 else (-math.inf if p1 == 0 else math.nan)
            object.__setattr__(self, "log_p1", log_p1)

    @property
    def degenerate(self) -> bool:
        """True when the fit cannot answer questions about learner counts (see ``reason``)."""
        return self.reason is not None

    def predict(self, n_learners: ArrayLike) -> np.ndarray:
        """Fitted stability at ``n_learners`` (numbers ≥ 0; 0 gives the limit 0)."""
        n = check_learner_numbers(n_learners)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return expit(self.p2 * (np.log(n) - self.log_p1))

    def _refuse_degenerate(self, what: str) -> None:
        if self.reason is not None:
            raise ValueError(f"{what} is not available from a degenerate 2PL fit: {self.reason}")

    def _raw_learners_for(self, stability_target: float) -> float:
        """p1 / (1/S* − 1)^(1/p2) in log space (inf on overflow); p2 > 0."""
        log_n = self.log_p1 - math.log(1.0 / stability_target - 1.0) / self.p2
        return math.exp(log_n) if log_n < 700 else math.inf

    def _warn_if_outside(self, n: float, what: str, stacklevel: int = 3) -> bool:
        hi = float(np.max(self.n_learners))
        lo = float(np.min(self.n_learners))
        if n > EXTRAPOLATION_FACTOR * hi or n < lo / EXTRAPOLATION_FACTOR:
            side = (
                f"more than {EXTRAPOLATION_FACTOR:g}× the largest measured number of learners ({hi:g})"
                if n > hi
                else f"far below the smallest measured number of learners ({lo:g})"
            )
            warnings.warn(
                f"{what} = {n:,.0f} lies {side}: it is an extrapolation of the 2PL fit, not a "
                "measurement; measure stability near that number of learners to confirm it",
                ExtrapolationWarning,
                stacklevel=stacklevel,
            )
            return True
        return False

    @renamed_arguments(target="stability_target")
    def learners_for(self, stability_target: float) -> float:
        """Number of learners at which the fitted curve reaches ``stability_target``.

        n(S*) = p1 / (1/S* − 1)^(1/p2), never less than 1. Not rounded: take ``math.ceil``
        for a count.

        Parameters
        ----------
        stability_target : float
            Target stability S* in (0, 1). (Was ``target``, still accepted for one release
            with a FutureWarning.)

        Returns
        -------
        float
            At least 1 (when the fit reaches ``stability_target`` with fewer than one
            learner, one learner is enough).

        Raises
        ------
        ValueError
            For a degenerate fit (plateau, decreasing data: see ``reason``) and for a
            stability target the fit never reaches in a representable number of learners.
            (A ``stability_target`` outside (0, 1) is an InvalidParameterError.)

        Warns
        -----
        ExtrapolationWarning
            When the answer lies more than :data:`EXTRAPOLATION_FACTOR` times beyond the
            measured grid (or below it by that factor).

        Examples
        --------
        >>> from confusionlab.stability import fit_2pl, twopl
        >>> n = [10, 20, 50, 100, 200, 500]
        >>> fit = fit_2pl(n, twopl(n, 40.0, 1.5))
        >>> round(fit.learners_for(0.95), 1)
        284.8
        """
        target = check_probability(stability_target, "stability_target", open_interval=True)
        self._refuse_degenerate(f"learners_for({target:g})")
        n = self._raw_learners_for(target)
        if not math.isfinite(n) or n > MAX_LEARNERS:
            raise ValueError(
                f"the fitted curve (p1={self.p1:.3g}, p2={self.p2:.3g}) reaches stability_target={target:g} "
                f"only beyond {MAX_LEARNERS:.3g} learners: effectively never; choose a lower stability_target"
            )
        n = max(n, 1.0)
        self._warn_if_outside(n, f"learners_for({target:g})", stacklevel=4)  # past renamed_arguments' wrapper
        return float(n)

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
        """optRF's automatic recommendation: where adding learners stops paying.

        Take the first n on step, 2·step, … with n ≥ p1 where the predicted gain per
        added learner, (S(n + step) − S(n)) / step, falls below ``tol``; round to the
        nearest multiple of ``round_to`` (halves up) and take at least ``minimum`` (the
        floor only matters when rounding gives 0, which is why optRF has it).

        This is not :meth:`learners_for`: the gain criterion asks where adding learners
        stops paying, not where a stability level is reached, and rounding to thousands
        moves it further; the result's ``criterion`` and ``note`` say both.

        Parameters
        ----------
        step : int
            Spacing of the candidate numbers of learners (≥ 1; optRF: 10).
        tol : float
            Gain per added learner below which more learners are not worth it (> 0;
            optRF: 1e-6).
        round_to : int
            Round the answer to a multiple of this (≥ 1; optRF: 1000).
        minimum : int
            Smallest recommendation (≥ 1; optRF: 500).
        max_learners : int
            Give up (ValueError) if the gain is still above ``tol`` here (step to
            :data:`MAX_LEARNERS`).

        Returns
        -------
        Recommendation

        Warns
        -----
        ExtrapolationWarning
            When the recommendation lies more than :data:`EXTRAPOLATION_FACTOR` times
            beyond the largest measured number of learners.

        Notes
        -----
        Past p1 the gain decreases (S'(n) = p2 S (1 − S)/n, and S(1 − S) falls once
        S > ½), so the first n below ``tol`` is found by bisection, in O(log(max_learners))
        evaluations, with 1 − S evaluated directly so that gains near S = 1 keep their
        precision.

        Examples
        --------
        >>> import warnings
        >>> from confusionlab.stability import fit_2pl, twopl
        >>> n = [250, 500, 750, 1000, 2000]
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")  # 5,000 > 2 × 2,000: an extrapolation
        ...     rec = fit_2pl(n, twopl(n, 30.0, 1.0)).recommendation()
        >>> rec.n_learners, rec.n_unrounded, rec.extrapolated
        (5000, 5450, True)
        """
        step = check_int(step, "step", minimum=1, maximum=MAX_LEARNERS)
        tol = check_positive_real(tol, "tol")
        round_to = check_int(round_to, "round_to", minimum=1, maximum=MAX_LEARNERS)
        minimum = check_int(minimum, "minimum", minimum=1, maximum=MAX_LEARNERS)
        max_learners = check_int(max_learners, "max_learners", minimum=step, maximum=MAX_LEARNERS)
        self._refuse_degenerate("recommendation()")
        p1, p2 = self.p1, self.p2

        def gain(k: int) -> float:
            n = float(k) * step
            return float((_one_minus_twopl(n, p1, p2) - _one_minus_twopl(n + step, p1, p2)) / step)

        k_lo = max(1, math.ceil(p1 / step))
        k_hi = max_learners // step
        if k_lo > k_hi or not gain(k_hi) < tol:
            raise ValueError(
                f"the gain per learner is still above tol={tol:g} at max_learners={max_learners:,}; "
                "raise max_learners or tol"
            )
        while k_lo < k_hi:  # first k with gain(k) < tol; gain decreases for n ≥ p1
            mid = (k_lo + k_hi) // 2
            if gain(mid) < tol:
                k_hi = mid
            else:
                k_lo = mid + 1
        n_found = k_lo * step
        n_rec = max((2 * n_found + round_to) // (2 * round_to) * round_to, minimum)  # halves up
        s_rec = float(self.predict(n_rec))
        grid_max = float(np.max(self.n_learners))
        extrapolated = self._warn_if_outside(n_rec, "recommendation()") and n_rec > grid_max
        criterion = (
            f"first n in {step}, {2 * step}, … with n ≥ p1 = {p1:.3g} where the fitted stability gains "
            f"less than tol = {tol:g} per added learner (n = {n_found:,}), rounded to the nearest "
            f"{round_to:,}, at least {minimum:,} (optRF)"
        )
        at_95 = self._raw_learners_for(0.95)
        note = (
            f"The gain criterion does not aim at a stability level: at {n_rec:,} learners the fitted "
            f"stability is {s_rec:.4f}. learners_for(stability_target) answers another question, the "
            "fewest learners whose fitted stability reaches that target "
            f"(learners_for(0.95) ≈ {max(at_95, 1.0):,.0f}); "
            "the two differ whenever the curve saturates before or after that target, and rounding to "
            f"{round_to:,} moves the recommendation further."
            + (
                f" It lies far beyond the measured grid (largest {grid_max:g}): an extrapolation."
                if extrapolated
                else ""
            )
        )
        return Recommendation(
            n_learners=n_rec,
            stability=s_rec,
            gain_per_learner=gain(k_lo),
            expected_seconds=self.expected_seconds(n_rec),
            n_unrounded=n_found,
            criterion=criterion,
            extrapolated=extrapolated,
            note=note,
        )


def _as_grid(n_learners: ArrayLike, stability: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    n = check_real_array(n_learners, "n_learners")
    s = check_real_array(stability, "stability")
    if n.shape != s.shape:
        raise InvalidParameterError(f"n_learners and stability must have the same length; got {n.size} and {s.size}")
    keep = ~np.isnan(s)
    n, s = n[keep], s[keep]
    if np.any(~np.isfinite(n)) or np.any(n <= 0):
        raise InvalidParameterError("n_learners must be positive and finite")
    if np.any(n > MAX_LEARNERS):
        raise InvalidParameterError(f"n_learners must be at most {MAX_LEARNERS:.3g}; got {float(n.max()):.3g}")
    n_grid = np.unique(n).size
    if n_grid < MIN_GRID_POINTS:
        raise InvalidParameterError(
            f"fit_2pl needs at least {MIN_GRID_POINTS} distinct numbers of learners (n_learners) with a "
            f"stability; got {n_grid}. Add grid points (optRF's default grid is 250, 500, 750, 1000, 2000)."
        )
    if np.any(np.isinf(s)):
        raise InvalidParameterError("stability must be finite")
    bad = s <= 0
    if np.any(bad):
        raise InvalidParameterError(
            "stability must be positive to fit the 2PL curve (which lives in (0, 1)); got "
            f"S <= 0 at n_learners={[int(v) if v.is_integer() else v for v in np.unique(n[bad]).tolist()]}. "
            "Such points are less stable than chance: start the grid at more learners, drop "
            "those points, or clip them explicitly (e.g. np.clip(S, 1e-3, None)) if you "
            "accept the distortion."
        )
    if np.any(s > 1):
        raise InvalidParameterError("stability cannot exceed 1")
    if np.all(s == 1):
        raise InvalidParameterError("stability is 1 at every grid point: there is no curve to fit")
    return n, s


def _degenerate_reason(res: Any, n: np.ndarray, s: np.ndarray) -> str | None:
    """Why a least-squares 2PL solution cannot answer questions about learner counts, or None."""
    log_p1, p2 = float(res.x[0]), float(res.x[1])
    lo, hi = float(n.min()), float(n.max())
    if not (math.isfinite(log_p1) and math.isfinite(p2)):
        return f"the parameters are not finite (log p1 = {log_p1}, p2 = {p2})"
    log_n = np.log(n)
    trend = float(np.polyfit(log_n, s, 1)[0])  # least-squares slope of S against log n
    if p2 <= 0 or trend <= 0:
        return (
            f"stability does not increase with the number of learners (measured {s[np.argmin(n)]:.4g} at "
            f"n = {lo:g} and {s[np.argmax(n)]:.4g} at n = {hi:g}; least-squares slope against log n "
            f"{trend:.3g}, fitted p2 = {p2:.3g}): the 2PL model describes stability that grows with the "
            "number of learners, and these data are flat or decreasing"
        )
    rise = p2 * math.log(hi / lo)
    if rise < MIN_LOGIT_RISE:
        return (
            f"plateau: the fitted curve is flat across the measured grid ({lo:g} to {hi:g} learners; its "
            f"log-odds rise by {rise:.2g} < MIN_LOGIT_RISE = {MIN_LOGIT_RISE}), so p1 = {math.exp(log_p1):.3g} "
            f"and p2 = {p2:.3g} are not identified. Stability has already saturated (or is noise) on this "
            "grid: measure at fewer learners, where it still grows"
        )
    if not res.success:
        return f"Levenberg–Marquardt did not converge ({res.message})"
    dof = n.size - 2
    if dof > 0:
        sigma2 = float(np.sum(res.fun**2)) / dof
        jtj = res.jac.T @ res.jac
        cov = sigma2 * np.linalg.pinv(jtj)
        se_p2 = math.sqrt(max(float(cov[1, 1]), 0.0))
        if sigma2 > 0 and p2 < 2.0 * se_p2:
            return (
                f"plateau: the fitted slope p2 = {p2:.3g} is not distinguishable from 0 (standard error "
                f"{se_p2:.2g}); the measured stability does not grow clearly across the grid "
                f"({lo:g} to {hi:g} learners). Measure at fewer learners or with more repeats"
            )
    return None


def _time_model(n_learners: ArrayLike, fit_seconds: ArrayLike) -> tuple[float, float]:
    t = check_real_array(fit_seconds, "fit_seconds")
    n_all = check_real_array(n_learners, "n_learners")
    if t.shape != n_all.shape:
        raise InvalidParameterError("fit_seconds must have the same length as n_learners")
    ok = np.isfinite(t) & np.isfinite(n_all)
    if np.unique(n_all[ok]).size < 2:
        raise InvalidParameterError("fit_seconds needs finite times at two or more numbers of learners")
    b, a = np.polyfit(n_all[ok], t[ok], 1)
    return float(a), float(b)


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
        With ``reason`` (and ``converged=False``) when the fit is degenerate.

    Raises
    ------
    InvalidParameterError
        Fewer than 4 distinct grid points, or stability ≤ 0 (with advice).

    Warns
    -----
    DegenerateFitWarning
        When the fit is degenerate: a plateau (the fitted curve rises by less than
        :data:`MIN_LOGIT_RISE` in log-odds across the grid, or its slope is within two
        standard errors of 0), decreasing data (p2 ≤ 0) or no convergence. Such a fit
        still describes the measured points, but says nothing about other learner counts:
        ``learners_for`` and ``recommendation`` refuse it with the same reason.

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
    >>> round(fit.p1, 3), round(fit.p2, 3), fit.converged
    (120.0, 1.3, True)
    """
    n, s = _as_grid(n_learners, stability)
    grid = np.unique(n)
    p1_start = float(grid[(grid.size - 1) // 2])
    x0 = np.array([math.log(p1_start), 0.5])
    log_n = np.log(n)

    def residuals(theta: np.ndarray) -> np.ndarray:
        return expit(theta[1] * (log_n - theta[0])) - s

    def jacobian(theta: np.ndarray) -> np.ndarray:
        f = expit(theta[1] * (log_n - theta[0]))
        d = f * (1.0 - f)
        return np.column_stack((-d * theta[1], -d * (theta[0] - log_n)))

    opts = {"method": "lm", "x_scale": "jac"} | least_squares_kwargs
    with np.errstate(all="ignore"):
        res = least_squares(residuals, x0, jac=jacobian, **opts)
    time_model = None if fit_seconds is None else _time_model(n_learners, fit_seconds)
    reason = _degenerate_reason(res, n, s)
    if reason is not None:
        warnings.warn(f"degenerate 2PL fit: {reason}", DegenerateFitWarning, stacklevel=2)
    return TwoPLFit(
        p1=float(math.exp(min(res.x[0], 700.0))) if math.isfinite(res.x[0]) else float("nan"),
        log_p1=float(res.x[0]),
        p2=float(res.x[1]),
        n_learners=n,
        stability=s,
        rmse=float(np.sqrt(np.mean(res.fun**2))),
        converged=bool(res.success) and reason is None,
        time_model=time_model,
        reason=reason,
    )
