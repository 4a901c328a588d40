"""The UCI Adult numbers of the AWS blog post on Clarify's bias metrics (facet = sex, d = Female)."""

from __future__ import annotations

import pytest

from confusionlab import bias
from confusionlab.datasets import load_adult

KW = dict(label="income", positive_values=[">50K"], facet="sex", facet_values=["Female"])


@pytest.fixture(scope="module")
def adult():
    return load_adult()


def test_pretraining_without_missing_rows(adult):
    df = adult.dropna()
    assert len(df) == 30162
    assert (df.sex == "Male").sum() == 20380 and (df.sex == "Female").sum() == 9782
    r = bias.pretraining(df, **KW)
    expected = {
        "CI": 0.351369,
        "DPL": 0.200159,
        "KL": 0.143069,
        "JS": 0.030756,
        "LP": 0.283067,
        "TVD": 0.200159,
        "KS": 0.200159,
    }
    for name, value in expected.items():  # published to 6 decimals
        assert r[name].value == pytest.approx(value, abs=5e-7), name


def test_pretraining_on_all_rows(adult):
    assert len(adult) == 32561
    r = bias.pretraining(adult, **KW)
    expected = {"CI": 0.338411, "DPL": 0.196276, "KL": 0.141185, "JS": 0.030241, "LP": 0.277576}
    for name, value in expected.items():
        assert r[name].value == pytest.approx(value, abs=5e-7), name


@pytest.fixture(scope="module")
def back_solved():
    # confusion matrices that reproduce the blog's figures (its XGBoost model is not public):
    # Male (a) TP 2718, FP 84, FN 3678, TN 13900; Female (d) TP 433, FP 10, FN 679, TN 8660,
    # given in the library's order (tp, fn, fp, tn)
    t = bias.CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))
    return bias.report_from_counts(t, n_draws=4000)


@pytest.mark.parametrize(
    ("name", "value", "tol"),
    [
        ("DPPL", 0.0922, 5e-5),
        ("DI", 0.3294, 5e-5),
        ("SD", 0.0049, 5e-5),
        ("DRR", 0.1365, 5e-5),
        ("TE", 24.1143, 5e-5),
        # published to 3 decimals (AD -0.115 is the blog's rounding of -0.1142)
        ("RD", 0.036, 5e-4),
        ("DAR", -0.007, 5e-4),
        ("DCA", -0.227, 1e-3),
        ("DCR", 0.132, 1e-3),
        ("AD", -0.115, 1e-3),
    ],
)
def test_post_training_from_back_solved_matrices(back_solved, name, value, tol):
    assert back_solved[name].value == pytest.approx(value, abs=tol)


def test_back_solved_intervals_are_reported_and_bracket_the_value(back_solved):
    for name in ("DPPL", "DI", "AD", "RD", "DAR", "DCA", "TE"):
        m = back_solved[name]
        lo, hi = m.interval(0.95)
        assert lo < m.value < hi, name
    # DPPL = 0.09 at these facet sizes is clearly real; DAR = -0.007 is not
    assert back_solved["DPPL"].prob_sign_real > 0.999
    assert back_solved["DAR"].contains_no_bias(0.95)
