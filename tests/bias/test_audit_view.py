"""AuditView: the buffers are the audit's rows; a refused change leaves every trait as it was."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import traitlets

from confusionlab.bias.auditing import audit
from confusionlab.bias.results import PLAIN_NAMES
from confusionlab.widgets._common import buffer_array
from confusionlab.widgets.audit_view import VERDICT_CODES, AuditView


@pytest.fixture(scope="module")
def result():
    rng = np.random.default_rng(5)
    n = 800
    df = pd.DataFrame({"sex": rng.choice(["F", "M"], n), "race": rng.choice(["a", "b"], n)})
    df["y"] = (rng.random(n) < np.where(df.sex == "F", 0.2, 0.5)).astype(int)
    df["p"] = np.where(rng.random(n) < 0.85, df.y, 1 - df.y)
    df.loc[(df.sex == "M") & (df.race == "b"), "race"] = "a"  # an empty intersection
    return audit(df, label="y", positive_values=[1], predicted="p", facets=["sex", "race"], intersections=True,
                 metrics=["DPPL", "DI"], margin=0.1, n_draws=500)  # fmt: skip


def test_buffers_hold_the_audit(result):
    view = AuditView(result)
    df = result.to_frame()
    assert view._groups == ["sex: F", "sex: M", "race: a", "race: b", "sex & race: F & a", "sex & race: F & b",
                            "sex & race: M & a"]  # fmt: skip
    assert view._metrics == ["DPPL", "DI"]
    np.testing.assert_array_equal(buffer_array(view, "_verdicts"), df.verdict.map(VERDICT_CODES).to_numpy())
    np.testing.assert_array_equal(buffer_array(view, "_lower"), df.lower.to_numpy())
    np.testing.assert_array_equal(buffer_array(view, "_upper"), df.upper.to_numpy())
    np.testing.assert_array_equal(buffer_array(view, "_values"), df.value.to_numpy())
    assert view._no_bias == [0.0, 1.0] and view._margin == [0.1, 0.1]
    sizes = buffer_array(view, "_sizes").reshape(-1, 2)
    np.testing.assert_array_equal(sizes, result.sizes[["n", "n_compared"]].to_numpy(dtype=float))
    assert view._summary["level"] == result.level and view._summary["notes"] == result.notes
    assert view.cell_row(3)[["group", "metric"]].tolist() == ["sex: M".split(": ")[1], "DI"]


def test_refused_changes_leave_the_view_as_it_was(result):
    view = AuditView(result)
    before = {k: getattr(view, k) for k in ("_groups", "_verdicts", "_lower", "selected")}
    with pytest.raises(TypeError, match="audit"):
        view.show(result.to_frame())  # its rows without the audit: refused
    with pytest.raises(traitlets.TraitError, match="selected"):
        view.selected = 14
    with pytest.raises(traitlets.TraitError):
        view.cell = 5
    assert {k: getattr(view, k) for k in before} == before
    view.selected = 13
    smaller = result[result.facet == "sex"]
    view.show(smaller)
    assert view._groups == ["sex: F", "sex: M"] and view.selected == -1


def test_the_view_sends_each_abbreviation_in_words(result):
    """Issue 38: the grid's key spells out Clarify's abbreviations (smclarify 0.5's descriptions, in lower case)."""
    view = AuditView(result)
    assert view._summary["names"] == {
        "DPPL": "difference in positive proportions in predicted labels",
        "DI": "disparate impact",
    }
    assert PLAIN_NAMES["CI"] == "class imbalance" and PLAIN_NAMES["KL"] == "Kullback-Leibler divergence"
