"""bias.audit: rows, Bonferroni-simultaneous intervals equal to the report's, verdicts, one group-by."""

from __future__ import annotations

import importlib
import itertools
import math

import numpy as np
import pandas as pd
import polars as pl
import pytest

from confusionlab import bias
from confusionlab.bias.auditing import AUDIT_METRICS, COLUMNS, Audit, audit

# the module that judges the groups (bias/__init__ exports the function audit)
audit_module = importlib.import_module("confusionlab.bias.auditing._judge")

METRICS = ["CI", "DPL", "DPPL", "DI", "RD", "AD"]


def _data(seed: int = 3) -> pd.DataFrame:
    """600 rows: sex F/M, race a/b/c (c rare, and never M & c), a label and a prediction."""
    rng = np.random.default_rng(seed)
    n = 600
    sex = rng.choice(["F", "M"], n, p=[0.4, 0.6])
    race = rng.choice(["a", "b", "c"], n, p=[0.6, 0.35, 0.05])
    race[(sex == "M") & (race == "c")] = "a"
    y = (rng.random(n) < np.where(sex == "F", 0.3, 0.45)).astype(int)
    p = np.where(rng.random(n) < 0.8, y, 1 - y)
    return pd.DataFrame({"y": y, "p": p, "sex": sex, "race": race})


KW = dict(label="y", positive_values=[1], predicted="p", metrics=METRICS, margin=0.1, n_draws=2000)


@pytest.fixture(scope="module")
def df() -> pd.DataFrame:
    return _data()


@pytest.fixture(scope="module")
def full(df) -> Audit:
    return audit(df, facets=["sex", "race"], intersections=True, **KW)


def test_rows_and_columns(df, full):
    assert list(full.columns) == list(COLUMNS)
    present = sorted(set(zip(df.sex, df.race, strict=True)))
    groups = [("sex", "F"), ("sex", "M"), ("race", "a"), ("race", "b"), ("race", "c")]
    groups += [("sex & race", f"{s} & {r}") for s, r in present]
    expected = [(f, g, m) for f, g in groups for m in METRICS]
    assert list(zip(full.facet, full.group, full.metric, strict=True)) == expected
    assert ("M", "c") not in present
    assert full.notes == ["sex & race: no rows for M & c (skipped)"]
    # group sizes, by pandas
    sizes = full.sizes.set_index(["facet", "group"])
    assert sizes.loc[("race", "c"), "n"] == (df.race == "c").sum()
    assert sizes.loc[("sex & race", "F & b"), "n"] == ((df.sex == "F") & (df.race == "b")).sum()
    assert (sizes["n"] + sizes["n_compared"] == len(df)).all()


def test_intervals_are_the_reports_at_the_bonferroni_level(df, full):
    m = len(full)
    assert full.level == pytest.approx(1 - 0.05 / m, abs=1e-15)
    assert full.confidence == 0.95
    for (facet, group), rows in full.groupby(["facet", "group"], sort=False):
        if facet == "sex & race":
            s, r = group.split(" & ")
            rep = bias.report(df, label="y", positive_values=[1], predicted="p", facet=["sex", "race"],
                              facet_values=[(s, r)], n_draws=2000)  # fmt: skip
        else:
            rep = bias.report(df, label="y", positive_values=[1], predicted="p", facet=facet, facet_values=[group],
                              n_draws=2000)  # fmt: skip
        for row in rows.itertuples():
            metric = rep[row.metric]
            assert row.value == metric.value
            assert (row.lower, row.upper) == metric.interval(full.level, target=full.target)
            assert row.verdict == metric.verdict(0.1, full.level, target=full.target)


def _rule(lo: float, hi: float, v0: float, margin: float) -> str:
    if math.isnan(lo):
        return "insufficient evidence"
    if hi < v0 - margin or lo > v0 + margin:
        return "bias"
    return "no material bias" if v0 - margin <= lo and hi <= v0 + margin else "insufficient evidence"


def test_verdicts_follow_the_rule(full):
    for row in full.itertuples():
        v0 = 1.0 if row.metric == "DI" else 0.0
        assert row.verdict == _rule(row.lower, row.upper, v0, 0.1)
    assert set(full.verdict) <= {"bias", "no material bias", "insufficient evidence"}
    # the rare group (about 30 rows) is never called fair on a rate difference
    rare = full[(full.group == "c") & full.metric.isin(["DPL", "DPPL", "RD", "AD"])]
    assert (rare.verdict != "no material bias").all()


def test_bonferroni_widens_every_interval(df):
    one = audit(df, facets="sex", **KW)
    many = audit(df, facets=["sex", "race"], intersections=True, **KW)
    assert one.level < many.level  # 12 rows, then 60: each interval at a higher level
    a = one.to_frame()
    b = many[many.facet == "sex"].to_frame()
    both = a.merge(b, on=["facet", "group", "metric"], suffixes=("", "_many")).dropna()
    assert len(both) > 0
    assert (both.lower_many <= both.lower).all() and (both.upper_many >= both.upper).all()


def test_unadjusted_rows_for_comparison(df, full):
    plain = audit(df, facets=["sex", "race"], intersections=True, simultaneous=False, **KW)
    assert plain.level == 0.95
    wider = (full.upper - full.lower) >= (plain.upper - plain.lower)
    assert wider[full.lower.notna()].all()
    assert (plain.verdict == "bias").sum() >= (full.verdict == "bias").sum()


def test_one_group_by(df, monkeypatch):
    """The audit counts once, through the engines' one counting call (the report's), on the pandas engine."""
    from confusionlab._tables import narwhals as narwhals_engine
    from confusionlab._tables import pandas as pandas_engine
    from confusionlab.bias import counts as counts_module

    calls, engine_calls = [], []
    original, original_engine = counts_module.count_cells, pandas_engine.count_cells
    monkeypatch.setattr(counts_module, "count_cells", lambda *a, **k: calls.append(a[1]) or original(*a, **k))
    monkeypatch.setattr(
        pandas_engine, "count_cells", lambda *a, **k: engine_calls.append(1) or original_engine(*a, **k)
    )

    def refuse(*args, **kwargs):
        raise AssertionError("a pandas frame is counted by the pandas engine")

    monkeypatch.setattr(narwhals_engine, "count_cells", refuse)
    audit(df, facets=["sex", "race"], intersections=True, **KW)
    assert len(calls) == 1 and engine_calls == [1]
    assert calls[0].facets == ("sex", "race")  # every facet column in the one group-by


def test_reference_group(df):
    a = audit(df, facets=["sex", "race"], reference={"race": "a"}, **KW)
    race = a[a.facet == "race"]
    assert sorted(set(race.group)) == ["b", "c"]  # the reference group gets no row
    sub = df[df.race.isin(["a", "b"])]
    rep = bias.report(sub, label="y", positive_values=[1], predicted="p", facet="race", facet_values=["b"],
                      n_draws=2000)  # fmt: skip
    for row in race[race.group == "b"].itertuples():
        assert row.value == rep[row.metric].value
        assert (row.lower, row.upper) == rep[row.metric].interval(a.level, target=a.target)
    sizes = a.sizes.set_index(["facet", "group"])
    assert sizes.loc[("race", "b"), "n_compared"] == (df.race == "a").sum()
    assert sizes.loc[("sex", "F"), "n_compared"] == (df.sex == "M").sum()  # no reference: one-vs-rest


def test_reference_for_an_intersection(df):
    a = audit(df, facets=["sex", "race"], intersections=True, reference={"sex": "M", "race": "a"}, **KW)
    pairs = a.sizes[a.sizes.facet == "sex & race"].set_index("group")
    assert "M & a" not in pairs.index
    assert (pairs.n_compared == ((df.sex == "M") & (df.race == "a")).sum()).all()


def test_empty_rest_is_insufficient_evidence_not_a_crash():
    d = _data().assign(sex="F")  # a single sex: "F" against nobody
    a = audit(d, facets=["sex", "race"], intersections=True, **KW)
    f = a[a.facet == "sex"]
    assert (f.verdict == "insufficient evidence").all() and f["value"].isna().all()  # .value is the protocol mapping
    assert any("facet a is empty" in n for n in a.notes)


def test_empty_intersections_are_skipped_with_a_note():
    d = pd.DataFrame({"y": [1, 0] * 40, "p": [1, 0] * 40, "s": ["F"] * 40 + ["M"] * 40,
                      "r": ["x"] * 40 + ["y"] * 40})  # fmt: skip
    a = audit(d, facets=["s", "r"], intersections=True, **KW)
    assert sorted(set(a.group[a.facet == "s & r"])) == ["F & x", "M & y"]
    assert "s & r: no rows for F & y, M & x (skipped)" in a.notes


def test_polars_and_pandas_agree(df):
    a = audit(df, facets=["sex", "race"], intersections=True, **KW)
    b = audit(pl.from_pandas(df), facets=["sex", "race"], intersections=True, **KW)
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame())


def test_missing_values_refused_or_dropped(df):
    d = df.copy()
    d["race"] = d["race"].astype(object)
    d.loc[[3, 7], "race"] = None
    with pytest.raises(ValueError, match=r"facets: column 'race' has 2 missing values"):
        audit(d, facets=["sex", "race"], **KW)
    a = audit(d, facets=["sex", "race"], dropna=True, **KW)
    b = audit(d.dropna().reset_index(drop=True), facets=["sex", "race"], **KW)
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame())


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(facets=["sex", "nope"]), "facets: column 'nope'"),
        (dict(facets="sex", margin=-0.1), "margin"),
        (dict(facets="sex", margin=math.nan), "margin"),
        (dict(facets="sex", margin={"DPPL": 0.1}), "margin"),
        (dict(facets="sex", metrics=["GE"]), "metrics"),
        (dict(facets="sex", predicted=None, metrics=["DPPL"]), "predicted"),
        (dict(facets="sex", reference={"sex": "X"}), "reference"),
        (dict(facets="sex", reference={"race": "a"}), "reference"),
        (dict(facets=["sex", "sex"]), "facets"),
        (dict(facets="sex", confidence=1.0), "confidence"),
    ],
)
def test_bad_input(df, kwargs, message):
    with pytest.raises(ValueError, match=message):
        audit(df, **{**KW, **kwargs})


def test_a_margin_of_zero_asks_for_exactly_no_bias(df):
    """The one margin rule (finite, ≥ 0): with margin 0 the band is the no-bias value itself."""
    a = audit(df, facets="sex", **{**KW, "margin": 0})
    assert a.margin == dict.fromkeys(METRICS, 0.0)
    for row in a.itertuples():
        assert row.verdict == _rule(row.lower, row.upper, 1.0 if row.metric == "DI" else 0.0, 0.0)
    assert "no material bias" not in set(a.verdict)  # no interval here is a single point


def test_margin_per_metric(df):
    margins = {"CI": 0.5, "DPL": 0.05, "DPPL": 0.05, "DI": 0.2, "RD": 0.1, "AD": 0.1}
    a = audit(df, facets="sex", **{**KW, "margin": margins})
    assert a.margin == margins
    for row in a.itertuples():
        assert row.verdict == _rule(row.lower, row.upper, 1.0 if row.metric == "DI" else 0.0, margins[row.metric])


def test_default_metrics_judge_treatment_not_size(df):
    """Issue 20 defect 9: without metrics=, no CI (a group's share of the data: nearly every group was
    "bias" on it) and no KL family restating DPL; with predictions DPPL, RD, SD and AD."""
    pre = audit(df, label="y", positive_values=[1], facets="sex", margin=0.1, n_draws=500)
    assert list(dict.fromkeys(pre.metric)) == ["DPL"]
    post = audit(df, label="y", positive_values=[1], predicted="p", facets="sex", margin=0.1, n_draws=500)
    assert list(dict.fromkeys(post.metric)) == ["DPPL", "RD", "SD", "AD"]
    assert "CI" not in set(post.metric)


def test_verdict_table_and_html(full, tmp_path):
    grid = full.verdict_table()
    assert list(grid.columns) == METRICS
    assert grid.loc[("race", "c"), "DPPL"] == full.query("group == 'c' and metric == 'DPPL'").verdict.item()
    path = tmp_path / "audit.html"
    text = full.to_html(path)
    assert path.read_text(encoding="utf-8") == text
    assert text.startswith("<!DOCTYPE html>") and "<script" not in text
    assert f"{full.level:.6g}" in text and "M &amp; c" in text  # the skipped combination is in the notes
    for v in set(full.verdict):
        assert v in text


def test_slices_keep_the_audit_attributes(full):
    part = full[full.metric == "DPPL"]
    assert isinstance(part, Audit)
    assert part.level == full.level and part.notes == full.notes


def test_every_pair_of_three_facets():
    d = _data().assign(age=lambda x: np.where(np.arange(len(x)) % 3 == 0, "old", "young"))
    a = audit(d, facets=["sex", "race", "age"], intersections=True, **{**KW, "metrics": ["DPPL"]})
    assert list(dict.fromkeys(a.facet)) == ["sex", "race", "age", "sex & race", "sex & age", "race & age"]
    n_groups = 2 + 3 + 2 + len(set(zip(d.sex, d.race, strict=True)))
    n_groups += len(set(zip(d.sex, d.age, strict=True))) + len(set(zip(d.race, d.age, strict=True)))
    assert len(a) == n_groups and a.level == pytest.approx(1 - 0.05 / n_groups)
    assert list(itertools.islice(a.group[a.facet == "sex & age"], 1)) == ["F & old"]


@pytest.fixture(scope="module")
def big() -> pd.DataFrame:
    """120,000 rows: label lattices past max_points, so DPL, the KL family, DPPL and DI fall back to draws."""
    rng = np.random.default_rng(8)
    n = 120_000
    sex = rng.choice(["F", "M"], n, p=[0.35, 0.65])
    age = rng.choice(["<25", "25+", "65+"], n, p=[0.2, 0.7, 0.1])
    y = (rng.random(n) < np.where(sex == "F", 0.15, 0.3)).astype(int)
    p = np.where(rng.random(n) < 0.85, y, 1 - y)
    return pd.DataFrame({"y": y, "p": p, "sex": sex, "age": age})


def test_every_metric_shares_its_family_and_still_equals_the_report(big, monkeypatch):
    """All 17 metrics (lattices, shared draws of each family): each row is the report's, serial or threaded."""
    kw = dict(label="y", positive_values=[1], predicted="p", facets=["sex", "age"], intersections=True,
              margin=0.05, n_draws=1000, random_state=5, metrics=list(AUDIT_METRICS))  # fmt: skip
    monkeypatch.setattr(audit_module, "_WORKERS", 1)
    serial = audit(big, **kw)
    monkeypatch.setattr(audit_module, "_WORKERS", 3)
    threaded = audit(big, **kw)
    pd.testing.assert_frame_equal(serial.to_frame(), threaded.to_frame(), check_exact=True)
    assert serial.notes == threaded.notes and serial.sizes.equals(threaded.sizes)
    assert list(dict.fromkeys(serial.metric)) == list(AUDIT_METRICS)
    checked = {("sex", "F"), ("age", "65+"), ("sex & age", "F & 65+")}
    for (facet, group), rows in serial.groupby(["facet", "group"], sort=False):
        if (facet, group) not in checked:
            continue
        cols, values = (["sex", "age"], [tuple(group.split(" & "))]) if " & " in group else (facet, [group])
        rep = bias.report(big, label="y", positive_values=[1], predicted="p", facet=cols, facet_values=values,
                          n_draws=1000, random_state=5)  # fmt: skip
        assert rep["KL"].distribution_for(serial.target).strategy.startswith("monte carlo")  # shared draws
        for row in rows.itertuples():
            assert row.value == rep[row.metric].value
            expected = rep[row.metric].interval(serial.level, target=serial.target)
            assert (row.lower, row.upper) == expected, (group, row.metric)
