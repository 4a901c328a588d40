"""Every public entry point's defaults, in one table: the question, the prior and the seed.

The rule for the question: a function that answers a practitioner's question about a
classifier (how good is it, is it better than another, how large a test set, is it fair,
how sure is its ROC curve or its calibration) answers the **true value** by default;
:func:`~confusionlab.metric_distribution` and the paper's views keep the paper's object,
the metric on the **next test set** of the same size.

:data:`SHARED_DEFAULTS` gives the one default of each argument the entry points share;
:data:`DEFAULTS` gives each entry point (a public function, or a method of a result that
asks its own question or draws) its default ``target``, the default of its ``prior``
argument, the prior pseudo-count α it then puts on each rate for each question, its
``random_state`` and ``n_draws``, and any shared argument whose default differs (a
required argument is :data:`REQUIRED`). The signatures write their defaults as literals;
a test checks them against this table.

>>> DEFAULTS["evaluate"].target, DEFAULTS["evaluate"].alpha["true_value"]
('true_value', 0.5)
>>> DEFAULTS["metric_distribution"].target
'next_test_set'
>>> DEFAULTS["bias.plan_group_size"].alpha["true_value"], DEFAULTS["plan_test_size"].alpha["true_value"]
(1.0, 0.5)
>>> DEFAULTS["RocCurve.interval"].default("n_resamples"), SHARED_DEFAULTS["confidence"]
(2000, 0.95)
>>> default_alpha("evaluate", "next_test_set"), default_alpha("rank_models", "true_value")
(1.0, 1.0)

Why the true value's prior is not one number. The rates of one test set (``evaluate``,
``metric_distribution``, ``plan_test_size``) take Jeffreys' α = ½: it covered closest to
95 % in ``benchmarks/bench_coverage.py``. The bias metrics (``bias.report``, ``audit``,
``plan_group_size``) keep the uniform α = 1 (``benchmarks/RESULTS.md``, "Default prior for
the bias metrics"): their groups are often tiny, and Jeffreys' prior then under-covers
the recall difference badly (0.575 at N = 30 with one positive in the small facet). The
paired models (``compare_paired``, ``rank_models``) put one prior on each cell of
agreement, ½ of the pair's four (2**(1 − k) of k classifiers' 2**k), so that each
classifier alone is the paper's beta-binomial with α = 1 and both questions share one
posterior; Jeffreys' ½ per rate would be ¼ per cell, a change of published answers not
measured by a coverage benchmark yet. Each entry point reads its α from
:func:`default_alpha`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .priors import PRIORS

__all__ = [
    "DEFAULTS",
    "NEXT_TEST_SET_PRIOR",
    "REQUIRED",
    "SHARED_DEFAULTS",
    "TABLE_PRIOR",
    "TRUE_VALUE_PRIOR",
    "EntryDefaults",
    "default_alpha",
]


class _Required:
    """The marker of an argument without a default."""

    def __repr__(self) -> str:
        return "REQUIRED"


#: The default of an argument the caller must give.
REQUIRED = _Required()

#: α of the rates' Beta posteriors for ``target="true_value"`` when ``prior`` is not given
#: (Jeffreys'): the prior whose 95 % intervals came closest to 95 % coverage in
#: ``benchmarks/bench_coverage.py`` (α = 1 covered 81–85 % at N = 30 for an accurate model).
TRUE_VALUE_PRIOR = PRIORS["jeffreys"]
#: α of the paper's beta-binomial for ``target="next_test_set"`` (the uniform prior).
NEXT_TEST_SET_PRIOR = PRIORS["uniform"]
#: α of each row's Dirichlet(row + α) for :func:`~confusionlab.evaluate`'s table metrics (the macro
#: averages, the multi-class MCC) when ``prior`` is not given, for both questions.
TABLE_PRIOR = 0.1

#: The one default of each argument the entry points share.
SHARED_DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {
        "confidence": 0.95,
        "random_state": 0,
        "tolerance": 1e-12,
        "n_resamples": 2000,
        "positive": None,
        "groups": None,
        "data": None,
        "on_undefined": "raise",
        "cluster": None,
    }
)

_BY_QUESTION = MappingProxyType({"true_value": TRUE_VALUE_PRIOR, "next_test_set": NEXT_TEST_SET_PRIOR})
_UNIFORM = MappingProxyType({"true_value": PRIORS["uniform"], "next_test_set": PRIORS["uniform"]})
_NONE: Mapping[str, float] = MappingProxyType({})


@dataclass(frozen=True)
class EntryDefaults:
    """One entry point's defaults.

    Attributes
    ----------
    target : {"true_value", "next_test_set"} or None
        The question its intervals answer when ``target`` is not given; None when it asks
        none of these two (a stability coefficient) or, for a result's method, when it
        answers the question the result was built for.
    prior : str, float or None
        The default of its ``prior`` argument; None when the question chooses it (``alpha``)
        or when it takes no ``prior``.
    alpha : mapping of str to float
        The prior pseudo-count on each rate it uses for each question when ``prior`` is not
        given (for the paired models, ½ on each of the four cells of agreement gives each
        classifier's rate α = 1); empty when no prior enters.
    random_state : int or None
        The default seed of its draws.
    n_draws : int or None
        The default number of Monte Carlo draws (None: chosen from the data, or the
        result's own).
    arguments : mapping of str to object
        The shared arguments whose default differs from :data:`SHARED_DEFAULTS`
        (:data:`REQUIRED` for one without a default).
    """

    target: str | None
    prior: Any = None
    alpha: Mapping[str, float] = field(default_factory=lambda: _NONE)
    random_state: int | None = 0
    n_draws: int | None = None
    arguments: Mapping[str, Any] = field(default_factory=lambda: _NONE)

    def default(self, name: str) -> Any:
        """The default of the argument ``name`` in this entry point's signature."""
        own = {
            "target": self.target,
            "prior": self.prior,
            "random_state": self.random_state,
            "n_draws": self.n_draws,
        }
        if name in self.arguments:
            return self.arguments[name]
        if name in own:
            return own[name]
        return SHARED_DEFAULTS[name]


_DATA = {"data": REQUIRED}
_COEFFICIENT = EntryDefaults(None)

#: Each public entry point's defaults, by its public name (``"bias.report"`` for a subpackage's
#: function, ``"RocCurve.interval"`` for a result's method).
DEFAULTS: Mapping[str, EntryDefaults] = MappingProxyType(
    {
        # -- the practitioner's questions --------------------------------------------------
        "evaluate": EntryDefaults("true_value", alpha=_BY_QUESTION, n_draws=20_000),
        "compare_paired": EntryDefaults("true_value", alpha=_UNIFORM, n_draws=100_000),
        "compare_paired_cells": EntryDefaults("true_value", alpha=_UNIFORM, n_draws=100_000),
        "rank_models": EntryDefaults("true_value", alpha=_UNIFORM, n_draws=100_000),
        "plan_test_size": EntryDefaults("true_value", alpha=_BY_QUESTION),
        "plan_comparison_size": EntryDefaults("true_value", alpha=_UNIFORM),
        "planner.normal_half_width": EntryDefaults("next_test_set", prior=1.0, alpha=_UNIFORM),
        "planner.plan_prior": EntryDefaults(None, arguments={"prior": REQUIRED, "target": REQUIRED}),
        "planner.interval_half_width": EntryDefaults(None, arguments={"confidence": REQUIRED}),
        "bias.plan_group_size": EntryDefaults("true_value", prior="uniform", alpha=_UNIFORM),
        "bias.report": EntryDefaults("true_value", prior="uniform", alpha=_UNIFORM, n_draws=20_000, arguments=_DATA),
        "bias.audit": EntryDefaults("true_value", prior="uniform", alpha=_UNIFORM, arguments=_DATA),
        "bias.report_each_value": EntryDefaults("true_value", prior="uniform", alpha=_UNIFORM, arguments=_DATA),
        "bias.pretraining": EntryDefaults("true_value", prior="uniform", alpha=_UNIFORM, arguments=_DATA),
        "bias.posttraining": EntryDefaults("true_value", prior="uniform", alpha=_UNIFORM, arguments=_DATA),
        "bias.count_table": EntryDefaults(None, arguments=_DATA),
        "roc_curve": EntryDefaults("true_value"),
        "precision_recall_curve": EntryDefaults("true_value"),
        "compare_auc": EntryDefaults("true_value"),
        "calibration": EntryDefaults("true_value", n_draws=10_000),
        "calibration.central_interval": EntryDefaults(None),
        "calibration.sidak_level": EntryDefaults(None, arguments={"confidence": REQUIRED}),
        "evaluate_items": EntryDefaults("true_value"),
        "compare_items": EntryDefaults("true_value"),
        "pass_at_k": EntryDefaults("true_value", alpha=MappingProxyType({"true_value": TRUE_VALUE_PRIOR})),
        "choose_threshold": EntryDefaults("true_value", alpha=_BY_QUESTION),
        # decision/: the decision curve (Dirichlet α on the four cells) and the cost curve
        "decision_curve": EntryDefaults("true_value", alpha=_BY_QUESTION),
        "cost_curve": EntryDefaults("true_value"),
        # -- the paper's object: the next test set's PMF -----------------------------------
        "metric_distribution": EntryDefaults("next_test_set", alpha=_BY_QUESTION, n_draws=20_000),
        # -- stability: agreement between refits, no question of the two -------------------
        "stability.stability": _COEFFICIENT,
        "stability.phi": _COEFFICIENT,
        "stability.psi": _COEFFICIENT,
        "stability.fleiss_kappa": _COEFFICIENT,
        "stability.gwet_ac1": _COEFFICIENT,
        "stability.icc": _COEFFICIENT,
        "stability.krippendorff_alpha": _COEFFICIENT,
        "stability.stability_curve": _COEFFICIENT,
        # -- the results' methods that ask a question or draw --------------------------------
        "MetricDistribution.rvs": EntryDefaults(None, random_state=None),  # scipy's convention: fresh draws
        "RocCurve.interval": EntryDefaults("true_value"),
        "PrecisionRecallCurve.interval": EntryDefaults("true_value"),
        "MulticlassRocCurve.interval": EntryDefaults("true_value"),
        "AucComparison.interval": EntryDefaults("true_value"),
        "GroupedCurves.interval": EntryDefaults("true_value"),
        "GroupedCurves.intervals": EntryDefaults("true_value"),
        "GroupedCurves.gap_intervals": EntryDefaults("true_value"),
        "GroupedAucComparison.interval": EntryDefaults("true_value"),
        "GroupedAucComparison.intervals": EntryDefaults("true_value"),
        "GroupedAucComparison.gap_intervals": EntryDefaults("true_value"),
        "DecisionCurve.interval": EntryDefaults("true_value", alpha=_BY_QUESTION),
        "DecisionCurve.interval_arrays": EntryDefaults("true_value", alpha=_BY_QUESTION),
        "GroupedDecisionCurve.interval": EntryDefaults("true_value", alpha=_BY_QUESTION),
        # None: the result's own seed (from calibration's random_state, 0 by default)
        "Calibration.p_value": EntryDefaults(None, random_state=None),
        "CalibrationSet.p_value": EntryDefaults(None, random_state=None),
        "Calibration.test": EntryDefaults(None, random_state=None),
        "CalibrationSet.test": EntryDefaults(None, random_state=None),
        "ItemComparison.p_value": EntryDefaults(None, n_draws=100_000),
        "ItemComparison.test": EntryDefaults(None, n_draws=100_000),
        "StabilityResult.interval": EntryDefaults(None),
        "BiasMetric.interval": EntryDefaults(None),
        "BiasMetric.mc_error": EntryDefaults(None),
        "BiasMetric.verdict": EntryDefaults(None),
        "BiasMetric.distribution_for": EntryDefaults(None),
        "BiasReport.interval": EntryDefaults(None),
    }
)


def default_alpha(entry: str, target: str) -> float:
    """The prior pseudo-count α on each rate that the entry point ``entry`` uses for the
    question ``target`` when its ``prior`` is not given (:attr:`EntryDefaults.alpha`).

    >>> default_alpha("evaluate", "true_value"), default_alpha("bias.report", "true_value")
    (0.5, 1.0)
    """
    return DEFAULTS[entry].alpha[target]
