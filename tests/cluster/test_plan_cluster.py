"""``plan_test_size(..., icc=, cluster_size=)``: the independent plan times the design effect, by hand."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import confusionlab as cl

GOAL = {"prevalence": 0.5, "tpr": 0.8, "tnr": 0.8, "half_width": 0.1}


@pytest.mark.parametrize(("icc", "size"), [(0.2, 5), (0.0, 4), (0.05, 21), (1.0, 3)])
def test_clustered_plan_is_the_design_effect_times_n_in_whole_clusters(icc, size):
    plain = cl.plan_test_size("recall", **GOAL)
    plan = cl.plan_test_size("recall", **GOAL, icc=icc, cluster_size=size)
    effect = 1 + (size - 1) * Fraction(str(icc))
    clusters = math.ceil(math.ceil(effect * plain.N) / Fraction(size))
    assert plan.N == plain.N and plan.design_effect == pytest.approx(float(effect))
    assert (plan.n_clusters, plan.N_clustered) == (clusters, clusters * size)
    assert "clusters" in plan.summary()


def test_independent_rows_have_no_clustered_plan():
    plan = cl.plan_test_size("recall", **GOAL)
    assert plan.N_clustered is None and plan.n_clusters is None and plan.design_effect == 1.0


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"icc": 0.1}, "cluster_size"),
        ({"cluster_size": 10}, "icc"),
        ({"icc": 1.5, "cluster_size": 10}, "icc"),
        ({"icc": float("nan"), "cluster_size": 10}, "icc"),
        ({"icc": 0.1, "cluster_size": 0.5}, "cluster_size"),
        ({"icc": 0.1, "cluster_size": "10"}, "cluster_size"),
        ({"icc": True, "cluster_size": 10}, "icc"),
    ],
)
def test_bad_cluster_assumptions_are_refused_by_name(kwargs, name):
    with pytest.raises(cl.InvalidParameterError, match=name):
        cl.plan_test_size("recall", **GOAL, **kwargs)
