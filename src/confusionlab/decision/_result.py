"""``DecisionCurve``: net benefit over threshold probabilities, with its posterior and its band."""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np
from scipy import special

from .._result import Result, new_figure
from .._text import as_written
from .._validation import check_choice, check_confidence
from ..models import DEFAULTS, TARGETS
from ..palette import NEUTRAL, THEME
from ._band import DecisionBand, decision_band
from ._counts import Counts
from ._net_benefit import interventions_avoided, net_benefit, treat_all, treat_none
from ._next_test_set import lattice_interval
from ._posterior import best_and_evpi, model_vs_none, prob_positive

__all__ = ["DecisionCurve"]

#: The two reference strategies, in dcurves' order after the models.
REFERENCES = ("all", "none")


class DecisionCurve(Result):
    """Net benefit of each model, of treating all and of treating none, over threshold probabilities.

    Built by :func:`confusionlab.decision_curve`.

    Attributes
    ----------
    thresholds : numpy.ndarray
        The threshold probabilities ``p_t`` (dcurves' 0.00, …, 0.99 by default).
    models : list
        The models' names; :attr:`net_benefit` also has ``"all"`` and ``"none"``.
    net_benefit, net_intervention_avoided : dict of name to numpy.ndarray
        dcurves' columns, per strategy.
    counts : dict of name to Counts
        Each model's ``tp``, ``fp`` at each threshold and the class sizes ``p``, ``n``.
    prevalence : float
        The observed prevalence P/N, or the one given (``prevalence_given``).
    harm : dict of name to float
        Each model's harm (subtracted from its net benefit).
    prior : float
        α of the Dirichlet posterior of the four cells (from ``prior=``, else the defaults table).
    confidence : float
        The level of the intervals in :meth:`to_frame` and :meth:`summary` unless given.
    target : str
        The question the intervals of :meth:`to_frame`, :meth:`summary`, :meth:`plot` and the view
        answer: ``"true_value"``, where the true net benefit lies (:meth:`interval_arrays` also
        answers ``"next_test_set"`` on request).
    """

    title = "Decision curve"
    #: The question the intervals and the band answer: the true net benefit.
    target = "true_value"

    def __init__(
        self,
        counts: dict[Any, Counts],
        thresholds: np.ndarray,
        *,
        prevalence: float | None,
        harm: dict[Any, float],
        prior: float,
        prior_given: bool,
        confidence: float,
        positive: Any,
    ) -> None:
        self.counts = counts
        self.thresholds = thresholds
        self.models = list(counts)
        first = next(iter(counts.values()))
        self.n = first.p + first.n
        self.prevalence_given = prevalence is not None
        self.prevalence = first.p / self.n if prevalence is None else prevalence
        self.harm = harm
        self.prior = prior
        self._prior_given = prior_given
        self.confidence = confidence
        self.positive = positive
        strategies = {name: net_benefit(c, thresholds, self.prevalence, harm[name]) for name, c in counts.items()}
        strategies["all"] = treat_all(thresholds, self.n, self.prevalence)
        strategies["none"] = treat_none(thresholds)
        self._strategies = strategies

    # -- dcurves' numbers ----------------------------------------------------------------
    @property
    def net_benefit(self) -> dict[Any, np.ndarray]:
        """Strategy name → net benefit at each threshold ("all" and "none" included)."""
        return {name: s.net_benefit for name, s in self._strategies.items()}

    @property
    def net_intervention_avoided(self) -> dict[Any, np.ndarray]:
        """Strategy name → net interventions avoided per patient, ``(NB − NB_all)/w`` (dcurves' ``nper=1``)."""
        nb_all = self._strategies["all"].net_benefit
        return {
            name: interventions_avoided(s.net_benefit, nb_all, self.thresholds) for name, s in self._strategies.items()
        }

    def _cells(self, name: Any) -> tuple[np.ndarray, ...]:
        c = self.counts[name]
        return (c.tp.astype(float), c.fp.astype(float), c.fn.astype(float), c.tn.astype(float))

    def _given(self) -> float | None:
        return self.prevalence if self.prevalence_given else None

    # -- the posterior ------------------------------------------------------------------
    @cached_property
    def prob_useful(self) -> dict[Any, np.ndarray]:
        """Model → P(NB_model > 0 = NB_none): without harm in a cohort, P(PPV > p_t), the exact tail of
        Beta(TP + α, FP + α); otherwise by quadrature (module ``_posterior``)."""
        return {
            m: prob_positive(*self._cells(m), self.thresholds, self.prior, self.harm[m], self._given(), "none")
            for m in self.models
        }

    @cached_property
    def prob_better_than_all(self) -> dict[Any, np.ndarray]:
        """Model → P(NB_model > NB_all): without harm in a cohort, P(NPV > 1 − p_t), the exact tail of
        Beta(TN + α, FN + α); otherwise by quadrature."""
        return {
            m: prob_positive(*self._cells(m), self.thresholds, self.prior, self.harm[m], self._given(), "all")
            for m in self.models
        }

    @cached_property
    def _best(self) -> dict[Any, tuple[np.ndarray, ...]]:
        return {
            m: best_and_evpi(*self._cells(m), self.thresholds, self.prior, self.harm[m], self._given())
            for m in self.models
        }

    @property
    def prob_best(self) -> dict[Any, dict[Any, np.ndarray]]:
        """Model → {model: P(it is best), "all": P(treating all is best), "none": …} at each threshold,
        among the three strategies of decision curve analysis (the three add up to 1)."""
        return {m: {m: b[0], "all": b[1], "none": b[2]} for m, b in self._best.items()}

    @property
    def evpi(self) -> dict[Any, np.ndarray]:
        """Model → the expected value of perfect information at each threshold, in net benefit units:
        ``E[max(NB_model, NB_all, 0)] − max(E NB_model, E NB_all, 0)`` under the posterior (how much
        net benefit knowing the true cells would add to choosing among the three now)."""
        return {m: b[3] for m, b in self._best.items()}

    # -- intervals and band -------------------------------------------------------------
    def interval_arrays(self, confidence: float = 0.95, *, target: str = "true_value") -> dict[Any, tuple]:
        """Strategy name → ``(lower, upper)`` arrays over the thresholds: pointwise central intervals.

        ``target="true_value"``: of the true net benefit under the Dirichlet posterior (module
        ``_posterior``: one-dimensional quadrature of exact Beta cdfs); ``"next_test_set"``: of the
        net benefit a new test set of the same size will show, from its exact PMF on the lattice of
        count tables (module ``_next_test_set``; refused when the lattice would not fit in memory).
        """
        confidence = check_confidence(confidence)
        target = check_choice(target, "target", TARGETS)
        return self._intervals(confidence, target)

    def _alpha(self, target: str) -> float:
        if self._prior_given:
            return self.prior
        row = DEFAULTS["decision_curve"]
        return row.alpha[target]

    def _intervals(self, confidence: float, target: str) -> dict[Any, tuple]:
        key = (confidence, target)
        cache = self.__dict__.setdefault("_interval_cache", {})
        if key in cache:
            return cache[key]
        t, alpha, tail = self.thresholds, self._alpha(target), (1.0 - confidence) / 2.0
        out: dict[Any, tuple] = {}
        for m in self.models:
            cells = self._cells(m)
            if target == "true_value":
                cond = model_vs_none(*cells, t, alpha, self.harm[m], self._given())
                out[m] = (cond.ppf(tail), cond.ppf(1.0 - tail))
            else:
                out[m] = lattice_interval(*cells, t, alpha, self.harm[m], self._given(), confidence)
        out["all"] = self._all_interval(confidence, target, alpha)
        out["none"] = (np.zeros(t.shape), np.zeros(t.shape))
        cache[key] = out
        return out

    def _all_interval(self, confidence: float, target: str, alpha: float) -> tuple[np.ndarray, np.ndarray]:
        t, k = self.thresholds, 1.0 / (1.0 - self.thresholds)
        if self.prevalence_given:
            nb = self._strategies["all"].net_benefit
            return nb.copy(), nb.copy()
        p = next(iter(self.counts.values())).p
        a, b = p + 2 * alpha, self.n - p + 2 * alpha
        tail = (1.0 - confidence) / 2.0
        if target == "true_value":
            lo, hi = special.betaincinv(a, b, tail), special.betaincinv(a, b, 1.0 - tail)
        else:
            from scipy.stats import betabinom

            lo, hi = (betabinom.ppf(q, self.n, a, b) / self.n for q in (tail, 1.0 - tail))
        return (lo - t) * k, (hi - t) * k

    def interval(self, confidence: float = 0.95, *, target: str = "true_value") -> dict[tuple[Any, float], tuple]:
        """``(strategy, threshold) → (lower, upper)``: the pointwise interval of the net benefit at each
        threshold, keyed as :attr:`value` (arrays: :meth:`interval_arrays`; simultaneous over the
        thresholds: :meth:`band`).

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.
        """
        arrays = self.interval_arrays(confidence, target=target)
        keys = self.thresholds.tolist()
        return {
            (name, k): (float(a), float(b))
            for name, (lo, hi) in arrays.items()
            for k, a, b in zip(keys, lo, hi, strict=True)
        }

    def band(self, confidence: float = 0.95) -> DecisionBand:
        """The band around each model's curve, simultaneous over the thresholds (Campbell's ROC band
        mapped to net benefit; module ``_band`` says how the prevalence's uncertainty enters).

        Returns
        -------
        DecisionBand
            ``.lower[name]``, ``.upper[name]`` arrays ("all" and "none" included); ``lower, upper = band``.
        """
        confidence = check_confidence(confidence)
        return decision_band(self.counts, self.thresholds, self.harm, self._given(), confidence)

    # -- the protocol -------------------------------------------------------------------
    @property
    def value(self) -> dict[tuple[Any, float], float]:
        """``(strategy, threshold) → net benefit``: :attr:`net_benefit` as one flat mapping."""
        keys = self.thresholds.tolist()
        return {(name, k): v for name, nb in self.net_benefit.items() for k, v in zip(keys, nb.tolist(), strict=True)}

    def to_frame(self) -> Any:
        """dcurves' columns (model, threshold, n, prevalence, harm, test_pos_rate, tp_rate, fp_rate,
        net_benefit, net_intervention_avoided), then ours: tp, fp, prob_useful, prob_better_than_all,
        the simultaneous band (band_lower, band_upper) and the pointwise interval (lower, upper) at
        :attr:`confidence`, and the question it answers (target)."""
        import pandas as pd

        t, size = self.thresholds, self.thresholds.size
        nia = self.net_intervention_avoided
        band = self.band(self.confidence)
        intervals = self._intervals(self.confidence, self.target)
        nan = np.full(size, np.nan)
        parts = []
        for name, s in self._strategies.items():
            c = self.counts.get(name)
            parts.append(
                pd.DataFrame(
                    {
                        "model": [name] * size,
                        "threshold": t,
                        "n": self.n,
                        "prevalence": self.prevalence,
                        "harm": s.harm,
                        "test_pos_rate": s.test_pos_rate,
                        "tp_rate": s.tp_rate,
                        "fp_rate": s.fp_rate,
                        "net_benefit": s.net_benefit,
                        "net_intervention_avoided": nia[name],
                        "tp": nan if c is None else c.tp,
                        "fp": nan if c is None else c.fp,
                        "prob_useful": self.prob_useful.get(name, nan),
                        "prob_better_than_all": self.prob_better_than_all.get(name, nan),
                        "band_lower": band.lower[name],
                        "band_upper": band.upper[name],
                        "lower": intervals[name][0],
                        "upper": intervals[name][1],
                        "target": self.target,
                    }
                )
            )
        return pd.concat(parts, ignore_index=True)

    def useful_thresholds(self, name: Any) -> np.ndarray:
        """The thresholds where model ``name``'s net benefit beats both treating all and treating none."""
        nb = self.net_benefit
        return self.thresholds[(nb[name] > nb["all"]) & (nb[name] > 0)]

    def summary(self, confidence: float = 0.95) -> str:
        """Per model: where it beats treating all and none, how sure (P(useful)), and the band's verdict."""
        confidence = check_confidence(confidence)
        band = self.band(confidence)
        pct = f"{confidence:.0%}"
        parts = []
        for m in self.models:
            useful = self.useful_thresholds(m)
            if useful.size == 0:
                parts.append(f"{m!s} never beats both treating all and treating none")
                continue
            sure = self.thresholds[(band.lower[m] > np.maximum(band.upper["all"], 0.0))]
            where = f"{useful.min():.2f}–{useful.max():.2f}"
            best = int(np.argmax(self.net_benefit[m] - np.maximum(self.net_benefit["all"], 0.0)))
            parts.append(
                f"{m!s} beats treating all and none at thresholds {where} (P(NB > 0) = "
                f"{self.prob_useful[m][best]:.3g} at {self.thresholds[best]:.2f}); its {pct} simultaneous band "
                + (f"confirms it at {sure.size} threshold(s)" if sure.size else "confirms it at no threshold")
            )
        prevalence = "given" if self.prevalence_given else "observed"
        return (
            f"Decision curve of {self.n:,} examples ({prevalence} prevalence {self.prevalence:.3g}): "
            + "; ".join(parts)
            + "."
        )

    def plot(self, ax: Any = None) -> Any:
        """Net benefit against threshold probability: each model with its pointwise interval (shaded)
        and its simultaneous band (dashed), both at :attr:`confidence`, treating all and treating none."""
        fig, ax = new_figure(ax, figsize=(6.0, 4.0))
        t = self.thresholds
        band = self.band(self.confidence)
        intervals = self._intervals(self.confidence, "true_value")
        colours = [THEME["accent"], THEME["warning"], "#2ca02c", "#9467bd", "#8c564b"]
        for k, m in enumerate(self.models):
            colour = colours[k % len(colours)]
            ax.plot(t, self.net_benefit[m], color=colour, lw=1.4, label=str(m))
            ax.fill_between(t, *intervals[m], color=colour, alpha=0.2, lw=0)
            ax.plot(t, band.lower[m], color=colour, lw=0.7, ls="--")
            ax.plot(t, band.upper[m], color=colour, lw=0.7, ls="--")
        ax.plot(t, self.net_benefit["all"], color=NEUTRAL, lw=1.0, label="treat all")
        ax.axhline(0.0, color="black", lw=0.8, label="treat none")
        top = max(float(np.nanmax(nb)) for nb in self.net_benefit.values())
        ax.set_ylim(-0.05 * max(top, 0.01) - 0.01, max(top, 0.01) * 1.15)
        ax.set_xlim(float(t.min()), float(t.max()))
        ax.set_xlabel("threshold probability")
        ax.set_ylabel("net benefit")
        pct = f"{self.confidence:.0%}"
        ax.set_title(f"Decision curve (shaded: {pct} pointwise; dashed: {pct} simultaneous band)", fontsize=9)
        as_written(ax.legend(loc="upper right", fontsize=8, frameon=False))
        return fig

    def __repr__(self) -> str:
        return (
            f"DecisionCurve(models={self.models!r}, n={self.n}, prevalence={self.prevalence:.4g}, "
            f"thresholds={self.thresholds.size})"
        )
