"""Widget refusals found by the capped-child hostile tests (``tests/contract/test_hostile_widgets.py``).

Each test is one reproduction: the value was accepted silently, misread, or refused with an error
that named nothing; now it is refused with :class:`confusionlab.InvalidParameterError` naming the
argument, and nothing changes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl
from confusionlab import bias
from confusionlab.widgets._common import InvalidTraitError


def _roc() -> cl.RocCurve:
    return cl.roc_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])


def test_an_unknown_constructor_argument_is_refused_by_name() -> None:
    """traitlets ignored it (a DeprecationWarning at most): ``RocSlice(metirc="f1")`` drew MCC."""
    with pytest.raises(cl.InvalidParameterError, match="unknown arguments \\['metirc'\\]"):
        cl.RocSlice(p=20, n=40, metirc="f1")
    with pytest.raises(cl.InvalidParameterError, match="unknown arguments \\['x'\\]"):
        cl.RocView(_roc(), slice_options={"x": 1})


def test_the_widgets_own_checks_refuse_with_invalid_parameter_error() -> None:
    """EvaluationView, PairedView and StabilityView refused with a plain traitlets.TraitError (neither
    a ValueError nor the library's error); it is an InvalidTraitError now, a TraitError still."""
    ev = cl.evaluate([1, 0, 1, 0, 1, 0], [1, 0, 0, 0, 1, 1])
    view = cl.EvaluationView(ev)
    for name, value in (("metric", "nope"), ("selected", "nobody")):
        with pytest.raises(InvalidTraitError, match=name):
            setattr(view, name, value)
    paired = cl.PairedView(cl.compare_paired_cells([[10, 3, 1, 6], [2, 4, 1, 13]], "accuracy"))
    for name, value in (("margin", -0.1), ("metric", "f1")):
        with pytest.raises(InvalidTraitError, match=name):
            setattr(paired, name, value)
    stability = cl.StabilityView(n_learners=[10, 20, 40, 80, 160], stability=[0.3, 0.42, 0.56, 0.69, 0.79])
    with pytest.raises(InvalidTraitError, match="stability_target"):
        stability.stability_target = 1.5


def test_integer_traits_refuse_booleans_and_take_numpy_integers() -> None:
    """traitlets' Int took True as 1: ``EvaluationView(least_stable=True)`` listed one object."""
    ev = cl.evaluate([1, 0, 1, 0, 1, 0], refits=[[1, 0, 0, 0, 1, 1], [1, 0, 1, 0, 1, 0]])
    with pytest.raises(cl.InvalidParameterError, match="least_stable"):
        cl.EvaluationView(ev, least_stable=True)
    view = cl.EvaluationView(ev, least_stable=np.int64(3))
    assert view.least_stable == 3 and type(view.least_stable) is int
    with pytest.raises(cl.InvalidParameterError, match="'bins'"):
        cl.MetricPMF().bins = True


def test_an_audit_view_refuses_a_selected_cell_past_its_grid_when_built() -> None:
    """``AuditView(audit, selected=8)`` on an 8-cell grid was accepted and silently reset to -1 (the
    check compared with the grid drawn, still empty in the constructor)."""
    df = pd.DataFrame({"y": [1, 0] * 30, "p": [1, 0] * 30, "sex": ["F", "M", "M"] * 20, "age": list("ab") * 30})
    a = bias.audit(df, label="y", positive_values=[1], predicted="p", facets=["sex", "age"],
                   metrics=["DPPL", "DI"], margin=0.1)  # fmt: skip
    with pytest.raises(cl.InvalidParameterError, match="selected must be -1 or a cell index below 8"):
        cl.AuditView(a, selected=8)
    assert cl.AuditView(a, selected=7).selected == 7


def test_a_bias_view_checks_random_state_without_predictions() -> None:
    """Without predictions there is no cloud to draw, and ``random_state=2.5`` was never looked at."""
    df = pd.DataFrame({"y": [1, 0] * 30, "sex": ["F", "M", "M"] * 20})
    r = bias.report(df, label="y", positive_values=[1], facet="sex", facet_values=["F"], stage="pre", n_draws=500)
    with pytest.raises(cl.InvalidParameterError, match="random_state"):
        cl.BiasView(r, random_state=2.5)


def test_the_explorer_checks_its_plain_arguments() -> None:
    """``simplex_max_n=0`` built a simplex of N = 0 and failed with "N must be between 1 and 300";
    ``simplex_max_n="2"``, ``max_slider_n=None`` and ``quiet="x"`` failed inside int() or float()
    (or an ipywidgets slider), naming nothing."""
    x = cl.Explorer(N=40, p=10, tp=5, tn=20, simplex_max_n=0, scheduler=lambda f: f())
    assert x.simplex.layout.display == "none" and x.slice.n == 30
    for name, value in (("simplex_max_n", "2"), ("simplex_max_n", 301), ("max_slider_n", None), ("quiet", "x"),
                        ("quiet", -1.0), ("scheduler", 3)):  # fmt: skip
        with pytest.raises(cl.InvalidParameterError, match=name):
            cl.Explorer(**{name: value})
    with pytest.raises(cl.InvalidParameterError, match="'N'"):
        cl.Explorer(N=True)


def test_curve_views_check_linked_slice_options_and_nearest_index() -> None:
    """``linked=None`` was read as False and then ignored ``slice_options``; ``slice_options={"p": 3}``
    failed with "got multiple values for keyword argument 'p'"; ``nearest_index(tp="a")`` failed in
    numpy."""
    with pytest.raises(cl.InvalidParameterError, match="linked"):
        cl.RocView(_roc(), linked=None)
    with pytest.raises(cl.InvalidParameterError, match="slice_options"):
        cl.RocView(_roc(), linked=False, slice_options={"metric": "f1"})
    with pytest.raises(cl.InvalidParameterError, match="slice_options holds \\['p'\\]"):
        cl.RocView(_roc(), slice_options={"p": 3})
    view = cl.RocView(_roc())
    with pytest.raises(cl.InvalidParameterError, match="slice_view takes no \\['tn'\\]"):
        view.slice_view(tn=1)
    with pytest.raises(cl.InvalidParameterError, match="tp"):
        view.nearest_index(tp="a", fp=1)
    assert view.nearest_index(tp=np.int64(3), fp=3) == 6


def test_a_stability_view_names_its_arrays_and_n_least() -> None:
    """``stability="s"`` failed with "could not convert string to float: 's'"; ``n_least=2.5`` with
    "slice indices must be integers", ``n_least=True`` listed one object."""
    n = [10, 20, 40, 80, 160]
    for name, value in (("stability", "s"), ("n_learners", [["a"]]), ("per_object", "x"), ("n_least", 2.5),
                        ("n_least", True), ("per_object", [0.5, float("inf")])):  # fmt: skip
        kwargs = {"n_learners": n, "stability": [0.3, 0.42, 0.56, 0.69, 0.79], "per_object": [0.2, 0.9], name: value}
        with pytest.raises(cl.InvalidParameterError, match=name):
            cl.StabilityView(**kwargs)


def test_metric_pmf_panel_data_checks_its_index() -> None:
    """``panel_data(-1)`` returned empty arrays (offsets[-1]:offsets[0]); ``panel_data(2)`` of two
    panels raised IndexError; ``panel_data(True)`` read panel 1."""
    w = cl.MetricPMF(p=10, n=20)
    assert w.panel_data(np.int64(1))[0].size == len(w.distributions()["beta-binomial"])
    for index in (-1, 2, True, "0"):
        with pytest.raises(cl.InvalidParameterError, match="index"):
            w.panel_data(index)


def test_a_simplex_built_with_a_text_among_its_counts_names_it() -> None:
    """``ConfusionSimplex(N=14, observed="1234")`` raised "unsupported operand type(s) for +: 'int' and
    'str'": N's check summed the observed values before their own check refused them."""
    with pytest.raises(cl.InvalidParameterError, match="observed"):
        cl.ConfusionSimplex(N=14, observed="1234")
    with pytest.raises(cl.InvalidParameterError, match="slices"):
        cl.ConfusionSimplex(N=4, slices=["a"])


def test_the_planner_view_refuses_with_invalid_parameter_error() -> None:
    """Its checked numbers and ``from_plan`` refused with a plain traitlets.TraitError (neither a
    ValueError nor the library's error)."""
    with pytest.raises(InvalidTraitError, match="tpr"):
        cl.PlannerView(metric="recall", tpr=1.5, max_size=200)
    with pytest.raises(InvalidTraitError, match="plan must be a TestSizePlan"):
        cl.PlannerView.from_plan(None)
