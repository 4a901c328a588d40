"""Helpers to rebuild the smclarify reference inputs (no smclarify needed)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

REFERENCE = Path(__file__).parent / "data" / "smclarify_reference.json"


def load_reference() -> dict:
    return json.loads(REFERENCE.read_text())


def cases(kind: str) -> list[dict]:
    return [c for c in load_reference()["cases"] if c["kind"] == kind]


def _decode(v):
    if v == "Infinity":
        return math.inf
    if v == "-Infinity":
        return -math.inf
    return v


def report_frame(case: dict) -> pd.DataFrame:
    return pd.DataFrame({k: [_decode(v) for v in col] for k, col in case["data"].items()})


def report_kwargs(case: dict) -> dict:
    s = case["settings"]
    kw: dict = {
        "label": s["label"],
        "facet": s["facet"],
        "predicted": s["predicted"],
        "group": s["group"],
        "features": s["features"] or None,
    }
    if s["facet_mode"] == "threshold":
        kw["facet_threshold"] = s["facet_values"][0]  # int or float, as given to smclarify
    else:
        kw["facet_values"] = s["facet_values"]
    if s["label_mode"] == "threshold":
        kw["label_threshold"] = float(s["positive_values"][0])
    else:
        kw["positive_values"] = s["positive_values"]
    return kw


def counts_frame(case: dict) -> pd.DataFrame:
    """Expand the count cells to rows; predictions written with the label's values."""
    rows = []
    multi = case["multi_label"]
    for c in case["cells"]:
        pred = ("high" if c["pred"] else "low") if multi else c["pred"]
        rows += [(c["facet"], c["label"], pred, c["group"])] * c["n"]
    return pd.DataFrame(rows, columns=["facet", "label", "pred", "group"])
