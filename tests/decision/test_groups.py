"""decision_curve(groups=): each group's curve is the curve of its rows; bands simultaneous over the groups."""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl


def _data():
    rng = np.random.default_rng(8)
    y = rng.uniform(size=600) < 0.3
    risk = np.clip(0.3 + 0.3 * (y - 0.3) + rng.normal(0, 0.15, 600), 0, 1)
    return y, risk, rng.choice(["F", "M", "X"], size=600)


def test_each_group_is_the_curve_of_its_rows():
    y, risk, g = _data()
    grouped = cl.decision_curve(y, {"m": risk}, groups=g, harm=0.01, thresholds=[0.1, 0.3, 0.5])
    assert grouped.names == ["F", "M", "X"]
    for name in grouped.names:
        alone = cl.decision_curve(y[g == name], {"m": risk[g == name]}, harm=0.01, thresholds=[0.1, 0.3, 0.5])
        for strategy, nb in alone.net_benefit.items():
            np.testing.assert_array_equal(grouped[name].net_benefit[strategy], nb)
        np.testing.assert_array_equal(grouped[name].prob_useful["m"], alone.prob_useful["m"])
    gap = grouped.difference()[("m", 0.3)]
    values = {name: grouped[name].net_benefit["m"][1] for name in grouped.names}
    assert float(gap) == pytest.approx(max(values.values()) - min(values.values()), abs=1e-15)


def test_bands_hold_over_the_groups_at_once():
    y, risk, g = _data()
    grouped = cl.decision_curve(y, risk, groups=g, thresholds=[0.1, 0.3])
    bands = grouped.bands(0.9)
    for name, band in bands.items():
        assert band.confidence == pytest.approx(0.9 ** (1 / 3))
        np.testing.assert_array_equal(band.lower["model"], grouped[name].band(0.9 ** (1 / 3)).lower["model"])
    frame = grouped.to_frame()
    assert list(frame.columns[:2]) == ["group", "model"] and set(frame["group"]) == {"F", "M", "X"}


def test_overall_is_the_curve_of_all_rows_on_both_paths():
    import pandas as pd

    y, risk, g = _data()
    whole = cl.decision_curve(y, risk, thresholds=[0.1, 0.3])
    arrays = cl.decision_curve(y, risk, groups=g, thresholds=[0.1, 0.3])
    counted = cl.decision_curve(
        "y", "r", groups="g", data=pd.DataFrame({"y": y, "r": risk, "g": g}), thresholds=[0.1, 0.3]
    )
    for grouped in (arrays, counted):
        for name, nb in whole.net_benefit.items():
            np.testing.assert_array_equal(grouped.overall.net_benefit[name], nb)
