"""Net benefit and net interventions avoided against dcurves 1.1.7 (``dcurves.dca``), run here on its own
example data (``dcurves/data/df_binary.csv``: outcome ``cancer``; ``famhistory`` 0/1 and
``cancerpredmarker`` risks; ``marker`` is not a risk, so dcurves' own logistic conversion,
``models_to_prob=["marker"]``, turns it into one first, and both libraries get those risks)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import dcurves  # installed by make install (without dependency resolution: see the Makefile)
import numpy as np
import pandas as pd
import pytest
from dcurves.risks import _create_risks_df  # dcurves' own conversion of a marker to risks

import confusionlab as cl

DATA = Path(dcurves.__file__).parent / "data" / "df_binary.csv"
MODELS = ["famhistory", "cancerpredmarker", "marker"]


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    df = pd.read_csv(DATA)
    risks = _create_risks_df(data=df.copy(), outcome="cancer", models_to_prob=["marker"])
    return df.assign(marker=risks["marker"].to_numpy())


def _dca(frame: pd.DataFrame, **kw) -> pd.DataFrame:
    return dcurves.dca(data=frame, outcome="cancer", modelnames=MODELS, **kw)


def _ours(frame: pd.DataFrame, **kw) -> cl.DecisionCurve:
    return cl.decision_curve(frame["cancer"].to_numpy(), {m: frame[m].to_numpy() for m in MODELS}, **kw)


def _compare(ref: pd.DataFrame, ours: cl.DecisionCurve) -> None:
    for name in [*MODELS, "all", "none"]:
        rows = ref[ref["model"] == name].sort_values("threshold")
        np.testing.assert_array_equal(rows["threshold"].to_numpy(), ours.thresholds)
        np.testing.assert_allclose(ours.net_benefit[name], rows["net_benefit"].to_numpy(), rtol=0, atol=1e-12)
        nia = rows["net_intervention_avoided"].to_numpy(dtype=float)
        mine = ours.net_intervention_avoided[name]
        finite = np.isfinite(nia)
        np.testing.assert_array_equal(np.isfinite(mine), finite)  # ±inf and NaN at p_t = 0 as dcurves
        np.testing.assert_array_equal(np.isnan(mine), np.isnan(nia))
        np.testing.assert_array_equal(np.sign(mine[np.isinf(mine)]), np.sign(nia[np.isinf(nia)]))
        np.testing.assert_allclose(mine[finite], nia[finite], rtol=0, atol=1e-12)


def test_default_thresholds_equal_dcurves(frame):
    _compare(_dca(frame), _ours(frame))


def test_harm_per_model_equals_dcurves(frame):
    harm = {"famhistory": 0.01, "marker": 0.003}
    _compare(_dca(frame, harm=harm), _ours(frame, harm=harm))


def test_given_prevalence_equals_dcurves(frame):
    _compare(_dca(frame, prevalence=0.3), _ours(frame, prevalence=0.3))


def test_own_thresholds_equal_dcurves(frame):
    t = np.arange(0, 0.45, 0.01)
    _compare(_dca(frame, thresholds=t), _ours(frame, thresholds=t))


def test_frame_has_dcurves_columns_and_values(frame):
    ref = _dca(frame)
    ours = _ours(frame).to_frame()
    columns = list(ref.columns)
    assert list(ours.columns[: len(columns)]) == columns
    for col in ("n", "prevalence", "harm", "test_pos_rate", "tp_rate", "fp_rate", "net_benefit"):
        np.testing.assert_allclose(ours[col].to_numpy(float), ref[col].to_numpy(float), rtol=0, atol=1e-12)
    assert list(ours["model"]) == list(ref["model"])
    assert ours.columns[-1] == "target" and set(ours["target"]) == {_ours(frame).target} == {"true_value"}


def _brute_nb(y: list[int], r: list[Fraction], t: Fraction) -> Fraction:
    """NB with dcurves' boundary rule, in exact fractions: positive iff r ≥ t, but 0 never and 1 always."""
    n = len(y)
    positive = [(ri >= t and ri != 0) or ri == 1 for ri in r]
    tp = sum(1 for yi, pi in zip(y, positive, strict=True) if yi and pi)
    fp = sum(1 for yi, pi in zip(y, positive, strict=True) if not yi and pi)
    return Fraction(tp, n) - Fraction(fp, n) * t / (1 - t)


def test_boundary_rule_brute_force():
    y = [1, 0, 1, 0, 1, 0, 0, 1]
    r = [
        Fraction(0),
        Fraction(0),
        Fraction(1),
        Fraction(1),
        Fraction(1, 2),
        Fraction(1, 4),
        Fraction(1, 2),
        Fraction(0),
    ]
    t = [Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4)]
    dc = cl.decision_curve(y, [float(v) for v in r], thresholds=[float(v) for v in t])
    expected = [float(_brute_nb(y, r, ti)) for ti in t]
    np.testing.assert_allclose(dc.net_benefit["model"], expected, rtol=0, atol=1e-15)
    assert dc.counts["model"].tp.tolist() == [2, 2, 2, 1]  # the positive risk 0 is negative at p_t = 0 too


def test_data_frame_path_equals_arrays(frame):
    ours = _ours(frame)
    counted = cl.decision_curve("cancer", {m: m for m in MODELS}, data=frame)
    for name in [*MODELS, "all", "none"]:
        np.testing.assert_array_equal(counted.net_benefit[name], ours.net_benefit[name])
