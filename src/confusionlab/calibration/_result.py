"""``Calibration``: the reliability diagram of a set of forecasts, with its uncertainty."""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from .._deprecation import float_with_moved_attributes
from .._deps import require
from .._result import Result, new_figure
from .._text import as_written
from .._validation import check_confidence, check_int, check_memory, check_n_draws, check_random_state
from ..palette import NEUTRAL, THEME
from ._band import ConsistencyBand, consistency_band
from ._bins import Bins
from ._ece import BootstrapDraws, bootstrap, brier_score, expected_calibration_error, percentile_interval
from ._ece_interval import ece_interval
from ._poisson_binomial import PoissonBinomial, binomial_pmf, pmf_bytes, poisson_binomial_pmf
from ._pvalue import MOVED_TO_TEST, CalibrationTest, calibration_test

__all__ = ["Calibration"]

_DRAW_BYTES = 40.0  # per Monte Carlo draw: the null ECEs, and one bin's uniforms, counts and deviations


def finish_reliability_axes(ax: Any, title: str) -> None:
    """The unit square, the axis labels, ``title`` and the legend of a reliability diagram."""
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("mean forecast")
    ax.set_ylabel("observed frequency")
    ax.set_title(title, fontsize=9)
    as_written(ax.legend(loc="upper left", fontsize=8, frameon=False))


def spread_histogram(bins: Bins, width_bins: int) -> tuple[np.ndarray, np.ndarray]:
    """The histogram over ``width_bins`` equal widths of [0, 1] of summarised bins, each bin's forecasts
    spread evenly over [smallest, largest] (all at one point when those are equal).

    >>> from ._bins import POWERS, bins_from_sums
    >>> q = np.array([0.1, 0.3, 0.9])
    >>> b = bins_from_sums(np.linspace(0, 1, 3), [0, 0, 1], [0, 0, 1], [1, 1, 1],
    ...                    np.column_stack([q**j for j in range(1, POWERS + 1)]), q, q)
    >>> spread_histogram(b, 4)[0].round(3).tolist()
    [1.5, 0.5, 0.0, 1.0]
    """
    edges = np.linspace(0.0, 1.0, width_bins + 1)
    counts = np.zeros(width_bins)
    lows, highs = bins.class_ranges[:, :, 0].min(axis=1), bins.class_ranges[:, :, 1].max(axis=1)
    for k, lo, hi in zip(bins.counts.tolist(), lows.tolist(), highs.tolist(), strict=True):
        if hi > lo:
            share = np.clip(np.minimum(edges[1:], hi) - np.maximum(edges[:-1], lo), 0.0, None) / (hi - lo)
            counts += k * share
        else:
            counts[min(int(np.searchsorted(edges, lo, side="right")) - 1, width_bins - 1)] += k
    return counts, edges


class Calibration(Result):
    """How well forecast probabilities match the observed frequencies, bin by bin.

    Built by :func:`confusionlab.calibration`. Per non-empty bin: the mean forecast,
    the observed frequency and the count (as scikit-learn's ``calibration_curve``,
    plus the counts). :attr:`value` is the expected calibration error (ECE).

    Attributes
    ----------
    mean_forecast, observed_frequency : numpy.ndarray
        Per non-empty bin (``calibration_curve``'s ``prob_pred`` and ``prob_true``).
    counts, positives : numpy.ndarray
        Forecasts and positives per non-empty bin.
    edges : numpy.ndarray
        The edges of all ``bins`` bins, empty ones included.
    strategy : str
        ``"quantile"`` or ``"uniform"``.
    positive : label
        The label counted as the positive outcome.
    n_resamples, n_draws : int
        Bootstrap resamples of :meth:`interval` and Monte Carlo draws of :meth:`p_value`.
    approximation : str or None
        None when every forecast is known (arrays, or ``data=`` with at most 10⁶ distinct
        forecasts). With more, ``data=`` bins the forecasts where the data lives and keeps per
        bin and outcome only the count, the sums of the forecasts' powers and their extremes:
        the bins, :attr:`value`, :meth:`interval` and :attr:`brier` are still exact (the array
        path's with these bins), while :meth:`band`, :meth:`p_value` and :meth:`test` replace
        each bin's forecasts by their mean (a binomial instead of the Poisson-binomial: a band
        as wide or wider, Hoeffding 1956), :meth:`brier_interval` draws every bin by the normal
        approximation (its bound: :attr:`bootstrap_error`) and :meth:`histogram` spreads each
        bin's forecasts evenly over their range. This attribute says so in words, as do
        :meth:`summary` and :meth:`to_frame` (column ``band_method``).

    See Also
    --------
    confusionlab.calibration : builds it.
    """

    title = "Calibration"

    def __init__(
        self,
        bins: Bins,
        *,
        strategy: str,
        positive: Any,
        n_resamples: int,
        n_draws: int,
        random_state: Any,
    ) -> None:
        self._bins = bins
        self.strategy = strategy
        self.positive = positive
        self.n_resamples = n_resamples
        self.n_draws = n_draws
        self._boot_rng, self._null_rng = check_random_state(random_state).spawn(2)

    # -- what it holds ------------------------------------------------------------------
    @property
    def edges(self) -> np.ndarray:
        return self._bins.edges

    @property
    def counts(self) -> np.ndarray:
        return self._bins.counts

    @property
    def positives(self) -> np.ndarray:
        return self._bins.positives

    @property
    def mean_forecast(self) -> np.ndarray:
        return self._bins.mean_forecast

    @property
    def observed_frequency(self) -> np.ndarray:
        return self._bins.observed_frequency

    @property
    def n_bins(self) -> int:
        """Number of non-empty bins."""
        return int(self._bins.counts.size)

    @property
    def n_forecasts(self) -> int:
        return int(self._bins.counts.sum())

    @property
    def approximation(self) -> str | None:
        """What is approximate, in words, when only the bins' sums are known (None otherwise)."""
        if not self._bins.summarised:
            return None
        note = f" {self._bins.note}" if self._bins.note else ""
        return (
            f"the forecasts were binned where the data lives{note}; the bins, the ECE, its interval and the "
            "Brier score are exact, while the band and the p-value treat each bin's forecasts as their mean "
            "(binomial, not Poisson-binomial: a band as wide or wider) and the Brier interval is drawn by "
            "the normal approximation"
        )

    # -- the numbers ----------------------------------------------------------------------
    @property
    def value(self) -> float:
        """The expected calibration error, ``Σ_b (k_b/N)·|ō_b − q̄_b|``."""
        return expected_calibration_error(self._bins)

    @property
    def ece(self) -> float:
        """Same as :attr:`value`."""
        return self.value

    @property
    def brier(self) -> float:
        """The Brier score, ``(1/N)·Σ_i (q_i − y_i)²`` (its interval: :meth:`brier_interval`)."""
        return brier_score(self._bins)

    @cached_property
    def _bootstrap(self) -> BootstrapDraws:
        return bootstrap(self._bins, self.n_resamples, self._boot_rng)

    @property
    def bootstrap_error(self) -> BootstrapDraws:
        """The bootstrap behind :meth:`brier_interval` (and the plug-in ECE's spread), with its stated error.

        Small bins are resampled pair by pair; in the others the number of resampled
        positives is drawn exactly (binomial) and the resampled sums of forecasts and of
        squared errors by the normal approximation given it. ``.ece_error`` and
        ``.brier_error`` bound the Wasserstein-1 distance between the resampled values'
        distribution and the exact stratified bootstrap's (Goldstein's ℓ₁ Berry–Esseen
        bound); compare them with the interval's width. ``.exact_bins`` and
        ``.normal_bins`` say how many bins were drawn each way.
        """
        return self._bootstrap

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The central ``confidence`` interval of the population's ECE (these forecasts and bins).

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.

        Every bin's mean outcome probability gets a Clopper–Pearson interval, simultaneous
        over the bins (Šidák), and the interval is the smallest and the largest ECE they
        allow: it holds the population's ECE with probability at least ``confidence``
        (conservative; coverage measured in benchmarks/RESULTS.md), holds 0 when every
        bin is consistent with calibration, and is never a point. The plug-in ECE
        (:attr:`value`) is biased upwards, so a bootstrap of it is no interval of the
        population's ECE (for calibrated forecasts it missed 0 nearly always); its
        resamples, kept for their spread, are :attr:`bootstrap_error`.
        """
        return ece_interval(self._bins, check_confidence(confidence))

    def brier_interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The Brier score's central interval, from the stratified bootstrap (:attr:`bootstrap_error`)."""
        return percentile_interval(self._bootstrap.brier, confidence)

    @cached_property
    def _pmfs(self) -> list[PoissonBinomial]:
        if self._bins.summarised:  # k equal forecasts: the binomial, stored where its mass is
            return [binomial_pmf(int(k), float(q)) for k, q in zip(self.counts, self._bins.mean_forecast, strict=True)]
        check_memory(
            pmf_bytes(int(self.counts.max())) + 8.0 * (self.n_forecasts + self.n_bins),
            f"the consistency band of {self.n_forecasts:,} forecasts",
            "use more bins or fewer forecasts",
        )
        return [poisson_binomial_pmf(self._bins.forecasts(b)) for b in range(self.n_bins)]

    def band(self, confidence: float = 0.95) -> ConsistencyBand:
        """The exact consistency band, simultaneous over the bins.

        If the forecasts were calibrated, bin ``b``'s number of positives would be
        Poisson-binomial with its forecasts; the band is each bin's central interval
        at level ``confidence ** (1 / bins)`` (Šidák), divided by the bin's count, so
        that calibrated forecasts put every bin inside with probability at least
        ``confidence``. The PMFs are exact up to a stated ℓ₁ error bound
        (``band.error_bound``).

        Returns
        -------
        ConsistencyBand
            ``lower, upper = cal.band()`` unpacks the frequencies; it also holds the
            counts, the per-bin level and which bins lie outside.
        """
        confidence = check_confidence(confidence)
        return consistency_band(self._pmfs, self.counts, self.positives, confidence)

    @cached_property
    def _default_test(self) -> CalibrationTest:
        return self._test(self.n_draws, self._null_rng)

    def _test(self, n_draws: int, rng: np.random.Generator) -> CalibrationTest:
        return calibration_test(self._pmfs, self.positives, self._bins.forecast_sums, self.n_forecasts, n_draws, rng)

    def p_value(self, n_draws: int | None = None, random_state: Any = None) -> float:
        """P(ECE ≥ observed | calibrated), by drawing the outcomes from the forecasts themselves.

        A float (arguments as :meth:`test`, which gives the test with its Monte Carlo error).
        """
        test = self.test(n_draws, random_state)
        return float_with_moved_attributes(
            test.p_value, test, MOVED_TO_TEST, old="Calibration.p_value()", new="Calibration.test()"
        )

    def test(self, n_draws: int | None = None, random_state: Any = None) -> CalibrationTest:
        """The Monte Carlo test of calibration: :meth:`p_value` with its Monte Carlo error.

        Parameters
        ----------
        n_draws : int, optional
            Monte Carlo draws (default: the ``n_draws`` given to :func:`confusionlab.calibration`).
        random_state : None, int, SeedSequence or Generator, optional
            With neither argument, the test is drawn once from the result's own seed and kept.

        Returns
        -------
        CalibrationTest
            ``.p_value``, its Monte Carlo standard error ``.mc_error``, the observed
            ``.statistic`` (the ECE) and ``.n_draws``; ``float(test)`` is the p-value.
        """
        if n_draws is None and random_state is None:
            return self._default_test
        draws = self.n_draws if n_draws is None else n_draws
        draws = check_n_draws(draws, bytes_per_draw=_DRAW_BYTES)
        return self._test(draws, check_random_state(random_state))

    # -- the protocol -------------------------------------------------------------------
    def to_frame(self) -> Any:
        """One row per non-empty bin: its edges, count, positives, mean forecast, observed
        frequency and the 95 % consistency band."""
        pd = require("pandas", "notebooks", "to_frame()")

        band = self.band(0.95)
        index = self._bins.index
        method = "Poisson-binomial" if self.approximation is None else "binomial at the bin's mean (approximate)"
        return pd.DataFrame(
            {
                "bin": index,
                "left_edge": self.edges[index],
                "right_edge": self.edges[index + 1],
                "count": self.counts,
                "positives": self.positives,
                "mean_forecast": self.mean_forecast,
                "observed_frequency": self.observed_frequency,
                "band_lower": band.lower,
                "band_upper": band.upper,
                "outside_band": band.outside,
                "band_method": method,
            }
        )

    def summary(self, confidence: float = 0.95) -> str:
        """ECE and Brier score with their intervals, the bins outside the band and the p-value, in words."""
        confidence = check_confidence(confidence)
        lo, hi = self.interval(confidence)
        b_lo, b_hi = self.brier_interval(confidence)
        band = self.band(confidence)
        test = self.test()
        outside = int(band.outside.sum())
        pct = f"{confidence:.0%}"
        verdict = (
            "an ECE this large is common for calibrated forecasts"
            if test.p_value >= 1 - confidence
            else "calibrated forecasts rarely give an ECE this large"
        )
        approximation = "" if self.approximation is None else f" Approximate: {self.approximation}."
        return (
            f"ECE = {self.value:.3g} ({pct} interval for the population's ECE [{lo:.3g}, {hi:.3g}], conservative), "
            f"Brier score {self.brier:.3g} [{b_lo:.3g}, {b_hi:.3g}]; {outside} of {self.n_bins} bins lie outside "
            f"the {pct} consistency band (where calibrated forecasts put a bin's frequency on this test set); "
            f"p = {test.p_value:.3g} (Monte Carlo ± {test.mc_error:.1g}): {verdict}.{approximation}"
        )

    def plot(self, ax: Any = None) -> Any:
        """The reliability diagram: observed frequency against mean forecast, the diagonal of
        perfect calibration and the 95 % consistency band as a bar over each bin.

        Returns the matplotlib Figure (``ax``'s own when given).
        """
        fig, ax = new_figure(ax, figsize=(4.8, 4.4))
        band = self.band(0.95)
        x = self.mean_forecast
        ax.plot([0, 1], [0, 1], color=NEUTRAL, lw=0.8, ls="--", label="calibrated")
        ax.vlines(x, band.lower, band.upper, color=THEME["accent"], alpha=0.3, lw=7, label="95 % band")
        colours = np.where(band.outside, THEME["warning"], THEME["accent"])
        ax.plot(x, self.observed_frequency, color=THEME["accent"], lw=1)
        ax.scatter(x, self.observed_frequency, c=list(colours), s=18, zorder=3, label="observed")
        finish_reliability_axes(ax, f"ECE = {self.value:.3g}")
        return fig

    def histogram(self, bins: int = 40) -> tuple[np.ndarray, np.ndarray]:
        """``(counts, edges)``: the forecasts' histogram over ``bins`` equal widths of [0, 1].

        When only the bins' sums are known (:attr:`approximation`), each bin's forecasts are
        spread evenly over their range (smallest to largest), so the counts are fractional.
        """
        bins = check_int(bins, "bins", minimum=1, maximum=100_000)
        if self._bins.summarised:
            return spread_histogram(self._bins, bins)
        counts, edges = np.histogram(self._bins.q, bins=bins, range=(0.0, 1.0))
        return counts, edges

    def __repr__(self) -> str:
        return (
            f"Calibration(ece={self.value:.4g}, brier={self.brier:.4g}, bins={self.n_bins}, "
            f"strategy={self.strategy!r}, forecasts={self.n_forecasts})"
        )
