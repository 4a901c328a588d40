"""Unsigned 64-bit labels at and above 2**63 are labels like any other.

Before, ``roc_curve(np.array([2**63, 2**63 + 1] * 5, dtype=np.uint64), ..., positive=2**63 + 1)``
raised OverflowError: the distinct labels were rebuilt as an int64 array."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import confusionlab as cl

S = np.arange(10.0)


@pytest.mark.parametrize(("labels", "positive"), [((2**63, 2**63 + 1), 2**63 + 1), ((2**64 - 1, 2**64 - 2), 2**64 - 1)])
def test_roc_and_precision_recall_with_labels_beyond_int64(labels, positive):
    y = np.array(list(labels) * 5, dtype=np.uint64)
    truth = y == np.uint64(positive)
    roc = cl.roc_curve(y, S, positive=positive)
    assert roc.value == pytest.approx(roc_auc_score(truth, S), abs=1e-15) and (roc.p, roc.n) == (5, 5)
    pr = cl.precision_recall_curve(y, S, positive=positive)
    assert pr.value == pytest.approx(average_precision_score(truth, S), abs=1e-15)
    comparison = cl.compare_auc(y, S, S[::-1], positive=positive)
    assert comparison.value == pytest.approx(roc_auc_score(truth, S) - roc_auc_score(truth, S[::-1]), abs=1e-15)


def test_without_positive_the_refusal_names_the_labels_exactly():
    y = np.array([2**63, 2**63 + 1] * 5, dtype=np.uint64)
    with pytest.raises(cl.InvalidParameterError, match="9223372036854775808, 9223372036854775809"):
        cl.roc_curve(y, S)
