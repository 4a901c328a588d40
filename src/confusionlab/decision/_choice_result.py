"""``ThresholdChoice``: the threshold chosen on a test set, its value, and how sure the choice is."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._result import Result, new_figure
from .._validation import InvalidParameterError, check_choice, check_confidence, check_real
from ..confusion import ConfusionMatrix
from ..scores import RocBand
from ._candidates import Candidates
from ._choice_figure import draw_choice
from ._constraint import prob_constraint
from ._objective import Objective
from ._pointwise import pointwise_interval
from ._roc_band import roc_band_edges
from ._selection import SimultaneousBand, simultaneous_band

__all__ = ["KINDS", "ThresholdChoice"]

#: The questions :meth:`ThresholdChoice.interval` answers.
KINDS = ("after_selection", "pointwise")


class ThresholdChoice(Result):
    """The best threshold on a test set, its value, and the statements valid after choosing it there.

    Built by :func:`confusionlab.choose_threshold` (or :meth:`from_estimator`). An example is positive
    when its score is at least the threshold; the candidates are every distinct score and ``inf``
    (no example positive).

    Attributes
    ----------
    threshold : float
        The chosen threshold (``inf``: no example positive).
    confusion_matrix : ConfusionMatrix
        The test set's matrix at it.
    value : float
        The expected cost per example ``(cost_fp·FP + cost_fn·FN)/N``, or the metric maximised.
    candidates, candidate_values : numpy.ndarray
        Every candidate threshold (ascending, ``inf`` last) and the objective's value there (NaN where
        a metric is 0/0).
    plausible_thresholds : numpy.ndarray
        The candidates the simultaneous band cannot exclude as the best, at :attr:`confidence`: a
        confidence set for the truly best threshold (a candidate stands for the thresholds between the
        next lower distinct score, excluded, and itself).
    prob_constraint : dict or None
        With ``subject_to``: each constraint's posterior probability of holding at the chosen threshold.
    prior : float
        The prior pseudo-count α of the posteriors.
    confidence : float
        The level of :attr:`plausible_thresholds`.
    estimator_threshold, estimator_threshold_plausible : float or None, bool or None
        From :meth:`from_estimator` with a ``TunedThresholdClassifierCV``: its ``best_threshold_`` and
        whether it lies in the plausible set (its candidate: the smallest candidate at or above it).
    """

    title = "Threshold choice"
    #: The question the intervals answer: the true value at the chosen threshold.
    target = "true_value"

    def __init__(
        self,
        candidates: Candidates,
        objective: Objective,
        subject_to: dict[str, float],
        values: np.ndarray,
        feasible: np.ndarray,
        index: int,
        *,
        positive: Any,
        prior: float,
        confidence: float,
    ) -> None:
        self._c = candidates
        self._objective = objective
        self._subject_to = dict(subject_to)
        self._values = values
        self._feasible = feasible
        self.index = index
        self.positive = positive
        self.prior = prior
        self.confidence = confidence
        self._bands: dict[float, SimultaneousBand] = {}
        self.estimator_threshold: float | None = None
        self.estimator_threshold_plausible: bool | None = None

    # -- what it holds ------------------------------------------------------------------
    @property
    def threshold(self) -> float:
        return float(self._c.thresholds[self.index])

    @property
    def confusion_matrix(self) -> ConfusionMatrix:
        return self._c.matrix(self.index)

    @property
    def value(self) -> float:
        return float(self._values[self.index])

    @property
    def candidates(self) -> np.ndarray:
        return self._c.thresholds.copy()

    @property
    def candidate_values(self) -> np.ndarray:
        return self._values.copy()

    @property
    def candidate_counts(self) -> dict[str, np.ndarray]:
        """Every candidate's confusion counts ``{"tp", "fn", "fp", "tn"}``, in the order of :attr:`candidates`."""
        c = self._c
        return {"tp": c.tp.copy(), "fn": c.fn, "fp": c.fp.copy(), "tn": c.tn}

    @property
    def objective(self) -> str:
        """``"expected cost"`` or the name of the metric maximised."""
        return self._objective.name

    @property
    def cost(self) -> tuple[float, float] | None:
        return self._objective.cost

    @property
    def subject_to(self) -> dict[str, float]:
        return dict(self._subject_to)

    @property
    def prob_constraint(self) -> dict[str, float] | None:
        if not self._subject_to:
            return None
        return prob_constraint(self.confusion_matrix, self._subject_to, self.prior)

    # -- the statements -------------------------------------------------------------------
    def band(self, confidence: float = 0.95) -> SimultaneousBand:
        """The band of the true value over every candidate at once (``_selection``), at ``confidence``:
        ``.lower``, ``.upper``, ``.plausible`` per candidate."""
        return self._band(check_confidence(confidence))

    def _band(self, level: float) -> SimultaneousBand:
        if level not in self._bands:
            self._bands[level] = simultaneous_band(self._c, self._objective, self._subject_to, level)
        return self._bands[level]

    @property
    def plausible_thresholds(self) -> np.ndarray:
        return self._c.thresholds[self._band(self.confidence).plausible]

    def _candidate(self, threshold: Any) -> int:
        """The candidate standing for ``threshold``: the smallest candidate ≥ it."""
        value = check_real(threshold, "threshold", "a number (inf: no example positive)")
        if value != value:
            raise InvalidParameterError("threshold must be a number (inf: no example positive), got nan")
        return self._c.index_of(value)

    def is_plausible(self, threshold: float) -> bool:
        """Whether the candidate standing for ``threshold`` (the smallest candidate ≥ it) is plausible at
        :attr:`confidence`."""
        return bool(self._band(self.confidence).plausible[self._candidate(threshold)])

    def roc_band(self, confidence: float = 0.95) -> RocBand:
        """The ROC band the :meth:`band` at ``confidence`` stands on (``_roc_band``): on the same event every
        true operating point lies in it, so the true ROC curve does.

        >>> import confusionlab as cl
        >>> choice = cl.choose_threshold([0, 0, 1, 0, 1, 1] * 50, [0.1, 0.4, 0.35, 0.2, 0.8, 0.9] * 50, cost=(1, 1))
        >>> band = choice.roc_band()
        >>> bool(band.lower[0] == 0.0 and band.upper[-1] == 1.0), bool((band.lower <= band.upper).all())
        (True, True)
        """
        band = self.band(confidence)
        fpr, lower, upper = roc_band_edges(self._c, band.d_pos, band.d_neg)
        return RocBand(fpr, lower, upper, band.confidence, "simultaneous")

    def with_cost(self, cost: tuple[float, float]) -> ThresholdChoice:
        """The choice among the same candidates by the expected cost ``cost = (cost_fp, cost_fn)``, with the same
        constraints, prior and confidence: what :func:`~confusionlab.choose_threshold` returns for these data with
        that ``cost``, without the data.

        >>> import confusionlab as cl
        >>> y, s = [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.2, 0.8, 0.9, 0.6, 0.3]
        >>> cl.choose_threshold(y, s, cost=(1, 1)).with_cost((1, 9)).threshold
        0.3
        """
        from ._choice import choice_from_candidates
        from ._options import check_choice_options

        options = check_choice_options(
            cost=cost,
            maximize=None,
            subject_to=self._subject_to or None,
            positive=self.positive,
            confidence=self.confidence,
            prior=self.prior,
        )
        return choice_from_candidates(self._c, self.positive, options)

    def interval(
        self, confidence: float = 0.95, kind: str = "after_selection", *, threshold: float | None = None
    ) -> tuple[float, float]:
        """An interval for the true value at the chosen threshold (or at ``threshold``).

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.

        Parameters
        ----------
        confidence : float, default 0.95
        threshold : float, optional
            Another threshold (its candidate: the smallest candidate ≥ it); default the chosen one.
        kind : {"after_selection", "pointwise"}, default "after_selection"
            ``"after_selection"``: the simultaneous band at the chosen candidate, valid although the
            threshold was chosen as the best on these same data (the band holds at every threshold at
            once). ``"pointwise"``: the central posterior interval of the true value as if the threshold
            had been fixed in advance (the cost under the Dirichlet posterior of the four cells, a
            metric under its rates' Beta posteriors, prior :attr:`prior`); at a threshold chosen as
            the best it is optimistic (it covers less often than ``confidence``).
        """
        confidence = check_confidence(confidence)
        kind = check_choice(kind, "kind", KINDS)
        k = self.index if threshold is None else self._candidate(threshold)
        if kind == "pointwise":
            return pointwise_interval(self._c.matrix(k), self._objective, self.prior, confidence)
        band = self.band(confidence)
        return float(band.lower[k]), float(band.upper[k])

    # -- the protocol -------------------------------------------------------------------
    def to_frame(self) -> Any:
        """One row per candidate: the threshold, its counts, the objective's value, whether it meets the
        constraints, the simultaneous band (``lower``, ``upper``) at :attr:`confidence`, whether it is
        plausible, whether it is the chosen one, and the question the band answers (``target``)."""
        import pandas as pd

        c, band = self._c, self._band(self.confidence)
        columns: dict[str, Any] = {
            "threshold": c.thresholds,
            "tp": c.tp,
            "fn": c.fn,
            "fp": c.fp,
            "tn": c.tn,
            "value": self._values,
        }
        if self._subject_to:
            columns["meets_constraints"] = self._feasible
        columns.update(
            {
                "lower": band.lower,
                "upper": band.upper,
                "plausible": band.plausible,
                "chosen": np.arange(c.size) == self.index,
                "target": self.target,
            }
        )
        return pd.DataFrame(columns)

    def _threshold_text(self) -> str:
        if np.isinf(self.threshold):
            return "no example positive (threshold above every score)"
        return f"threshold {self.threshold:.4g} (scores ≥ it positive)"

    def summary(self, confidence: float = 0.95) -> str:
        """The chosen threshold, its value with both intervals, the plausible set and the constraints, in words."""
        confidence = check_confidence(confidence)
        lo, hi = self.interval(confidence)
        p_lo, p_hi = self.interval(confidence, kind="pointwise")
        goal = "minimises the expected cost per example" if self._objective.minimize else f"maximises {self.objective}"
        plausible = self.plausible_thresholds
        finite = plausible[np.isfinite(plausible)]
        span = f" (from {finite.min():.4g} to {finite.max():.4g})" if finite.size else ""
        none = " including none positive" if np.isinf(plausible).any() else ""
        text = (
            f"The {self._threshold_text()} {goal} on these data: {self.value:.4g}; "
            f"{confidence:.0%} interval for its true value, valid after choosing it here, [{lo:.4g}, {hi:.4g}] "
            f"(as if fixed in advance: [{p_lo:.4g}, {p_hi:.4g}]). {plausible.size} of {self._c.size} candidate "
            f"thresholds{span}{none} cannot be ruled out as the best ({self.confidence:.0%})."
        )
        if self._subject_to:
            probs = self.prob_constraint or {}
            parts = [f"P({name} ≥ {bound:g}) = {probs[name]:.3g}" for name, bound in self._subject_to.items()]
            text += " At the chosen threshold " + ", ".join(parts) + "."
        if self.estimator_threshold is not None:
            verdict = "lies" if self.estimator_threshold_plausible else "does not lie"
            text += f" The estimator's threshold {self.estimator_threshold:.4g} {verdict} in the plausible set."
        return text

    def plot(self, ax: Any = None, *, label: str | None = None) -> Any:
        """The objective against the threshold: the candidates' values, the simultaneous band (valid after
        selection), pointwise intervals at some candidates, the plausible thresholds shaded and the chosen
        one marked (``_choice_figure``). ``label`` names the curve (a group). Returns the matplotlib Figure."""
        fig, ax = new_figure(ax)
        band = self._band(self.confidence)
        title = f"{label}: " if label else ""
        draw_choice(
            ax,
            thresholds=self._c.thresholds,
            values=self._values,
            lower=band.lower,
            upper=band.upper,
            plausible=band.plausible,
            chosen=self.index,
            pointwise=lambda k: pointwise_interval(self._c.matrix(k), self._objective, self.prior, band.confidence),
            labels={
                "curve": label or self.objective,
                "band": f"{band.confidence:.0%} band, valid after selection",
                "y": "expected cost per example" if self._objective.minimize else self.objective,
                "title": f"{title}{self._threshold_text()}, value {self.value:.4g}",
            },
        )
        return fig

    def __repr__(self) -> str:
        return (
            f"ThresholdChoice(threshold={self.threshold!r}, {self.objective}={self.value:.4g}, "
            f"plausible={int(self._band(self.confidence).plausible.sum())} of {self._c.size})"
        )

    # -- from a fitted classifier ----------------------------------------------------------
    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: Any,
        y: Any,
        *,
        cost: tuple[float, float] | None = None,
        maximize: str | None = None,
        subject_to: dict[str, float] | None = None,
        positive: Any = None,
        confidence: float = 0.95,
        prior: Any = None,
        response_method: str = "auto",
    ) -> ThresholdChoice:
        """The threshold choice of a fitted scikit-learn classifier's scores on ``(X, y)``.

        Parameters
        ----------
        estimator : fitted classifier
            Any binary classifier with ``predict_proba`` or ``decision_function``, or a fitted
            ``sklearn.model_selection.TunedThresholdClassifierCV``: its threshold ``best_threshold_``
            is then recorded in :attr:`estimator_threshold` and checked against the plausible set
            (:attr:`estimator_threshold_plausible`), and without ``cost`` or ``maximize`` its
            ``scoring`` (a metric name such as ``"balanced_accuracy"``) is maximised.
        X, y : array-like
            The test set: features and true labels.
        cost, maximize, subject_to, positive, confidence, prior
            As :func:`~confusionlab.choose_threshold`. ``positive`` defaults to ``estimator.classes_[1]``.
        response_method : {"auto", "predict_proba", "decision_function"}, default "auto"
            The scores: the positive class's column of ``predict_proba`` (``"auto"`` prefers it, as
            scikit-learn), or ``decision_function`` (negated when the positive class is ``classes_[0]``).
            A ``TunedThresholdClassifierCV`` uses its own ``response_method``.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn.linear_model import LogisticRegression
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(400, 2)); y = (X[:, 0] + rng.normal(size=400) > 0).astype(int)
        >>> clf = LogisticRegression().fit(X[:200], y[:200])
        >>> choice = ThresholdChoice.from_estimator(clf, X[200:], y[200:], maximize="balanced_accuracy")
        >>> 0 < choice.threshold < 1, choice.is_plausible(choice.threshold)
        (True, True)
        """
        from ._choice import choose_threshold
        from ._estimator import estimator_scores

        scores, label, tuned, scoring = estimator_scores(estimator, X, positive, response_method)
        if cost is None and maximize is None and scoring is not None:
            maximize = scoring
        choice = choose_threshold(
            y,
            scores,
            cost=cost,
            maximize=maximize,
            subject_to=subject_to,
            positive=label,
            confidence=confidence,
            prior=prior,
        )
        if tuned is not None:
            choice.estimator_threshold = tuned
            choice.estimator_threshold_plausible = choice.is_plausible(tuned)
        return choice
