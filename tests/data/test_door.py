"""Every keyword of a job's public function reaches its ``data=`` path: each is either a column
argument handed to the job's door or a field of the one checked options object that the door and
``from_counts`` receive whole (a keyword spelled out twice could be dropped on one path, as
``rank_models(data=)`` once dropped ``method=``)."""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl
from confusionlab._tables import Door
from confusionlab.calibration import _options as calibration_options
from confusionlab.evaluation import _options as evaluation_options
from confusionlab.paired import _options as paired_options
from confusionlab.scores import _options as scores_options

FRAME = pd.DataFrame({"y": [0, 1] * 10, "p": [0, 1, 1, 1] * 5, "s": np.linspace(0, 1, 20), "g": ["u", "v"] * 10})

#: Per job: the public function, its column arguments, a value other than the default for every
#: other keyword, and the job's options check. Keywords that an options field holds under another
#: name are mapped in ``renamed``.
JOBS = {
    "evaluate": (
        cl.evaluate,
        {"y_true": "y", "y_pred": "p", "groups": "g", "refits": None, "cluster": None},
        {"positive": 1, "model": "binomial", "method": "monte-carlo", "metrics": ["f1"], "target": "next_test_set",
         "tolerance": 1e-9, "prior": 0.3, "n_draws": 123, "random_state": 5, "min_class_size": 3, "progress": False},
        evaluation_options.check_options,
        {"random_state": "rng"},
    ),
    "compare_paired": (
        cl.compare_paired,
        {"y_true": "y", "pred_a": "p", "pred_b": "y", "cluster": None},
        {"metric": "f1", "model": "paired-binomial", "tolerance": 1e-9, "future_size": 50, "positive": 1,
         "undefined": 0.5, "method": "monte-carlo", "n_draws": 123, "random_state": 5, "target": "next_test_set"},
        lambda **kw: paired_options.check_options(**kw, stacklevel=1),
        {},
    ),
    "rank_models": (
        cl.rank_models,
        {"y_true": "y", "predictions": {"a": "p", "b": "y"}, "cluster": None},
        {"metric": "f1", "model": "paired-binomial", "tolerance": 1e-9, "future_size": 50, "positive": 1,
         "undefined": 0.5, "n_draws": 123, "random_state": 5, "target": "next_test_set", "method": "monte-carlo",
         "progress": False},
        lambda **kw: paired_options.check_options(**kw, stacklevel=1),
        {},
    ),
    "roc_curve": (
        cl.roc_curve,
        {"y_true": "y", "y_score": "s", "groups": "g", "cluster": "g"},
        {"positive": 1, "multi_class": "ovr", "score_bins": 20},
        scores_options.check_options,
        {},
    ),
    "precision_recall_curve": (
        cl.precision_recall_curve,
        {"y_true": "y", "y_score": "s", "groups": "g"},
        {"positive": 1, "score_bins": 20},
        scores_options.check_options,
        {},
    ),
    "compare_auc": (
        cl.compare_auc,
        {"y_true": "y", "score_a": "s", "score_b": "p", "groups": "g"},
        {"positive": 1, "score_bins": 20},
        scores_options.check_options,
        {},
    ),
    "calibration": (
        cl.calibration,
        {"y_true": "y", "y_prob": "s", "groups": "g"},
        {"bins": 7, "strategy": "uniform", "positive": 1, "n_resamples": 50, "n_draws": 60, "random_state": 5,
         "multi_class": "classwise", "classes": [0, 1]},
        calibration_options.check_options,
        {},
    ),
}  # fmt: skip


class _Opened(Exception):
    """Raised by the recording door: the call reached it."""


def _same(a, b) -> bool:
    if isinstance(a, np.random.Generator):
        return a.bit_generator.state == b.bit_generator.state
    return a == b


@pytest.mark.parametrize("job", list(JOBS))
def test_every_keyword_reaches_the_data_path(job, monkeypatch):
    function, columns, options, check, renamed = JOBS[job]
    keywords = set(inspect.signature(function).parameters) - {"data"}
    assert keywords == set(columns) | set(options), "give each keyword of the signature its place in JOBS"

    seen = {}

    def recording_door(self, data, checked, **given):
        seen.update(options=checked, given=given)
        raise _Opened

    monkeypatch.setattr(Door, "__call__", recording_door)
    with pytest.raises(_Opened):
        function(**columns, **options, data=FRAME)

    assert seen["given"] == columns  # every column argument reaches the door
    expected = check(**options)
    fields = {f.name for f in dataclasses.fields(expected)}
    for name in options:
        field = renamed.get(name, name)
        assert field in fields, f"{job}: {name}= is not a field of its options object"
        assert _same(getattr(seen["options"], field), getattr(expected, field)), f"{job}: {name}= is lost"
    for field in fields:  # and the derived ones too: the same object as the array path's
        assert _same(getattr(seen["options"], field), getattr(expected, field)), f"{job}: options.{field}"
