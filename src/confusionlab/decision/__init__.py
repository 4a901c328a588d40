"""The decision: which threshold, at what cost, and how sure.

A classifier's scores become decisions at a threshold. :func:`choose_threshold` picks it on a
test set — by an expected cost, by a metric, under constraints — and says how sure that choice
is although it was made on the same data: an interval valid after selection, the set of
thresholds that could be the best, and the probability that each constraint holds.
:func:`decision_curve` (decision curve analysis, Vickers & Elkin 2006) returns a
:class:`DecisionCurve`: net benefit and net interventions avoided over threshold probabilities
as ``dcurves.dca`` computes them, with the Dirichlet posterior of the four cells (P(useful),
P(better than treating all), P(best), EVPI, pointwise intervals) and a band simultaneous over
the thresholds from Campbell's ROC band. :func:`cost_curve` is Drummond & Holte's cost curve
with its band.

One module per idea:

=====================  ======================================================================
``_candidates``        the candidate thresholds (every distinct score and "none positive")
                       and their confusion counts, from the tie blocks
``_objective``         what is optimised (cost or a monotone metric), its exact bounds over a
                       box of rates, the tie rule
``_constraint``        ``subject_to``: which candidates meet it, its exact Beta tails
``_selection``         the band simultaneous over every threshold, the plausible thresholds
``_pointwise``         the posterior interval at a threshold fixed in advance
``_roc_band``          the ROC band the selection band stands on (the view draws it)
``_estimator``         the scores of a fitted scikit-learn classifier
``_choice``            :func:`choose_threshold` (its checks at the boundary)
``_choice_result``     :class:`ThresholdChoice`
``_grouped_choice``    :class:`GroupedThresholdChoice` (a threshold per group)
``_counts``            each model's counts at the threshold probabilities (dcurves' boundary rule)
``_net_benefit``       net benefit and net interventions avoided, dcurves' arithmetic
``_posterior``         net benefit's posterior: Beta tails, quadrature, P(best), EVPI
``_next_test_set``     the next test set's net benefit: its exact PMF on the lattice
``_band``              the decision curve's band simultaneous over the thresholds
``_curve``             :func:`decision_curve` (its checks at the boundary)
``_result``            :class:`DecisionCurve`; ``_groups``: :class:`GroupedDecisionCurve`
``_cost``              the cost curve's envelope; ``_cost_result``: :func:`cost_curve`, :class:`CostCurve`
``_checks``            the job's argument checks; ``_options``: the checked options;
                       ``_data``: ``data=``
=====================  ======================================================================
"""

# -- threshold choice --------------------------------------------------------------------------
# -- decision curve, cost curve ----------------------------------------------------------------
from ._band import DecisionBand
from ._choice import choose_threshold
from ._choice_result import ThresholdChoice
from ._cost_result import CostCurve, cost_curve
from ._curve import decision_curve
from ._grouped_choice import GroupedThresholdChoice
from ._groups import GroupedDecisionCurve
from ._result import DecisionCurve

__all__ = [
    "CostCurve",
    "DecisionBand",
    "DecisionCurve",
    "GroupedDecisionCurve",
    "GroupedThresholdChoice",
    "ThresholdChoice",
    "choose_threshold",
    "cost_curve",
    "decision_curve",
]
