"""ConfusionLab's bias report equals smclarify 0.5's, case by case.

The reference JSON was produced by ``tools/smclarify_reference/generate.py``
running smclarify 0.5 in its own environment; these tests never import it.
"""

from __future__ import annotations

import math

import pytest

from confusionlab import bias

from ._reference import cases, counts_frame, load_reference, report_frame, report_kwargs

RTOL, ATOL = 1e-9, 1e-12
REPORT_CASES = cases("report")
COUNT_CASES = cases("counts")
ALL_21 = set(bias.PRETRAINING) | set(bias.POSTTRAINING)


def _same(ours, theirs, where: str) -> None:
    if theirs is None:
        assert ours is None, f"{where}: smclarify failed, we gave {ours!r}"
    elif isinstance(theirs, str):
        assert ours == theirs, f"{where}: {ours!r} != {theirs!r}"
    else:
        assert ours is not None and not isinstance(ours, str), f"{where}: {ours!r} vs {theirs!r}"
        ok = math.isclose(ours, theirs, rel_tol=RTOL, abs_tol=ATOL)
        assert ok, f"{where}: {ours} != {theirs}"


def test_reference_covers_all_21_metrics_and_both_label_kinds():
    ref = load_reference()
    assert ref["versions"]["smclarify"] == "0.5"
    names = set()
    for c in REPORT_CASES:
        for stage in c["smclarify"].values():
            names |= {m["name"] for m in stage[0]["metrics"]}
    assert names == ALL_21
    notes = " ".join(c["name"] for c in ref["cases"])
    for needed in (
        "ternary",
        "numeric_facet",
        "categorical_facet",
        "empty_facet_d",
        "inf_minus_inf",
        "di_both_zero",
        "no_shared_label_value",
    ):
        assert needed in notes


@pytest.mark.parametrize("case", REPORT_CASES, ids=[c["name"] for c in REPORT_CASES])
@pytest.mark.parametrize("stage", ["pre_training", "post_training"])
def test_report_matches_smclarify(case, stage):
    df = report_frame(case)
    kw = report_kwargs(case)
    fn = bias.pretraining if stage == "pre_training" else bias.posttraining
    ours = fn(df, **kw).to_clarify_json()
    theirs = case["smclarify"][stage]
    assert len(ours) == len(theirs) == 1
    assert ours[0]["value_or_threshold"] == theirs[0]["value_or_threshold"]
    om, tm = ours[0]["metrics"], theirs[0]["metrics"]
    assert [m["name"] for m in om] == [m["name"] for m in tm]  # same metrics, sorted by name
    for o, t in zip(om, tm, strict=True):
        where = f"{case['name']}/{t['name']}"
        assert o["description"] == t["description"], where
        _same(o["value"], t["value"], where)
        assert ("error" in o) == ("error" in t), where
        if "error" in o:
            assert o["error"], where


@pytest.mark.parametrize("case", COUNT_CASES, ids=[c["name"] for c in COUNT_CASES])
def test_count_based_metrics_match_smclarify_functions(case):
    df = counts_frame(case)
    kw = dict(
        label="label",
        positive_values=case["positive_values"],
        facet="facet",
        facet_values=[True],
        predicted="pred",
        group="group",
        kl_labels="values" if case["multi_label"] else "binary",
    )
    r = bias.report(df, **kw)
    for name, expected in case["smclarify"].items():
        m = r[name]
        where = f"{case['name']}/{name}"
        exp = expected["value"]
        if isinstance(exp, str):
            exp = math.inf if exp == "Infinity" else -math.inf
        if exp is None:
            assert m.value is None and m.error, f"{where}: smclarify failed, we gave {m.value}"
        else:
            assert m.value is not None, f"{where}: we failed ({m.error}), smclarify gave {exp}"
            assert math.isclose(m.value, exp, rel_tol=RTOL, abs_tol=ATOL), f"{where}: {m.value}"


def test_report_json_writes_infinity_like_clarify():
    case = next(c for c in REPORT_CASES if c["name"] == "no_predicted_positive_in_a")
    out = bias.posttraining(report_frame(case), **report_kwargs(case)).to_clarify_json()
    vals = {m["name"]: m["value"] for m in out[0]["metrics"]}
    assert vals["DI"] == "Infinity" and vals["TE"] == "-Infinity"


ONE_VS_REST = cases("one_vs_rest")


@pytest.mark.parametrize("case", ONE_VS_REST, ids=[c["name"] for c in ONE_VS_REST])
@pytest.mark.parametrize("stage", ["pre_training", "post_training"])
def test_one_vs_rest_matches_smclarify_without_facet_values(case, stage):
    kw = report_kwargs(case)
    kw.pop("facet_values")
    reports = bias.report_each_value(report_frame(case), **kw, stage="pre" if stage == "pre_training" else "post")
    theirs = {r["value_or_threshold"]: r["metrics"] for r in case["smclarify"][stage]}
    assert set(theirs) == {str(v) for v in reports}
    for value, rep in reports.items():
        ours = rep.to_clarify_json()[0]
        assert ours["value_or_threshold"] == str(value)
        for o, t in zip(ours["metrics"], theirs[str(value)], strict=True):
            assert o["name"] == t["name"]
            _same(o["value"], t["value"], f"{value}/{t['name']}")
