"""The exact discrete distribution of a metric, in scipy.stats' vocabulary.

A :class:`MetricDistribution` holds distinct values, their masses and the lattice points
behind each; it answers ``pmf``, ``cdf``, ``sf``, ``ppf``, ``mean``, ``var``, ``std``,
``interval``, ``rvs`` and ``to_scipy``, and is a result of the library's one protocol
(:mod:`confusionlab._result`): ``value``, ``interval(confidence)``, ``to_frame()``,
``to_html(path)``, ``plot(ax)``, ``view()`` and ``summary(confidence)``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from typing import Any, ClassVar

import numpy as np
from scipy import stats

from .._deps import require
from .._result import Result, new_figure
from .._validation import (
    check_choice,
    check_confidence,
    check_instance,
    check_int,
    check_memory,
    check_points,
    check_quantiles,
    check_random_state,
    check_support,
)
from ..confusion import ConfusionMatrix
from ..metrics import METRICS
from ..models import SLICE_MODELS, TARGETS, resolve_prior
from ..palette import MODEL_COLOURS, NEUTRAL
from .origin import Origin
from .plotting import _draw_pmf

__all__ = ["TOTAL_MASS_TOLERANCE", "MetricDistribution", "checked_in_bulk"]


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
    (:func:`~confusionlab.distribution.slice_mixtures`: ≈ 0.1 ms saved per distribution)."""
    before = _CHECKED_IN_BULK.active
    _CHECKED_IN_BULK.active = True
    try:
        yield
    finally:
        _CHECKED_IN_BULK.active = before


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
    >>> from confusionlab import metric_distribution
    >>> d = metric_distribution(ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "recall")
    >>> d.value, d.interval(0.95)  # TP of a new test set ~ BetaBin(20, 16 + 1, 4 + 1), over 20
    (0.8, (0.5, 1.0))
    >>> d.to_frame().columns.tolist()
    ['value', 'pmf', 'cdf', 'multiplicity']
    """

    #: The question answered: "next_test_set" or "true_value".
    target: str = "next_test_set"
    #: Bound on ``|cdf − exact cdf|`` at every point (0 when exact).
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
        """Running sum, 1 from the last atom with mass on and below 1 before it.

        Rounding can carry the sum to 1.0 while tiny tail atoms remain; they keep
        ``ppf(1.0)`` at the top of the support (scipy's ``rv_discrete`` rule).
        """
        cdf = np.minimum(np.cumsum(self._p), 1.0)
        if cdf.size:
            positive = np.flatnonzero(self._p > 0)
            last = int(positive[-1]) if positive.size else cdf.size - 1
            np.minimum(cdf[:last], np.nextafter(1.0, 0.0), out=cdf[:last])
            cdf[last:] = 1.0
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
        """Central interval holding at least ``confidence`` of the mass (as scipy).

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.
        """
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
        pd = require("pandas", "notebooks", "to_frame()")

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
