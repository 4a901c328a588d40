"""Names from the user's data are drawn as written in every result's figure and page, never as mathtext.

A group named ``"$x^$"`` stopped the figures and pages of grouped curves, AUC comparisons, grouped
calibration, rankings and audits with matplotlib's mathtext parse error, and ``"income $50K-$75K"``
was drawn in math italics without its dollars. Every result class that takes a name (a group, a
class, a classifier, a facet, a positive label) is built here with such names; its figure must draw,
and each text that shows a name must show it verbatim (mathtext off).
"""

from __future__ import annotations

import html
import importlib
import io
import pkgutil
from collections.abc import Callable

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

import confusionlab as cl
from confusionlab import bias
from confusionlab._result import Result

BAD = "$x^$"  # two dollars around an invalid mathtext expression: a parse error when read as mathtext
MONEY = "income $50K-$75K"  # valid mathtext: drawn in italics, its dollars gone
NAMES = (BAD, MONEY)

for _module in pkgutil.walk_packages(cl.__path__, "confusionlab."):
    if not _module.name.startswith(("confusionlab.lessons", "confusionlab.export")):
        importlib.import_module(_module.name)

_RNG = np.random.default_rng(0)
_N = 400
_Y = _RNG.integers(0, 2, _N)
_S = [_RNG.normal(size=_N) + k * _Y for k in (1.0, 0.6, 0.3)]
_P = [(s > 0.5).astype(int) for s in _S]
_GROUPS = np.where(_RNG.random(_N) < 0.5, BAD, MONEY)
_LABELS = np.where(_Y == 1, BAD, MONEY)


def _frame() -> pd.DataFrame:
    return pd.DataFrame({BAD: _GROUPS, MONEY: np.where(_RNG.random(_N) < 0.5, "a", "b"), "y": _Y, "p": _P[0]})


def _multiclass() -> cl.scores.MulticlassRocCurve:
    y = np.where(_RNG.random(_N) < 0.5, BAD, MONEY).astype(object)
    y[:100] = "c"
    return cl.roc_curve(y, _RNG.dirichlet([1, 1, 1], _N), multi_class="ovr")


def _report() -> bias.BiasReport:
    return bias.report(
        _frame(), label="y", facet=BAD, facet_values=[MONEY], positive_values=[1], predicted="p", n_draws=300
    )


#: Result class -> (a builder that gives it user names, whether a name is drawn in its figure).
CASES: dict[str, tuple[Callable[[], Result], bool]] = {
    "RocCurve": (lambda: cl.roc_curve(_LABELS, _S[0], positive=BAD), False),
    "PrecisionRecallCurve": (lambda: cl.precision_recall_curve(_LABELS, _S[0], positive=BAD), False),
    "GroupedCurves": (lambda: cl.roc_curve(_Y, _S[0], groups=_GROUPS), True),
    "MulticlassRocCurve": (_multiclass, True),
    "AucComparison": (lambda: cl.compare_auc(_Y, {BAD: _S[0], MONEY: _S[1], "c": _S[2]}), True),
    "GroupedAucComparison": (lambda: cl.compare_auc(_Y, {BAD: _S[0], MONEY: _S[1], "c": _S[2]}, groups=_GROUPS), True),
    "Calibration": (
        lambda: cl.calibration(_LABELS, 1 / (1 + np.exp(-_S[0])), positive=BAD, n_resamples=50, n_draws=200),
        False,
    ),
    "CalibrationSet": (
        lambda: cl.calibration(_Y, 1 / (1 + np.exp(-_S[0])), groups=_GROUPS, n_resamples=50, n_draws=200),
        True,
    ),
    "DecisionCurve": (
        lambda: cl.decision_curve(_Y, {BAD: 1 / (1 + np.exp(-_S[0])), MONEY: 1 / (1 + np.exp(-_S[1]))}),
        True,
    ),
    "GroupedDecisionCurve": (
        lambda: cl.decision_curve(_Y, {BAD: 1 / (1 + np.exp(-_S[0]))}, groups=_GROUPS, thresholds=[0.2, 0.4]),
        True,
    ),
    "CostCurve": (lambda: cl.cost_curve(_LABELS, _S[0], positive=BAD), False),
    "ThresholdChoice": (lambda: cl.choose_threshold(_LABELS, _S[0], positive=BAD, cost=(1, 2)), False),
    "GroupedThresholdChoice": (lambda: cl.choose_threshold(_Y, _S[0], groups=_GROUPS, cost=(1, 2)), True),
    "Ranking": (lambda: cl.rank_models(_Y, {BAD: _P[0], MONEY: _P[1], "c": _P[2]}, "accuracy", n_draws=2000), True),
    "PairedComparison": (lambda: cl.compare_paired(_LABELS, _P[0], _P[1], "accuracy", positive=BAD), False),
    "Evaluation": (lambda: cl.evaluate(_Y, _P[0], groups=_GROUPS, refits=np.stack(_P[1:]), metrics=["f1"]), True),
    "BiasReport": (_report, False),
    "ItemEvaluation": (lambda: cl.evaluate_items(_Y, cluster=_GROUPS), False),
    "ItemComparison": (lambda: cl.compare_items(_P[0], _P[1], cluster=_GROUPS), False),
    "PassAtK": (lambda: cl.pass_at_k(_P[0], item=np.where(np.arange(_N) % 2 == 0, BAD, MONEY), k=3), False),
    "BiasMetric": (lambda: _report()["DPPL"], False),
    "Audit": (
        lambda: bias.audit(
            _frame(),
            label="y",
            positive_values=[1],
            predicted="p",
            facets=[BAD, MONEY],
            metrics=["DPPL"],
            margin=0.1,
            n_draws=300,
        ),
        True,
    ),
}
#: Result classes whose inputs hold no name of the user's (counts, metric names, numbers).
WITHOUT_NAMES = {
    "MetricDistribution",
    "RateDistribution",
    "Comparison",
    "TestSizePlan",
    "ComparisonSizePlan",
    "GroupSizePlan",
    "StabilityResult",
    "StabilityCurve",
}


def test_every_result_class_is_built_with_hostile_names_or_takes_none():
    registered = {cls.__name__ for cls in Result.registry}
    assert registered == set(CASES) | WITHOUT_NAMES, sorted(registered ^ (set(CASES) | WITHOUT_NAMES))


def _shown(text: matplotlib.text.Text) -> str:
    """What matplotlib draws for ``text`` when it is not mathtext (the error when it is)."""
    raw = text.get_text()
    if text.get_parse_math() and matplotlib.cbook.is_math_text(raw):
        return f"<mathtext {raw!r}>"
    return raw if not text.get_parse_math() else raw.replace(r"\$", "$")


@pytest.mark.parametrize("name", sorted(CASES))
def test_names_are_drawn_as_written(name):
    build, drawn = CASES[name]
    result = build()
    fig = result.plot()
    fig.savefig(io.BytesIO(), format="png")  # draws every text: mathtext would raise here
    texts = [t for t in fig.findobj(matplotlib.text.Text) if t.get_visible()]
    with_names = [t for t in texts if "50K" in t.get_text() or "x^" in t.get_text()]
    assert all(any(n in _shown(t) for n in NAMES) for t in with_names), [_shown(t) for t in with_names]
    if drawn:
        for n in NAMES:
            assert any(n in _shown(t) for t in with_names), (n, [_shown(t) for t in with_names])
    page = result.to_html()
    assert page.startswith("<!DOCTYPE html>")
    if drawn:
        assert html.escape(MONEY, quote=False) in page or MONEY in page


def test_the_plain_figures_draw_into_a_given_axes_too():
    """Into the caller's axes (``plot(ax)``), the tick labels that hold names are drawn as written."""
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    CASES["AucComparison"][0]().plot(ax)
    ax.figure.savefig(io.BytesIO(), format="png")
    labels = [t for t in ax.get_yticklabels() if "50K" in t.get_text()]
    assert labels and all(MONEY in _shown(t) for t in labels)
