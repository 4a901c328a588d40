"""Every count-based metric, and lazily its posterior, from one :class:`CountTable`.

The evaluator knows which metric function reads which view of the table
(facet sizes, binary or per-value label counts, per-facet confusion counts,
per-subgroup outcomes) and which uncertainty model applies to it (see
:mod:`.uncertainty`). It never touches the data: :mod:`.report` builds the
table through :mod:`confusionlab._tables` and hands it here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection

import numpy as np

from ..distribution import MetricDistribution
from ..distribution.count_draws import sampled_metric, sampled_metrics
from ..distribution.posterior import sampled_distribution
from ..distribution.two_beta import beta_pair_distributions
from ..models import resolve_prior, root_seed
from . import label_metrics as lm
from . import prediction_metrics as pm
from ._arith import divide
from .counts import CountTable
from .results import DESCRIPTIONS, BiasMetric
from .uncertainty import (
    CONFUSION_RATES,
    beta_pair_of_confusion,
    beta_pair_of_outcomes,
    cdd_distribution,
    exact_binary_facets,
    exact_binary_facets_shared,
    exact_facet_sizes,
)

__all__ = ["Evaluator", "root_seed"]

_KL_FAMILY = {
    "KL": lm.kullback_leibler,
    "JS": lm.jensen_shannon,
    "LP": lm.lp_norm,
    "TVD": lm.total_variation_distance,
    "KS": lm.kolmogorov_smirnov,
}
_CONFUSION = {
    "DCA": pm.difference_in_conditional_acceptance,
    "DCR": pm.difference_in_conditional_rejection,
    "RD": pm.recall_difference,
    "DAR": pm.difference_in_acceptance_rates,
    "DRR": pm.difference_in_rejection_rates,
    "SD": pm.specificity_difference,
    "AD": pm.accuracy_difference,
    "TE": pm.treatment_equality,
    "DPPL": pm.difference_in_positive_predictions,
    "DI": pm.disparate_impact,
}


def _scalar(x: np.ndarray) -> float:
    return float(np.asarray(x).reshape(()))


def facet_error(sizes: np.ndarray, what: str = "") -> str | None:
    """The error text of an empty facet, or None."""
    what = what or "the sensitive facet values or threshold"
    if sizes[1] == 0:
        return f"facet d is empty: no row matches {what}"
    if sizes[0] == 0:
        return f"facet a is empty: every row matches {what}"
    return None


def _di_from_outcomes(o: np.ndarray) -> np.ndarray:
    o = np.asarray(o, dtype=np.float64)
    n = o.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        q = o[..., 1] / n
    ok = (n[..., 0] > 0) & (n[..., 1] > 0)
    return np.where(ok, divide(q[..., 1], q[..., 0]), np.nan)


class Evaluator:
    """Computes metrics and lazily their posteriors from one CountTable.

    Arguments are validated by the caller (:func:`confusionlab.bias.report`).
    """

    def __init__(
        self,
        t: CountTable,
        *,
        kl_labels: str,
        prior: str | float,
        n_draws: int,
        random_state: int | np.random.SeedSequence,
        tolerance: float,
        facet_text: str = "",
        target: str = "true_value",
        progress: bool | None = None,
    ) -> None:
        self.t, self.kl_labels, self.prior = t, kl_labels, prior
        self.facet_text = facet_text
        self.target, self.progress = target, progress
        self.n_draws, self.random_state, self.tolerance = n_draws, random_state, tolerance
        self.sizes = t.facet_sizes

    def _exact2(self, name: str, fn: Callable, outcomes: np.ndarray) -> Callable[[str], MetricDistribution | None]:
        return lambda target: exact_binary_facets(
            fn,
            outcomes,
            prior=self.prior,
            tolerance=self.tolerance,
            metric=name,
            n_draws=self.n_draws,
            random_state=self.random_state,
            target=target,
        )

    def _sampled(self, name: str, fn: Callable, cells: np.ndarray) -> Callable[[str], MetricDistribution | None]:
        def posterior(target: str) -> MetricDistribution | None:
            values = sampled_metric(
                fn,
                cells,
                n_draws=self.n_draws,
                random_state=self.random_state,
                prior=self.prior,
                target=target,
                progress=self.progress,
            )
            return sampled_distribution(values, metric=name, random_state=self.random_state, target=target)

        return posterior

    def _rates(self, name: str, fn: Callable, cm: np.ndarray) -> Callable[[str], MetricDistribution | None]:
        """A difference of two facets' rates of confusion cells (RD, DAR, SD, DRR, AD): for the true value
        the difference of their Beta posteriors, exactly
        (:func:`~confusionlab.distribution.two_beta.beta_pair_distributions`); for the next test set
        Dirichlet-multinomial draws, as the other confusion metrics."""
        sampled = self._sampled(name, fn, cm)

        def posterior(target: str) -> MetricDistribution | None:
            if target != "true_value":
                return sampled(target)
            kind, pars = beta_pair_of_confusion(name, cm, resolve_prior(self.prior))
            return beta_pair_distributions(kind, np.array([pars]), [name])[0]

        return posterior

    def pair_params(self, name: str) -> tuple[str, tuple[float, float, float, float]] | None:
        """(kind, Beta parameters) of ``name``'s true value when it is a function of two facets' Beta rates.

        What :func:`~confusionlab.distribution.two_beta.beta_pair_distributions` needs to compute the true value of
        many rows together (an audit); None for the other metrics. Its distribution is then
        exactly what the metric's own posterior gives for ``target="true_value"``.
        """
        al = resolve_prior(self.prior)
        t = self.t
        if name in CONFUSION_RATES and t.has_predictions:
            return beta_pair_of_confusion(name, t.confusion(), al)
        outcomes = None
        if name == "DPL" or (name in ("TVD", "KS", "LP") and self.kl_labels == "binary"):
            outcomes = t.label_distribution(binary=True)
            fn = lm.difference_in_proportions if name == "DPL" else _KL_FAMILY[name]
        elif name in ("DPPL", "DI") and t.has_predictions:
            cm = t.confusion()
            outcomes = np.stack([cm[:, 1] + cm[:, 3], cm[:, 0] + cm[:, 2]], axis=-1)
            fn = lm.difference_in_proportions if name == "DPPL" else _di_from_outcomes
        if outcomes is None or min(int(outcomes[0].sum()), int(outcomes[1].sum())) == 0:
            return None
        from .uncertainty import _rate_kind

        return beta_pair_of_outcomes(_rate_kind(fn), outcomes, al)

    def metric(
        self,
        name: str,
        value_fn: Callable[[], float],
        error: str | None,
        posterior: Callable[[str], MetricDistribution | None] | None,
        why_nan: str = "",
    ) -> BiasMetric:
        no_bias = 1.0 if name == "DI" else 0.0
        if error is None:
            try:
                v = value_fn()
            except ValueError as exc:
                v, error = None, str(exc)
            else:
                if math.isnan(v):
                    v, error = None, why_nan or f"{name} is undefined for these counts"
        else:
            v = None
        return BiasMetric(name, DESCRIPTIONS[name], v, error, no_bias, posterior_of=posterior, target=self.target)

    def pre(self, group_given: bool) -> dict[str, BiasMetric]:
        t, out = self.t, {}
        ferr = facet_error(self.sizes, self.facet_text)
        out["CI"] = self.metric(
            "CI",
            lambda: _scalar(lm.class_imbalance(self.sizes)),
            ferr,
            lambda target: exact_facet_sizes(
                lm.class_imbalance, self.sizes, prior=self.prior, tolerance=self.tolerance, target=target
            ),
        )
        lab2 = t.label_distribution(binary=True)
        out["DPL"] = self.metric(
            "DPL",
            lambda: _scalar(lm.difference_in_proportions(lab2)),
            ferr,
            self._exact2("DPL", lm.difference_in_proportions, lab2),
        )
        dist = lab2 if self.kl_labels == "binary" else t.label_distribution(binary=False)
        for name, fn in _KL_FAMILY.items():
            post = self._exact2(name, fn, dist) if dist.shape[-1] == 2 else self._sampled(name, fn, dist)
            out[name] = self.metric(
                name, lambda fn=fn: _scalar(fn(dist)), ferr, post, "no label value occurs in both facets"
            )
        out["CDDL"] = self._cdd("CDDL", t.group_outcomes(predicted=False) if group_given else None)
        return out

    def _cdd(self, name: str, g: np.ndarray | None) -> BiasMetric:
        what = "labels" if name == "CDDL" else "predicted labels"
        if g is None:
            return self.metric(
                name, lambda: math.nan, f"group was not given: {name} needs a subgroup column (group=...)", None
            )
        tot = g.sum(axis=(0, 1))
        err = None
        if tot[1] == 0:
            err = f"no positive {what} in the data: {name} is undefined"
        elif tot[0] == 0:
            err = f"no negative {what} in the data: {name} is undefined"
        # each subgroup is one DirMult vector over its 4 (facet × outcome) cells, at its observed size
        # (Monte Carlo for up to CDD_MC_BUDGET subgroup × draw pairs, the exact-moment normal beyond)
        return self.metric(
            name,
            lambda: _scalar(lm.conditional_demographic_disparity(g)),
            err,
            lambda target: cdd_distribution(
                g,
                metric=name,
                prior=self.prior,
                n_draws=self.n_draws,
                random_state=self.random_state,
                target=target,
                progress=self.progress,
            ),
        )

    def post(self, group_given: bool) -> dict[str, BiasMetric]:
        t, out = self.t, {}
        cm = t.confusion()  # (facet, (tp, fn, fp, tn))
        ferr = facet_error(self.sizes, self.facet_text)
        pred2 = np.stack([cm[:, 1] + cm[:, 3], cm[:, 0] + cm[:, 2]], axis=-1)  # [predicted neg, predicted pos]
        for name, fn in _CONFUSION.items():
            if name == "DPPL":
                post = self._exact2(name, lm.difference_in_proportions, pred2)
            elif name == "DI":
                post = self._exact2(name, _di_from_outcomes, pred2)
            elif name in CONFUSION_RATES:
                post = self._rates(name, fn, cm)
            else:
                post = self._sampled(name, fn, cm)
            out[name] = self.metric(name, lambda fn=fn: _scalar(fn(cm)), ferr, post)
        total = cm.sum(axis=0)
        out["GE"] = self.metric(
            "GE",
            lambda: _scalar(pm.generalized_entropy(total)),
            None,
            self._sampled("GE", pm.generalized_entropy, total),
            "GE is undefined: every row is a false negative (mean benefit 0) or there are no rows",
        )
        out["CDDPL"] = self._cdd("CDDPL", t.group_outcomes(predicted=True) if group_given else None)
        return out

    def share_posteriors(self, found: dict[str, BiasMetric], names: Collection[str]) -> None:
        """Compute the posteriors of ``names`` together wherever they rest on the same counts.

        DPL and the KL family on a binary label share one beta-binomial lattice
        (or one set of draws) of the label counts; DPPL and DI one of the
        prediction counts; DCA … TE one set of Dirichlet-multinomial draws of
        the confusion counts. Each metric's ``distribution`` is filled with
        exactly what its own posterior would give (same lattice, weights, draws
        and ``random_state``; see :func:`~.uncertainty.exact_binary_facets_shared`
        and :func:`~confusionlab.distribution.count_draws.sampled_metrics`), computed once per family.
        Metrics outside a family, undefined, or already computed are left as they are.

        Examples
        --------
        >>> t = CountTable.from_confusion(a=(300, 100, 40, 500), d=(60, 40, 10, 150))
        >>> ev = Evaluator(t, kl_labels="binary", prior="uniform", n_draws=500, random_state=0, tolerance=1e-12)
        >>> found = ev.post(False)
        >>> ev.share_posteriors(found, ["DPPL", "DI", "AD"])
        >>> alone = Evaluator(t, kl_labels="binary", prior="uniform", n_draws=500, random_state=0,
        ...                   tolerance=1e-12).post(False)
        >>> all(found[m].interval(0.9) == alone[m].interval(0.9) for m in ("DPPL", "DI", "AD"))
        True
        """
        t = self.t
        lab_fns = {"DPL": lm.difference_in_proportions}
        if self.kl_labels == "binary":  # otherwise the KL family reads the per-value label counts
            lab_fns |= _KL_FAMILY
        families: list[tuple[dict[str, Callable], Callable[[], np.ndarray], str]] = [
            (lab_fns, lambda: t.label_distribution(binary=True), "exact")
        ]
        if t.has_predictions:

            def pred2() -> np.ndarray:
                cm = t.confusion()
                return np.stack([cm[:, 1] + cm[:, 3], cm[:, 0] + cm[:, 2]], axis=-1)

            families.append(({"DPPL": lm.difference_in_proportions, "DI": _di_from_outcomes}, pred2, "exact"))
            exact_rates = self.target == "true_value"  # then RD, DAR, SD, DRR, AD are exact (below)
            sampled = {
                n: fn
                for n, fn in _CONFUSION.items()
                if n not in ("DPPL", "DI") and not (exact_rates and n in CONFUSION_RATES)
            }
            families.append((sampled, t.confusion, "sampled"))
            if exact_rates:
                families.append(({n: _CONFUSION[n] for n in CONFUSION_RATES}, t.confusion, "rates"))
        for fns, cells, how in families:
            todo = {
                n: fn
                for n, fn in fns.items()
                if n in names
                and n in found
                and found[n].value is not None
                and found[n]._posterior_of is not None
                and found[n].target == self.target
                and "distribution" not in found[n].__dict__
            }
            if not todo:
                continue
            if how == "rates":
                al = resolve_prior(self.prior)
                pars = np.array([beta_pair_of_confusion(n, cells(), al)[1] for n in todo])
                dists = dict(zip(todo, beta_pair_distributions("difference", pars, list(todo)), strict=True))
            elif how == "exact":
                dists = exact_binary_facets_shared(
                    todo,
                    cells(),
                    prior=self.prior,
                    tolerance=self.tolerance,
                    n_draws=self.n_draws,
                    random_state=self.random_state,
                    target=self.target,
                )
            else:
                values = sampled_metrics(
                    todo,
                    cells(),
                    n_draws=self.n_draws,
                    random_state=self.random_state,
                    prior=self.prior,
                    target=self.target,
                    progress=self.progress,
                )
                dists = {
                    n: sampled_distribution(v, metric=n, random_state=self.random_state, target=self.target)
                    for n, v in values.items()
                }
            for n, dist in dists.items():
                found[n].__dict__["distribution"] = dist  # the cached_property's slot
