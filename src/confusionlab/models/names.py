"""The uncertainty models' names and the questions they answer, registered once.

Every other module takes the model names (:data:`MODELS`, :data:`SLICE_MODELS`,
:data:`SIMPLEX_MODELS`, :data:`PAIRED_MODELS`) and the questions (:data:`TARGETS`) from here.
"""

from __future__ import annotations

__all__ = ["MODELS", "PAIRED_MODELS", "PAIRED_MODEL_RENAMES", "SIMPLEX_MODELS", "SLICE_MODELS", "TARGETS"]


#: The models of one slice (``p`` and ``n`` fixed): TP and TN independent.
SLICE_MODELS = ("binomial", "beta-binomial")
#: The models over the whole simplex (prevalence uncertain too).
SIMPLEX_MODELS = ("dirichlet-multinomial",)
#: Every model of one confusion matrix; a model name means the same model everywhere.
MODELS = SLICE_MODELS + SIMPLEX_MODELS
#: The models of two classifiers on one test set (:func:`confusionlab.compare_paired`): per
#: class, the four cells of agreement. Each classifier alone is then exactly the slice model
#: of the same name without the prefix (``paired-beta-binomial`` → ``beta-binomial``).
PAIRED_MODELS = ("paired-beta-binomial", "paired-binomial")
#: The paired models' names until 0.1 (they clashed with the models above).
PAIRED_MODEL_RENAMES = {"dirichlet-multinomial": "paired-beta-binomial", "multinomial": "paired-binomial"}
#: The questions an uncertainty answers (``target=``): ``"next_test_set"``, the metric on a new
#: test set of the same size (the posterior predictive), or ``"true_value"``, the metric itself
#: (the posterior of the model's rates).
TARGETS = ("next_test_set", "true_value")
