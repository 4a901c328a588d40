"""``GroupedResult.overall``: the result on the whole test set, the groups pooled (fairlearn's
``MetricFrame.overall``), for every grouped result whose job can compute it.

Independent sources: the AUC by brute force over every (positive, negative) pair with
``fractions.Fraction`` (ties count ½: Mann–Whitney), and the ECE of uniform bins by hand with
``Fraction`` (Σ_b n_b/N · |mean forecast_b − observed frequency_b|). The calibration's seeded
p-value is compared with the same call without ``groups=`` (what ``overall`` promises).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl

RNG = np.random.default_rng(5)
G = np.repeat(["F", "M", "X"], [40, 30, 30])
Y = RNG.integers(0, 2, 100)
Y[[0, 1, 40, 41, 70, 71]] = [0, 1, 0, 1, 0, 1]  # every group has both classes
A = np.round(RNG.normal(Y * np.where(G == "F", 1.5, 0.5), 1.0), 1)  # rounded: ties between scores
B = np.round(A + RNG.normal(0.0, 0.8, 100), 1)


def _auc(y: np.ndarray, s: np.ndarray) -> Fraction:
    pos, neg = s[y == 1], s[y == 0]
    wins = sum(Fraction(int(p > q)) + Fraction(int(p == q), 2) for p in pos for q in neg)
    return wins / (len(pos) * len(neg))


def test_the_curves_per_group_hold_the_pooled_curve():
    gc = cl.roc_curve(Y, A, groups=G)
    assert gc.overall.value == pytest.approx(float(_auc(Y, A)), abs=1e-12)
    assert isinstance(gc.overall, cl.RocCurve)
    for name in gc.names:  # the members are unchanged: each group's own curve
        rows = G == name
        assert gc.by_group[name] == pytest.approx(float(_auc(Y[rows], A[rows])), abs=1e-12)
    pr = cl.precision_recall_curve(Y, A, groups=G)
    assert pr.overall.value == cl.precision_recall_curve(Y, A).value


def test_the_auc_comparison_per_group_holds_the_pooled_comparison():
    c = cl.compare_auc(Y, A, B, groups=G)
    assert c.overall.value == pytest.approx(float(_auc(Y, A) - _auc(Y, B)), abs=1e-12)
    assert c.overall.p_value() == cl.compare_auc(Y, A, B).p_value()


def test_data_door_gives_the_same_overall():
    df = pd.DataFrame({"y": Y, "a": A, "b": B, "g": G})
    gc = cl.roc_curve("y", "a", groups="g", data=df)
    assert gc.overall.value == pytest.approx(float(_auc(Y, A)), abs=1e-12)
    c = cl.compare_auc("y", "a", "b", groups="g", data=df)
    assert c.overall.value == pytest.approx(float(_auc(Y, A) - _auc(Y, B)), abs=1e-12)


def test_the_calibration_per_group_holds_the_pooled_calibration():
    q = np.tile([0.1, 0.3, 0.6, 0.9], 25)
    g = np.repeat(["u", "v"], 50)
    y = (RNG.random(100) < q).astype(int)
    cs = cl.calibration(y, q, bins=4, strategy="uniform", groups=g, random_state=3)
    by_hand = sum(
        Fraction(int((q == v).sum()), 100) * abs(Fraction(v).limit_denominator(10) - Fraction(int(y[q == v].sum()),
                                                                                             int((q == v).sum())))
        for v in (0.1, 0.3, 0.6, 0.9)
    )  # fmt: skip
    assert cs.overall.value == pytest.approx(float(by_hand), abs=1e-12)
    alone = cl.calibration(y, q, bins=4, strategy="uniform", random_state=3)
    assert cs.overall.p_value() == alone.p_value()
    before = {name: cl.calibration(y[g == name], q[g == name], bins=4, strategy="uniform").value for name in "uv"}
    assert cs.by_group == before


def test_classes_share_their_examples_and_have_no_pooled_member():
    y = np.array([0, 1, 2] * 10)
    p = np.full((30, 3), 1 / 3)
    cs = cl.calibration(y, p, multi_class="classwise", bins=2)
    assert cs.overall is None
