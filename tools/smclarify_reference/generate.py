"""Generate smclarify 0.5 reference values for ``tests/bias``.

This script imports ``smclarify`` and therefore runs ONLY in its own virtual
environment, never in ConfusionLab's::

    python3.11 -m venv /work/smclarify-venv
    /work/smclarify-venv/bin/pip install smclarify==0.5 "pandas==2.0.*" \
        "numpy==1.26.*" "scikit-learn==1.4.*"
    /work/smclarify-venv/bin/python tools/smclarify_reference/generate.py

It writes ``tests/bias/data/smclarify_reference.json``. Every input dataset is
stored in the JSON itself (column by column), so the tests rebuild exactly the
same data without smclarify and compare ConfusionLab's numbers with the ones
smclarify produced here.

Two kinds of case are written:

``report``
    a dataset run through ``smclarify.bias.report.bias_report`` (pre-training
    and post-training stages), the output stored verbatim (nulls, error text,
    ``"Infinity"``).
``counts``
    per-facet confusion counts expanded to rows and passed to smclarify's metric
    functions directly, for the B4 edge cases that ``bias_report`` cannot reach
    (for instance no predicted positives at all, which aborts its report), and
    for the KL family on multi-valued labels (``bias_report`` always passes the
    binarised label to them).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import sklearn
import smclarify
from smclarify.bias import metrics as M
from smclarify.bias.metrics.common import DataType, series_datatype
from smclarify.bias.report import FacetColumn, LabelColumn, StageType, bias_report

OUT = Path(__file__).resolve().parents[2] / "tests" / "bias" / "data" / "smclarify_reference.json"
N_FEATURES = 3


def _jsonable(x):
    if isinstance(x, float) and math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if isinstance(x, float) and math.isnan(x):
        return "NaN"
    if isinstance(x, (np.floating,)):
        return _jsonable(float(x))
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.bool_,)):
        return bool(x)
    return x


def _column(s: pd.Series) -> list:
    return [_jsonable(v.item() if hasattr(v, "item") else v) for v in s.tolist()]


def _features(rng: np.random.Generator, n: int, shift: np.ndarray) -> pd.DataFrame:
    # continuous features without ties, so exact k-NN has a unique answer
    x = rng.normal(size=(n, N_FEATURES)) + shift[:, None] * np.array([0.8, -0.5, 0.3])
    return pd.DataFrame({f"x{i}": x[:, i].round(6) for i in range(N_FEATURES)})


def dataset(
    seed: int,
    n: int,
    *,
    facet_kind: str,
    label_kind: str,
    d_share: float = 0.35,
    n_groups: int = 4,
) -> tuple[pd.DataFrame, dict]:
    """Build one deterministic dataset and the smclarify column settings for it."""
    rng = np.random.default_rng(seed)
    in_d = rng.random(n) < d_share
    group = rng.integers(0, n_groups, size=n)
    # the latent score depends on the facet and the group, so metrics are not ~0
    score = rng.normal(size=n) - 0.6 * in_d + 0.25 * group
    pred_score = score + rng.normal(scale=0.8, size=n)
    if facet_kind == "categorical":
        d_vals = np.array(["Female", "Other"])
        a_vals = np.array(["Male"])
        facet = np.where(in_d, rng.choice(d_vals, n), rng.choice(a_vals, n))
        facet_col, facet_values = pd.Series(facet, name="sex"), ["Female", "Other"]
    elif facet_kind == "numeric":
        age = np.where(in_d, rng.uniform(40.0, 90.0, n), rng.uniform(17.0, 40.0, n)).round(3)
        facet_col, facet_values = pd.Series(age, name="age"), [40.0]
    elif facet_kind == "integer_age":
        age = np.where(in_d, rng.integers(41, 91, n), rng.integers(17, 41, n))
        facet_col, facet_values = pd.Series(age, name="age"), [40]
    elif facet_kind == "integer_categories":
        code = np.where(in_d, rng.integers(2, 4, n), rng.integers(0, 2, n))
        facet_col, facet_values = pd.Series(code, name="race"), [2, 3]
    else:
        raise ValueError(facet_kind)

    if label_kind == "binary":
        label = np.where(score > 0.3, ">50K", "<=50K")
        pred = np.where(pred_score > 0.3, ">50K", "<=50K")
        positive = [">50K"]
    elif label_kind == "ternary":
        cuts = [-0.3, 0.8]
        names = np.array(["low", "mid", "high"])
        label = names[np.digitize(score, cuts)]
        pred = names[np.digitize(pred_score, cuts)]
        positive = ["high"]
    elif label_kind == "ternary_two_positive":
        cuts = [-0.3, 0.8]
        names = np.array(["low", "mid", "high"])
        label = names[np.digitize(score, cuts)]
        pred = names[np.digitize(pred_score, cuts)]
        positive = ["mid", "high"]
    elif label_kind == "integer":
        label = (score > 0.3).astype(np.int64)
        pred = (pred_score > 0.3).astype(np.int64)
        positive = [1]
    elif label_kind == "continuous":
        label = (1 / (1 + np.exp(-score))).round(6)
        pred = (1 / (1 + np.exp(-pred_score))).round(6)
        positive = [0.55]
    else:
        raise ValueError(label_kind)

    df = pd.DataFrame({facet_col.name: facet_col.to_numpy(), "label": label, "pred": pred})
    df = pd.concat([df, _features(rng, n, in_d.astype(float))], axis=1)
    df["group"] = np.array(["g0", "g1", "g2", "g3", "g4", "g5"])[group]
    settings = {"facet": facet_col.name, "facet_values": facet_values, "positive_values": positive}
    return df, settings


def _modes(df: pd.DataFrame, s: dict) -> dict:
    """How smclarify classified the facet and label (its dtype/uniqueness heuristic)."""
    facet_t = series_datatype(df[s["facet"]], list(s["facet_values"]))
    label_t = series_datatype(df["label"], list(s["positive_values"]))
    return {
        "facet_mode": "threshold" if facet_t == DataType.CONTINUOUS else "values",
        "label_mode": "threshold" if label_t == DataType.CONTINUOUS else "values",
    }


def run_report(df: pd.DataFrame, s: dict, *, with_group: bool = True, ft: bool = True) -> dict:
    features = [c for c in df.columns if c.startswith("x")] if ft else []
    cols = [s["facet"], "label", "pred", *features]
    frame = df[cols].copy()
    group = df["group"] if with_group else None
    out = {}
    for stage in (StageType.PRE_TRAINING, StageType.POST_TRAINING):
        rep = bias_report(
            frame,
            FacetColumn(s["facet"], list(s["facet_values"])),
            LabelColumn("label", frame["label"], list(s["positive_values"])),
            stage,
            LabelColumn("pred", frame["pred"]) if stage == StageType.POST_TRAINING else None,
            group_variable=group,
        )
        out[stage.value] = json.loads(json.dumps(rep, default=_jsonable), parse_constant=str)
    return out


def run_one_vs_rest(df: pd.DataFrame, s: dict) -> dict:
    """bias_report without facet values: one facet report per value (value vs the rest)."""
    features = [c for c in df.columns if c.startswith("x")]
    frame = df[[s["facet"], "label", "pred", *features]].copy()
    out = {}
    for stage in (StageType.PRE_TRAINING, StageType.POST_TRAINING):
        rep = bias_report(
            frame,
            FacetColumn(s["facet"]),
            LabelColumn("label", frame["label"], list(s["positive_values"])),
            stage,
            LabelColumn("pred", frame["pred"]) if stage == StageType.POST_TRAINING else None,
            group_variable=df["group"],
        )
        out[stage.value] = json.loads(json.dumps(rep, default=_jsonable), parse_constant=str)
    return out


def report_case(name: str, df: pd.DataFrame, s: dict, note: str, **kw) -> dict:
    return {
        "name": name,
        "kind": "report",
        "note": note,
        "settings": {
            **s,
            **_modes(df, s),
            "label": "label",
            "predicted": "pred",
            "group": "group" if kw.get("with_group", True) else None,
            "features": [c for c in df.columns if c.startswith("x")] if kw.get("ft", True) else [],
        },
        "data": {c: _column(df[c]) for c in df.columns},
        "smclarify": run_report(df, s, **kw),
    }


# --------------------------------------------------------------------------- counts cases
COUNT_METRICS_PRE = ["CI", "DPL", "KL", "JS", "LP", "TVD", "KS", "CDDL"]
COUNT_METRICS_POST = [
    "DPPL",
    "DI",
    "DCA",
    "DCR",
    "RD",
    "DAR",
    "DRR",
    "SD",
    "AD",
    "TE",
    "CDDPL",
    "GE",
]


def rows_from_counts(cells: list[dict]) -> pd.DataFrame:
    """cells: dicts with keys facet (bool), label, pred (bool), group, n."""
    parts = []
    for c in cells:
        parts.append(
            pd.DataFrame(
                {
                    "facet": [c["facet"]] * c["n"],
                    "label": [c["label"]] * c["n"],
                    "pred": [c["pred"]] * c["n"],
                    "group": [c.get("group", "g0")] * c["n"],
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def direct(df: pd.DataFrame, positive_values: list, multi_label: bool) -> dict:
    facet = df["facet"].astype(bool)
    pos = df["label"].isin(positive_values).astype(bool)
    pred = df["pred"].astype(bool)
    feature = df["facet"]
    kw = dict(
        feature=feature,
        sensitive_facet_index=facet,
        label=df["label"] if multi_label else pos,
        positive_label_index=pos,
        positive_predicted_label_index=pred,
        group_variable=df["group"],
    )
    out = {}
    for name in COUNT_METRICS_PRE + COUNT_METRICS_POST:
        fn = getattr(M, name)
        try:
            v = M.call_metric(fn, **kw)
            out[name] = {"value": _jsonable(float(v))}
        except Exception as exc:
            out[name] = {"value": None, "error": str(exc)}
    return out


def counts_case(name: str, note: str, cells: list[dict], positive_values=(True,), multi_label: bool = False) -> dict:
    df = rows_from_counts(cells)
    return {
        "name": name,
        "kind": "counts",
        "note": note,
        "positive_values": list(positive_values),
        "multi_label": multi_label,
        "cells": cells,
        "smclarify": direct(df, list(positive_values), multi_label),
    }


def cm(facet: bool, tp: int, fp: int, fn: int, tn: int, group: str = "g0") -> list[dict]:
    out = []
    for label, pred, n in (
        (True, True, tp),
        (False, True, fp),
        (True, False, fn),
        (False, False, tn),
    ):
        if n:
            out.append({"facet": facet, "label": label, "pred": pred, "group": group, "n": n})
    return out


def main() -> None:
    cases = []
    # ---- generated datasets through bias_report
    df, s = dataset(1, 400, facet_kind="categorical", label_kind="binary")
    cases.append(report_case("binary_label_categorical_facet", df, s, "string facet, 2 sensitive values"))
    df, s = dataset(2, 400, facet_kind="numeric", label_kind="binary")
    cases.append(report_case("binary_label_numeric_facet", df, s, "float facet, threshold 40 (d: age > 40)"))
    df, s = dataset(3, 450, facet_kind="categorical", label_kind="ternary")
    cases.append(report_case("ternary_label_categorical_facet", df, s, "3-valued label, positive = high"))
    df, s = dataset(4, 450, facet_kind="numeric", label_kind="ternary_two_positive")
    cases.append(
        report_case(
            "ternary_label_numeric_facet",
            df,
            s,
            "3-valued label, positive = mid+high, numeric facet",
        )
    )
    df, s = dataset(5, 400, facet_kind="integer_categories", label_kind="integer")
    cases.append(
        report_case(
            "integer_label_integer_facet",
            df,
            s,
            "int label 0/1, int facet codes with values [2, 3]",
        )
    )
    df, s = dataset(16, 400, facet_kind="integer_age", label_kind="binary")
    cases.append(report_case("binary_label_integer_threshold_facet", df, s, "int facet, threshold 40"))
    df, s = dataset(6, 400, facet_kind="numeric", label_kind="continuous")
    cases.append(report_case("continuous_label_numeric_facet", df, s, "float label/prediction thresholded at 0.55"))
    df, s = dataset(7, 300, facet_kind="categorical", label_kind="binary", n_groups=3)
    cases.append(
        report_case(
            "no_group_no_features",
            df,
            s,
            "group not given: CDDL/CDDPL fail; FT on no features",
            with_group=False,
            ft=False,
        )
    )
    df, s = dataset(17, 300, facet_kind="categorical", label_kind="binary")
    case = report_case("one_vs_rest_categorical_facet", df, s, "no facet values: each value vs rest")
    case["kind"] = "one_vs_rest"
    case["smclarify"] = run_one_vs_rest(df, s)
    cases.append(case)
    # ---- B4 edge cases through bias_report
    df, s = dataset(8, 200, facet_kind="categorical", label_kind="binary")
    s_empty = {**s, "facet_values": ["Nobody"]}
    cases.append(
        report_case(
            "empty_facet_d",
            df,
            s_empty,
            "facet value matching no rows: every metric errors except CDDL/CDDPL",
        )
    )
    df, s = dataset(9, 200, facet_kind="categorical", label_kind="binary")
    s_all = {**s, "facet_values": ["Female", "Other", "Male"]}
    cases.append(report_case("empty_facet_a", df, s_all, "facet values cover every row: facet a empty"))
    df, s = dataset(10, 120, facet_kind="categorical", label_kind="binary", d_share=0.93)
    cases.append(report_case("small_facet_a_ft_k1", df, s, "facet a with <= 9 rows: FT uses k = 1"))
    df, s = dataset(11, 200, facet_kind="categorical", label_kind="binary")
    df["label"] = np.where(df["sex"] == "Male", "<=50K", ">50K")
    cases.append(report_case("no_shared_label_value", df, s, "facet a all negative, d all positive: KL family fails"))
    df, s = dataset(12, 200, facet_kind="categorical", label_kind="binary")
    df["pred"] = np.where(df["sex"] == "Male", df["pred"], "<=50K")
    df.loc[df["sex"] == "Male", "pred"] = ">50K"
    cases.append(
        report_case(
            "no_predicted_positive_in_d",
            df,
            s,
            "d has no predicted positives, a all predicted positive: DI 0, inf terms",
        )
    )
    df, s = dataset(13, 200, facet_kind="categorical", label_kind="binary")
    df.loc[df["sex"] != "Male", "pred"] = ">50K"
    df.loc[df["sex"] == "Male", "pred"] = "<=50K"
    cases.append(report_case("no_predicted_positive_in_a", df, s, "q̂a = 0: DI = +inf"))
    df, s = dataset(14, 200, facet_kind="categorical", label_kind="binary")
    df["pred"] = ">50K"
    cases.append(report_case("all_predicted_positive", df, s, "no predicted negatives: DCR/DRR inf - inf -> 0, TE"))
    df, s = dataset(15, 150, facet_kind="categorical", label_kind="binary")
    df["x1"] = np.where(df.index % 2 == 0, "u", "v")
    cases.append(report_case("non_numeric_feature", df, s, "FT with a non-numeric feature fails"))

    # ---- B4 edge cases from counts, straight into the metric functions
    cases.append(
        counts_case(
            "adult_back_solved",
            "SPEC B5 confusion matrices (a Male, d Female)",
            cm(False, 2718, 84, 3678, 13900) + cm(True, 433, 10, 679, 8660),
        )
    )
    cases.append(
        counts_case(
            "zero_over_zero",
            "d has no positives and no predicted positives",
            cm(False, 10, 5, 4, 20) + cm(True, 0, 0, 0, 12),
        )
    )
    cases.append(
        counts_case(
            "x_over_zero",
            "d has positives but no predicted positives; FP_d = 0",
            cm(False, 10, 5, 4, 20) + cm(True, 0, 0, 6, 12),
        )
    )
    cases.append(
        counts_case(
            "inf_minus_inf",
            "no predicted positives at all, FP = 0 in both facets",
            cm(False, 0, 0, 4, 20) + cm(True, 0, 0, 6, 12),
        )
    )
    cases.append(
        counts_case(
            "di_both_zero",
            "no predicted positive in either facet: DI = 0",
            cm(False, 0, 0, 3, 9) + cm(True, 0, 0, 2, 8),
        )
    )
    cases.append(
        counts_case(
            "ge_all_false_negative",
            "every row a false negative: GE fails",
            cm(False, 0, 0, 7, 0) + cm(True, 0, 0, 5, 0),
        )
    )
    cases.append(
        counts_case(
            "no_negative_labels",
            "no negative label anywhere: CDDL fails",
            cm(False, 5, 0, 2, 0) + cm(True, 3, 0, 1, 0),
        )
    )
    cases.append(counts_case("empty_d_counts", "facet d empty: errors, CDDL 0", cm(False, 5, 2, 2, 6)))
    cases.append(
        counts_case(
            "cddl_groups",
            "three subgroups, one with no d rows and one with no positives",
            cm(False, 5, 1, 3, 7, "g0")
            + cm(True, 1, 2, 4, 6, "g0")
            + cm(False, 4, 2, 1, 3, "g1")
            + cm(False, 0, 1, 0, 5, "g2")
            + cm(True, 0, 2, 0, 3, "g2"),
        )
    )
    # multi-valued labels straight into the KL family
    tern = []
    for facet, counts in (
        (False, {"low": 40, "mid": 25, "high": 35}),
        (True, {"low": 30, "mid": 12, "high": 8}),
    ):
        for lab, n in counts.items():
            tern.append({"facet": facet, "label": lab, "pred": lab == "high", "group": "g0", "n": n})
    cases.append(
        counts_case(
            "ternary_kl_family",
            "3-valued label distribution for KL/JS/LP/TVD/KS",
            tern,
            positive_values=["high"],
            multi_label=True,
        )
    )
    tern2 = [dict(c) for c in tern]
    tern2[4]["n"] = 0  # no 'mid' in d: that value is dropped, not renormalised
    tern2 = [c for c in tern2 if c["n"]]
    cases.append(
        counts_case(
            "ternary_missing_value_in_d",
            "label value absent from d: KL family drops it without renormalising",
            tern2,
            positive_values=["high"],
            multi_label=True,
        )
    )

    payload = {
        "generator": "tools/smclarify_reference/generate.py",
        "versions": {
            "smclarify": getattr(smclarify, "__version__", "0.5"),
            "pandas": pd.__version__,
            "numpy": np.__version__,
            "scikit-learn": sklearn.__version__,
            "python": sys.version.split()[0],
        },
        "cases": cases,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(payload, separators=(",", ":"), allow_nan=False) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size / 1e6:.2f} MB, {len(cases)} cases)")


if __name__ == "__main__":
    main()
