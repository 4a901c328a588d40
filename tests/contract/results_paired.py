"""One small instance of each result class of confusionlab.paired (for test_result_protocol.py)."""

from __future__ import annotations

from confusionlab.paired import compare_paired_cells, rank_models


def _paired_comparison():
    return compare_paired_cells([[5, 1, 0, 2], [1, 1, 2, 6]], "balanced_accuracy")


def _ranking():
    y = [1] * 6 + [0] * 6
    preds = {
        "logistic": [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0],
        "tree": [1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0],
        "majority": [0] * 12,
    }
    return rank_models(y, preds, "accuracy", n_draws=2000, random_state=1)


CASES = {"PairedComparison": _paired_comparison, "Ranking": _ranking}
