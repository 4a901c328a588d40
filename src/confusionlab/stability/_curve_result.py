"""The result of :func:`~confusionlab.stability.stability_curve`: :class:`StabilityCurve`.

It keeps the predictions of every refit, so that any of :data:`MEASURES` (phi, psi or a
comparator) is computed afterwards, with a jackknife interval over the refits, the 2PL fit
of stability against the number of learners, a table, a figure and a summary in words.
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.special import ndtri

from .._deprecation import renamed_arguments
from .._deps import require
from .._result import Result, new_figure
from .._validation import InvalidParameterError, check_confidence, check_int
from ..palette import NEUTRAL, THEME
from ._checks import check_on_undefined
from ._undefined import OnUndefined, UndefinedCoefficientWarning, UndefinedError
from .comparators import fleiss_kappa, gwet_ac1, icc, krippendorff_alpha
from .measures import StabilityResult, phi, psi
from .twopl import ExtrapolationWarning, Recommendation, TwoPLFit, _time_model, fit_2pl

__all__ = ["MEASURES", "StabilityCurve"]

#: The measures a :class:`StabilityCurve` computes (its ``measure`` and every ``measure=``).
MEASURES: tuple[str, ...] = (
    "phi",
    "psi",
    "fleiss_kappa",
    "gwet_ac1",
    "krippendorff_alpha",
    "icc",
)


@dataclass(eq=False)
class StabilityCurve(Result):
    """Predictions of repeated refits over a grid of learner counts, and their stability.

    A result like every other of the library: ``value`` (stability per number of learners),
    ``interval(confidence)`` (a jackknife over the refits), ``to_frame()`` (one row per grid
    point), ``to_html()``, ``plot()`` (stability against the number of learners with the 2PL
    fit) and ``view()`` (a :class:`~confusionlab.widgets.stability_view.StabilityView`).

    Attributes
    ----------
    n_learners : numpy.ndarray of shape (G,)
        The grid.
    predictions : numpy.ndarray of shape (G, repeats, objects)
        Test-set predictions of every refit.
    train_y : numpy.ndarray
        Training responses (the phi reference).
    reference : list of numpy.ndarray or None
        Out-of-sample predictions per grid point, pooled over repeats (the psi reference);
        None where unavailable.
    fit_seconds : numpy.ndarray of shape (G, repeats)
        Measured fit time of every refit.
    measure : str
        Default measure of :meth:`stability`, :meth:`fit_2pl` and friends.
    scale : str
        Measurement scale of the predictions.
    categories : sequence or None
        Category list passed to the measures.
    """

    n_learners: np.ndarray
    predictions: np.ndarray
    train_y: np.ndarray
    reference: list[np.ndarray | None]
    fit_seconds: np.ndarray
    measure: str
    scale: str
    categories: Any = None
    _cache: dict[Any, Any] = field(default_factory=dict, repr=False)

    title = "Stability against the number of learners"

    @property
    def repeats(self) -> int:
        """Number of refits per grid point."""
        return int(self.predictions.shape[1])

    def result(self, index: int, measure: str | None = None, *, on_undefined: OnUndefined = "raise") -> StabilityResult:
        """phi or psi (per object) at grid point ``index``; ``on_undefined`` as in :func:`phi`."""
        size = self.n_learners.size
        index = check_int(index, "index", minimum=-size, maximum=size - 1)
        return self._result(self.predictions[index], index, measure or self.measure, check_on_undefined(on_undefined))

    def _result(self, pred: np.ndarray, index: int, measure: str, on_undefined: str = "raise") -> StabilityResult:
        """phi or psi of the refits ``pred`` (some of grid point ``index``'s) against its reference."""
        if measure == "phi":
            return phi(pred, self.train_y, self.scale, self.categories, on_undefined=on_undefined)
        if measure == "psi":
            ref = self.reference[index]
            if ref is None:
                raise ValueError(
                    "psi needs out-of-sample reference predictions; rerun stability_curve "
                    "with measure='psi' or reference='kfold', or use an estimator with "
                    "oob_score=True"
                )
            return psi(pred, ref, self.scale, self.categories, on_undefined=on_undefined)
        raise InvalidParameterError(f"result() is for 'phi' or 'psi'; got measure={measure!r}")

    def _check_measure(self, measure: str | None) -> str:
        measure = measure or self.measure
        if measure not in MEASURES:
            raise InvalidParameterError(f"measure must be one of {MEASURES}; got {measure!r}")
        return measure

    def _value(self, pred: np.ndarray, index: int, measure: str, on_undefined: str) -> float:
        """``measure`` of the refits ``pred`` at grid point ``index``."""
        if measure in ("phi", "psi"):
            return float(self._result(pred, index, measure, on_undefined).value)
        if measure == "icc":
            return float(icc(pred, on_undefined=on_undefined))
        if measure == "krippendorff_alpha":
            return float(krippendorff_alpha(pred, self.scale, self.categories, on_undefined=on_undefined))
        func = fleiss_kappa if measure == "fleiss_kappa" else gwet_ac1
        return float(func(pred, self.categories, on_undefined=on_undefined))

    def stability(self, measure: str | None = None, *, on_undefined: OnUndefined = "raise") -> np.ndarray:
        """Stability at every grid point, shape (G,), for ``measure`` (see MEASURES).

        Where ``measure`` (a comparator, phi or psi) is undefined at a grid point,
        ``on_undefined`` decides: ``"raise"`` (default, as every comparator and measure:
        data that cannot answer get a clear error) an
        :class:`~confusionlab.stability.UndefinedError` naming the reason, ``"warn"`` NaN
        there with an :class:`~confusionlab.stability.UndefinedCoefficientWarning`,
        ``"nan"`` NaN silently.
        """
        measure = self._check_measure(measure)
        on_undefined = check_on_undefined(on_undefined)
        key = (measure, on_undefined)
        if key not in self._cache:
            vals = [self._value(p, i, measure, on_undefined) for i, p in enumerate(self.predictions)]
            self._cache[key] = np.asarray(vals, dtype=np.float64)
        return self._cache[key]

    def per_object(self, measure: str | None = None) -> np.ndarray:
        """Per-object phi or psi, shape (G, objects)."""
        return np.stack([self.result(i, measure).per_object for i in range(self.n_learners.size)])

    def fit_2pl(self, measure: str | None = None) -> TwoPLFit:
        """2PL fit of stability against the number of learners (with a run-time model)."""
        s = self.stability(measure)
        fit = fit_2pl(self.n_learners, s)
        time_model = _time_model(np.repeat(self.n_learners, self.repeats), self.fit_seconds.reshape(-1))
        return dataclasses.replace(fit, time_model=time_model)

    @renamed_arguments(target="stability_target")
    def learners_for(self, stability_target: float, measure: str | None = None) -> float:
        """Number of learners reaching ``stability_target`` according to the 2PL fit.

        See :meth:`TwoPLFit.learners_for` (``target=`` is the old name of
        ``stability_target``, still accepted for one release with a FutureWarning).
        """
        return self.fit_2pl(measure).learners_for(stability_target)

    def recommendation(self, measure: str | None = None, **kwargs: Any) -> Recommendation:
        """optRF-style recommendation (see :meth:`TwoPLFit.recommendation`)."""
        return self.fit_2pl(measure).recommendation(**kwargs)

    # -- the result protocol -------------------------------------------------------------
    @property
    def value(self) -> dict[int, float]:
        """Stability of the curve's own ``measure`` per number of learners: ``{n_learners: S}``.

        Ordered like the grid; a grid that lists a number of learners twice keeps its last
        point here (:meth:`to_frame` and :meth:`stability` keep them all).
        """
        return {int(n): float(v) for n, v in zip(self.n_learners, self.stability(), strict=True)}

    def interval(self, confidence: float = 0.95, *, measure: str | None = None) -> dict[int, tuple[float, float]]:
        r"""Jackknife interval over the refits of the stability at each number of learners.

        Parameters
        ----------
        confidence : float, default 0.95
            Coverage in (0, 1).
        measure : str, optional
            Any of :data:`MEASURES` (default: the curve's own).

        Returns
        -------
        dict of int to (float, float)
            ``{n_learners: (low, high)}``, keyed like :attr:`value`.

        Notes
        -----
        At each grid point the measure is computed R times, leaving one of the R refits out
        each time (:math:`S_{(r)}`); the jackknife standard error is
        :math:`\sqrt{(R-1)/R \, \sum_r (S_{(r)} - \bar S_{(\cdot)})^2}`, and the interval is
        :math:`S \pm z_{(1+c)/2}\,\mathrm{se}`, its upper end at most 1 (no measure exceeds 1).
        The interval says how much the measured stability depends on which refits were
        drawn; the reference sample (D_e) is held fixed. It needs R ≥ 3 refits; with fewer,
        or where a leave-one-out value is undefined, it is (NaN, NaN).
        """
        confidence = check_confidence(confidence)
        measure = self._check_measure(measure)
        values = self.stability(measure, on_undefined="nan")
        leave_out = self._leave_one_out(measure)
        r = self.repeats
        z = float(ndtri(0.5 + confidence / 2.0))
        se = np.sqrt((r - 1.0) / r * np.sum((leave_out - leave_out.mean(axis=1, keepdims=True)) ** 2, axis=1))
        out = {}
        for n, v, e in zip(self.n_learners, values, se, strict=True):
            if np.isfinite(v) and np.isfinite(e):
                out[int(n)] = (float(v - z * e), float(min(v + z * e, 1.0)))
            else:
                out[int(n)] = (float("nan"), float("nan"))
        return out

    def _leave_one_out(self, measure: str) -> np.ndarray:
        """``measure`` at every grid point without refit r, shape (G, R); NaN where undefined."""
        key = ("leave-one-out", measure)
        if key not in self._cache:
            r = self.repeats
            out = np.full((self.n_learners.size, r), np.nan)
            if r >= 3:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", UndefinedCoefficientWarning)
                    for g, pred in enumerate(self.predictions):
                        for k in range(r):
                            try:
                                out[g, k] = self._value(np.delete(pred, k, axis=0), g, measure, "nan")
                            except UndefinedError:
                                pass
            self._cache[key] = out
        return self._cache[key]

    def to_frame(self) -> Any:
        """One row per grid point: ``n_learners``, ``stability`` (the curve's measure) and ``fit_seconds``.

        ``fit_seconds`` is the mean measured fit time of the point's refits. The measure,
        the scale and the number of refits per point are in ``frame.attrs``.
        """
        pd = require("pandas", "notebooks", "to_frame()")

        frame = pd.DataFrame(
            {
                "n_learners": self.n_learners,
                "stability": self.stability(),
                "fit_seconds": self.fit_seconds.mean(axis=1),
            }
        )
        frame.attrs.update(measure=self.measure, scale=self.scale, repeats=self.repeats)
        return frame

    @renamed_arguments(target="stability_target")
    def plot(
        self, ax: Any = None, *legacy: Any, measure: str | None = None, stability_target: float | None = None
    ) -> Any:
        """Plot stability against the number of learners (log x) with the 2PL fit.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw (a new figure when omitted; no pyplot).
        measure : str, optional
            Any of :data:`MEASURES` (default: the curve's own).
        stability_target : float, optional
            Mark the number of learners at which the 2PL fit reaches this stability
            (``target=`` is its old name, still accepted for one release with a FutureWarning).

        Returns
        -------
        matplotlib.figure.Figure
            ``ax``'s own figure when given. (Before the result protocol this returned the
            Axes: take ``fig.axes[0]``.)
        """
        if legacy:
            if len(legacy) > 2 or (measure is not None) or (len(legacy) == 2 and stability_target is not None):
                raise InvalidParameterError(
                    "plot() takes ax positionally and measure=, stability_target= by keyword; "
                    f"got {len(legacy) + 1} positional arguments"
                )
            warnings.warn(
                "StabilityCurve.plot(ax, measure, target) with measure or target given positionally is "
                "deprecated; pass measure= and stability_target= by keyword (positional use will stop "
                "working in the next release)",
                FutureWarning,
                stacklevel=3,
            )
            measure = legacy[0]
            if len(legacy) == 2:
                stability_target = legacy[1]
        fig, ax = new_figure(ax, figsize=(5.0, 3.2))
        measure = self._check_measure(measure)
        s = self.stability(measure)
        ax.plot(self.n_learners, s, "o", color=NEUTRAL, label=f"{measure} (measured)")
        try:
            fit = self.fit_2pl(measure)
        except ValueError as exc:
            ax.set_title(f"2PL not fitted: {exc}"[:80])
        else:
            grid = np.geomspace(self.n_learners.min() / 2, self.n_learners.max() * 4, 200)
            ax.plot(grid, fit.predict(grid), "-", color=THEME["accent"], label=f"2PL p1={fit.p1:.3g}, p2={fit.p2:.3g}")
            if fit.reason is not None:
                ax.set_title(f"degenerate 2PL fit: {fit.reason}"[:80], fontsize=8)
            elif stability_target is not None:
                n_t = fit.learners_for(stability_target)
                ax.axvline(n_t, ls="--", c=THEME["muted"])
                ax.annotate(f"{n_t:.0f} for S={stability_target}", (n_t, stability_target), fontsize=8)
        ax.set_xscale("log")
        ax.set_xlabel("number of learners")
        ax.set_ylabel("stability")
        ax.legend(fontsize=8)
        return fig

    def summary(self, confidence: float = 0.95) -> str:
        """Stability at the ends of the grid, its interval, and what the 2PL fit says, in words."""
        confidence = check_confidence(confidence)
        s = self.stability()
        first, last = int(self.n_learners[0]), int(self.n_learners[-1])
        text = (
            f"{self.measure} is {s[0]:.3f} with {first:,} learners and {s[-1]:.3f} with {last:,} "
            f"({self.repeats} refits per grid point"
        )
        lo, hi = self.interval(confidence)[last]
        if np.isfinite(lo):
            text += f"; {confidence * 100:g} % jackknife interval at {last:,}: {lo:.3f} to {hi:.3f}"
        text += ")"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                fit = self.fit_2pl()
                if fit.reason is not None:
                    return f"{text}; the 2PL fit is degenerate: {fit.reason}."
                n95 = fit.learners_for(0.95)
            except ValueError as exc:
                return f"{text}; no 2PL answer: {exc}."
        far = any(issubclass(item.category, ExtrapolationWarning) for item in caught)
        return f"{text}; the fitted 2PL curve reaches 0.95 at about {n95:,.0f} learners" + (
            " (an extrapolation far beyond the grid)." if far else "."
        )

    def __repr__(self) -> str:
        return (
            f"StabilityCurve(n_learners={self.n_learners.tolist()}, repeats={self.repeats}, "
            f"objects={self.predictions.shape[2]}, measure={self.measure!r}, "
            f"scale={self.scale!r})"
        )
