"""Widget refusals found by the capped-child hostile tests (``tests/contract/test_hostile_widgets.py``).

Each test is one reproduction: the value was accepted silently, misread, or refused with an error
that named nothing; now it is refused with :class:`confusionlab.InvalidParameterError` naming the
argument, and nothing changes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl
from confusionlab import bias
from confusionlab.widgets._common import InvalidTraitError


def _roc() -> cl.RocCurve:
    return cl.roc_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])


def test_an_unknown_constructor_argument_is_refused_by_name() -> None:
    """traitlets ignored it (a DeprecationWarning at most): ``RocSlice(metirc="f1")`` drew MCC."""
    with pytest.raises(cl.InvalidParameterError, match="unknown arguments \\['metirc'\\]"):
        cl.RocSlice(p=20, n=40, metirc="f1")
    with pytest.raises(cl.InvalidParameterError, match="unknown arguments \\['x'\\]"):
        cl.RocView(_roc(), slice_options={"x": 1})
