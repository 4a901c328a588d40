"""Issue 21 (hostile inputs), the evaluation's share: each test fails on the code before the fix
(the reason is in its docstring)."""

from __future__ import annotations

import io
import tracemalloc

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import confusionlab as cl
import confusionlab.models.marginals as models_module
from confusionlab.distribution import mixture_bytes, slice_mixture
from confusionlab.metrics import get_metric
from confusionlab.models import slice_model


def _data(n: int = 200, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, np.where(rng.random(n) < 0.8, y, 1 - y)


def test_a_group_named_all_does_not_shadow_the_whole_test_set():
    """Before: groups were [..., "all", ..., "all"] and sizes("all") / to_frame / the view's last
    panel showed the 61 objects of the group as the whole test set of 200."""
    y, p = _data()
    g = np.array(["all"] * 61 + ["b"] * 139, dtype=object)
    ev = cl.evaluate(y, p, groups=g)
    assert ev.groups == ["all", "b", "all (whole test set)"]
    assert ev.sizes("all")["objects"] == 61
    assert ev.sizes()["objects"] == ev.sizes("all (whole test set)")["objects"] == 200
    frame = ev.to_frame(metrics="f1")
    assert frame["objects"].tolist() == [61, 139, 200]
    panels = ev.view()._panels
    assert [(q["group"], q["objects"]) for q in panels] == [("all", 61), ("b", 139), ("all (whole test set)", 200)]


def test_groups_that_read_the_same_are_refused_not_merged():
    """Before: 1 and "1" were compared as text and merged into one group silently."""
    y, p = _data()
    g = np.array([1] * 100 + ["1"] * 100, dtype=object)
    with pytest.raises(cl.InvalidParameterError, match="groups holds 1 \\(int\\) and '1' \\(str\\)"):
        cl.evaluate(y, p, groups=g)


def test_mixed_group_labels_that_read_differently_stay_apart():
    y, p = _data()
    g = np.array([1] * 50 + ["a"] * 50 + [2.5] * 50 + ["b"] * 50, dtype=object)
    ev = cl.evaluate(y, p, groups=g)
    assert ev.groups[:-1] == [1, 2.5, "a", "b"]
    assert [ev.sizes(name)["objects"] for name in ev.groups[:-1]] == [50, 50, 50, 50]


def test_one_metric_name_is_one_metric():
    """Before: metrics="f1" was iterated by character ("unknown metric 'f'")."""
    y, p = _data()
    ev = cl.evaluate(y, p, metrics="f1")
    assert list(ev.value) == ["f1"]
    assert ev.to_frame(metrics="recall")["metric"].tolist() == ["recall"]


def test_from_predictions_refuses_scores_as_evaluate_does():
    """Before: 202 "distinct labels" and advice about positive=; now the same refusal as evaluate's."""
    y, _ = _data()
    scores = np.random.default_rng(1).random(200)
    for call in (lambda: cl.evaluate(y, scores), lambda: cl.ConfusionMatrix.from_predictions(y, scores)):
        with pytest.raises(cl.InvalidParameterError, match="y_pred holds scores, not labels"):
            call()
    with pytest.raises(cl.InvalidParameterError, match="y_true holds scores"):
        cl.ConfusionMatrix.from_predictions(scores, y)
    # integer-valued floats are labels
    assert cl.ConfusionMatrix.from_predictions(y.astype(float), y).tp == int(y.sum())


@pytest.mark.parametrize(
    "column",
    [
        pd.array([1, 0, None, 1], dtype="Int64"),
        pd.array([True, False, None, True], dtype="boolean"),
        pd.Series(pd.Categorical([1, 0, np.nan, 1])),
        pa.array([1, 0, None, 1]),
    ],
    ids=["Int64", "boolean", "Categorical", "pyarrow"],
)
@pytest.mark.parametrize("where", ["y_true", "y_pred", "groups"])
def test_missing_values_are_refused_by_every_entry_point(column, where):
    """One coding of labels: evaluate (labels, predictions, groups) and from_predictions alike."""
    kw = {"y_true": [1, 0, 1, 1], "y_pred": [1, 0, 0, 1]}
    if where == "groups":
        kw["groups"] = column
    else:
        kw[where] = column
    with pytest.raises(cl.InvalidParameterError, match="missing value"):
        cl.evaluate(**kw)
    if where != "groups":
        with pytest.raises(cl.InvalidParameterError, match="missing value"):
            cl.ConfusionMatrix.from_predictions(kw["y_true"], kw["y_pred"])


def test_a_test_set_with_no_positive_answers():
    """Before: StopIteration (the positive class 1 was looked for among the classes [0])."""
    ev = cl.evaluate([0, 0, 0, 0, 0], [0, 0, 1, 0, 0])
    cm = ev.confusion_matrix()
    assert cm == cl.ConfusionMatrix.from_predictions([0, 0, 0, 0, 0], [0, 0, 1, 0, 0])
    assert (cm.tp, cm.fn, cm.fp, cm.tn) == (0, 0, 1, 4)
    d = ev.distribution("recall")
    assert abs(d.probabilities.sum() + d.pruned_mass - 1) < 1e-9


@pytest.mark.parametrize("name", ["income $50K-$75K", "$\\frac{1}{$"])
def test_group_names_are_text_in_figures_and_pages(name):
    """Before: "$50K-$75K" was typeset as mathtext (italics, dollars gone) and "$\\frac{1}{$"
    crashed the page (matplotlib's mathtext parser)."""
    y, p = _data()
    g = np.array([name] * 100 + ["other"] * 100, dtype=object)
    ev = cl.evaluate(y, p, groups=g)
    page = ev.to_html()
    assert name.replace("<", "&lt;") in page or name in page
    fig = ev.plot()
    fig.savefig(io.BytesIO(), format="png")
    titles = [ax.title for ax in fig.axes] + [ax._left_title for ax in fig.axes]
    shown = [t for t in titles if name in t.get_text()]
    assert shown and all(t._preprocess_math(t.get_text())[1] is False for t in shown)
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    ev.plot(ax)
    labels = [t for t in ax.get_yticklabels() if name in t.get_text()]
    assert labels and all(t._preprocess_math(t.get_text())[1] is False for t in labels)
    plt.close("all")


def test_many_small_groups_share_their_marginals(monkeypatch):
    """200,000 objects × 20 refits × 10,000 groups hung (212 s for one metric's decomposition at
    load 9; 29 s now). The cost was per (group, refit): each built its two marginals and
    threadpoolctl re-read the loaded libraries twice per group. Now a marginal is computed once
    per (count, class size) for all groups and refits: 300 groups of the same composition build
    2 marginals, not 600 (the number before)."""
    rng = np.random.default_rng(3)
    block = rng.integers(0, 2, 20)
    block[:2] = [0, 1]
    y = np.tile(block, 300)
    runs = np.stack([y, np.tile(np.where(np.arange(20) < 3, 1 - block, block), 300)])
    g = np.repeat(np.arange(300), 20)
    models_module._SHARED_MARGINALS.clear()
    calls = []
    real = models_module.marginal
    monkeypatch.setattr(models_module, "marginal", lambda *a, **k: calls.append(a) or real(*a, **k))
    ev = cl.evaluate(y, refits=runs, groups=g, metrics="recall")
    parts = ev.decompose("recall", by_group=True)
    assert len(parts) == 300
    assert len(calls) <= 2 * 2 + 4  # two refits' distinct (TP, p) and (TN, n), and the whole test set's
    # the numbers are those of each group alone
    one = cl.evaluate(y[:20], refits=runs[:, :20], metrics="recall").decompose("recall")
    assert parts[0] == pytest.approx(one, rel=1e-12)


@pytest.mark.parametrize("metric", ["recall", "accuracy", "f1", "mcc", "g_mean", "prevalence_threshold"])
def test_mixture_memory_estimate_covers_the_traced_peak(metric):
    """The mixture priced every metric at the costliest float price + 16 (176 bytes a point,
    refusing lattices that fit); now the metric's own price (lattice_bytes) + what the mixture
    adds, which covers tracemalloc's peak and stays within 2× of it."""
    cms = [cl.ConfusionMatrix(tp=8000 + 50 * i, fn=2000 - 50 * i, fp=1500 + 30 * i, tn=8500 - 30 * i) for i in range(4)]
    sls = [slice_model(cm, "beta-binomial") for cm in cms]
    size_p = max(s.tp_lo + s.tp_pmf.size for s in sls) - min(s.tp_lo for s in sls)
    size_q = max(s.tn_lo + s.tn_pmf.size for s in sls) - min(s.tn_lo for s in sls)
    estimate = mixture_bytes(get_metric(metric), 20_000, size_p, size_q, len(cms))
    tracemalloc.start()
    try:
        slice_mixture(cms, metric)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= estimate <= 2 * peak, (peak, estimate)
