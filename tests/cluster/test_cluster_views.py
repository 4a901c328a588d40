"""The views (and figures) of results computed with ``cluster=`` draw the result's own clustered
interval, not an independent-rows one, and say in words that the rows are clustered.

The clustered intervals themselves are checked against their references elsewhere (the paper's
formulas, brute force, a cluster bootstrap: test_evaluate_cluster.py, test_paired_cluster.py,
test_roc_cluster.py); here each view must hand on exactly the result's interval, and must differ
from the independent-rows interval the same data give without ``cluster=``.
"""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl
from confusionlab.widgets.evaluation_view import EvaluationView
from confusionlab.widgets.paired_view import PairedView
from confusionlab.widgets.planner_view import PlannerView
from confusionlab.widgets.roc_view import RocView


def _clustered(seed: int = 0, n_clusters: int = 30, size: int = 8):
    """Clusters whose rows are mostly all right or all wrong (a large design effect)."""
    rng = np.random.default_rng(seed)
    c = np.repeat(np.arange(n_clusters), size)
    y = rng.integers(0, 2, c.size)
    a = np.where(np.repeat(rng.random(n_clusters), size) < 0.7, y, 1 - y)
    b = np.where(rng.random(c.size) < 0.75, y, 1 - y)
    s = y + np.repeat(rng.normal(size=n_clusters), size) + 0.5 * rng.normal(size=c.size)
    return y, a, b, s, c


def test_evaluation_view_shades_the_clustered_interval_and_says_so():
    y, a, _, _, c = _clustered()
    groups = np.where(c % 2 == 0, "even", "odd")
    ev = cl.evaluate(y, a, groups=groups, cluster=c, metrics=["f1", "accuracy"])
    plain = cl.evaluate(y, a, groups=groups, metrics=["f1", "accuracy"])
    frame = ev.to_frame(confidence=0.9).set_index(["group", "metric"])
    w = EvaluationView(ev, metric="accuracy", confidence=0.9)
    for panel, name in zip(w._panels, ev.groups, strict=True):
        lo, hi = ev.interval_of("accuracy", 0.9, group=name)
        assert panel["interval"] == [lo, hi]
        assert (lo, hi) != pytest.approx(plain.interval_of("accuracy", 0.9, group=name))
        row = frame.loc[(str(name), "accuracy")]
        assert panel["total_sd"] == row["std_error"] and panel["n_clusters"] == row["n_clusters"]
        assert panel["interval_method"] == ev.interval_method
    assert "The rows are clustered (30 clusters" in w._question and ev.interval_method in w._question
    assert w._domain[0] <= min(p["interval"][0] for p in w._panels)  # the wider interval shown whole
    assert w._domain[1] >= max(p["interval"][1] for p in w._panels)
    unclustered = EvaluationView(plain, metric="accuracy")
    assert "clustered" not in unclustered._question and "n_clusters" not in unclustered._panels[-1]
    assert unclustered._panels[-1]["interval"] == list(plain.distribution("accuracy").interval(0.95))


def test_paired_view_and_ranking_view_give_the_clustered_verdict_and_say_so():
    y, a, b, _, c = _clustered(1)
    r = cl.compare_paired(y, a, b, "accuracy", cluster=c, n_draws=2000)
    w = PairedView(r, margin=0.01)
    assert w._summary["interval"] == list(r.interval(0.95))
    assert w._summary["verdict"] == r.verdict(0.01, 0.95)
    assert w._summary["n_clusters"] == 30 and w._summary["interval_method"] == r.interval_method
    plain = cl.compare_paired(y, a, b, "accuracy", n_draws=2000)
    assert r.interval(0.95) != pytest.approx(plain.interval(0.95), abs=1e-3)
    assert "The rows are clustered (30 clusters" in w._question
    assert "clustered" not in PairedView(plain)._question and PairedView(plain)._summary["n_clusters"] is None
    ranked = cl.rank_models(y, {"a": a, "b": b}, "accuracy", cluster=c, n_draws=2000).view()
    assert ranked._summary["n_clusters"] == 30 and "The rows are clustered" in ranked._question


def test_roc_view_shows_obuchowskis_interval_and_an_independent_band_named_so():
    y, _, _, s, c = _clustered(2)
    curve = cl.roc_curve(y, s, cluster=c)
    w = RocView(curve, linked=False)
    assert w._summary["interval"] == list(curve.interval(0.95))
    assert w._summary["interval"] != pytest.approx(list(cl.roc_curve(y, s).interval(0.95)))
    assert w._summary["method"].startswith("Obuchowski (1997)") and "30 clusters" in w._summary["method"]
    assert w._summary["band"].endswith("(rows taken as independent)")
    plain = RocView(cl.roc_curve(y, s), linked=False)
    assert plain._summary["band"] == "Campbell's simultaneous band" and curve.n_clusters == 30
    assert cl.roc_curve(y, s).n_clusters is None


def test_planner_view_of_a_clustered_plan_keeps_the_clusters():
    plan = cl.plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1, icc=0.1, cluster_size=10)
    w = PlannerView.from_plan(plan)
    shown = w.plan()
    assert (shown["N"], shown["N_clustered"], shown["n_clusters"]) == (plan.N, plan.N_clustered, plan.n_clusters)
    assert shown["design_effect"] == pytest.approx(1.9)  # 1 + (10 − 1)·0.1, Kish
    assert "plan 230 rows in 23 clusters" in shown["message"]
    w.update(icc=None, cluster_size=None)
    assert "N_clustered" not in w.plan() and "clustered" not in w.plan()["message"]
    with pytest.raises(cl.InvalidParameterError, match="cluster_size"):
        w.icc = 0.2  # one alone is refused, as plan_test_size refuses it; nothing changes
    assert w.icc is None


def test_figures_shade_the_clustered_interval():
    y, a, b, _, c = _clustered(3)
    ev = cl.evaluate(y, a, cluster=c, metrics=["f1"])
    title = ev.plot().axes[0].get_title(loc="left")
    lo, hi = ev.interval_of("f1")
    assert f"[{lo:.3f}, {hi:.3f}]" in title and "clustered interval, 30 clusters" in title
    r = cl.compare_paired(y, a, b, "accuracy", cluster=c, n_draws=2000)
    ax = r.plot().axes[0]
    assert "95 % interval (clustered, 30 clusters)" in [t.get_text() for t in ax.get_legend().get_texts()]
    span = ax.patches[0].get_extents()  # display coordinates: map the interval's ends the same way
    ends = ax.transData.transform([(v, 0) for v in r.interval(0.95)])[:, 0]
    assert span.x0 == pytest.approx(ends[0], abs=1e-6) and span.x1 == pytest.approx(ends[1], abs=1e-6)
