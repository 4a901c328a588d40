"""ConfusionSimplex on the Python side: validation, buffers, what is sent when."""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
import pytest
import traitlets
from ipywidgets.widgets.widget import _remove_buffers

from confusionlab.confusion import ConfusionMatrix
from confusionlab.lattice import isometric, simplex_points
from confusionlab.metrics import METRICS
from confusionlab.models import simplex_model, slice_model
from confusionlab.widgets.confusion_simplex import (
    MAX_N,
    MAX_POINTS,
    ConfusionSimplex,
    simplex_stride,
)

OBSERVED = [16, 4, 8, 32]


@pytest.fixture
def widget() -> ConfusionSimplex:
    return ConfusionSimplex(N=60, metric="mcc", slices=[20], dim_others=True, observed=OBSERVED, cloud="none")


class RecordingComm:
    """Stands in for the widget's comm: records every message and its buffers."""

    kernel = True
    comm_id = "recording-comm"

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def send(self, data: dict[str, Any], buffers: Any = None, **_: Any) -> None:
        self.messages.append({"keys": set(data["state"]) | {p[0] for p in data["buffer_paths"]}, "buffers": buffers})

    def on_msg(self, callback: Any) -> None:
        pass

    def close(self, *args: Any, **kwargs: Any) -> None:  # pragma: no cover - called at teardown
        pass


@pytest.fixture
def recorded(widget: ConfusionSimplex) -> RecordingComm:
    comm = RecordingComm()
    widget.comm = comm
    return comm


# ------------------------------------------------------------------------ bundle
def test_bundle_is_built_and_used() -> None:
    assert "confusionlab-simplex" in str(ConfusionSimplex._esm)
    assert "confusionlab-simplex" in str(ConfusionSimplex._css)


# ----------------------------------------------------------------------- buffers
def test_buffers_at_n100_have_every_matrix() -> None:
    w = ConfusionSimplex(N=100)
    assert w.points == 176_851 == comb(103, 3)
    assert len(w._positions) == 12 * 176_851
    assert len(w._values) == 4 * 176_851
    assert len(w._p) == 2 * 176_851
    assert w.positions().dtype == np.dtype("<f4") and w.positions().shape == (176_851, 3)
    assert w.values().dtype == np.dtype("<f4")
    # The buffers hold the core's points in drawing order: recover each point's counts
    # from its position (x + y + z = N/2 − 2·TN) and compare with the core.
    xyz = w.positions().astype(np.float64)
    tn = np.round((50 - xyz.sum(axis=1)) / 2)
    fn, fp, tp = (np.round(xyz[:, j] + tn / 3 + 100 / 6) for j in range(3))
    counts = np.stack([tp, fn, fp, tn], axis=1).astype(np.int64)
    pts = simplex_points(100)
    order = np.lexsort(counts.T[::-1])
    np.testing.assert_array_equal(counts[order], pts.counts[np.lexsort(pts.counts.T[::-1])])
    np.testing.assert_allclose(xyz, isometric(tp, fn, fp, tn), atol=1e-4)
    np.testing.assert_array_equal(np.frombuffer(w._p, "<u2"), tp + fn)
    expected = METRICS["mcc"].values(*counts.T).astype("<f4")
    np.testing.assert_array_equal(w.values(), expected)
    assert w._lattice[:3] == [100, 1, 176_851]


def test_points_are_ordered_surface_then_coarse_interior() -> None:
    w = ConfusionSimplex(N=100)
    coarse_surface_end, surface_end, coarse_end = w._lattice[3:]
    assert surface_end == comb(103, 3) - comb(99, 3)  # a count is 0: 20,002 matrices
    xyz = w.positions().astype(np.float64)
    tn = np.round((50 - xyz.sum(axis=1)) / 2)
    fn, fp, tp = (np.round(xyz[:, j] + tn / 3 + 100 / 6) for j in range(3))
    smallest = np.minimum.reduce([tp, fn, fp, tn])
    assert (smallest[:surface_end] == 0).all() and (smallest[surface_end:] > 0).all()
    coarse = (tp % 2 == 0) & (fn % 2 == 0) & (fp % 2 == 0)
    assert coarse[:coarse_surface_end].all() and not coarse[coarse_surface_end:surface_end].any()
    assert coarse[surface_end:coarse_end].all() and not coarse[coarse_end:].any()


def test_binary_traitlets_travel_as_buffers_not_json(widget: ConfusionSimplex) -> None:
    state, buffer_paths, buffers = _remove_buffers(widget.get_state())
    paths = {tuple(path) for path in buffer_paths}
    for key in ("_positions", "_p", "_values", "_cloud_xyz", "_cloud_mass"):
        assert (key,) in paths
        assert key not in state
    assert sum(len(b) for b in buffers) >= 18 * 39_711


def test_vertices_observed_point_and_colour_domain(widget: ConfusionSimplex) -> None:
    vertices = np.array(widget._vertices).reshape(4, 3)
    np.testing.assert_allclose(vertices, isometric(*np.eye(4, dtype=int).T * 60))
    np.testing.assert_allclose(widget._observed_xyz, isometric(*np.array(OBSERVED)))
    assert widget._observed_value == pytest.approx(float(METRICS["mcc"].values(*OBSERVED)))
    lo, mid, hi = widget._colour_domain
    assert (lo, mid, hi) == (-1.0, 0.0, 1.0)


def test_whole_simplex_up_to_n150_thinned_above_max_points() -> None:
    assert simplex_stride(150, MAX_POINTS) == 1
    w = ConfusionSimplex(N=150)
    assert w.points == 585_276 and w.stride == 1
    w.N = 300
    assert w.stride == 2 and w.points == comb(300 // 2 + 3, 3)
    assert w._lattice[3] < w._lattice[4] < w._lattice[5] < w.points
    counts_p = np.frombuffer(w._p, "<u2")
    assert counts_p.max() == 300 and (counts_p % 2 == 0).all()
    # every drawn point is a matrix of size 300 with TP, FN, FP multiples of 2
    xyz = w.positions().astype(np.float64)
    tn = (300 / 2 - xyz.sum(axis=1)) / 2  # from x + y + z = N/2 − 2·TN
    assert np.allclose(tn, np.round(tn), atol=1e-3)


@pytest.mark.parametrize(("N", "max_points"), [(150, 585_276), (150, 585_275), (300, 1_000_000), (10, 1)])
def test_stride_is_the_smallest_that_fits(N: int, max_points: int) -> None:
    k = simplex_stride(N, max_points)
    assert comb(N // k + 3, 3) <= max_points or N // k == 0
    if k > 1:
        assert comb(N // (k - 1) + 3, 3) > max_points


# ------------------------------------------------------------------------ clouds
def test_beta_binomial_cloud_is_the_slice_model(widget: ConfusionSimplex) -> None:
    widget.cloud = "beta-binomial"
    xyz, mass = widget.cloud_arrays()
    model = slice_model(
        ConfusionMatrix(**dict(zip(("tp", "fn", "fp", "tn"), OBSERVED, strict=True))),
        "beta-binomial",
        tolerance=widget.tolerance,
    )
    assert mass.size == model.size == widget._cloud_info["points"]
    assert mass.dtype == np.dtype("<f4") and xyz.dtype == np.dtype("<f4")
    assert float(mass.sum(dtype=np.float64)) == pytest.approx(1 - widget.cloud_pruned_mass, abs=1e-6)
    assert widget.cloud_mass == pytest.approx(1 - model.pruned_mass, abs=1e-12)
    np.testing.assert_allclose(mass, model.joint().ravel().astype("<f4"))
    # every cloud point lies on the observed slice p = 20: FN + TP = 20 in the counts
    tp, tn = np.broadcast_arrays(model.tp, model.tn)
    expected = isometric(tp.ravel(), 20 - tp.ravel(), 40 - tn.ravel(), tn.ravel())
    np.testing.assert_allclose(xyz, expected.astype("<f4"))


def test_dirichlet_multinomial_cloud_covers_the_simplex(widget: ConfusionSimplex) -> None:
    widget.update(cloud="dirichlet-multinomial", prior="jeffreys", tolerance=1e-6)
    _, mass = widget.cloud_arrays()
    model = simplex_model(
        ConfusionMatrix(**dict(zip(("tp", "fn", "fp", "tn"), OBSERVED, strict=True))), prior="jeffreys", tolerance=1e-6
    )
    assert mass.size == len(model.pmf)
    assert 0 < widget.cloud_pruned_mass <= 1e-6
    assert float(mass.sum(dtype=np.float64)) == pytest.approx(1 - widget.cloud_pruned_mass, abs=1e-6)


def test_cloud_without_observed_matrix_is_empty_and_says_why() -> None:
    w = ConfusionSimplex(N=10, cloud="dirichlet-multinomial")
    assert w._cloud_info["points"] == 0
    assert "observed" in w._cloud_info["note"]
    assert w.cloud_arrays()[1].size == 0


def test_tolerance_zero_prunes_nothing(widget: ConfusionSimplex) -> None:
    widget.update(cloud="beta-binomial", tolerance=0.0)
    assert widget.cloud_pruned_mass == 0.0
    assert widget._cloud_info["points"] == 21 * 41


# --------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    ("kwargs", "trait"),
    [
        ({"N": 0}, "N"),
        ({"N": MAX_N + 1}, "N"),
        ({"N": 1.5}, "N"),
        ({"N": True}, "N"),
        ({"metric": "nope"}, "metric"),
        ({"N": 10, "slices": [11]}, "slices"),
        ({"slices": ["a"]}, "slices"),
        ({"N": 10, "observed": [1, 2, 3]}, "observed"),
        ({"N": 10, "observed": [1, 2, 3, 5]}, "observed"),
        ({"N": 10, "observed": [-1, 2, 3, 6]}, "observed"),
        ({"cloud": "gaussian"}, "cloud"),
        ({"prior": "flat"}, "prior"),
        ({"size": 50}, "size"),
        ({"tolerance": 1.5}, "tolerance"),
    ],
)
def test_bad_values_name_the_trait(kwargs: dict[str, Any], trait: str) -> None:
    with pytest.raises(traitlets.TraitError, match=trait):
        ConfusionSimplex(**kwargs)


def test_n_above_the_limit_is_refused_with_the_limit() -> None:
    with pytest.raises(traitlets.TraitError, match=r"between 1 and 300"):
        ConfusionSimplex(N=301)


def test_assignments_are_checked_against_the_other_traits(widget: ConfusionSimplex) -> None:
    with pytest.raises(traitlets.TraitError, match="update"):
        widget.N = 61  # observed sums to 60
    with pytest.raises(traitlets.TraitError, match="slices"):
        widget.observed = []
        widget.N = 10  # slice 20 > 10
    assert widget.N == 60


def test_metric_aliases_and_numpy_integers() -> None:
    w = ConfusionSimplex(N=np.int64(12), metric="ba", slices=[np.int32(3)], observed=list(np.array([3, 3, 3, 3])))
    assert w.metric == METRICS["ba"].name
    assert w.slices == [3] and w.observed == [3, 3, 3, 3]
    assert all(type(v) is int for v in w.observed)


def test_slices_are_sorted_and_unique() -> None:
    assert ConfusionSimplex(N=10, slices=[5, 2, 5]).slices == [2, 5]


# ------------------------------------------------------------------ what is sent
def test_metric_change_resends_only_colours(widget: ConfusionSimplex, recorded: RecordingComm) -> None:
    widget.metric = "f1"
    assert len(recorded.messages) == 1  # the trait and its colours in one message
    keys = recorded.messages[0]["keys"]
    assert {"metric", "_values", "_colour_domain", "_metric_label", "_observed_value"} <= keys
    assert not keys & {"_positions", "_p", "_lattice", "_cloud_xyz", "_cloud_mass"}
    sent = sum(len(b) for b in recorded.messages[0]["buffers"])
    assert sent == 4 * 39_711


def test_n_change_sends_trait_and_geometry_together(recorded: RecordingComm) -> None:
    w = ConfusionSimplex(N=20)
    w.comm = recorded
    w.N = 21
    assert len(recorded.messages) == 1
    assert {"N", "_positions", "_p", "_values", "_lattice"} <= recorded.messages[0]["keys"]


def test_slice_change_sends_no_buffer(widget: ConfusionSimplex, recorded: RecordingComm) -> None:
    widget.slices = [10, 30]
    widget.dim_others = False
    assert all(not m["buffers"] for m in recorded.messages)
    assert {"slices"} <= recorded.messages[0]["keys"]


def test_update_is_atomic(widget: ConfusionSimplex, recorded: RecordingComm) -> None:
    widget.update(N=61, slices=[20], observed=[16, 4, 9, 32])
    assert len(recorded.messages) == 1
    assert {"N", "observed", "_positions", "_values", "_observed_xyz"} <= recorded.messages[0]["keys"]
    assert widget.points == comb(64, 3)
    assert widget.observed == [16, 4, 9, 32]


def test_update_changes_nothing_when_a_value_is_wrong(widget: ConfusionSimplex, recorded: RecordingComm) -> None:
    before = (widget.N, widget.observed, widget.slices, widget._positions)
    with pytest.raises(traitlets.TraitError, match="observed"):
        widget.update(N=61, observed=[16, 4, 8, 32])  # sums to 60
    assert (widget.N, widget.observed, widget.slices, widget._positions) == before
    assert not any(m["buffers"] for m in recorded.messages)
    with pytest.raises(TypeError, match="unknown"):
        widget.update(p=20)


def test_update_computes_once(monkeypatch: pytest.MonkeyPatch, widget: ConfusionSimplex) -> None:
    import confusionlab.widgets.confusion_simplex as module

    calls = []
    real = module.simplex_points
    monkeypatch.setattr(module, "simplex_points", lambda N: calls.append(N) or real(N))
    widget.update(N=62, observed=[16, 4, 10, 32], metric="f1", cloud="beta-binomial")
    assert calls == [62]


def _inverse_isometric(xyz: np.ndarray, N: int) -> np.ndarray:
    """The inverse of the centred isometric map that the browser's hover uses (js/confusion_simplex/hover.js)."""
    x, y, z = xyz.astype(np.float64).T
    c = N / 6
    tn = (N / 2 - (x + y + z)) / 2
    return np.stack([z + c + tn / 3, x + c + tn / 3, y + c + tn / 3, tn], axis=1)


@pytest.mark.parametrize(("N", "max_points"), [(9, MAX_POINTS), (60, MAX_POINTS), (MAX_N, MAX_POINTS), (40, 2_000)])
def test_hover_contract_positions_name_their_matrix_and_value(N: int, max_points: int) -> None:
    """Hover reads a point's matrix back from its float32 position and its value at the same index.

    Reference: the matrices enumerated by brute force (every TP, FN, FP multiple of the
    stride) and ``METRICS["f1"].values`` at them, matched to the points by their counts.
    """
    w = ConfusionSimplex(N=N, metric="f1", max_points=max_points)
    raw = _inverse_isometric(w.positions(), N)
    counts = np.rint(raw).astype(np.int64)
    assert np.abs(raw - counts).max() < 0.05  # float32 positions decode to integers, even at N = 300
    assert (counts >= 0).all() and (counts.sum(axis=1) == N).all()
    k = w.stride
    grid = np.arange(0, N + 1, k)
    tp, fn, fp = (a.ravel() for a in np.meshgrid(grid, grid, grid, indexing="ij"))
    keep = tp + fn + fp <= N
    expected = np.stack([tp[keep], fn[keep], fp[keep], N - (tp + fn + fp)[keep]], axis=1)
    # Every matrix exactly once, in the level-of-detail order (not the lattice order).
    assert len(counts) == len(expected) == comb(N // k + 3, 3)

    def key(a: np.ndarray) -> np.ndarray:
        return (a[:, 0] * (N + 1) + a[:, 1]) * (N + 1) + a[:, 2]

    assert np.array_equal(np.sort(key(counts)), np.sort(key(expected)))
    reference = np.asarray(METRICS["f1"].values(*counts.T), dtype=np.float64).astype(np.float32)
    np.testing.assert_array_equal(w.values(), reference)
