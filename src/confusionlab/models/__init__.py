"""Uncertainty models for a confusion matrix: what a new test set could show.

* ``binomial`` — the paper's plug-in model: TP ~ Bin(p, TP/p) and
  TN ~ Bin(n, TN/n), independent, ``p`` and ``n`` fixed.
* ``beta-binomial`` — the paper's main model, the posterior predictive of a new
  test set: TP ~ BetaBin(p, TP + α, FN + β), TN ~ BetaBin(n, TN + α, FP + β),
  independent; prior α = β = 1 (uniform) by default, ½ (Jeffreys) as an option.
* ``dirichlet-multinomial`` — prevalence uncertain too (beyond the paper):
  (TP, FN, FP, TN) of a new test set of size N ~ DirMult(N, counts + prior), a
  mass over the whole simplex.

Each model can predict a test set of another size (``future_size``): the slice models
take a total ``N`` (split in the observed proportions) or a pair ``(p, n)``; the
simplex model, whose prevalence is not fixed, takes ``N`` only. Marginal tails
lighter than ``tolerance`` are pruned; the pruned mass is reported.

Each model has one home here: its name and the questions it answers
(:mod:`~confusionlab.models.names`: :data:`MODELS`, :data:`SLICE_MODELS`,
:data:`SIMPLEX_MODELS`, :data:`PAIRED_MODELS`, :data:`TARGETS`), its default priors
(:mod:`~confusionlab.models.priors`), its exact marginals and masses
(:mod:`~confusionlab.models.marginals`, :mod:`~confusionlab.models.slice`,
:mod:`~confusionlab.models.simplex`) and its Monte Carlo draws
(:mod:`~confusionlab.models.draws`, :mod:`~confusionlab.models.paired_draws`); every other
module takes them from here. Every public
entry point's default question, prior and seed are in one table,
:data:`~confusionlab.models.defaults.DEFAULTS` (:mod:`~confusionlab.models.defaults`).
"""

from .defaults import (
    DEFAULTS,
    NEXT_TEST_SET_PRIOR,
    REQUIRED,
    SHARED_DEFAULTS,
    TABLE_PRIOR,
    TRUE_VALUE_PRIOR,
    EntryDefaults,
    default_alpha,
)
from .draws import (
    dirichlet_multinomial_rows,
    dirichlet_rows,
    dirichlet_shares,
    keyed_stream,
    multinomial_rows,
    rate_draws,
    root_seed,
    seedable,
    simplex_draws,
    slice_draws,
)
from .marginals import Marginal, marginal, prune_tails, shared_marginal
from .names import MODELS, PAIRED_MODEL_RENAMES, PAIRED_MODELS, SIMPLEX_MODELS, SLICE_MODELS, TARGETS
from .paired_draws import agreement_counts, agreement_shares, classifier_counts
from .priors import MAX_PRIOR, PRIORS, resolve_prior
from .simplex import SimplexModel, dirichlet_multinomial_logpmf, simplex_model
from .slice import SliceModel, slice_model

__all__ = [
    "DEFAULTS",
    "MAX_PRIOR",
    "MODELS",
    "NEXT_TEST_SET_PRIOR",
    "PAIRED_MODELS",
    "PAIRED_MODEL_RENAMES",
    "PRIORS",
    "REQUIRED",
    "SHARED_DEFAULTS",
    "SIMPLEX_MODELS",
    "SLICE_MODELS",
    "TABLE_PRIOR",
    "TARGETS",
    "TRUE_VALUE_PRIOR",
    "EntryDefaults",
    "Marginal",
    "SimplexModel",
    "SliceModel",
    "agreement_counts",
    "agreement_shares",
    "classifier_counts",
    "default_alpha",
    "dirichlet_multinomial_logpmf",
    "dirichlet_multinomial_rows",
    "dirichlet_rows",
    "dirichlet_shares",
    "keyed_stream",
    "marginal",
    "multinomial_rows",
    "prune_tails",
    "rate_draws",
    "resolve_prior",
    "root_seed",
    "seedable",
    "shared_marginal",
    "simplex_draws",
    "simplex_model",
    "slice_draws",
    "slice_model",
]
