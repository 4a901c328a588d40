"""Every entry point reads its default prior from the one table, ``models.defaults.DEFAULTS``.

Each test changes the table's α for one entry point and question (``monkeypatch``) and checks
that the entry point's default answer becomes its answer under that prior given explicitly,
and differs from the answer of the table as shipped: an entry point with its own hard-coded
prior fails. No expected number comes from the code under test: only equalities between two
paths of it.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import pytest

import confusionlab as cl
from confusionlab.models import defaults
from confusionlab.paired._model import cell_prior
from confusionlab.planner import plan_prior

CM = cl.ConfusionMatrix(tp=18, fn=2, fp=4, tn=16)
Y_TRUE = np.array([1] * 20 + [0] * 20)
Y_PRED = np.array([1] * 18 + [0] * 2 + [1] * 4 + [0] * 16)


def _with_alpha(monkeypatch: pytest.MonkeyPatch, entry: str, target: str, alpha: float) -> None:
    row = defaults.DEFAULTS[entry]
    changed = dict(defaults.DEFAULTS)
    changed[entry] = defaults.EntryDefaults(
        row.target, row.prior, MappingProxyType({**row.alpha, target: alpha}), row.random_state, row.n_draws,
        row.arguments,
    )  # fmt: skip
    monkeypatch.setattr(defaults, "DEFAULTS", MappingProxyType(changed))


@pytest.mark.parametrize("target", ["true_value", "next_test_set"])
def test_metric_distribution_and_evaluate_read_the_table(monkeypatch, target):
    shipped = cl.metric_distribution(CM, "f1", target=target).interval()
    given = cl.metric_distribution(CM, "f1", target=target, prior=3.0).interval()
    e_given = cl.evaluate(Y_TRUE, Y_PRED, metrics=["f1"], target=target, prior=3.0).interval_of("f1")
    _with_alpha(monkeypatch, "metric_distribution", target, 3.0)
    _with_alpha(monkeypatch, "evaluate", target, 3.0)
    assert cl.metric_distribution(CM, "f1", target=target).interval() == given != shipped
    assert cl.evaluate(Y_TRUE, Y_PRED, metrics=["f1"], target=target).interval_of("f1") == e_given


@pytest.mark.parametrize("target", ["true_value", "next_test_set"])
def test_the_planner_reads_the_table(monkeypatch, target):
    assert plan_prior(None, target) == defaults.DEFAULTS["plan_test_size"].alpha[target]
    _with_alpha(monkeypatch, "plan_test_size", target, 2.5)
    assert plan_prior(None, target) == 2.5


def test_the_paired_cells_split_the_rate_prior_of_the_table(monkeypatch):
    # each rate is 2**(k − 1) of the 2**k cells: α = 1 per rate gives ½ per cell of a pair, ¼ of three
    assert cell_prior("true_value") == 0.5
    assert cell_prior("next_test_set", 3, "rank_models") == 0.25
    y = np.array([1] * 12 + [0] * 12)
    a = np.array([1] * 10 + [0] * 2 + [0] * 9 + [1] * 3)
    b = np.array([1] * 8 + [0] * 4 + [0] * 11 + [1] * 1)
    shipped = cl.compare_paired(y, a, b, "accuracy", method="monte-carlo", n_draws=4000).prob_greater
    ranked = cl.rank_models(y, {"a": a, "b": b}, "accuracy", n_draws=4000).prob_best
    _with_alpha(monkeypatch, "compare_paired", "true_value", 8.0)
    _with_alpha(monkeypatch, "rank_models", "true_value", 8.0)
    assert cell_prior("true_value") == 4.0
    assert cl.compare_paired(y, a, b, "accuracy", method="monte-carlo", n_draws=4000).prob_greater != shipped
    assert cl.rank_models(y, {"a": a, "b": b}, "accuracy", n_draws=4000).prob_best != ranked


def test_pass_at_k_reads_the_table(monkeypatch):
    correct, item = [1, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0], [1] * 4 + [2] * 4 + [3] * 4
    given = cl.pass_at_k(correct, item=item, k=2, prior=3.0).per_item["bayes_mean"].tolist()
    shipped = cl.pass_at_k(correct, item=item, k=2).per_item["bayes_mean"].tolist()
    _with_alpha(monkeypatch, "pass_at_k", "true_value", 3.0)
    assert cl.pass_at_k(correct, item=item, k=2).per_item["bayes_mean"].tolist() == given != shipped
