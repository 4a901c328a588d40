"""MetricPMF on the Python side: the data sent is the exact core's distribution."""

from __future__ import annotations

import numpy as np
import pytest
import traitlets
from ipywidgets.widgets.widget import _remove_buffers

import confusionlab as cl
from confusionlab.widgets.metric_pmf import MetricPMF


@pytest.fixture
def widget() -> MetricPMF:
    return MetricPMF(p=20, n=40, tp=16, tn=32, metric="mcc", tolerance=0)


CM = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)


def test_panels_are_the_core_distributions(widget: MetricPMF) -> None:
    assert [panel["model"] for panel in widget._panels] == ["binomial", "beta-binomial"]
    for k, model in enumerate(("binomial", "beta-binomial")):
        d = cl.metric_distribution(CM, "mcc", model, tolerance=0)
        values, probs, mult, distinct = widget.panel_data(k)
        np.testing.assert_array_equal(values, d.values)  # float64: exact values
        np.testing.assert_array_equal(probs, d.probabilities.astype("<f4"))
        np.testing.assert_array_equal(mult, d.multiplicities)
        assert (distinct == 1).all()
        panel = widget._panels[k]
        assert panel["distinct"] == len(d)
        assert panel["mean"] == pytest.approx(d.mean())
        assert panel["std"] == pytest.approx(d.std())
        assert panel["interval"] == pytest.approx(list(d.interval(0.95)))
        assert panel["lattice_points"] == d.lattice_points
        assert not panel["aggregated"]


def test_paper_numbers_reach_the_panel(widget: MetricPMF) -> None:
    """The paper's example (TP = 16, FN = 4, FP = 8, TN = 32, MCC): SD binomial 0.1064,
    beta-binomial 0.1505, and their 95 % intervals, as the paper reports them."""
    binomial, beta = widget._panels
    assert binomial["std"] == pytest.approx(0.1064, abs=5e-5)
    assert beta["std"] == pytest.approx(0.1505, abs=5e-5)
    assert binomial["interval"] == pytest.approx([0.361, 0.782], abs=5e-4)
    assert beta["interval"] == pytest.approx([0.222, 0.811], abs=5e-4)


def test_distinct_values_and_the_jump_from_n_40_to_41() -> None:
    w = MetricPMF(p=20, n=40, tp=16, tn=32, metric="balanced_accuracy", tolerance=0)
    assert [p["distinct"] for p in w._panels] == [81, 81]
    peak40 = float(np.frombuffer(w._probabilities, dtype="<f4")[w._offsets[1] :].max())
    w.n = 41
    assert [p["distinct"] for p in w._panels] == [881, 881]
    peak41 = float(np.frombuffer(w._probabilities, dtype="<f4")[w._offsets[1] :].max())
    assert peak40 == pytest.approx(0.064, abs=0.002)
    assert peak41 == pytest.approx(0.017, abs=0.002)


def test_buffers_travel_as_binary(widget: MetricPMF) -> None:
    state, paths, _ = _remove_buffers(widget.get_state())
    paths = {tuple(p) for p in paths}
    for key in ("_values", "_probabilities", "_multiplicities", "_distinct"):
        assert (key,) in paths and key not in state


def test_domain_covers_the_mass(widget: MetricPMF) -> None:
    lo, hi = widget._domain
    for d in widget.distributions().values():
        inside = (d.values >= lo) & (d.values <= hi)
        assert d.probabilities[inside].sum() >= d.probabilities.sum() - 1e-5


def test_large_pmfs_are_aggregated_but_summaries_stay_exact() -> None:
    w = MetricPMF(p=300, n=600, tp=240, tn=480, metric="mcc", max_values=1000)
    d = w.distributions()["beta-binomial"]
    assert len(d) > 1000
    panel = w._panels[1]
    assert panel["aggregated"] and panel["distinct"] == len(d)
    values, probs, mult, distinct = w.panel_data(1)
    assert values.size <= 100
    assert int(distinct.sum()) == len(d)
    assert int(mult.sum()) == int(d.multiplicities.sum())
    assert float(probs.sum()) == pytest.approx(float(d.probabilities.sum()), rel=1e-5)
    assert np.all(np.diff(values) > 0)
    assert panel["mean"] == pytest.approx(d.mean())


def test_infinite_values_do_not_break_the_domain() -> None:
    w = MetricPMF(p=10, n=10, tp=9, tn=9, metric="lr_plus", max_values=20)
    lo, hi = w._domain
    assert np.isfinite(lo) and np.isfinite(hi) and hi > lo
    assert all(np.isfinite(w.panel_data(k)[1]).all() for k in range(2))


def test_update_is_atomic_and_computes_once(widget: MetricPMF, monkeypatch) -> None:
    calls = []
    original = MetricPMF._refresh
    monkeypatch.setattr(MetricPMF, "_refresh", lambda self, parts: (calls.append(1), original(self, parts)))
    sent = []
    monkeypatch.setattr(widget, "send_state", lambda key=None: sent.append(set(key or ())))
    widget.update(p=30, n=30, tp=24, tn=24, metric="f1", generation=4)
    assert calls == [1] and len(sent) == 1
    assert {"p", "n", "tp", "tn", "metric", "generation", "_values", "_panels"} <= sent[0]
    widget.update(generation=5)
    assert calls == [1]
    with pytest.raises(traitlets.TraitError):
        widget.update(p=5)
    assert widget.p == 30


@pytest.mark.parametrize(
    ("kwargs", "trait"),
    [
        ({"p": 20, "tp": 21}, "tp"),
        ({"metric": "nope"}, "metric"),
        ({"models": ["dirichlet-multinomial"]}, "models"),
        ({"models": []}, "models"),
        ({"mode": "violin"}, "mode"),
        ({"bins": 1}, "bins"),
        ({"confidence": 1.0}, "confidence"),
        ({"width": 50}, "width"),
    ],
)
def test_bad_values_name_the_trait(kwargs: dict, trait: str) -> None:
    with pytest.raises(traitlets.TraitError, match=trait):
        MetricPMF(**kwargs)


def test_one_model_and_confidence() -> None:
    w = MetricPMF(p=20, n=40, tp=16, tn=32, models=["beta-binomial"], confidence=0.5)
    assert len(w._panels) == 1 and w._offsets[0] == 0
    d = w.distributions()["beta-binomial"]
    assert w._panels[0]["interval"] == pytest.approx(list(d.interval(0.5)))


# ---- issue 21: p = n = 10⁵ with MCC took 105 s and 3.7 GB; the refusal named future_size, which it lacks
def test_a_lattice_too_large_is_sampled_with_little_memory() -> None:
    """Issue 21: MCC at p = n = 10⁵ took 105 s and 3.7 GB (and beyond, a refusal). A panel
    beyond EXACT_POINTS lattice points is Monte Carlo of the same model, labelled, within
    a small memory peak; its interval agrees with the normal limit of the counts."""
    import math
    import tracemalloc

    w = MetricPMF(p=20, n=30, tp=16, tn=24, metric="mcc")
    tracemalloc.start()
    try:
        w.update(p=100_000, n=100_000, tp=50_000, tn=50_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 256 * 1024**2
    assert {panel["method"] for panel in w._panels} == {"monte-carlo"}
    for panel in w._panels:
        lo, hi = panel["interval"]
        # MCC = 0 here: its sd is about 1/√N for the plug-in, √2/√N with the rates' uncertainty
        assert -0.02 < lo < 0 < hi < 0.02
        assert panel["mc_error"] < (hi - lo) / 100 and panel["cdf_error"] > 0
    assert (w.p, w.n, w.tp, w.tn) == (100_000, 100_000, 50_000, 50_000)
    assert math.isfinite(w._panels[0]["mean"])
