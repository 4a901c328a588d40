"""The decision: which threshold, at what cost, and how sure.

A classifier's scores become decisions at a threshold. :func:`choose_threshold` picks it on a
test set — by an expected cost, by a metric, under constraints — and says how sure that choice
is although it was made on the same data: an interval valid after selection, the set of
thresholds that could be the best, and the probability that each constraint holds.

One module per idea:

=====================  ======================================================================
``_candidates``        the candidate thresholds (every distinct score and "none positive")
                       and their confusion counts, from the tie blocks
``_objective``         what is optimised (cost or a monotone metric), its exact bounds over a
                       box of rates, the tie rule
``_constraint``        ``subject_to``: which candidates meet it, its exact Beta tails
``_selection``         the band simultaneous over every threshold, the plausible thresholds
``_pointwise``         the posterior interval at a threshold fixed in advance
``_estimator``         the scores of a fitted scikit-learn classifier
``_choice``            :func:`choose_threshold` (its checks at the boundary)
``_choice_result``     :class:`ThresholdChoice`
``_grouped_choice``    :class:`GroupedThresholdChoice` (a threshold per group)
``_checks``            the job's argument checks; ``_options``: the checked options;
                       ``_data``: ``data=``
=====================  ======================================================================
"""

# -- threshold choice --------------------------------------------------------------------------
from ._choice import choose_threshold
from ._choice_result import ThresholdChoice
from ._grouped_choice import GroupedThresholdChoice

__all__ = [
    "GroupedThresholdChoice",
    "ThresholdChoice",
    "choose_threshold",
]
