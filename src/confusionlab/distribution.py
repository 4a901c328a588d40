"""Exact PMFs of confusion-matrix metrics and their comparison.

:func:`metric_distribution` pushes a model's lattice PMF (see
:mod:`confusionlab.models`) through a metric, grouping lattice points on exact
values (:mod:`confusionlab.grouping`). The result, a :class:`MetricDistribution`,
speaks scipy.stats' vocabulary: ``pmf``, ``cdf``, ``sf``, ``ppf``, ``mean``,
``var``, ``std``, ``interval``, ``rvs`` and ``to_scipy``. :func:`compare` relates two
of them (classifiers scored on independent test sets) in a :class:`Comparison`.

Both are results of the library's one protocol (:mod:`confusionlab._result`):
``value``, ``interval(confidence)``, ``to_frame()``, ``to_html(path)``, ``plot(ax)``,
``view()`` and ``summary(confidence)``.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import comb
from typing import Any, ClassVar

import numpy as np
from scipy import stats

from ._result import Result, new_figure
from ._validation import (
    DEFAULT_TOLERANCE,
    MAX_TOLERANCE,
    InvalidParameterError,
    TooLargeError,
    check_choice,
    check_confidence,
    check_future_size,
    check_future_total,
    check_instance,
    check_int,
    check_memory,
    check_points,
    check_quantiles,
    check_random_state,
    check_support,
    check_tolerance,
    check_undefined,
    memory_limit,
)
from .confusion import ConfusionMatrix
from .grouping import Grouped, group_clustered, group_exact
from .lattice import MAX_SIMPLEX_POINTS, _largest_simplex
from .metrics import METRICS, ExactForm, Metric, get_metric
from .models import MODELS, SIMPLEX_MODELS, SLICE_MODELS, resolve_prior, simplex_model, slice_model
from .palette import MODEL_COLOURS, NEUTRAL

__all__ = [
    "DEFAULT_DRAWS",
    "MAX_BINS",
    "METHODS",
    "TARGETS",
    "TRUE_VALUE_NODES",
    "TRUE_VALUE_PRIOR",
    "Comparison",
    "MetricDistribution",
    "Origin",
    "compare",
    "metric_distribution",
]

#: The questions a metric distribution answers (``target`` of :func:`metric_distribution`).
TARGETS = ("next_test_set", "true_value")
#: How a distribution is computed (``method`` of :func:`metric_distribution` and
#: :func:`~confusionlab.evaluate`): ``"exact"`` (the lattice, or the true value's quadrature),
#: ``"monte-carlo"`` (draws of the same model), ``"auto"`` (exact where it fits in memory,
#: else Monte Carlo).
METHODS = ("auto", "exact", "monte-carlo")
#: Monte Carlo draws of one distribution when ``n_draws`` is not given.
DEFAULT_DRAWS = 20_000
#: Most Monte Carlo draws of one distribution.
MAX_DISTRIBUTION_DRAWS = 10**8
#: Risk of the Dvoretzky–Kiefer–Wolfowitz bound a Monte Carlo distribution states as its
#: ``cdf_error``: with probability at least 1 − this, |cdf − exact cdf| ≤ cdf_error everywhere.
MC_CDF_RISK = 1e-3
#: Bytes per Monte Carlo draw of one distribution (four count arrays, the rates, the values,
#: the sort of :func:`numpy.unique`).
_BYTES_PER_DRAW = 96
#: Quantile nodes per rate of the ``target="true_value"`` quadrature (K² points in all).
TRUE_VALUE_NODES = 400
#: α of the rates' Beta posteriors for ``target="true_value"`` when ``prior`` is not given
#: (Jeffreys'), as :func:`confusionlab.evaluate`: the prior whose 95 % intervals came closest to
#: 95 % coverage in ``benchmarks/bench_coverage.py`` (α = 1 covered 81–85 % at N = 30 for an
#: accurate model; RESULTS.md). The next test set keeps α = 1 (the paper's beta-binomial).
TRUE_VALUE_PRIOR = 0.5

#: Peak bytes per lattice point while a metric distribution is grouped (weights, exact
#: numerator and denominator, sort key, order, masks), by the arithmetic of the exact keys:
#: ``"float"`` below 2**53, ``"int64"`` below 2**62, ``"clustered"`` beyond (float ratios,
#: near ties decided with Python integers and Fractions). Measured with tracemalloc over
#: every metric (float keys 25 to 75 bytes a point, g_mean 123; MCC on int64 99, MCC
#: clustered 520), with headroom; a lattice whose estimate exceeds the memory limit is
#: refused before it is built. Float keys are priced per metric (:data:`FLOAT_LATTICE_BYTES`).
LATTICE_BYTES = {"float": 96, "int64": 128, "clustered": 640}
#: Metrics whose float-key grouping needs another price than ``LATTICE_BYTES["float"]``
#: (measured peaks: rates 25 bytes a point by one bincount, accuracy 41, the balanced
#: family 48, prevalence threshold 99, g_mean 123).
FLOAT_LATTICE_BYTES = {
    **dict.fromkeys(("recall", "tnr", "fpr", "fnr"), 32),
    "accuracy": 56,
    **dict.fromkeys(("balanced_accuracy", "cohen_kappa", "informedness"), 64),
    "prevalence_threshold": 128,
    "g_mean": 160,
}
#: The price of the float path's costliest metric (for the callers that price a lattice by one number).
BYTES_PER_LATTICE_POINT = max(LATTICE_BYTES["float"], *FLOAT_LATTICE_BYTES.values())
#: Bytes per value pair while :func:`compare` enumerates differences.
BYTES_PER_PAIR = 48
_INT64_SAFE = 2**62
#: Σ probabilities + pruned (+ excluded undefined) mass must be 1 within this.
TOTAL_MASS_TOLERANCE = 1e-9


class _Bulk(threading.local):
    active = False


_CHECKED_IN_BULK = _Bulk()


@contextmanager
def checked_in_bulk() -> Iterator[None]:
    """Within it (this thread only), :class:`MetricDistribution` skips its per-object check of
    the atoms (:func:`~confusionlab._validation.check_support`): for a caller that built many
    distributions' atoms in one sort and checked them at once
    (:func:`~confusionlab.mixture.slice_mixtures`: ≈ 0.1 ms saved per distribution)."""
    before = _CHECKED_IN_BULK.active
    _CHECKED_IN_BULK.active = True
    try:
        yield
    finally:
        _CHECKED_IN_BULK.active = before


@dataclass(frozen=True)
class Origin:
    """What a distribution was computed from: the observed matrix and the settings of
    :func:`metric_distribution` (what :attr:`MetricDistribution.value` and
    :meth:`MetricDistribution.view` need).

    Plain data (it pickles with the distribution).

    Attributes
    ----------
    cm : ConfusionMatrix
        The observed matrix.
    label : str
        The metric's display name (:attr:`Metric.label <confusionlab.metrics.Metric.label>`).
    observed : float
        The metric on ``cm`` (a 0/0 metric takes ``undefined``, NaN when that is None).
    prior : float
        The prior pseudo-count α (unused by the binomial model).
    tolerance : float
        Tail mass each marginal was allowed to drop.
    future_size : (p, n) or int
        The size of the predicted test set as resolved: ``(p, n)`` for the slice
        models, ``N`` for the simplex model, the observed size for ``target="true_value"``.
    undefined : float or None
        The value given to 0/0 points (None: excluded).
    """

    cm: ConfusionMatrix
    label: str
    observed: float
    prior: float
    tolerance: float
    future_size: tuple[int, int] | int
    undefined: float | None

    @classmethod
    def of(
        cls,
        cm: ConfusionMatrix,
        metric: Metric,
        prior: float,
        tolerance: float,
        future_size: tuple[int, int] | int,
        undefined: float | None,
    ) -> Origin:
        """The origin of ``metric``'s distribution for ``cm`` (its observed value computed here)."""
        observed = metric(cm, undefined=np.nan if undefined is None else undefined)
        return cls(cm, metric.label, observed, prior, tolerance, future_size, undefined)


class MetricDistribution(Result):
    """The exact discrete distribution of a metric.

    Attributes
    ----------
    values : ndarray
        Distinct metric values, ascending.
    probabilities : ndarray
        Mass of each value. They sum to ``1 - pruned_mass`` (minus
        ``undefined_mass`` when undefined points are excluded).
    multiplicities : ndarray
        Number of lattice points giving each value.
    undefined_mass : float
        Mass of the lattice points where the metric is 0/0.
    infinite_mass : float
        Mass on the values ±inf (x/0, e.g. LR+ where FPR = 0 < TPR).
    pruned_mass : float
        Mass of the lattice tails dropped for speed (0 when ``tolerance=0``).
    metric, model : str
    origin : Origin or None
        The observed matrix and the settings it was computed from, when it was
        computed by :func:`metric_distribution` (None for mixtures, differences and
        other distributions built directly).
    value : float
        The number the distribution is about: the metric on the observed matrix
        (:attr:`observed`) when :attr:`origin` is known — the point estimate the
        interval surrounds — else the :meth:`mean`.

    Notes
    -----
    Moments, quantiles and the cdf are those of the *retained* mass, normalised
    to 1: the pruned tails (at most ``2 * tolerance``) and, with
    ``undefined="exclude"``, the undefined points are left out. Values may be ±inf:
    then ``mean``, ``var`` and ``std`` are infinite (NaN for the mean when both
    signs carry mass), while ``cdf``, ``ppf`` and ``interval`` stay exact.

    With ``check_total=True`` the constructor verifies that the probabilities, the
    pruned mass and the excluded undefined mass add up to 1 (within 1e-9).

    ``target`` names the question the distribution answers: ``"next_test_set"`` (the
    metric on a new test set, the default of :func:`metric_distribution`) or
    ``"true_value"`` (the metric itself); ``cdf_error`` bounds how far its cdf may lie
    from the exact answer (0 for the exact lattice PMFs; see :func:`metric_distribution`);
    ``mc_error`` is the Monte Carlo standard error of the mean of a distribution
    estimated by sampling (0 for the exact ones).

    Examples
    --------
    >>> d = metric_distribution(ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "recall")
    >>> d.value, d.interval(0.95)  # TP of a new test set ~ BetaBin(20, 16 + 1, 4 + 1), over 20
    (0.8, (0.5, 1.0))
    >>> d.to_frame().columns.tolist()
    ['value', 'pmf', 'cdf', 'multiplicity']
    """

    #: The question answered: "next_test_set" or "true_value".
    target: str = "next_test_set"
    #: Bound on |cdf − exact cdf| at every point (0 when exact).
    cdf_error: float = 0.0
    #: Monte Carlo standard error of the mean (0 when exact).
    mc_error: float = 0.0
    #: How it was computed: "exact" (a lattice), "quadrature" (the true value's product
    #: rule, :attr:`cdf_error` its bound) or "monte-carlo" (draws; :attr:`mc_error` and the
    #: DKW bound :attr:`cdf_error`).
    method: str = "exact"
    title: ClassVar[str] = "Metric distribution"

    def __init__(
        self,
        values: np.ndarray,
        probabilities: np.ndarray,
        multiplicities: np.ndarray,
        *,
        metric: str,
        model: str,
        undefined_mass: float = 0.0,
        undefined_points: int = 0,
        pruned_mass: float = 0.0,
        lattice_points: int | None = None,
        strategy: str = "",
        undefined_excluded: bool = False,
        check_total: bool = False,
        target: str | None = None,
        cdf_error: float | None = None,
        mc_error: float | None = None,
        origin: Origin | None = None,
        method: str | None = None,
    ) -> None:
        self.values = np.asarray(values, dtype=np.float64)
        self.probabilities = np.asarray(probabilities, dtype=np.float64)
        self.multiplicities = np.asarray(multiplicities, dtype=np.int64)
        if not _CHECKED_IN_BULK.active:  # see checked_in_bulk
            check_support(self.values, self.probabilities, self.multiplicities)
        for arr in (self.values, self.probabilities, self.multiplicities):
            arr.setflags(write=False)
        self.metric = metric
        self.model = model
        self.undefined_mass = float(undefined_mass)
        self.undefined_points = int(undefined_points)
        self.pruned_mass = float(pruned_mass)
        self.lattice_points = int(self.multiplicities.sum()) if lattice_points is None else lattice_points
        self.strategy = strategy
        self.undefined_excluded = bool(undefined_excluded)
        if target is not None:
            self.target = check_choice(target, "target", TARGETS)
        if cdf_error is not None:
            self.cdf_error = float(cdf_error)
        if mc_error is not None:
            self.mc_error = float(mc_error)
        if method is not None:
            self.method = check_choice(method, "method", ("exact", "quadrature", "monte-carlo"))
        self.origin = None if origin is None else check_instance(origin, "origin", Origin, "an Origin")
        if check_total:
            total = float(self.probabilities.sum()) + self.pruned_mass
            total += self.undefined_mass if undefined_excluded else 0.0
            if not abs(total - 1.0) <= TOTAL_MASS_TOLERANCE or np.any(self.probabilities < 0):
                raise ArithmeticError(
                    f"the {metric} distribution ({model}) lost precision: its probabilities and pruned mass add "
                    f"up to {total!r}, not 1; please report this with the counts that produced it"
                )

    @property
    def infinite_mass(self) -> float:
        """Mass on the values +inf and -inf."""
        return float(self.probabilities[np.isinf(self.values)].sum())

    def _require_values(self, what: str) -> None:
        if self.values.size == 0:
            raise ValueError(
                f"the {self.metric} distribution has no defined value (every lattice point is 0/0 and "
                f"undefined='exclude' left them out), so it has no {what}; pass undefined=<number> to give "
                "those points a value"
            )

    @cached_property
    def _p(self) -> np.ndarray:
        """Probabilities of the retained mass, normalised to 1."""
        total = self.probabilities.sum()
        return self.probabilities / total if total > 0 else self.probabilities

    @cached_property
    def _cdf(self) -> np.ndarray:
        cdf = np.minimum(np.cumsum(self._p), 1.0)
        if cdf.size:
            cdf[-1] = 1.0
        return cdf

    # -- scipy.stats vocabulary ---------------------------------------------------------
    def pmf(self, x: Any) -> np.ndarray | float:
        """Probability of exactly the value(s) ``x`` (0 off the support)."""
        x = check_points(x)
        if not self.values.size:
            out = np.zeros_like(x)
        else:
            idx = np.clip(np.searchsorted(self.values, x), 0, self.values.size - 1)
            out = np.where(self.values[idx] == x, self._p[idx], 0.0)
        return out if out.ndim else float(out)

    def cdf(self, x: Any) -> np.ndarray | float:
        """P(metric <= x), in [0, 1]: 1 at +inf, NaN at NaN."""
        x = check_points(x)
        idx = np.searchsorted(self.values, x, side="right")
        out = np.where(idx > 0, self._cdf[np.maximum(idx - 1, 0)] if self.values.size else 0.0, 0.0)
        out = np.where(np.isnan(x), np.nan, out)
        return out if out.ndim else float(out)

    def sf(self, x: Any) -> np.ndarray | float:
        """P(metric > x), in [0, 1]: 0 at +inf, NaN at NaN."""
        out = np.clip(1.0 - np.asarray(self.cdf(check_points(x))), 0.0, 1.0)
        return out if out.ndim else float(out)

    def ppf(self, q: Any) -> np.ndarray | float:
        """Smallest value ``v`` with ``cdf(v) >= q`` (the discrete quantile), compared exactly.

        ``cdf`` is the running sum of the probabilities (scipy's ``rv_discrete``
        rule), so ``ppf(cdf(v)) == v`` for every atom ``v``.
        """
        q = check_quantiles(q)
        self._require_values("quantiles")
        idx = np.searchsorted(self._cdf, q, side="left")
        out = self.values[np.minimum(idx, self.values.size - 1)]
        return out if out.ndim else float(out)

    # Sums, not np.dot: BLAS threads cost milliseconds on a busy machine for tiny vectors.
    def mean(self) -> float:
        """Expected value; ±inf when ±inf carries mass (NaN when both do)."""
        self._require_values("mean")
        p, values = self._finite_support()
        if p is None:  # ±inf carries mass
            signs = np.sign(self.values[np.isinf(self.values) & (self._p > 0)])
            return float(signs[0] * np.inf) if np.all(signs == signs[0]) else float("nan")
        return float(np.sum(p * values))

    def var(self) -> float:
        """Variance; inf when ±inf carries mass."""
        mu = self.mean()
        if not np.isfinite(mu):
            return float("inf") if np.isinf(mu) else float("nan")
        p, values = self._finite_support()
        return float(np.sum(p * (values - mu) ** 2))

    def _finite_support(self) -> tuple[np.ndarray | None, np.ndarray]:
        """(probabilities, values) without the ±inf atoms of zero mass; (None, …) when ±inf has mass."""
        infinite = np.isinf(self.values)
        if not infinite.any():
            return self._p, self.values
        if (self._p[infinite] > 0).any():
            return None, self.values
        return self._p[~infinite], self.values[~infinite]

    def std(self) -> float:
        return float(np.sqrt(self.var()))

    def median(self) -> float:
        return float(self.ppf(0.5))

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Central interval holding at least ``confidence`` of the mass (as scipy)."""
        c = check_confidence(confidence)
        return float(self.ppf((1 - c) / 2)), float(self.ppf((1 + c) / 2))

    def mode(self) -> float:
        """The most probable value."""
        self._require_values("mode")
        return float(self.values[np.argmax(self.probabilities)])

    def support(self) -> tuple[float, float]:
        self._require_values("support")
        return float(self.values[0]), float(self.values[-1])

    def rvs(self, size: int | tuple[int, ...] = 1, random_state: Any = None) -> np.ndarray:
        """Random draws of the metric."""
        self._require_values("random draws")
        count = np.prod([check_int(s, "size", minimum=0) for s in np.atleast_1d(size)], dtype=np.float64)
        check_memory(count * 8.0, f"size={size!r} draws", "draw fewer values at a time")
        rng = check_random_state(random_state)
        return rng.choice(self.values, size=size, p=self._p)

    def to_scipy(self) -> stats.rv_discrete:
        """A frozen ``scipy.stats.rv_discrete`` over the same values and (normalised) masses."""
        self._require_values("scipy equivalent")
        return stats.rv_discrete(name=self.metric, values=(self.values, self._p))

    def __len__(self) -> int:
        return self.values.size

    # -- the result protocol -------------------------------------------------------------
    @property
    def cm(self) -> ConfusionMatrix | None:
        """The observed matrix the distribution was computed from (None if unknown)."""
        return None if self.origin is None else self.origin.cm

    @property
    def observed(self) -> float | None:
        """The metric on the observed matrix (None without :attr:`origin`).

        A 0/0 metric takes the ``undefined`` value the distribution was computed with,
        or NaN when ``undefined="exclude"`` left such points out.
        """
        return None if self.origin is None else self.origin.observed

    @property
    def value(self) -> float:
        """The number the distribution is about: :attr:`observed` when known, else the :meth:`mean`.

        With an observed matrix the interval is read around its value (the point
        estimate); for a distribution built otherwise (a mixture, a difference) the
        mean is the one number it has.
        """
        observed = self.observed
        return self.mean() if observed is None else observed

    def to_frame(self) -> Any:
        """One row per distinct value: ``value``, ``pmf``, ``cdf`` (of the retained mass) and ``multiplicity``."""
        import pandas as pd

        return pd.DataFrame(
            {
                "value": self.values.copy(),
                "pmf": np.array(self._p, dtype=np.float64),
                "cdf": np.array(self._cdf, dtype=np.float64),
                "multiplicity": self.multiplicities.copy(),
            }
        )

    def _label(self) -> str:
        if self.origin is not None:
            return self.origin.label
        return METRICS[self.metric].label if self.metric in METRICS else self.metric

    def _colour(self) -> str:
        return MODEL_COLOURS.get("true_value" if self.target == "true_value" else self.model, NEUTRAL)

    def plot(self, ax: Any = None) -> Any:
        """The PMF as sticks, one per distinct finite value, its central 95 % interval shaded
        and its :attr:`value` marked; coloured by model (:data:`confusionlab.palette.MODEL_COLOURS`).

        Returns the matplotlib Figure (``ax``'s own when given).
        """
        fig, ax = new_figure(ax)
        marker = "observed" if self.observed is not None else "mean"
        _draw_pmf(ax, self, self._colour(), self.value if self.values.size else None, marker)
        ax.set_xlabel(self._label())
        question = "its true value" if self.target == "true_value" else "a new test set"
        ax.set_title(f"{self._label()} on {question} ({self.model})", fontsize=9)
        return fig

    def _why_no_view(self) -> str | None:
        """Why :class:`~confusionlab.widgets.metric_pmf.MetricPMF` cannot show exactly this distribution."""
        o = self.origin
        if o is None:
            return (
                f"this {self.metric} distribution was not computed from an observed confusion matrix by "
                "metric_distribution (its origin is None), so there is no MetricPMF to build"
            )
        if self.metric not in METRICS or METRICS[self.metric].label != o.label:
            return f"MetricPMF knows metrics by name, and {self.metric!r} names another metric"
        if self.target != "next_test_set":
            return "MetricPMF shows the next test set's distribution, not target='true_value'"
        if self.model not in SLICE_MODELS:
            return f"MetricPMF shows the slice models {list(SLICE_MODELS)}, not model={self.model!r}"
        if o.future_size != (o.cm.p, o.cm.n):
            return f"MetricPMF shows a test set of the observed size (p, n) = {(o.cm.p, o.cm.n)}, not {o.future_size}"
        if self.model == "beta-binomial" and o.prior != resolve_prior("uniform"):
            return f"MetricPMF uses the uniform prior, not prior={o.prior:g}"
        if o.undefined != 0.0:
            return f"MetricPMF counts 0/0 as 0, not undefined={'exclude' if o.undefined is None else o.undefined!r}"
        return None

    def view(self) -> Any:
        """The :class:`~confusionlab.widgets.metric_pmf.MetricPMF` widget of the observed matrix, one panel
        for this distribution's model.

        Raises
        ------
        ValueError
            When the widget cannot show exactly this distribution: it was built without
            an observed matrix (:attr:`origin` is None), or with settings MetricPMF does
            not have (``target="true_value"``, the dirichlet-multinomial model, another
            ``future_size``, another prior or ``undefined``). :meth:`plot` draws any of them.
        """
        reason = self._why_no_view()
        if reason is not None:
            raise ValueError(f"{reason}; draw it with .plot() instead")
        return super().view()

    def summary(self, confidence: float = 0.95) -> str:
        """One sentence: where the metric lies with probability ``confidence``, and its value."""
        confidence = check_confidence(confidence)
        label = self._label()
        if not self.values.size:
            return f"The {label} distribution has no defined value: every point is 0/0 and was left out."
        lo, hi = self.interval(confidence)
        where = f"lies in [{lo:.4g}, {hi:.4g}] with {confidence:.0%} probability"
        value = f"{'observed' if self.observed is not None else 'mean'} {self.value:.4g}"
        if self.target == "true_value":
            return f"The true {label} {where} (posterior; {value})."
        o = self.origin
        size = ""
        if o is not None:
            total = o.future_size if isinstance(o.future_size, int) else sum(o.future_size)
            size = f" of {total:,} examples"
        return f"On a new test set{size}, {label} {where} under the {self.model} model ({value})."

    def __repr__(self) -> str:
        if not self.values.size:
            return f"MetricDistribution(metric={self.metric!r}, model={self.model!r}, no defined value)"
        return (
            f"MetricDistribution(metric={self.metric!r}, model={self.model!r}, "
            f"distinct_values={len(self)}, mean={self.mean():.4g}, std={self.std():.4g}, "
            f"undefined_mass={self.undefined_mass:.3g}, pruned_mass={self.pruned_mass:.3g})"
        )


#: Most sticks :meth:`MetricDistribution.plot` draws; a larger PMF is drawn as the mass
#: in :data:`PLOT_BINS` equal bins (a difference of two MCC distributions has 10⁵ values).
MAX_STICKS = 5_000
PLOT_BINS = 400


def _draw_pmf(ax: Any, d: MetricDistribution, colour: str, marker: float | None, marker_label: str) -> None:
    """Sticks at ``d``'s finite values (or, beyond :data:`MAX_STICKS`, the mass per bin), its
    central 95 % interval shaded, ``marker`` as a dashed grey line."""
    finite = np.isfinite(d.values)
    if finite.any():
        shown = d.values[finite]
        if shown.size <= MAX_STICKS:
            ax.vlines(shown, 0, d._p[finite], color=colour, lw=1.0)
        else:
            edges = np.linspace(shown[0], shown[-1], PLOT_BINS + 1)
            mass, _ = np.histogram(shown, bins=edges, weights=d._p[finite])
            ax.stairs(
                mass, edges, color=colour, fill=True, alpha=0.8, label=f"mass per bin of {edges[1] - edges[0]:.3g}"
            )
        lo, hi = d.interval(0.95)
        lo, hi = max(lo, float(shown[0])), min(hi, float(shown[-1]))  # an end at ±inf: to the last finite value
        if lo <= hi:
            ax.axvspan(lo, hi, color=colour, alpha=0.15, lw=0, label="central 95% interval")
        if marker is not None and np.isfinite(marker):
            ax.axvline(marker, color=NEUTRAL, lw=1.0, ls="--", label=f"{marker_label} {marker:.4g}")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7, loc="upper left")
    else:
        ax.text(0.5, 0.5, "no finite value to draw", transform=ax.transAxes, ha="center", va="center")
    if d.infinite_mass > 0:
        ax.text(0.99, 0.97, f"P(±∞) = {d.infinite_mass:.3g}", transform=ax.transAxes, ha="right", va="top", fontsize=7)
    ax.set_ylabel("probability")


def _arithmetic(metric: Metric, largest_total: int, counts: tuple[np.ndarray, ...]) -> str:
    """How the exact form is computed: ``"float"`` (exact below 2**53), ``"int64"``, or
    ``"clustered"`` (beyond 64 bits: float ratios with a bounded error, ties decided with
    Python integers, see :func:`~confusionlab.grouping.group_clustered`)."""
    bound = metric.magnitude(largest_total)
    if bound < 2**53:
        return "float"
    if bound < _INT64_SAFE:
        return "int64"
    form = metric._exact(*(np.asarray(c, dtype=np.float64) for c in counts))
    big = max(float(np.abs(form.num).max(initial=0)), float(np.abs(form.den).max(initial=0)))
    if big < _INT64_SAFE / 4:
        return "int64"
    if float(largest_total) ** 2 >= 2.0**53:
        raise ValueError(
            f"{metric.name}'s exact keys at N = {largest_total:,} need integers beyond 64 bits and degree-2 "
            f"terms beyond 2**53; this size is not supported exactly. Use a smaller future_size"
        )
    return "clustered"


def _arithmetic_fits(metric: Metric, largest_total: int) -> None:
    """Raise :class:`TooLargeError` where :func:`_arithmetic` would refuse the exact keys
    (degree-2 terms beyond 2**53), so that ``method="auto"`` samples instead."""
    if metric.magnitude(largest_total) >= _INT64_SAFE and float(largest_total) ** 2 >= 2.0**53:
        raise TooLargeError(f"{metric.name}'s exact keys at N = {largest_total:,} are beyond 64 bits")


def lattice_bytes(metric: Metric, largest_total: int) -> int:
    """Peak bytes per lattice point of ``metric``'s grouping on test sets of up to ``largest_total``.

    The arithmetic is read off the metric's bound on its exact keys, before any key is
    computed (:data:`LATTICE_BYTES`; keys that may pass 2**62 are priced as clustered).

    >>> lattice_bytes(get_metric("accuracy"), 100), lattice_bytes(get_metric("mcc"), 300_000)
    (56, 640)
    """
    bound = metric.magnitude(largest_total)
    if bound < 2**53:
        return FLOAT_LATTICE_BYTES.get(metric.name, LATTICE_BYTES["float"])
    return LATTICE_BYTES["int64" if bound < _INT64_SAFE else "clustered"]


def _tolerance_advice(tolerance: float) -> str:
    sampled = "method='auto' (Monte Carlo of the same model where the exact lattice does not fit)"
    if tolerance >= MAX_TOLERANCE:
        return f"use {sampled}, or a smaller future_size"
    suggestion = min(MAX_TOLERANCE, tolerance * 1e3) if tolerance > 0 else DEFAULT_TOLERANCE
    return f"raise tolerance (now {tolerance:g}; try {suggestion:g}), use {sampled} or a smaller future_size"


_SHARED = threading.local()


@contextmanager
def shared_simplex() -> Iterator[None]:
    """Within the block, :func:`metric_distribution` keeps the last simplex model it built
    and reuses it for the next metric of the same matrix (the model is most of the cost of
    the dirichlet-multinomial distribution: several metrics of one matrix build it once)."""
    previous = getattr(_SHARED, "simplex", None)
    _SHARED.simplex = {}
    try:
        yield
    finally:
        _SHARED.simplex = previous


def _dkw_bound(n_draws: int) -> float:
    """The Dvoretzky–Kiefer–Wolfowitz bound: sup |empirical cdf − cdf| ≤ it with probability
    ≥ 1 − :data:`MC_CDF_RISK` (Massart's constant).

    >>> round(_dkw_bound(20_000), 4)
    0.0138
    """
    return math.sqrt(math.log(2.0 / MC_CDF_RISK) / (2.0 * n_draws))


def _simplex_bytes(m: Metric, N: int) -> float:
    """Peak bytes of the simplex model's exact distribution at size ``N``: the counts and
    the masses of every point (with their sort for the pruning), then the grouping."""
    return float(comb(N + 3, 3)) * (32 + 8 * 4 + lattice_bytes(m, N))


def _sampled_counts(
    cm: ConfusionMatrix,
    model: str,
    alpha: float,
    size: tuple[int, int] | int,
    target: str,
    n_draws: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, ...]:
    """``n_draws`` draws of (TP, FN, FP, TN) of the same model (a new test set of ``size``:
    a pair ``(p, n)`` for the slice models, a total for the simplex), or for
    ``target="true_value"`` of (p·TPR, p·(1 − TPR), n·(1 − TNR), n·TNR) under the rates'
    Beta posteriors."""
    if target == "true_value":
        p, n = float(cm.p), float(cm.n)
        tpr = rng.beta(cm.tp + alpha, cm.fn + alpha, size=n_draws)
        tnr = rng.beta(cm.tn + alpha, cm.fp + alpha, size=n_draws)
        return p * tpr, p * (1.0 - tpr), n * (1.0 - tnr), n * tnr
    if model in SIMPLEX_MODELS:
        gam = rng.gamma(np.array(cm.as_tuple(), dtype=np.float64) + alpha, size=(n_draws, 4))
        theta = gam / gam.sum(axis=1, keepdims=True)
        counts = rng.multinomial(int(size), theta).astype(np.float64)  # type: ignore[call-overload]
        return tuple(counts[:, j] for j in range(4))
    p_new, n_new = size  # type: ignore[misc]
    out = []
    for successes, trials, future, what in (
        (cm.tp, cm.p, p_new, "positives (TP)"),
        (cm.tn, cm.n, n_new, "negatives (TN)"),
    ):
        if model == "binomial":
            if trials == 0 and future > 0:
                raise InvalidParameterError(
                    f"the binomial model needs observed {what} to estimate a rate; use the "
                    "beta-binomial model, whose prior covers an empty class"
                )
            rate = np.full(n_draws, successes / trials if trials else 0.0)
        else:
            rate = rng.beta(successes + alpha, trials - successes + alpha, size=n_draws)
        out.append(rng.binomial(future, rate).astype(np.float64))
    tp, tn = out
    return tp, p_new - tp, n_new - tn, tn


def _sampled_distribution(
    cm: ConfusionMatrix,
    m: Metric,
    model: str,
    alpha: float,
    size: tuple[int, int] | int,
    undefined_value: float | None,
    target: str,
    n_draws: int,
    random_state: Any,
    origin: Origin | None,
) -> MetricDistribution:
    """The metric's distribution estimated by ``n_draws`` draws of the same model
    (:func:`_sampled_counts`), with the Monte Carlo error of its mean and the DKW bound
    on its cdf."""
    check_memory(
        float(n_draws) * _BYTES_PER_DRAW,
        f"n_draws={n_draws:,} Monte Carlo draws of the {m.name} distribution",
        "use a smaller n_draws",
    )
    rng = check_random_state(random_state)
    counts = _sampled_counts(cm, model, alpha, size, target, n_draws, rng)
    vals = m.values(*counts, undefined=np.nan)
    undefined_at = np.isnan(vals)
    n_undef = int(np.count_nonzero(undefined_at))
    if n_undef:
        vals = vals[~undefined_at] if undefined_value is None else np.where(undefined_at, undefined_value, vals)
    finite = bool(np.isfinite(vals).all())
    mc_error = float(np.std(vals) / math.sqrt(vals.size)) if finite and vals.size else math.nan
    largest = int(size) if isinstance(size, int) else int(size[0] + size[1])
    # integer draws are grouped on exact values as the lattice is (the same floats), where the
    # exact keys fit in 64 bits; beyond, near ties would be decided by Python integers one by
    # one (seconds for 10⁵ draws): the draws' floats are grouped as they are
    exact_keys = target == "next_test_set" and m.magnitude(largest) < _INT64_SAFE
    if exact_keys:
        cols = tuple(np.asarray(c, dtype=np.int64) for c in counts)
        grouped = lattice_distribution(
            m,
            cols,
            np.full(n_draws, 1.0 / n_draws),
            largest=largest,
            pruned=0.0,
            model=model,
            undefined=undefined_value,
        )
        # the masses are counts of draws: from the multiplicities, exactly (not sums of 1/n)
        values, mult = grouped.values, grouped.multiplicities
    else:
        values, mult = np.unique(vals, return_counts=True)
    return MetricDistribution(
        values,
        mult / float(n_draws),
        mult,
        metric=m.name,
        model=model,
        undefined_mass=n_undef / float(n_draws),
        undefined_points=n_undef,
        lattice_points=n_draws,
        strategy=f"monte-carlo({n_draws})",
        undefined_excluded=undefined_value is None,
        check_total=True,
        target=target,
        cdf_error=_dkw_bound(n_draws),
        mc_error=mc_error,
        origin=origin,
        method="monte-carlo",
    )


def metric_distribution(
    cm: ConfusionMatrix,
    metric: str | Metric,
    model: str = "beta-binomial",
    *,
    prior: Any = None,
    future_size: int | tuple[int, int] | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    undefined: float | str = 0.0,
    target: str = "next_test_set",
    method: str = "exact",
    n_draws: int = DEFAULT_DRAWS,
    random_state: Any = 0,
) -> MetricDistribution:
    """The exact distribution of ``metric`` for a new test set under ``model``.

    Parameters
    ----------
    cm : ConfusionMatrix
        The observed confusion matrix.
    metric : str or Metric
        A name from :data:`~confusionlab.METRICS` (aliases and ``"f<beta>"`` accepted).
    model : {"beta-binomial", "binomial", "dirichlet-multinomial"}
        See :mod:`confusionlab.models`. The first two keep ``p`` and ``n`` fixed (a
        slice); the third spreads mass over the whole simplex.
    prior : {"uniform", "jeffreys"} or float, optional
        Symmetric prior α = β (beta-binomial) or Dirichlet concentration added to
        each cell (dirichlet-multinomial). Ignored by the binomial model. Default:
        α = 1 (uniform) for the next test set, α = ½ (Jeffreys',
        :data:`TRUE_VALUE_PRIOR`) for ``target="true_value"`` — the defaults of
        :func:`confusionlab.evaluate`, chosen from a coverage study (Notes).
    future_size : int or (p, n), optional
        Size of the predicted test set; default: the observed size. The slice models
        (p and n fixed) take a pair ``(p, n)`` or a total ``N``, split in the observed
        proportions: ``p′ = ⌊N·p/(p + n) + ½⌋``, ``n′ = N − p′`` (at least one example
        of each class that was observed). The dirichlet-multinomial model takes ``N``
        only: its prevalence is not fixed, so a pair is refused (pass ``N = p + n``).
    tolerance : float, default 1e-12
        Each marginal drops tails of total mass at most ``tolerance`` (the joint
        loses at most ``2 * tolerance``); the loss is ``pruned_mass``. ``0`` keeps
        the full lattice. At most 0.01.
    undefined : float or "exclude", default 0.0
        Value given to points where the metric is 0/0 (the paper's convention is
        0), or ``"exclude"`` to leave them out. Their mass is ``undefined_mass``.
        Points where the metric is x/0 (x ≠ 0) are ±inf, not undefined.
    target : {"next_test_set", "true_value"}, default "next_test_set"
        The question answered. ``"next_test_set"``: what will a new test set of this
        size show (the paper's posterior predictive; exact). ``"true_value"``: where is
        the metric's true value, i.e. the posterior of the metric under
        TPR ~ Beta(TP + α, FN + α), TNR ~ Beta(TN + α, FP + α) (α from ``prior``,
        ½ by default) with the prevalence fixed at the observed p/N — the limit of a
        growing future test set, about 1/√2 as wide. Only with the beta-binomial model
        and without ``future_size``; computed by quadrature (below).
    method : {"exact", "auto", "monte-carlo"}, default "exact"
        ``"exact"``: the lattice (refused with :class:`TooLargeError` when it would not
        fit in memory). ``"monte-carlo"``: ``n_draws`` draws of the same model (any size).
        ``"auto"``: exact where the lattice fits in :func:`confusionlab.memory_limit`, else
        Monte Carlo. The result's :attr:`~MetricDistribution.method` says which was used.
        (``target="true_value"`` is a quadrature at every size; ``"monte-carlo"`` samples it.)
    n_draws : int, default 20,000
        Monte Carlo draws (``method="monte-carlo"``, or ``"auto"`` where exact does not fit).
    random_state : None, int or Generator, default 0
        Seed of the Monte Carlo draws.

    Returns
    -------
    MetricDistribution
        With ``target`` set; ``cdf_error`` bounds the quadrature error of ``"true_value"``.
        Its :attr:`~MetricDistribution.value` is the metric on ``cm``.

    Raises
    ------
    InvalidParameterError
        (a ValueError and a TypeError) for an invalid argument, naming it.
    TooLargeError
        (a ValueError) when the lattice would need more memory than
        :func:`confusionlab.memory_limit` allows; the message says how to get an answer.

    See Also
    --------
    compare : P(A > B) for two classifiers scored on independent test sets.
    confusionlab.compare_paired : The same question for two classifiers on one test set.
    confusionlab.evaluate : From predictions (groups, refits, several classes) to these distributions.
    confusionlab.plan_test_size : The test-set size at which this distribution's interval is narrow enough.

    Notes
    -----
    Values are grouped on exact rational keys: each metric is a ratio of integer
    polynomials in the counts (or the signed square root of one), and two lattice
    points are merged only when their ratios are equal as rational numbers
    (:mod:`confusionlab.grouping` proves the grouping exact). So ties are never split
    by floating-point error: at p = 20, n = 40 balanced accuracy has exactly 81
    distinct values where float grouping finds 115. Keys that need more than 64
    bits (MCC at N = 100,000) are sorted as floats with a bounded error and the few
    near-ties are decided with Python integers. The probabilities, the pruned mass
    and the excluded undefined mass are checked to add up to 1.

    ``target="true_value"`` is a product quadrature: each rate's Beta posterior is
    replaced by its K = :data:`TRUE_VALUE_NODES` quantiles at probabilities
    (i + ½)/K, each of mass 1/K, and the metric is evaluated at the K² pairs
    (p·TPR, p·(1 − TPR), n·(1 − TNR), n·TNR). Coupling each rate with its node (same
    quantile cell), the metric's event {M ≤ x} is misclassified only in the cells
    that its contour crosses; for a metric monotone in each rate (accuracy, balanced
    accuracy, F-scores, precision, MCC, …) these form a staircase of at most 2K − 1
    cells, so |cdf − exact cdf| ≤ (2K − 1)/K² (``cdf_error``, 0.005 at K = 400);
    moments are far more accurate (a midpoint rule in each rate).

    The true value's interval is a Bayesian interval, not a confidence interval, but it is
    read as one. Its coverage was simulated (``benchmarks/bench_coverage.py``, RESULTS.md:
    accuracy, balanced accuracy, F1 and MCC, N = 30–1,000, prevalence 0.5 and 0.1, rates 0.95
    and 0.7): with the default Jeffreys prior the 95 % interval covered 0.93–0.97 where
    outcomes were enumerated exactly (0.93–0.94 for an accurate classifier at N = 30); with
    ``prior="uniform"`` it covered only 0.81–0.85 there (the prior pulls an all-but-perfect
    classifier toward ½), and α = 0.1 covered 0.77. Elsewhere the priors agree within the
    study's Monte Carlo error (±0.024).

    ``method="monte-carlo"`` draws the same model: for the slice models each rate from its
    Beta posterior (the binomial: the observed rate), then the new test set's TP and TN
    from binomials; for the simplex the cells' shares from Dirichlet(counts + α), then a
    multinomial. Its ``mc_error`` is the standard error of the mean (sd/√n_draws) and its
    ``cdf_error`` the Dvoretzky–Kiefer–Wolfowitz bound √(ln(2/δ)/(2·n_draws)), δ =
    :data:`MC_CDF_RISK`: with probability ≥ 1 − δ the cdf is that close to the exact one
    everywhere (0.014 at 20,000 draws), so each end of an interval lies within the exact
    quantiles at levels shifted by ``cdf_error``.

    Examples
    --------
    >>> cm = ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    >>> d = metric_distribution(cm, "balanced_accuracy", tolerance=0)
    >>> len(d), int(d.multiplicities.sum())
    (81, 861)
    >>> round(d.mean(), 3), round(d.std(), 3)
    (0.779, 0.078)
    >>> lo, hi = metric_distribution(cm, "mcc", "binomial").interval(0.95)
    >>> lr = metric_distribution(ConfusionMatrix(tp=16, fn=4, fp=1, tn=39), "lr_plus")
    >>> float(lr.values[-1]), round(lr.infinite_mass, 4), lr.mean()
    (inf, 0.2531, inf)

    The true value's posterior is narrower than the next test set's spread:

    >>> big = ConfusionMatrix(tp=160, fn=40, fp=80, tn=320)
    >>> nxt = metric_distribution(big, "balanced_accuracy")
    >>> true = metric_distribution(big, "balanced_accuracy", target="true_value")
    >>> true.target, round(true.std() / nxt.std(), 2)
    ('true_value', 0.7)

    A total future size is split in the observed proportions (20 : 40 here):

    >>> metric_distribution(cm, "accuracy", future_size=90).origin.future_size
    (30, 60)
    """
    cm = check_instance(cm, "cm", ConfusionMatrix, "a ConfusionMatrix")
    m = get_metric(metric)
    model = check_choice(model, "model", MODELS)
    tolerance = check_tolerance(tolerance)
    undefined_value = check_undefined(undefined)
    target = check_choice(target, "target", TARGETS)
    alpha = (TRUE_VALUE_PRIOR if target == "true_value" else 1.0) if prior is None else resolve_prior(prior)
    method = check_choice(method, "method", METHODS)
    n_draws = check_int(n_draws, "n_draws", minimum=2, maximum=MAX_DISTRIBUTION_DRAWS)
    if method != "exact":
        random_state = check_random_state(random_state)  # validated here, whichever path answers
    if target == "true_value":
        if model != "beta-binomial":
            raise InvalidParameterError(
                f"target='true_value' is the posterior of the metric under the Beta posteriors of the rates, the "
                f"limit of the beta-binomial model; got model={model!r}. Use model='beta-binomial' (the default)"
            )
        if future_size is not None:
            raise InvalidParameterError(
                f"target='true_value' has no test-set size (it is the limit of a growing one); got "
                f"future_size={future_size!r}. Leave future_size out, or use target='next_test_set'"
            )
        origin = Origin.of(cm, m, alpha, tolerance, (cm.p, cm.n), undefined_value)
        if method == "monte-carlo":
            return _sampled_distribution(
                cm, m, model, alpha, (cm.p, cm.n), undefined_value, target, n_draws, random_state, origin
            )
        return _true_value_distribution(cm, m, alpha, undefined_value, origin)

    def sampled(size: tuple[int, int] | int, origin: Origin) -> MetricDistribution:
        return _sampled_distribution(cm, m, model, alpha, size, undefined_value, target, n_draws, random_state, origin)

    if model in SIMPLEX_MODELS:
        total = check_future_total(future_size, model=model)
        big_n = cm.N if total is None else total
        origin = Origin.of(cm, m, alpha, tolerance, big_n, undefined_value)
        if method == "monte-carlo":
            return sampled(big_n, origin)
        fits = comb(big_n + 3, 3) <= MAX_SIMPLEX_POINTS and _simplex_bytes(m, big_n) <= memory_limit()
        if method == "auto" and not fits:
            return sampled(big_n, origin)
        if comb(big_n + 3, 3) > MAX_SIMPLEX_POINTS:
            raise InvalidParameterError(
                f"model={model!r} spreads the distribution over the simplex of C(N + 3, 3) matrices, "
                f"{comb(big_n + 3, 3):,} for N = {big_n:,}, more than the {MAX_SIMPLEX_POINTS:,} it builds; use "
                "method='auto' or 'monte-carlo' (draws of the same model, any size), a smaller future_size "
                f"(N <= {_largest_simplex()}), or "
                "model='beta-binomial' (the prevalence fixed)"
            )
        check_memory(
            _simplex_bytes(m, big_n),
            f"the {model} simplex of {comb(big_n + 3, 3):,} matrices (N = {big_n:,})",
            "use method='auto' or 'monte-carlo' (draws of the same model), or a smaller future_size",
        )
        memo = getattr(_SHARED, "simplex", None)
        memo_key = (cm.as_tuple(), alpha, big_n, tolerance)
        sm = memo.get(memo_key) if memo is not None else None
        if sm is None:
            sm = simplex_model(cm, prior=alpha, future_size=total, tolerance=tolerance)
            if memo is not None:
                memo.clear()  # one model at a time: the simplex can weigh hundreds of MB
                memo[memo_key] = sm
        cols: tuple[np.ndarray, ...] = tuple(sm.counts[:, j] for j in range(4))
        largest, weights, pruned = sm.N, sm.pmf, sm.pruned_mass
    else:
        pair = check_future_size(future_size, cm.p, cm.n)
        if method == "monte-carlo":
            size = pair or (cm.p, cm.n)
            return sampled(size, Origin.of(cm, m, alpha, tolerance, size, undefined_value))
        try:
            sl = slice_model(cm, model, prior=alpha, future_size=pair, tolerance=tolerance)
            origin = Origin.of(cm, m, alpha, tolerance, (sl.p, sl.n), undefined_value)
            check_memory(
                float(sl.tp_pmf.size) * float(sl.tn_pmf.size) * lattice_bytes(m, sl.p + sl.n),
                f"the {model} lattice of {sl.tp_pmf.size:,} × {sl.tn_pmf.size:,} (TP, TN) points",
                _tolerance_advice(tolerance),
            )
            if method == "auto":
                _arithmetic_fits(m, sl.p + sl.n)
        except TooLargeError:
            if method != "auto":
                raise
            size = pair or (cm.p, cm.n)
            return sampled(size, Origin.of(cm, m, alpha, tolerance, size, undefined_value))
        tp, tn = sl.tp, sl.tn
        cols = (tp, sl.p - tp, sl.n - tn, tn)
        largest, weights, pruned = sl.p + sl.n, sl.joint(), sl.pruned_mass

    return lattice_distribution(
        m,
        cols,
        weights,
        largest=largest,
        pruned=pruned,
        model=model,
        undefined=undefined_value,
        slice_pn=None if model in SIMPLEX_MODELS else (sl.p, sl.n),
        origin=origin,
    )


def lattice_distribution(
    m: Metric,
    cols: tuple[np.ndarray, ...],
    weights: np.ndarray,
    *,
    largest: int,
    pruned: float,
    model: str,
    undefined: float | None,
    keep: np.ndarray | None = None,
    slice_pn: tuple[int, int] | None = None,
    origin: Origin | None = None,
) -> MetricDistribution:
    """Push a lattice PMF through a metric, grouping on exact values (the core of
    :func:`metric_distribution`).

    ``cols`` are the (TP, FN, FP, TN) count arrays broadcasting to ``weights``' shape;
    ``largest`` bounds their total; ``pruned`` is the mass the lattice lacks; ``undefined``
    the value of 0/0 points (None: excluded); ``keep`` (optional boolean array) leaves
    points out entirely (e.g. points of zero mass in a mixture's bounding box).
    ``slice_pn = (p, n)`` says the lattice lies on one slice (FN = p − TP, FP = n − TN):
    the metric's slice form (:meth:`~confusionlab.metrics.Metric._exact_on_slice`: the same
    integers in fewer passes, bounds known without a scan) is used in float64 arithmetic.
    ``origin`` (optional) records the observed matrix and settings the lattice came from.
    """
    arithmetic = _arithmetic(m, largest, cols)
    form: ExactForm
    if slice_pn is not None and arithmetic == "float":
        form = m._exact_on_slice(cols[0], cols[3], *slice_pn, as_float=True)
    else:
        form = m.exact(*cols, as_float=arithmetic != "int64")
    shape = np.shape(weights)
    where, undefined_at, sign_at = form.special_points(shape)
    defined = None if keep is None else np.array(np.broadcast_to(keep, shape))
    if where.size:
        defined = np.ones(shape, dtype=bool) if defined is None else defined
        kept_special = defined.reshape(-1)[where]
        defined.reshape(-1)[where] = False
        where, undefined_at, sign_at = where[kept_special], undefined_at[kept_special], sign_at[kept_special]
    if arithmetic == "clustered":
        grouped = _group_beyond_64_bits(
            m, form, cols, weights, np.ones(shape, dtype=bool) if defined is None else defined
        )
    else:
        grouped = group_exact(form, weights, defined=defined)
    values, masses, counts = grouped.values, grouped.masses, grouped.counts
    w_at = np.broadcast_to(np.asarray(weights), shape)[np.unravel_index(where, shape)]
    for value, at in ((np.inf, ~undefined_at & (sign_at > 0)), (-np.inf, ~undefined_at & (sign_at < 0))):
        if at.any():
            values, masses, counts = _merge_value(
                values, masses, counts, value, float(w_at[at].sum()), int(np.count_nonzero(at))
            )
    n_undef = int(np.count_nonzero(undefined_at))
    undef_mass = float(w_at[undefined_at].sum())
    if n_undef and undefined is not None:
        values, masses, counts = _merge_value(values, masses, counts, undefined, undef_mass, n_undef)
    return MetricDistribution(
        values,
        masses,
        counts,
        metric=m.name,
        model=model,
        undefined_mass=undef_mass,
        undefined_points=n_undef,
        pruned_mass=pruned,
        lattice_points=int(np.prod(shape)) if keep is None else int(np.count_nonzero(keep)),
        strategy=grouped.strategy,
        undefined_excluded=undefined is None,
        check_total=True,
        origin=origin,
    )


def _true_value_distribution(
    cm: ConfusionMatrix, m: Metric, alpha: float, undefined_value: float | None, origin: Origin
) -> MetricDistribution:
    """The metric's posterior under the rates' Beta posteriors, by the quantile product rule."""
    k = TRUE_VALUE_NODES
    nodes = (np.arange(k) + 0.5) / k
    tpr = stats.beta.ppf(nodes, cm.tp + alpha, cm.fn + alpha)
    tnr = stats.beta.ppf(nodes, cm.tn + alpha, cm.fp + alpha)
    p, n = float(cm.p), float(cm.n)
    tp, tn = (p * tpr)[:, None], (n * tnr)[None, :]
    vals = np.broadcast_to(m.values(tp, p - tp, n - tn, tn, undefined=np.nan), (k, k)).reshape(-1)
    undefined_at = np.isnan(vals)
    n_undef = int(np.count_nonzero(undefined_at))
    undef_mass = n_undef / (k * k)
    if n_undef:
        vals = vals[~undefined_at] if undefined_value is None else np.where(undefined_at, undefined_value, vals)
    values, counts = np.unique(vals, return_counts=True)
    return MetricDistribution(
        values,
        counts / float(k * k),
        counts,
        metric=m.name,
        model="beta-binomial",
        undefined_mass=undef_mass,
        undefined_points=n_undef,
        lattice_points=k * k,
        strategy=f"quadrature({k}x{k})",
        undefined_excluded=undefined_value is None,
        check_total=True,
        target="true_value",
        cdf_error=(2 * k - 1) / k**2,
        origin=origin,
        method="quadrature",
    )


def _group_beyond_64_bits(
    metric: Metric, form: ExactForm, cols: tuple[np.ndarray, ...], weights: np.ndarray, defined: np.ndarray
) -> Grouped:
    """Exact grouping when exact keys exceed int64 (see :func:`~confusionlab.grouping.group_clustered`)."""
    shape = np.shape(weights)
    kept = np.flatnonzero(np.asarray(defined).reshape(-1))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.broadcast_to(np.true_divide(form.num, form.den), shape).reshape(-1)[kept]
    w = np.asarray(weights, dtype=np.float64).reshape(-1)[kept]

    def exact_ratios(members: np.ndarray) -> list[Fraction]:
        where = np.unravel_index(kept[members], shape)
        counts = [np.array([int(v) for v in np.broadcast_to(c, shape)[where]], dtype=object) for c in cols]
        exact = metric._exact(*counts)
        num = np.broadcast_to(exact.num, members.shape)
        den = np.broadcast_to(exact.den, members.shape)
        return [Fraction(int(a), int(b)) for a, b in zip(num, den, strict=True)]

    def exact_pairs(members: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        where = np.unravel_index(kept[members], shape)
        counts = [np.asarray(np.broadcast_to(c, shape)[where], dtype=np.int64).astype(object) for c in cols]
        exact = metric._exact(*counts)
        return np.broadcast_to(exact.num, members.shape), np.broadcast_to(exact.den, members.shape)

    return group_clustered(ratio, w, exact_ratios, lambda r: form.value(r, np.ones_like(r)), exact_pairs)


def _merge_value(
    values: np.ndarray, masses: np.ndarray, counts: np.ndarray, value: float, mass: float, points: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    i = int(np.searchsorted(values, value))
    if i < values.size and values[i] == value:
        masses, counts = masses.copy(), counts.copy()
        masses[i] += mass
        counts[i] += points
        return values, masses, counts
    return np.insert(values, i, value), np.insert(masses, i, mass), np.insert(counts, i, points)


@dataclass(frozen=True)
class Comparison(Result):
    """Result of :func:`compare`: how two independent metric distributions relate.

    Attributes
    ----------
    prob_greater, prob_equal, prob_less : float
        P(A > B), P(A = B), P(A < B) (normalised retained masses).
    difference : MetricDistribution
        Distribution of A − B.
    a, b : MetricDistribution or None
        The two distributions compared (None when the comparison was built by hand).
    value : float
        The difference A − B the interval surrounds: the observed difference
        ``a.observed − b.observed`` when both were computed from observed matrices,
        else the mean of :attr:`difference`. (``prob_greater`` is the answer to
        "is A better?"; ``value`` and :meth:`interval` say by how much.)

    Examples
    --------
    >>> da = metric_distribution(ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "recall")
    >>> db = metric_distribution(ConfusionMatrix(tp=12, fn=8, fp=8, tn=32), "recall")
    >>> c = compare(da, db)
    >>> round(c.value, 12), round(c.prob_greater, 3)  # 16/20 − 12/20; Σ P(TP_A = i) P(TP_B = j) over i > j
    (0.2, 0.79)
    """

    prob_greater: float
    prob_equal: float
    prob_less: float
    difference: MetricDistribution
    a: MetricDistribution | None = field(default=None, repr=False, compare=False)
    b: MetricDistribution | None = field(default=None, repr=False, compare=False)
    title: ClassVar[str] = "Comparison of two classifiers"

    @property
    def value(self) -> float:
        """The observed difference A − B when both sides know their observed matrix, else the mean of A − B."""
        if self.a is not None and self.b is not None:
            observed_a, observed_b = self.a.observed, self.b.observed
            if observed_a is not None and observed_b is not None:
                return observed_a - observed_b
        return self.difference.mean()

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Central interval of the difference A − B."""
        return self.difference.interval(confidence)

    def to_frame(self) -> Any:
        """One row: the metric, P(A > B), P(A = B), P(A < B), the difference (:attr:`value`), its
        central 95 % interval and ``target``, the question of the two sides' distributions (the
        difference's when built without them; ``"<a's> - <b's>"`` when the sides ask different ones).
        The difference's PMF is ``self.difference.to_frame()``."""
        import pandas as pd

        lo, hi = self.interval(0.95)
        sides = [side.target for side in (self.a, self.b) if side is not None]
        target = self.difference.target if not sides else " - ".join(dict.fromkeys(sides))
        row = {
            "metric": self.difference.metric.removesuffix(" difference"),
            "prob_greater": self.prob_greater,
            "prob_equal": self.prob_equal,
            "prob_less": self.prob_less,
            "difference": self.value,
            "lower": lo,
            "upper": hi,
            "confidence": 0.95,
            "target": target,
        }
        return pd.DataFrame([row])

    def plot(self, ax: Any = None) -> Any:
        """The PMF of A − B as sticks, its central 95 % interval shaded, 0 (no difference) marked.

        Returns the matplotlib Figure (``ax``'s own when given).
        """
        fig, ax = new_figure(ax)
        d = self.difference
        _draw_pmf(ax, d, NEUTRAL, self.value if d.values.size else None, "difference")
        ax.axvline(0.0, color=NEUTRAL, lw=0.8)
        ax.set_xlabel(f"{d.metric}: A − B")
        ax.set_title(f"P(A > B) = {self.prob_greater:.3g}, P(A = B) = {self.prob_equal:.3g}", fontsize=9)
        return fig

    def view(self) -> Any:
        """The two sides' :class:`~confusionlab.widgets.metric_pmf.MetricPMF` widgets, A beside B.

        Raises
        ------
        ValueError
            When a side cannot be shown (see :meth:`MetricDistribution.view`), e.g. a
            comparison built without its two distributions.
        """
        if self.a is None or self.b is None:
            raise ValueError("this comparison was built without its two distributions (a, b); draw it with .plot()")
        return super().view()

    def summary(self, confidence: float = 0.95) -> str:
        """One sentence: P(A > B), and where the difference A − B lies with probability ``confidence``."""
        confidence = check_confidence(confidence)
        lo, hi = self.interval(confidence)
        metric = self.a._label() if self.a is not None else self.difference.metric.removesuffix(" difference")
        return (
            f"P(A > B) = {self.prob_greater:.3g} for {metric} (P(A = B) = {self.prob_equal:.3g}, "
            f"P(A < B) = {self.prob_less:.3g}); the difference A − B lies in [{lo:.4g}, {hi:.4g}] with "
            f"{confidence:.0%} probability (value {self.value:.4g})."
        )


#: Largest ``bins`` of :func:`compare` (the histograms are convolved directly, in O(bins²)).
MAX_BINS = 20_001


def compare(
    a: MetricDistribution, b: MetricDistribution, *, max_pairs: int = 4_000_000, bins: int = 2001
) -> Comparison:
    """Compare classifier A's metric with classifier B's on independent test sets.

    Parameters
    ----------
    a, b : MetricDistribution
        Distributions of the same metric.
    max_pairs : int, default 4,000,000
        Up to this many value pairs the difference A − B is enumerated pair by
        pair (grouped on values rounded to 12 decimals); the pairs must fit in the
        memory limit. Beyond it both distributions are binned with a common width
        h = (range of A − B) / ``bins`` and the histograms convolved: each pair's
        difference is then placed within h of its true value. ``prob_greater``,
        ``prob_equal`` and ``prob_less`` are exact either way.
    bins : int, default 2001
        Between 1 and :data:`MAX_BINS`.

    Returns
    -------
    Comparison
        P(A > B), P(A = B), P(A < B) and the distribution of A − B.

    See Also
    --------
    metric_distribution : The distributions compared.
    confusionlab.compare_paired : Two classifiers scored on the *same* test set (their errors are
        correlated, which independent distributions cannot express; the paired answer is sharper).
    confusionlab.evaluate : Distributions from predictions, per group and across refits.
    confusionlab.plan_test_size : How large a test set makes one metric's interval narrow enough.

    Notes
    -----
    Infinite values (LR+, DOR) are kept: a finite value minus +inf is −inf, and
    +inf − +inf is undefined (the difference's ``undefined_mass``).

    Examples
    --------
    >>> da = metric_distribution(ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "mcc")
    >>> db = metric_distribution(ConfusionMatrix(tp=14, fn=6, fp=10, tn=30), "mcc")
    >>> c = compare(da, db)
    >>> 0.5 < c.prob_greater < 1
    True
    """
    for name, d in (("a", a), ("b", b)):
        check_instance(d, name, MetricDistribution, "a MetricDistribution (from metric_distribution)")
    if a.metric != b.metric:
        raise InvalidParameterError(
            f"a and b must be distributions of the same metric, got {a.metric!r} and {b.metric!r}"
        )
    max_pairs = check_int(max_pairs, "max_pairs", minimum=0)
    bins = check_int(bins, "bins", minimum=1, maximum=MAX_BINS)
    a._require_values("comparison")
    b._require_values("comparison")
    pa, pb = a._p, b._p
    below = np.searchsorted(b.values, a.values, side="left")
    upto = np.searchsorted(b.values, a.values, side="right")
    cdf_b = np.r_[0.0, b._cdf]
    greater = float(np.sum(pa * cdf_b[below]))
    equal = float(np.sum(pa * (cdf_b[upto] - cdf_b[below])))
    less = max(0.0, 1.0 - greater - equal)

    fa, fb = np.isfinite(a.values), np.isfinite(b.values)
    pairs = int(np.count_nonzero(fa)) * int(np.count_nonzero(fb))
    if pairs <= max_pairs:
        check_memory(
            float(pairs) * BYTES_PER_PAIR,
            f"enumerating {pairs:,} value pairs (max_pairs={max_pairs:,})",
            "lower max_pairs so that the difference is binned",
        )
        diff = np.subtract.outer(a.values[fa], b.values[fb]).ravel()
        mass = np.multiply.outer(pa[fa], pb[fb]).ravel()
        uniq, inv = np.unique(np.round(diff, 12), return_inverse=True)
        dmass = np.bincount(inv, weights=mass)
        mult = np.multiply.outer(a.multiplicities[fa], b.multiplicities[fb]).ravel()
        dcount = np.bincount(inv, weights=mult)
        strategy = "pairs"
    else:
        uniq, dmass, dcount = _binned_difference(
            a.values[fa], b.values[fb], pa[fa], pb[fb], a.multiplicities[fa], b.multiplicities[fb], bins
        )
        strategy = f"binned({bins})"
    undefined_mass, undefined_points = 0.0, 0
    if not (fa.all() and fb.all()):
        atoms = _infinite_differences(a, b)
        undefined_mass, undefined_points = atoms.pop(np.nan)
        for value, (m, c) in atoms.items():
            if m > 0:
                uniq, dmass, dcount = _merge_value(uniq, dmass, dcount, value, m, c)
    diff_dist = MetricDistribution(
        uniq,
        dmass,
        np.asarray(dcount).astype(np.int64),
        metric=f"{a.metric} difference",
        model=f"{a.model} - {b.model}",
        strategy=strategy,
        undefined_mass=undefined_mass,
        undefined_points=undefined_points,
        undefined_excluded=True,
        check_total=True,
    )
    return Comparison(greater, equal, less, diff_dist, a, b)


def _infinite_differences(a: MetricDistribution, b: MetricDistribution) -> dict[float, tuple[float, int]]:
    """Mass and multiplicity of A − B = +inf, −inf and undefined (key NaN: inf − inf)."""

    def parts(d: MetricDistribution) -> dict[str, tuple[float, int]]:
        kinds = {"-": d.values == -np.inf, "f": np.isfinite(d.values), "+": d.values == np.inf}
        return {k: (float(d._p[m].sum()), int(d.multiplicities[m].sum())) for k, m in kinds.items()}

    pa, pb = parts(a), parts(b)
    result = {np.inf: (0.0, 0), -np.inf: (0.0, 0), np.nan: (0.0, 0)}
    outcome = {("+", "-"): np.inf, ("+", "f"): np.inf, ("f", "-"): np.inf, ("-", "+"): -np.inf,
               ("-", "f"): -np.inf, ("f", "+"): -np.inf, ("+", "+"): np.nan, ("-", "-"): np.nan}  # fmt: skip
    for (ka, kb), value in outcome.items():
        mass, count = result[value]
        result[value] = (mass + pa[ka][0] * pb[kb][0], count + pa[ka][1] * pb[kb][1])
    return result


def _binned_difference(
    va: np.ndarray, vb: np.ndarray, pa: np.ndarray, pb: np.ndarray, ca: np.ndarray, cb: np.ndarray, bins: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Histogram of A − B from the convolution of the two histograms (common width)."""
    if va.size == 0 or vb.size == 0:
        return np.empty(0), np.empty(0), np.empty(0)
    width = ((va[-1] - va[0]) + (vb[-1] - vb[0])) / bins or 1.0
    ia = np.floor((va - va[0]) / width).astype(np.int64)
    ib = np.floor((vb - vb[0]) / width).astype(np.int64)
    mass_a, count_a = np.bincount(ia, weights=pa), np.bincount(ia, weights=ca)
    mass_b, count_b = np.bincount(ib, weights=pb), np.bincount(ib, weights=cb)
    # index k of the convolution is ia - ib + (len(b bins) - 1)
    dmass = np.convolve(mass_a, mass_b[::-1])
    dcount = np.rint(np.convolve(count_a, count_b[::-1]))
    shift = np.arange(dmass.size) - (mass_b.size - 1)
    centres = va[0] - vb[0] + shift * width
    keep = dcount > 0
    return centres[keep], np.clip(dmass[keep], 0.0, None), dcount[keep]
