"""The ranking's runner-up: classifiers tied at P(best) (often 0) are ordered by expected rank.

Before, ``rank_models(...).summary()`` named as "next" whichever tied classifier was given first,
and the bar chart drew them in that order, although ``to_frame()`` (sorted by expected rank) listed
another second."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

import confusionlab as cl

N = 3000


def predictions() -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Accuracies 0.95 (GB) > 0.85 (RF) > 0.75 (LR), each exactly, on 3,000 examples: GB is best with
    P(best) = 1 in every draw, and RF is second in every draw (its accuracy is 0.10 above LR's)."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, N)
    out = {}
    for name, accuracy in (("LR", 0.75), ("RF", 0.85), ("GB", 0.95)):
        wrong = rng.permutation(N) < round((1 - accuracy) * N)
        out[name] = np.where(wrong, 1 - y, y)
    return y, out


@pytest.mark.parametrize("target", ["true_value", "next_test_set"])
def test_the_runner_up_is_the_second_by_expected_rank(target):
    y, preds = predictions()
    r = cl.rank_models(y, preds, "accuracy", target=target, n_draws=4000)
    assert r.observed == pytest.approx({"LR": 0.75, "RF": 0.85, "GB": 0.95})
    assert r.prob_best == {"GB": 1.0, "LR": 0.0, "RF": 0.0}  # a tie at 0 between LR (given first) and RF
    assert r.expected_rank["RF"] == pytest.approx(2.0) and r.expected_rank["LR"] == pytest.approx(3.0)
    assert r.best == "GB"
    assert "next 'RF'" in r.summary()
    assert list(r.to_frame().index) == ["GB", "RF", "LR"]
    ax = Figure().add_subplot()
    r.plot(ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["GB", "RF", "LR"]


def test_docstrings_name_the_question_of_either_target():
    assert "true value" in cl.paired.Ranking.value.__doc__
    assert "true value" in cl.PairedComparison.interval.__doc__
