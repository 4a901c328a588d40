"""Stability against the number of learners, measured by refitting a model.

:func:`stability_curve` refits ``make_model(n_learners, random_state)`` ``repeats`` times
for every number of learners in a grid, predicts the test objects, and keeps the
predictions so that any measure (phi, psi or a comparator) can be computed afterwards.

Refits run through :mod:`joblib`, so a cluster is used by wrapping the call in the
backend's context, e.g. for Dask::

    from dask.distributed import Client, LocalCluster
    import joblib
    with Client(LocalCluster()) as client, joblib.parallel_backend("dask"):
        curve = st.stability_curve(make_model, X, y, X_test, n_learners=[...])

Seeds come from ``numpy.random.SeedSequence(random_state).spawn``: one independent child
per (grid point, repeat), assigned before any work starts, so results do not depend on
the backend, ``n_jobs`` or the order in which refits finish.

scikit-learn, joblib and tqdm are imported only when a curve is computed.
"""

from __future__ import annotations

import dataclasses
import numbers
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.special import ndtri

from .._deprecation import renamed_arguments
from .._result import Result, new_figure
from .._validation import InvalidParameterError, check_confidence, check_int, check_memory, check_random_state
from ..palette import NEUTRAL, THEME
from ._checks import check_learner_counts, check_on_undefined
from ._input import check_scale
from ._undefined import OnUndefined, UndefinedCoefficientWarning, UndefinedError
from .comparators import fleiss_kappa, gwet_ac1, icc, krippendorff_alpha
from .measures import StabilityResult, phi, psi
from .twopl import MAX_LEARNERS, ExtrapolationWarning, Recommendation, TwoPLFit, _time_model, fit_2pl

__all__ = ["DEFAULT_N_LEARNERS", "MAX_REFITS", "MEASURES", "StabilityCurve", "stability_curve"]

#: Default grid of learner counts: six log-spaced sizes, 935 learners per repeat in all
#: (optRF's 250, 500, 750, 1000, 2000 fits 4,500 and starts where many forests have
#: already saturated). Pass optRF's grid explicitly to reproduce it; a recommendation far
#: beyond the grid comes with an ExtrapolationWarning.
DEFAULT_N_LEARNERS: tuple[int, ...] = (10, 25, 50, 100, 250, 500)
#: Most refits (grid points × repeats) one :func:`stability_curve` call accepts.
MAX_REFITS = 100_000

MEASURES: tuple[str, ...] = (
    "phi",
    "psi",
    "fleiss_kappa",
    "gwet_ac1",
    "krippendorff_alpha",
    "icc",
)


def _oob_reference(model: Any) -> np.ndarray | None:
    """Out-of-bag predictions of a fitted scikit-learn ensemble, or None."""
    dec = getattr(model, "oob_decision_function_", None)
    if dec is not None:
        dec = np.asarray(dec, dtype=np.float64)
        if dec.ndim != 2:  # multi-output classifiers are not supported as references
            return None
        ok = ~np.isnan(dec).any(axis=1)
        return np.asarray(model.classes_)[np.argmax(dec[ok], axis=1)]
    pred = getattr(model, "oob_prediction_", None)
    if pred is not None:
        pred = np.asarray(pred, dtype=np.float64).reshape(-1)
        return pred[~np.isnan(pred)]
    return None


def _take(data: Any, index: np.ndarray) -> Any:
    """Rows ``index`` of an array or a pandas object."""
    iloc = getattr(data, "iloc", None)
    return iloc[index] if iloc is not None else np.asarray(data)[index]


def _kfold_reference(
    make_model: Callable[[int, int], Any], n: int, seed: int, X: Any, y: Any, n_folds: int
) -> np.ndarray:
    """Out-of-fold predictions for every training object (K-fold cross-validation).

    The split and the fold models get their own children of ``SeedSequence(seed)``.
    """
    from sklearn.model_selection import KFold

    split_seed, *fold_seeds = (
        int(c.generate_state(1, dtype=np.uint32)[0]) for c in np.random.SeedSequence(seed).spawn(n_folds + 1)
    )
    out = []
    folds = KFold(n_splits=n_folds, shuffle=True, random_state=split_seed).split(np.zeros(len(y)))
    for (train, held), fold_seed in zip(folds, fold_seeds, strict=True):
        m = make_model(n, fold_seed)
        m.fit(_take(X, train), _take(y, train))
        out.append(np.asarray(m.predict(_take(X, held))))
    return np.concatenate(out)


def _refit(
    g: int,
    r: int,
    make_model: Callable[[int, int], Any],
    n: int,
    seed: int,
    X: Any,
    y: Any,
    X_test: Any,
    reference: str,
    n_folds: int,
) -> tuple[int, int, np.ndarray, np.ndarray | None, float, bool]:
    """One refit: fit, time it, predict the test objects, collect a reference sample."""
    model = make_model(n, seed)
    t0 = time.perf_counter()
    model.fit(X, y)
    seconds = time.perf_counter() - t0
    pred = np.asarray(model.predict(X_test))
    ref = None
    if reference in ("oob-if-available", "oob", "oob-else-kfold"):
        ref = _oob_reference(model)
    if ref is None and reference == "oob":
        raise ValueError(
            "reference='oob' but the fitted model has no oob_decision_function_ or "
            "oob_prediction_; construct it with oob_score=True or use reference='kfold'"
        )
    if reference == "kfold" or (ref is None and reference == "oob-else-kfold"):
        ref = _kfold_reference(make_model, n, seed, X, y, n_folds)
    return g, r, pred, ref, seconds, hasattr(model, "classes_")


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
        import pandas as pd

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

    def view(self) -> Any:
        """A :class:`~confusionlab.widgets.stability_view.StabilityView` of this curve."""
        from ..widgets.stability_view import StabilityView

        return StabilityView(self)

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


def _seeds(random_state: Any, count: int) -> list[int]:
    """``count`` independent integer seeds from ``SeedSequence(random_state).spawn``.

    A Generator contributes fresh entropy drawn from it (and advances); None, an integer
    seed or a SeedSequence are used as the root directly.
    """
    check_random_state(random_state)  # the library's one check of the type
    if isinstance(random_state, np.random.SeedSequence):
        ss = random_state
    elif isinstance(random_state, np.random.Generator):
        ss = np.random.SeedSequence(random_state.integers(0, 2**63, size=4).tolist())
    else:
        ss = np.random.SeedSequence(None if random_state is None else int(random_state))
    return [int(c.generate_state(1, dtype=np.uint32)[0]) for c in ss.spawn(count)]


def stability_curve(
    make_model: Callable[[int, int], Any],
    X: Any,
    y: Any,
    X_test: Any,
    n_learners: Sequence[int] = DEFAULT_N_LEARNERS,
    repeats: int = 10,
    measure: str = "phi",
    *,
    scale: str | None = None,
    categories: Any = None,
    reference: str = "auto",
    n_folds: int = 5,
    n_jobs: int | None = 1,
    random_state: int | np.random.SeedSequence | np.random.Generator | None = 0,
    progress: bool = True,
) -> StabilityCurve:
    """Refit a model over a grid of learner counts and measure predictive stability.

    Parameters
    ----------
    make_model : callable
        ``make_model(n_learners, random_state)`` returns an *unfitted* scikit-learn-like
        estimator (``fit``/``predict``), e.g.
        ``lambda n, seed: RandomForestClassifier(n, random_state=seed, oob_score=True)``.
        With Dask or process-based backends it must be picklable (a module-level function).
    X, y : array_like
        Training data.
    X_test : array_like
        Test objects whose predictions are compared across refits.
    n_learners : sequence of int
        Grid of learner counts, default :data:`DEFAULT_N_LEARNERS` (10, 25, 50, 100, 250,
        500; optRF's is 250, 500, 750, 1000, 2000). At least 4 values are needed to fit
        the 2PL curve afterwards.
    repeats : int
        Refits per grid point (R ≥ 2; optRF uses 10); grid points × repeats at most
        :data:`MAX_REFITS`.
    measure : {"phi", "psi", "fleiss_kappa", "gwet_ac1", "krippendorff_alpha", "icc"}
        Default measure of the returned curve.
    scale : {"nominal", "ordinal", "metric"}, optional
        Default: ``"nominal"`` if the fitted model has ``classes_`` (a classifier), else
        ``"metric"``.
    categories : sequence, optional
        Category list for nominal/ordinal scales.
    reference : {"auto", "oob", "kfold", "none"}
        psi reference: ``"auto"`` uses out-of-bag predictions (``oob_decision_function_`` /
        ``oob_prediction_``) when the model has them and K-fold predictions otherwise
        (only when ``measure="psi"``); the reference is pooled over the repeats of each
        grid point.
    n_folds : int
        Folds for K-fold references (2 to the number of training objects).
    n_jobs : int or None
        joblib ``n_jobs``; default 1 (no worker start-up, and a forest that is itself
        parallel keeps the cores); -1 uses all cores of the active backend.
    random_state : None, int, SeedSequence or Generator
        Root seed; every refit gets its own child of ``SeedSequence(random_state)`` (a
        Generator supplies that root's entropy).
    progress : bool
        Show a tqdm progress bar (``tqdm.auto``: a widget in notebooks, text in terminals).

    Returns
    -------
    StabilityCurve

    See Also
    --------
    phi, psi : the per-object stability measured at each grid point.
    fleiss_kappa, gwet_ac1, krippendorff_alpha, icc : the comparators (``measure=``).
    fit_2pl : the 2PL model of stability against the number of learners
        (:meth:`StabilityCurve.fit_2pl`, :meth:`StabilityCurve.learners_for`).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from confusionlab import stability as st
    >>> X, y = make_classification(n_samples=120, random_state=0)
    >>> def make_model(n, seed):
    ...     return RandomForestClassifier(n, max_depth=3, random_state=seed)
    >>> curve = st.stability_curve(make_model, X[:100], y[:100], X[100:], n_learners=[1, 2, 4, 8],
    ...                            repeats=3, n_jobs=1, progress=False)
    >>> curve.stability().shape
    (4,)
    """
    if not callable(make_model):
        raise InvalidParameterError(f"make_model must be callable; got {type(make_model).__name__}")
    grid = check_learner_counts(n_learners, "n_learners", maximum=MAX_LEARNERS)
    repeats = check_int(repeats, "repeats", minimum=2, maximum=MAX_REFITS)
    if grid.size * repeats > MAX_REFITS:
        raise InvalidParameterError(
            f"{grid.size} grid points × repeats={repeats} = {grid.size * repeats:,} refits, more than "
            f"MAX_REFITS = {MAX_REFITS:,}; use fewer grid points or repeats"
        )
    if measure not in MEASURES:
        raise InvalidParameterError(f"measure must be one of {MEASURES}; got {measure!r}")
    if reference not in ("auto", "oob", "kfold", "none"):
        raise InvalidParameterError(f"reference must be 'auto', 'oob', 'kfold' or 'none'; got {reference!r}")
    if scale is not None:
        check_scale(scale)
    try:
        n_train = len(y)
        n_test = len(X_test)
    except TypeError:
        raise InvalidParameterError(
            "y and X_test must be sized array-likes (numpy arrays, lists, pandas objects)"
        ) from None
    n_folds = check_int(n_folds, "n_folds", minimum=2, maximum=max(2, n_train))
    if n_jobs is not None and not isinstance(n_jobs, numbers.Integral):
        raise InvalidParameterError(f"n_jobs must be an integer or None; got {n_jobs!r}")
    if not isinstance(progress, (bool, np.bool_)):
        raise InvalidParameterError(f"progress must be True or False; got {progress!r}")
    # predictions (G × repeats × test objects) and pooled references (≤ training objects
    # per refit), float64 or object pointers
    check_memory(
        8.0 * grid.size * repeats * (n_test + n_train),
        f"the predictions and references of {grid.size * repeats:,} refits of {n_test:,} test and "
        f"{n_train:,} training objects",
        "use fewer grid points, repeats or test objects",
    )
    if reference == "auto":
        mode = "oob-else-kfold" if measure == "psi" else "oob-if-available"
    else:
        mode = reference
    from joblib import Parallel, delayed
    from tqdm.auto import tqdm

    seeds = _seeds(random_state, grid.size * repeats)
    tasks = [
        delayed(_refit)(g, r, make_model, int(n), seeds[g * repeats + r], X, y, X_test, mode, n_folds)
        for g, n in enumerate(grid)
        for r in range(repeats)
    ]
    preds: dict[tuple[int, int], np.ndarray] = {}
    refs: dict[tuple[int, int], np.ndarray | None] = {}
    seconds = np.zeros((grid.size, repeats))
    classifier = False
    with tqdm(total=len(tasks), desc="refits", disable=not progress) as bar:
        for g, r, pred, ref, sec, is_clf in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks):
            preds[g, r], refs[g, r], seconds[g, r] = pred, ref, sec
            classifier = classifier or is_clf
            bar.update(1)
    predictions = np.stack([np.stack([preds[g, r] for r in range(repeats)]) for g in range(grid.size)])
    reference_per_grid: list[np.ndarray | None] = []
    for g in range(grid.size):
        parts = [refs[g, r] for r in range(repeats)]
        reference_per_grid.append(None if any(p is None for p in parts) else np.concatenate(parts))
    return StabilityCurve(
        n_learners=grid,
        predictions=predictions,
        train_y=np.asarray(y).reshape(-1),
        reference=reference_per_grid,
        fit_seconds=seconds,
        measure=measure,
        scale=scale or ("nominal" if classifier else "metric"),
        categories=categories,
    )
