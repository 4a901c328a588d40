"""FT against scikit-learn's KNeighborsClassifier (brute force), as smclarify defines it.

k = 5 neighbours (1 when facet a has at most 9 rows), fitted on facet a with the model's
predictions as targets, Euclidean on the unscaled numeric features, uniform votes.
"""

from __future__ import annotations

import numpy as np
import pytest

from confusionlab.bias.prediction_metrics import flip_test


@pytest.mark.parametrize(("na", "nd", "k"), [(200, 80, 5), (9, 30, 1), (10, 30, 5)])
def test_flip_test_equals_brute_force_knn(na, nd, k):
    from sklearn.neighbors import KNeighborsClassifier

    rng = np.random.default_rng(na)
    xa, xd = rng.normal(size=(na, 3)), rng.normal(size=(nd, 3)) + 0.3
    ya = xa[:, 0] + rng.normal(scale=0.5, size=na) > 0
    yd = rng.random(nd) < 0.4
    knn = KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(xa, ya).predict(xd)
    expected = (np.sum(yd & ~knn) - np.sum(~yd & knn)) / nd
    assert flip_test(xa, ya, xd, yd) == expected


def test_flip_test_needs_features_and_rows():
    with pytest.raises(ValueError, match="at least one numeric feature"):
        flip_test(np.zeros((3, 0)), np.zeros(3, bool), np.zeros((2, 0)), np.zeros(2, bool))
    with pytest.raises(ValueError, match="facet d is empty"):
        flip_test(np.zeros((3, 1)), np.zeros(3, bool), np.zeros((0, 1)), np.zeros(0, bool))
    with pytest.raises(ValueError, match="NaN or infinite"):
        flip_test(np.full((3, 1), np.nan), np.zeros(3, bool), np.zeros((2, 1)), np.zeros(2, bool))


def test_flip_test_warns_on_large_data(monkeypatch):
    from confusionlab.bias import prediction_metrics as pm

    monkeypatch.setattr(pm, "FT_WARN_ROWS", 10)
    x = np.arange(12.0).reshape(-1, 1)
    with pytest.warns(UserWarning, match="consider computing FT on a random subsample"):
        pm.flip_test(x[:6], np.arange(6) % 2 == 0, x[6:], np.ones(6, bool))
