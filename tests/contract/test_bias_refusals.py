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


def test_audit_compared_with_refuses_what_is_not_one_of_its_facets() -> None:
    """``compared_with(["sex"])`` raised AttributeError ('list' object has no attribute 'split');
    ``compared_with("nope")`` answered "the rest of the data" for a facet the audit does not have."""
    a = bias.audit(ROWS, label="y", positive_values=[1], predicted="p", facets=["sex", "age"], metrics=["DPPL"],
                   margin=0.1, reference={"sex": "M"})  # fmt: skip
    assert a.compared_with("sex") == "the reference group M"
    assert a.compared_with("age").startswith("the rest of the data")
    for facet in (["sex"], None, "nope", "sex & age"):
        with pytest.raises(cl.InvalidParameterError, match="facet"):
            a.compared_with(facet)


def test_a_facet_larger_than_two_to_the_53_is_refused_by_its_name() -> None:
    """``from_confusion(a=(2**53,) * 4, ...)``: each count passed and the report failed later with
    "sizes[0]=... is absurdly large", a name the caller never used."""
    with pytest.raises(cl.InvalidParameterError, match="a's size tp \\+ fn \\+ fp \\+ tn"):
        bias.CountTable.from_confusion(a=(2**53, 2**53, 2**53, 2**53), d=(1, 2, 3, 4))
    with pytest.raises(cl.InvalidParameterError, match="d's size"):
        bias.CountTable.from_confusion(a=(1, 2, 3, 4), d=(2**53, 1, 0, 0))
    assert bias.CountTable.from_confusion(a=(2**52, 2**52, 0, 0), d=(1, 2, 3, 4)).facet_sizes.tolist()[0] == 2**53
