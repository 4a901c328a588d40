"""The decision: net benefit over threshold probabilities, cost curves, and how sure each is.

:func:`decision_curve` (decision curve analysis, Vickers & Elkin 2006) returns a
:class:`DecisionCurve`: net benefit and net interventions avoided as ``dcurves.dca`` computes
them, with the Dirichlet posterior of the four cells (P(useful), P(better than treating all),
P(best), EVPI, pointwise intervals) and a band simultaneous over the thresholds from Campbell's
ROC band. :func:`cost_curve` is Drummond & Holte's cost curve with its band.

One module per idea. The decision curve: ``_checks`` (arguments), ``_options`` (the frozen
options), ``_data`` (the ``data=`` door), ``_counts`` (counts at the thresholds), ``_net_benefit``
(dcurves' arithmetic), ``_posterior`` (Beta tails, quadrature, P(best), EVPI), ``_next_test_set``
(the lattice PMF), ``_band`` (the simultaneous band), ``_result`` (:class:`DecisionCurve`),
``_groups`` (:class:`GroupedDecisionCurve`), ``_curve`` (the function). The cost curve:
``_cost`` (the envelope and its band) and ``_cost_result`` (:class:`CostCurve`).
"""

# ----------------------------------------------------------------------------- decision curve, cost curve
from ._band import DecisionBand
from ._cost_result import CostCurve, cost_curve
from ._curve import decision_curve
from ._groups import GroupedDecisionCurve
from ._result import DecisionCurve

__all__ = [
    "CostCurve",
    "DecisionBand",
    "DecisionCurve",
    "GroupedDecisionCurve",
    "cost_curve",
    "decision_curve",
]
