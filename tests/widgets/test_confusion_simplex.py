"""ConfusionSimplex on the Python side: validation, buffers, what is sent when."""

from __future__ import annotations

import json
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import traitlets
from hypothesis import given, settings
from hypothesis import strategies as st
from ipywidgets.widgets.widget import _remove_buffers

from confusionlab._validation import InvalidParameterError
from confusionlab.confusion import ConfusionMatrix
from confusionlab.lattice import isometric, simplex_points
from confusionlab.metrics import METRICS, metric_value
from confusionlab.models import simplex_model, slice_model
from confusionlab.widgets.confusion_simplex import (
    MAX_N,
    MAX_POINTS,
    ConfusionSimplex,
    drawing_order,
    drawing_permutation,
    encode_values,
    lattice_columns,
    level_ends,
    metric_values,
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
        self.custom: list[tuple[int, dict[str, Any]]] = []  # (state messages sent before, content)

    def send(self, data: dict[str, Any], buffers: Any = None, **_: Any) -> None:
        if data.get("method") == "custom":
            self.custom.append((len(self.messages), data["content"]))
            return
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
    distinct = w._values_info["distinct"]
    assert len(w._codes) == 2 * 176_851  # uint16 codes, no positions
    assert len(w._value_table) == 8 * distinct
    assert w.positions().dtype == np.dtype("<f4") and w.positions().shape == (176_851, 3)
    assert w.values().dtype == np.dtype("<f8")
    # The drawn matrices are the core's, each once, in drawing order.
    counts = w.counts()
    pts = simplex_points(100)
    order = np.lexsort(counts.T[::-1])
    np.testing.assert_array_equal(counts[order], pts.counts[np.lexsort(pts.counts.T[::-1])])
    np.testing.assert_array_equal(w.positions(), isometric(*counts.T).astype("<f4"))
    expected = np.asarray(METRICS["mcc"].values(*counts.T), dtype=np.float64)
    np.testing.assert_array_equal(w.values(), expected)
    assert distinct == np.unique(expected).size
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
    for key in ("_codes", "_value_table", "_cloud_xyz", "_cloud_mass"):
        assert (key,) in paths
        assert key not in state
    assert {"_positions", "_p", "_values"}.isdisjoint(state)  # the browser generates the points
    assert 2 * 39_711 <= sum(len(b) for b in buffers) < 4 * 39_711


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
    counts_p = w.counts()[:, 0] + w.counts()[:, 1]
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
def test_metric_change_resends_only_codes(widget: ConfusionSimplex, recorded: RecordingComm) -> None:
    widget.metric = "f1"
    assert len(recorded.messages) == 1  # the trait and its codes in one message
    keys = recorded.messages[0]["keys"]
    assert {"metric", "_codes", "_value_table", "_values_info", "_colour_domain", "_observed_value"} <= keys
    assert not keys & {"_lattice", "_vertices", "_cloud_xyz", "_cloud_mass"}
    sent = sum(len(b) for b in recorded.messages[0]["buffers"])
    assert sent == 2 * 39_711 + 8 * widget._values_info["distinct"]


def test_n_change_sends_trait_and_geometry_together(recorded: RecordingComm) -> None:
    w = ConfusionSimplex(N=20)
    w.comm = recorded
    w.N = 21
    assert len(recorded.messages) == 1
    assert {"N", "_codes", "_value_table", "_lattice"} <= recorded.messages[0]["keys"]
    # Before the state message, the new lattice is named so the browser can enumerate it meanwhile.
    assert recorded.custom == [(0, {"prepare_lattice": [21, 1]})]


def test_only_a_new_lattice_is_announced(widget: ConfusionSimplex, recorded: RecordingComm) -> None:
    widget.metric = "f1"
    widget.slices = [3]
    widget.update(N=200, observed=[16, 4, 8, 172])  # thinned: stride 2
    with pytest.raises(InvalidParameterError):
        widget.update(N=7, observed=[1, 1, 1, 1])  # refused before anything is computed
    assert recorded.custom == [(2, {"prepare_lattice": [200, simplex_stride(200, MAX_POINTS)]})]
    assert simplex_stride(200, MAX_POINTS) == 2


def test_slice_change_sends_no_buffer(widget: ConfusionSimplex, recorded: RecordingComm) -> None:
    widget.slices = [10, 30]
    widget.dim_others = False
    assert all(not m["buffers"] for m in recorded.messages)
    assert {"slices"} <= recorded.messages[0]["keys"]


def test_update_is_atomic(widget: ConfusionSimplex, recorded: RecordingComm) -> None:
    widget.update(N=61, slices=[20], observed=[16, 4, 9, 32])
    assert len(recorded.messages) == 1
    assert {"N", "observed", "_lattice", "_codes", "_observed_xyz"} <= recorded.messages[0]["keys"]
    assert widget.points == comb(64, 3)
    assert widget.observed == [16, 4, 9, 32]


def test_update_changes_nothing_when_a_value_is_wrong(widget: ConfusionSimplex, recorded: RecordingComm) -> None:
    before = (widget.N, widget.observed, widget.slices, widget._lattice, widget._codes)
    with pytest.raises(traitlets.TraitError, match="observed"):
        widget.update(N=61, observed=[16, 4, 8, 32])  # sums to 60
    assert (widget.N, widget.observed, widget.slices, widget._lattice, widget._codes) == before
    assert not any(m["buffers"] for m in recorded.messages)
    with pytest.raises(TypeError, match="unknown"):
        widget.update(p=20)


def test_update_computes_once(monkeypatch: pytest.MonkeyPatch, widget: ConfusionSimplex) -> None:
    import confusionlab.widgets.confusion_simplex as module

    calls = []
    real = module.metric_values
    monkeypatch.setattr(module, "metric_values", lambda m, N, stride: calls.append((m, N)) or real(m, N, stride))
    widget.update(N=62, observed=[16, 4, 10, 32], metric="f1", cloud="beta-binomial")
    assert calls == [("f1", 62)]


def test_a_new_n_builds_no_drawing_order(monkeypatch: pytest.MonkeyPatch, widget: ConfusionSimplex) -> None:
    """The kernel sends codes in the lattice order and the browser reorders them (issue 24):
    neither a change of N nor of metric enumerates the drawing order; counts() still can."""
    import confusionlab.widgets.confusion_simplex as module

    ends = drawing_order(63)[1]
    calls = []
    real = module._level_order
    monkeypatch.setattr(module, "_level_order", lambda columns, stride: calls.append(stride) or real(columns, stride))
    widget.update(N=63, observed=[16, 4, 11, 32])
    widget.metric = "accuracy"
    assert calls == []
    assert widget._lattice == [63, 1, comb(66, 3), *ends[:3]]
    assert widget.counts().shape == (comb(66, 3), 4) and calls == [1]


def _inverse_isometric(xyz: np.ndarray, N: int) -> np.ndarray:
    """The inverse of the centred isometric map that the browser's hover uses (js/confusion_simplex/hover.js)."""
    x, y, z = xyz.astype(np.float64).T
    c = N / 6
    tn = (N / 2 - (x + y + z)) / 2
    return np.stack([z + c + tn / 3, x + c + tn / 3, y + c + tn / 3, tn], axis=1)


@pytest.mark.parametrize(("N", "max_points"), [(9, MAX_POINTS), (60, MAX_POINTS), (MAX_N, MAX_POINTS), (40, 2_000)])
def test_hover_contract_positions_name_their_matrix_and_value(N: int, max_points: int) -> None:
    """Hover reads a point's matrix back from its float32 position and its value from its code.

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
    np.testing.assert_array_equal(counts, w.counts())
    reference = np.asarray(METRICS["f1"].values(*counts.T), dtype=np.float64)
    np.testing.assert_array_equal(w.values(), reference)


# -------------------------------------------------------------- the wire format
FIXTURE = Path(__file__).resolve().parents[2] / "js" / "tests" / "simplex_lattice_fixture.json"
FIXTURE_CASES = [(0, 1), (1, 1), (2, 1), (7, 1), (7, 2), (10, 3)]


def _fixture_text() -> str:
    cases = {}
    for N, k in FIXTURE_CASES:
        counts, ends = drawing_order(N, k)
        order = drawing_permutation(N, k)[0].tolist()
        cases[f"{N}/{k}"] = {"N": N, "stride": k, "ends": ends, "counts": counts.tolist(), "order": order}
    rows = ",\n".join(f'  "{key}": ' + json.dumps(v, separators=(",", ":")) for key, v in cases.items())
    return "{\n" + rows + "\n}\n"


def test_js_lattice_fixture_is_current() -> None:
    """js/tests/simplex_lattice.test.js checks the browser's generator against this file.

    Regenerate it with ``FIXTURE.write_text(_fixture_text())`` when the drawing order changes.
    """
    assert FIXTURE.read_text() == _fixture_text()


@pytest.mark.parametrize(("N", "stride"), [(0, 1), (1, 1), (5, 1), (9, 1), (9, 2), (13, 4), (3, 5)])
def test_drawing_order_is_the_specified_order(N: int, stride: int) -> None:
    """Reference: the order written out with loops (the loops of js/confusion_simplex/lattice.js)."""
    levels: list[list[list[int]]] = [[], [], [], []]
    M = N // stride
    for a in range(M + 1):
        for s in range(M - a + 1):
            for b in range(s + 1):
                c = s - b
                tp, fn, fp = stride * a, stride * b, stride * c
                tn = N - tp - fn - fp
                surface = min(tp, fn, fp, tn) == 0
                even = a % 2 == 0 and b % 2 == 0 and c % 2 == 0
                levels[(0 if surface else 2) + (0 if even else 1)].append([tp, fn, fp, tn])
    counts, ends = drawing_order(N, stride)
    assert counts.tolist() == [m for level in levels for m in level]
    assert ends == np.cumsum([len(level) for level in levels]).tolist()
    # The lattice order is the loops' order; the permutation maps the drawing order onto it.
    lattice = []
    for a in range(M + 1):
        for s in range(M - a + 1):
            for b in range(s + 1):
                lattice.append([stride * a, stride * b, stride * (s - b), N - stride * (a + s)])
    assert lattice_columns(N, stride).tolist() == lattice
    order, permutation_ends = drawing_permutation(N, stride)
    assert [lattice[j] for j in order.tolist()] == counts.tolist() and sorted(order.tolist()) == list(
        range(len(lattice))
    )
    assert permutation_ends == ends == level_ends(N, stride)


@pytest.mark.parametrize("N", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 17, 40, 101, 150, 299, 300])
@pytest.mark.parametrize("stride", [1, 2, 3, 5, 7])
def test_level_ends_are_counted_as_the_points_are(N: int, stride: int) -> None:
    """level_ends' binomials against the levels counted point by point on the lattice."""
    columns = lattice_columns(N, stride).astype(np.int64)
    surface = (columns == 0).any(axis=1)
    odd = ((columns[:, :3] // stride) % 2 == 1).any(axis=1)
    sizes = [
        int((surface & ~odd).sum()),
        int((surface & odd).sum()),
        int((~surface & ~odd).sum()),
        int((~surface & odd).sum()),
    ]
    assert level_ends(N, stride) == np.cumsum(sizes).tolist()


@pytest.mark.parametrize("metric", ["mcc", "f1", "accuracy", "precision", "fowlkes_mallows", "lr_plus"])
def test_hover_values_round_trip_exactly(metric: str) -> None:
    """Every point's value as the browser reads it (table[code]) equals metric_value of its counts."""
    w = ConfusionSimplex(N=12, metric=metric)
    values = w.values()
    for (tp, fn, fp, tn), value in zip(w.counts().tolist(), values.tolist(), strict=True):
        reference = metric_value(ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn), metric)
        assert value == reference or (np.isnan(value) and np.isnan(reference)), (tp, fn, fp, tn, value, reference)


def _sent_bytes(change: str) -> int:
    w = ConfusionSimplex(N=100, metric="mcc", slices=[30], observed=[25, 5, 10, 60])
    comm = RecordingComm()
    w.comm = comm
    exec(change, {"w": w})
    return sum(len(b) for m in comm.messages for b in m["buffers"] or [])


def test_changes_send_fewer_bytes_than_positions_and_float_values() -> None:
    """Reference: the former format, 4 bytes of float32 value per point (+ 12 of position and 2 of p per N change)."""
    points = comb(103, 3)
    metric = _sent_bytes("w.metric = 'f1'")
    n_change = _sent_bytes("w.update(N=101, observed=[25, 5, 10, 61])")
    assert metric < 0.6 * 4 * points
    assert n_change < 0.25 * 18 * comb(104, 3)
    assert metric >= 2 * points and n_change >= 2 * comb(104, 3)  # one uint16 code per point, at least


def test_encode_values_examples() -> None:
    table, codes = encode_values(np.array([0.5, -1.0, 0.5, np.nan, np.nan, -0.0, 0.0, np.inf]))
    assert table.tolist()[:4] == [-1.0, 0.0, 0.5, np.inf] and np.isnan(table[-1]) and table.size == 5
    assert codes.tolist() == [2, 0, 2, 4, 4, 1, 1, 3]
    big = np.arange(70_000) / 7
    table, codes = encode_values(big)
    assert codes.dtype == np.uint32 and np.array_equal(table[codes], big)
    assert encode_values(np.zeros(0))[1].size == 0


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -0.0, 1.0])),
        max_size=200,
    )
)
def test_encode_values_round_trips_any_floats(values: list[float]) -> None:
    array = np.array(values, dtype=np.float64)
    table, codes = encode_values(array)
    decoded = table[codes]
    same = (decoded == array) | (np.isnan(decoded) & np.isnan(array))
    assert same.all()
    assert codes.dtype == np.uint16 and (np.diff(table[~np.isnan(table)]) > 0).all()
    assert np.isnan(table).sum() <= 1


@settings(max_examples=60, deadline=None)
@given(
    N=st.one_of(st.integers(-5, 40), st.floats(allow_nan=True), st.booleans(), st.just(10**9), st.none()),
    stride=st.one_of(st.integers(-2, 12), st.floats(allow_nan=True), st.booleans(), st.none()),
)
def test_drawing_order_hostile_arguments(N: Any, stride: Any) -> None:
    try:
        counts, ends = drawing_order(N, stride)
    except (TypeError, ValueError) as error:
        assert "N" in str(error) or "stride" in str(error)
        return
    assert counts.shape == (comb(N // stride + 3, 3), 4)
    assert (counts.sum(axis=1) == N).all() and (counts >= 0).all()
    assert ends[-1] == counts.shape[0]


@pytest.mark.parametrize("M", [0, 1, 2, 7, 30, MAX_N])
def test_lattice_columns_are_the_cores_enumeration(M: int) -> None:
    """The widget's own enumeration (the lattice order the codes travel in) equals
    lattice.simplex_counts (the core's), in order; with a stride, its multiples."""
    from confusionlab.lattice import simplex_counts

    np.testing.assert_array_equal(lattice_columns(M), simplex_counts(M))
    if M:
        np.testing.assert_array_equal(lattice_columns(2 * M + 1, 2)[:, :3], 2 * simplex_counts(M)[:, :3])


def test_changes_back_are_not_computed_again_and_equal_a_fresh_widget(monkeypatch: pytest.MonkeyPatch) -> None:
    """N 12 → 13 → 12 and mcc → f1 → mcc enumerate and encode each key once (issue 24: the
    old widget kept one lattice and no values, so each change back recomputed both); what is
    sent after a change back equals the core's value at every point."""
    import confusionlab.widgets.confusion_simplex as module

    evaluations, encodings = [], []
    real_values, real_encode = module.metric_values, module.encode_values
    monkeypatch.setattr(module, "metric_values", lambda m, N, k: evaluations.append((m, N)) or real_values(m, N, k))
    monkeypatch.setattr(module, "encode_values", lambda v: encodings.append(v.size) or real_encode(v))
    w = ConfusionSimplex(N=12, metric="mcc", observed=[3, 2, 1, 6])
    w.update(N=13, observed=[3, 2, 1, 7])
    w.update(N=12, observed=[3, 2, 1, 6])
    w.metric = "f1"
    w.metric = "mcc"
    assert evaluations == [("mcc", 12), ("mcc", 13), ("f1", 12)]
    assert len(encodings) == 3  # mcc@12, mcc@13, f1@12
    assert w._values_info["key"] == "mcc@12/1"
    for (tp, fn, fp, tn), value in zip(w.counts().tolist(), w.values().tolist(), strict=True):
        reference = metric_value(ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn), "mcc")
        assert value == reference or (np.isnan(value) and np.isnan(reference))


def test_kept_values_stay_within_their_byte_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the budget the least recent encodings are dropped (the current one is always kept)."""
    import confusionlab.widgets.confusion_simplex as module

    monkeypatch.setattr(module, "_VALUES_BYTES_KEPT", 1)
    w = ConfusionSimplex(N=20, metric="mcc")
    for metric in ("f1", "accuracy", "precision"):
        w.metric = metric
        assert list(w._encodings) == [(metric, 20, 1)]
    assert w.counts().flags.writeable  # a copy, not the kept (read-only) lattice


# ------------------------------------------------- issue 24: a new N costs less
@pytest.mark.parametrize(
    ("N", "stride", "block"), [(0, 1, 7), (1, 1, 7), (13, 1, 7), (13, 1, 1 << 15), (31, 3, 5), (40, 2, 64)]
)
def test_metric_values_in_blocks_are_the_metrics_floats(
    monkeypatch: pytest.MonkeyPatch, N: int, stride: int, block: int
) -> None:
    """Reference: each metric's values on the whole lattice at once (bit for bit, NaN included);
    small blocks split the TP blocks of the lattice, so every seam is crossed."""
    import confusionlab.widgets.confusion_simplex as module

    monkeypatch.setattr(module, "_BLOCK", block)
    columns = lattice_columns(N, stride)
    for name, metric in METRICS.items():
        expected = np.asarray(metric.values(*columns.T), dtype=np.float64)
        assert metric_values(name, N, stride).tobytes() == expected.tobytes(), name


def test_codes_travel_in_the_lattice_order() -> None:
    """Reference: metric_value of each matrix, enumerated with loops in the lattice order
    (TP, then FN + FP, then FN), against table[codes] as sent (before any reordering)."""
    N = 9
    w = ConfusionSimplex(N=N, metric="mcc")
    codes = np.frombuffer(w._codes, dtype="<u2")
    table = np.frombuffer(w._value_table, dtype="<f8")
    k = 0
    for tp in range(N + 1):
        for s in range(N - tp + 1):
            for fn in range(s + 1):
                cm = ConfusionMatrix(tp=tp, fn=fn, fp=s - fn, tn=N - tp - s)
                assert table[codes[k]] == metric_value(cm, "mcc"), (tp, fn, s - fn)
                k += 1
    assert k == codes.size == comb(N + 3, 3)


def _ulps_from(x: float, ulps: int) -> float:
    for _ in range(abs(ulps)):
        x = float(np.nextafter(x, np.inf if ulps > 0 else -np.inf))
    return x


#: Floats a few ulps from one another (rounding variants of one real, the lattice's usual case).
_NEAR = st.builds(_ulps_from, st.sampled_from([0.5, 1 / 3, -0.25, 0.1, 1e-300, 0.0, -0.0]), st.integers(-3, 3))


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.floats(allow_nan=True, allow_infinity=True),
            _NEAR,
        ),
        max_size=300,
    )
)
def test_encode_values_is_np_unique(values: list[float]) -> None:
    """Reference: np.unique (sorted table, inverse) with its NaNs merged into one entry:
    values one ulp apart stay two entries, -0.0 and 0.0 are one."""
    array = np.array(values, dtype=np.float64)
    table, codes = encode_values(array)
    finite = array[~np.isnan(array)]
    ref_table, ref_codes = np.unique(finite, return_inverse=True)
    assert np.array_equal(table[: ref_table.size], ref_table)
    assert table.size == ref_table.size + bool(np.isnan(array).any())
    np.testing.assert_array_equal(codes[~np.isnan(array)], ref_codes.ravel())
    assert (codes[np.isnan(array)] == ref_table.size).all()


def test_encode_values_distinguishes_one_ulp_and_merges_equal_values() -> None:
    """Values 1, 2 and 3 ulps apart (rounding variants of one real, as in balanced accuracy)
    are distinct codes; equal floats share one, whatever their place."""
    base = 0.3
    near = [base, float(np.nextafter(base, 1)), float(np.nextafter(np.nextafter(base, 1), 1))]
    values = np.array(near * 3 + [np.nan, -np.nan, 0.0, -0.0])
    table, codes = encode_values(values)
    assert table.size == 5 and np.isnan(table[-1])
    assert codes.tolist() == [1, 2, 3] * 3 + [4, 4, 0, 0]


@pytest.mark.parametrize(
    ("args", "name"),
    [(("mcc", -1), "N"), (("mcc", 5, 0), "stride"), (("mcc", 2.5), "N"), (("no such metric", 5), "metric")],
)
def test_metric_values_refuses_what_is_not_a_lattice(args: tuple[Any, ...], name: str) -> None:
    with pytest.raises(InvalidParameterError, match=name):
        metric_values(*args)
    with pytest.raises(InvalidParameterError, match="stride"):
        metric_values("mcc", 10**4)  # 1.7 × 10¹¹ matrices: refused before anything is allocated
