"""The planner's progress bars (the assurance enumeration, the exact search): silent when off, the
same plan either way."""

from __future__ import annotations

import pytest

import confusionlab as cl
from confusionlab.planner import _assurance

ARGS = {
    "prevalence": 0.3,
    "tpr": 0.8,
    "tnr": 0.9,
    "half_width": 0.15,
    "target": "next_test_set",
    "assurance": 0.8,
}


def test_progress_false_prints_nothing_and_true_gives_the_same_plan(monkeypatch, capsys):
    monkeypatch.setattr(_assurance, "PROGRESS_DELAY", 0.0)
    quiet = cl.plan_test_size("balanced_accuracy", progress=False, **ARGS)
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""
    shown = cl.plan_test_size("balanced_accuracy", progress=True, **ARGS)
    err = capsys.readouterr().err
    assert "assurance at N" in err and "outcomes" in err
    assert (quiet.N, quiet.achieved_assurance, quiet.assurance_error) == (
        shown.N,
        shown.achieved_assurance,
        shown.assurance_error,
    )
    assert quiet.curve == shown.curve


def test_bad_progress_is_refused_by_name():
    with pytest.raises(cl.InvalidParameterError, match="progress"):
        cl.plan_test_size("accuracy", prevalence=0.3, tpr=0.8, tnr=0.9, half_width=0.1, progress=1)


def test_the_exact_search_shows_its_sizes_and_plans_the_same(monkeypatch, capsys):
    """The plain exact search (minutes with method="exact" at ± 0.01) counts the sizes it evaluates."""
    monkeypatch.setattr(_assurance, "PROGRESS_DELAY", 0.0)
    args = {"prevalence": 0.3, "tpr": 0.8, "tnr": 0.9, "half_width": 0.08, "method": "exact"}
    quiet = cl.plan_test_size("mcc", progress=False, **args)
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""
    shown = cl.plan_test_size("mcc", progress=True, **args)
    err = capsys.readouterr().err
    assert "exact search at N" in err and "sizes" in err
    assert (quiet.N, quiet.N_stable, quiet.curve) == (shown.N, shown.N_stable, shown.curve)
