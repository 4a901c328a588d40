"""Every vertex of a contour polyline evaluates to the contour's level."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import confusionlab as cl
from confusionlab.metrics import get_metric

BOUNDED = [name for name, m in cl.METRICS.items() if np.isfinite(m.range[1])]
UNBOUNDED = [name for name, m in cl.METRICS.items() if not np.isfinite(m.range[1])]


def _check_on_level(metric: str, level: float, p: int, n: int, lines: list[np.ndarray]) -> int:
    m = get_metric(metric)
    checked = 0
    for line in lines:
        v = m.rate_values(line[:, 0], line[:, 1], p, n)
        ok = np.isfinite(v)  # a contour may touch the point where the metric is 0/0
        # next to the corners (0,0) and (1,1) PPV/NPV are 0/0 limits: evaluating there
        # from rates is ill-conditioned, so points within 1e-6 of them are not checked
        near_corner = (np.abs(line - 0).max(axis=1) < 1e-6) | (np.abs(line - 1).max(axis=1) < 1e-6)
        if metric in ("markedness", "mcc"):
            ok &= ~near_corner
        if metric == "prevalence_threshold":
            # √(TPR·FPR) takes another branch for negative rates: the drawn extension
            # is the contour line's continuation, so only the unit square is checked
            ok &= (line >= 0).all(axis=1) & (line <= 1).all(axis=1)
        np.testing.assert_allclose(v[ok], level, rtol=1e-9, atol=1e-9, err_msg=f"{metric} k={level} p={p} n={n}")
        checked += int(ok.sum())
    return checked


@pytest.mark.parametrize("metric", BOUNDED + UNBOUNDED)
@pytest.mark.parametrize("extend", [False, True])
def test_contour_points_evaluate_to_the_level(metric: str, extend: bool) -> None:
    rng = np.random.default_rng(zlib.crc32(f"{metric}{extend}".encode()))
    lo, hi = cl.METRICS[metric].range
    hi = min(hi, 8.0)
    checked = 0
    for _ in range(25):
        p, n = (int(v) for v in rng.integers(1, 300, size=2))
        level = float(rng.uniform(lo, hi))
        lines = cl.contour(metric, level, p, n, extend=extend)
        checked += _check_on_level(metric, level, p, n, lines)
    assert checked > 100  # the sampled levels really drew contours


def test_window_clipping_ends_on_the_window_edge() -> None:
    [line] = cl.contour("accuracy", 0.7, 20, 80)
    x, y = line[:, 0], line[:, 1]
    assert x.min() >= 0 and x.max() <= 1 and y.min() >= -1e-12 and y.max() <= 1 + 1e-12
    # the line y = (kN - n + n x)/p enters at x = (n - kN)/n (y = 0) and leaves at y = 1
    assert line[0] == pytest.approx([(80 - 70) / 80, 0.0], abs=1e-12)
    assert line[-1, 1] == pytest.approx(1.0, abs=1e-12)


def test_f1_family_is_a_pencil_through_minus_p_over_n() -> None:
    p, n = 20, 80
    for k in (0.2, 0.5, 0.8):
        [line] = cl.contour("f1", k, p, n, window=(-1, 1, -0.5, 1.5))
        slope, intercept = np.polyfit(line[:, 0], line[:, 1], 1)
        assert slope * (-p / n) + intercept == pytest.approx(0.0, abs=1e-9)


def test_mcc_contours_are_half_ellipses_beyond_the_square() -> None:
    [upper] = cl.contour("mcc", 0.5, 20, 80, extend=True)
    [lower] = cl.contour("mcc", -0.5, 20, 80, extend=True)
    assert upper[0] == pytest.approx([0, 0], abs=1e-12) and upper[-1] == pytest.approx([1, 1], abs=1e-12)
    assert np.all(upper[:, 1] >= upper[:, 0] - 1e-12) and np.all(lower[:, 1] <= lower[:, 0] + 1e-12)
    assert upper[:, 0].min() < 0  # at prevalence 0.2 the ellipse leaves the unit square
    inside = cl.contour("mcc", 0.5, 20, 80)
    assert all(line[:, 0].min() >= -1e-12 for line in inside)


def test_levels_outside_the_range_draw_nothing_and_bad_arguments_fail() -> None:
    assert cl.contour("accuracy", 1.5, 10, 10) == []
    with pytest.raises(cl.InvalidParameterError, match="p > 0 and n > 0"):
        cl.contour("accuracy", 0.5, 0, 10)
    with pytest.raises(cl.InvalidParameterError, match="level"):
        cl.contour("accuracy", float("nan"), 10, 10)
    with pytest.raises(cl.InvalidParameterError, match="unknown metric"):
        cl.contour("accuracyy", 0.5, 10, 10)
    with pytest.raises(cl.InvalidParameterError, match="window"):
        cl.contour("accuracy", 0.5, 10, 10, window=(1, 0, 0, 1))
