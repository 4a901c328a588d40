"""Progress bars of the Monte Carlo table metrics: silent when off, the same draws either way."""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl
from confusionlab.evaluation import _sampling
from confusionlab.evaluation._metrics import table_values

RNG = np.random.default_rng(5)
Y = RNG.integers(0, 3, 120)
P = np.where(RNG.random(120) < 0.8, Y, (Y + 1) % 3)
RUNS = np.stack([np.where(RNG.random(120) < 0.9, P, Y) for _ in range(3)])


def _one_call_reference(table, name, n_draws, rng, target, prior):
    """The sampler drawn in one piece (numpy, as before the progress steps)."""
    k = table.shape[0]
    rows = table.sum(axis=1)
    theta = rng.gamma(table[None] + prior, size=(n_draws, k, k))
    theta /= theta.sum(axis=2, keepdims=True)
    if target == "true_value":
        mats = theta * rows[None, :, None]
    else:
        mats = np.empty_like(theta)
        for i in range(k):
            mats[:, i, :] = rng.multinomial(int(rows[i]), theta[:, i, :])
    return table_values(name, mats)


@pytest.mark.parametrize("target", ["true_value", "next_test_set"])
def test_steps_draw_the_same_numbers_as_one_call(monkeypatch, target):
    monkeypatch.setattr(_sampling, "_CHUNK", 7)  # many steps, one of them partial
    table = np.array([[30, 3, 2], [4, 25, 1], [0, 5, 40]])
    got = _sampling.macro_samples(table, "macro_f1", 250, np.random.default_rng(3), target, 0.5, progress=True)
    ref = _one_call_reference(table, "macro_f1", 250, np.random.default_rng(3), target, 0.5)
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("refits", [None, RUNS])
@pytest.mark.parametrize("target", ["true_value", "next_test_set"])
def test_progress_false_prints_nothing_and_true_gives_the_same_answer(monkeypatch, capsys, refits, target):
    monkeypatch.setattr(_sampling, "PROGRESS_DELAY", 0.0)  # the bar shows at once when asked for
    monkeypatch.setattr(_sampling, "_CHUNK", 1_000)
    kwargs = {"refits": refits, "target": target, "metrics": ["macro_f1"], "n_draws": 6_000}
    quiet = cl.evaluate(Y, P, progress=False, **kwargs).distribution("macro_f1")
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""
    shown = cl.evaluate(Y, P, progress=True, **kwargs).distribution("macro_f1")
    assert "macro_f1" in capsys.readouterr().err  # the bar was drawn (tqdm writes to stderr)
    np.testing.assert_array_equal(quiet.values, shown.values)
    np.testing.assert_array_equal(quiet.probabilities, shown.probabilities)


def test_progress_auto_is_off_when_output_is_captured(capsys):
    cl.evaluate(Y, P, metrics=["macro_f1"], n_draws=2_000).distribution("macro_f1")
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""


def test_bad_progress_is_refused_by_name():
    with pytest.raises(cl.InvalidParameterError, match="progress"):
        cl.evaluate(Y, P, progress="yes")
