"""BiasMetric, BiasReport and Audit as results of the one protocol; the DataFrame uses an Audit keeps."""

from __future__ import annotations

import math

import ipywidgets
import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

from confusionlab import InvalidParameterError, bias
from confusionlab.bias.auditing import COLUMNS, Audit

A, D = (300, 100, 40, 500), (60, 40, 10, 150)  # (tp, fn, fp, tn) of facets a and d


@pytest.fixture(scope="module")
def rep() -> bias.BiasReport:
    return bias.report_from_counts(bias.CountTable.from_confusion(a=A, d=D), stage="post", n_draws=1000)


def _data(seed: int = 2, n: int = 3000) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"sex": rng.choice(["F", "M"], n), "race": rng.choice(["a", "b", "c"], n, p=[0.5, 0.4, 0.1])})
    df["y"] = (rng.random(n) < np.where(df.sex == "F", 0.25, 0.45)).astype(int)
    df["p"] = np.where(rng.random(n) < 0.8, df.y, 1 - df.y)
    return df


KW = dict(label="y", positive_values=[1], predicted="p", facets=["sex", "race"], metrics=["DPPL", "DI", "RD"],
          margin=0.1, n_draws=1000)  # fmt: skip


@pytest.fixture(scope="module")
def df() -> pd.DataFrame:
    return _data()


@pytest.fixture(scope="module")
def audited(df) -> Audit:
    return bias.audit(df, **KW)


# ----------------------------------------------------------------------------- BiasMetric, BiasReport
def test_report_value_and_interval_are_its_metrics(rep):
    assert set(rep.value) == set(rep) and set(rep.interval(0.9)) == set(rep)
    for name, m in rep.items():
        if m.value is None:
            assert math.isnan(rep.value[name]) and all(math.isnan(x) for x in rep.interval(0.9)[name])
        else:
            assert rep.value[name] == m.value and rep.interval(0.9)[name] == m.interval(0.9)
    # DPPL by hand: predicted positives (tp + fp) over the facet size, a minus d
    assert rep.value["DPPL"] == pytest.approx((300 + 40) / 940 - (60 + 10) / 260, abs=1e-15)


def test_metric_frame_is_its_row_of_the_report(rep):
    one, row = rep["RD"].to_frame(0.8), rep.to_frame(0.8).loc[["RD"]]
    numbers = ["value", "lower", "upper", "no_bias", "prob_sign_real"]
    pd.testing.assert_frame_equal(one[numbers], row[numbers])
    assert one.loc["RD", "description"] == row.loc["RD", "description"] and one["error"].isna().all()
    with pytest.raises(InvalidParameterError, match="confidence"):
        rep["RD"].to_frame(1.0)


def test_summaries_say_what_the_intervals_say(rep):
    for name in ("DPPL", "DAR"):
        m = rep[name]
        word = "holds" if m.contains_no_bias(0.95) else "excludes"
        assert f"{word} the no-bias value" in m.summary()
    excluded = [k for k, m in rep.items() if m.value is not None and not m.contains_no_bias(0.95)]
    assert f"{len(excluded)} of" in rep.summary() and all(k in rep.summary() for k in excluded)


def test_metric_plot_shows_its_interval_and_no_bias_value(rep):
    from matplotlib.figure import Figure

    m = rep["DI"]
    fig = m.plot(confidence=0.9)
    ax = fig.axes[0]
    lo, hi = m.interval(0.9)
    xs = [line.get_xdata()[0] for line in ax.lines]
    assert m.no_bias in xs and m.value in xs  # the no-bias and the observed lines
    spans = [(p.get_x(), p.get_x() + p.get_width()) for p in ax.patches if hasattr(p, "get_width")]
    assert any(np.allclose(span, [lo, hi]) for span in spans)  # the shaded interval
    own = Figure()
    assert bias.BiasMetric("FT", "Flip Test (FT)", 0.1).plot(ax=own.add_subplot()) is own  # no distribution: text


def test_report_plot_is_the_lessons_forest_plot(rep):
    fig = rep.plot()
    ax = fig.axes[0]
    drawn = [t.get_text() for t in ax.get_yticklabels()]
    assert drawn == [k for k, m in rep.items() if m.value is not None and m.distribution is not None]


def test_views(rep, audited):
    from confusionlab.widgets.audit_view import AuditView
    from confusionlab.widgets.bias_view import BiasView

    assert isinstance(rep.view(), BiasView)
    assert isinstance(rep["DPPL"].view(), ipywidgets.HTML) and "DPPL" in rep["DPPL"].view().value
    assert isinstance(audited.view(), AuditView)


# ----------------------------------------------------------------------------- Audit
def test_audit_value_and_interval_are_its_rows(audited):
    frame = audited.to_frame()
    keys = list(zip(frame.facet, frame.group, frame.metric, strict=True))
    assert list(audited.value) == keys
    assert [audited.value[k] for k in keys] == pytest.approx(frame["value"].tolist(), nan_ok=True)
    assert [audited.interval(0.95)[k] for k in keys] == list(zip(frame.lower, frame.upper, strict=True))


def test_interval_at_another_confidence_is_the_audit_at_that_confidence(df, audited):
    """Joint coverage 0.8: the same intervals, and verdicts, as an audit run at 0.8 from the start."""
    at80 = bias.audit(df, **KW, confidence=0.8)
    assert audited.interval(0.8) == at80.interval(0.8)
    assert at80.level == pytest.approx(1 - 0.2 / len(at80))
    rejudged = audited._judged_at(0.8)
    pd.testing.assert_frame_equal(rejudged.to_frame(), at80.to_frame(), check_exact=True)
    assert audited.to_html(confidence=0.8) == at80.to_html(confidence=0.8)
    assert audited.summary(0.8) == at80.summary(0.8)


def test_unadjusted_audit_keeps_its_rule_at_another_confidence(df):
    plain = bias.audit(df, **KW, simultaneous=False)
    assert plain.interval(0.8) == bias.audit(df, **KW, simultaneous=False, confidence=0.8).interval(0.8)
    assert "not corrected" in plain.to_html()


def test_to_frame_is_a_plain_copy(audited):
    frame = audited.to_frame()
    assert type(frame) is pd.DataFrame and list(frame.columns) == list(COLUMNS)
    frame.loc[0, "verdict"] = "changed"
    assert audited.to_frame().loc[0, "verdict"] != "changed"


def test_the_dataframe_uses_an_audit_keeps(audited):
    frame = audited.to_frame()
    assert len(audited) == len(frame) and list(audited) == list(COLUMNS) and "verdict" in audited
    pd.testing.assert_series_equal(audited["verdict"], frame["verdict"])
    pd.testing.assert_series_equal(audited.verdict, frame.verdict)  # columns as attributes
    pd.testing.assert_frame_equal(audited[["group", "verdict"]], frame[["group", "verdict"]])
    assert list(audited.columns) == list(frame.columns) and audited.shape == frame.shape
    assert audited.loc[2, "metric"] == frame.loc[2, "metric"] and audited.iloc[-1].equals(frame.iloc[-1])
    assert [r.verdict for r in audited.itertuples()] == list(frame.verdict)
    pd.testing.assert_frame_equal(audited.query("metric == 'DI'"), frame.query("metric == 'DI'"))
    grouped = audited.groupby("facet", sort=False).size()
    assert grouped.to_dict() == {"sex": 2 * 3, "race": 3 * 3}
    with pytest.raises(AttributeError, match=r"to_frame\(\)\.pivot_longer"):
        audited.pivot_longer  # noqa: B018 - not a DataFrame: said so
    assert repr(audited) == repr(frame)


def test_row_selection_is_an_audit_with_the_same_attributes(audited):
    part = audited[audited.metric == "DPPL"]
    assert isinstance(part, Audit) and len(part) == 5
    assert part.level == audited.level and part.notes == audited.notes and part.margin == audited.margin
    # its intervals at another confidence still use the whole audit's Bonferroni m
    whole = audited.interval(0.8)
    assert part.interval(0.8) == {k: v for k, v in whole.items() if k[2] == "DPPL"}
    assert "15 verdicts" in part.to_html()  # the page states the whole audit's correction


def test_plot_is_the_verdict_grid(audited):
    from matplotlib.colors import to_hex

    from confusionlab.palette import VERDICT_COLOURS

    ax = audited.plot().axes[0]
    image = ax.images[0].get_array()
    grid = audited.verdict_table()
    assert image.shape[:2] == grid.shape
    for (i, j), verdict in np.ndenumerate(grid.to_numpy()):
        assert to_hex(image[i, j]) == VERDICT_COLOURS[verdict]
    assert [t.get_text() for t in ax.get_xticklabels()] == list(grid.columns)


def test_to_html_refuses_unknown_keywords(audited):
    with pytest.raises(InvalidParameterError, match="unexpected"):
        audited.to_html(colour="red")
