"""Bias refusals found by the capped-child hostile tests (``tests/contract/test_hostile_bias.py``).

Each test is one reproduction: a crash, or a refusal that named an internal name instead of the
argument passed; now a right answer or an ``InvalidParameterError`` naming the argument.
"""

from __future__ import annotations

import pandas as pd
import pytest

import confusionlab as cl
from confusionlab import bias

ROWS = pd.DataFrame({"y": [1, 0] * 30, "p": [1, 0, 0] * 20, "sex": ["F", "M", "M"] * 20, "age": list("ab") * 30})


def test_report_each_value_takes_facet_values_none_as_not_given() -> None:
    """``report_each_value(..., facet_values=None)`` raised "report() got multiple values for keyword
    argument 'facet_values'": the None was passed on next to each value's own facet_values."""
    kwargs = {"label": "y", "positive_values": [1], "facet": "sex", "stage": "pre", "n_draws": 200}
    got = bias.report_each_value(ROWS, facet_values=None, facet_threshold=None, **kwargs)
    plain = bias.report_each_value(ROWS, **kwargs)
    assert list(got) == ["F", "M"] and {k: r.value for k, r in got.items()} == {k: r.value for k, r in plain.items()}
