"""RocSlice on the Python side: validation, buffers, recomputation on change."""

from __future__ import annotations

import numpy as np
import pytest
import traitlets
from ipywidgets.widgets.widget import _remove_buffers

import confusionlab as cl
from confusionlab.contours import contour
from confusionlab.metrics import METRICS
from confusionlab.widgets.roc_slice import MAX_POINTS, RocSlice, thinning_stride


@pytest.fixture
def widget() -> RocSlice:
    return cl.RocSlice(p=20, n=40, tp=16, tn=32, metric="mcc", levels=[0.0, 0.5])


def core_values(metric: str, tp: np.ndarray, tn: np.ndarray, p: int, n: int) -> np.ndarray:
    tp = tp.reshape(-1, 1).astype(np.int64)
    tn = tn.reshape(1, -1).astype(np.int64)
    return np.broadcast_to(METRICS[metric].values(tp, p - tp, n - tn, tn), (tp.size, tn.size))


# ------------------------------------------------------------------------- export
def test_exported_lazily_from_the_package() -> None:
    assert cl.RocSlice is RocSlice


def test_bundle_is_built_and_used() -> None:
    esm = RocSlice._esm
    text = esm.read_text() if hasattr(esm, "read_text") else str(esm)
    assert "confusionlab-roc-slice" in text
    assert "cl-canvas" in str(RocSlice._css)


# ------------------------------------------------------------------------ buffers
def test_lattice_buffers_have_the_right_dtype_length_and_values(widget: RocSlice) -> None:
    assert isinstance(widget._values, bytes)
    assert len(widget._values) == 4 * 21 * 41
    assert len(widget._tp_axis) == 4 * 21
    assert len(widget._tn_axis) == 4 * 41
    tp, tn, values = widget.lattice()
    assert tp.dtype == np.dtype("<i4") and tn.dtype == np.dtype("<i4")
    assert values.dtype == np.dtype("<f4") and values.shape == (21, 41)
    np.testing.assert_array_equal(tp, np.arange(21))
    np.testing.assert_array_equal(tn, np.arange(41))
    expected = core_values("mcc", tp, tn, 20, 40).astype("<f4")
    np.testing.assert_array_equal(values, expected)
    assert widget._slice == [20, 40, 1]
    assert widget.lattice_points == 861


def test_binary_traitlets_travel_as_buffers_not_json(widget: RocSlice) -> None:
    state, buffer_paths, buffers = _remove_buffers(widget.get_state())
    paths = {tuple(path) for path in buffer_paths}
    for key in ("_values", "_tp_axis", "_tn_axis", "_contour_xy", "_contour_offsets"):
        assert (key,) in paths
        assert key not in state
    assert sum(len(b) for b in buffers) >= 4 * 861


def test_colour_domain_is_ordered_and_centred_for_mcc(widget: RocSlice) -> None:
    lo, mid, hi = widget._colour_domain
    _, _, values = widget.lattice()
    assert lo == pytest.approx(float(values.min()), abs=1e-6)
    assert hi == pytest.approx(float(values.max()), abs=1e-6)
    assert mid == 0.0  # middle of MCC's range [-1, 1]


def test_changing_n_updates_every_buffer(widget: RocSlice) -> None:
    widget.n = 41
    tp, tn, values = widget.lattice()
    assert len(widget._values) == 4 * 21 * 42
    assert values.shape == (21, 42)
    np.testing.assert_array_equal(values, core_values("mcc", tp, tn, 20, 41).astype("<f4"))
    assert widget._slice == [20, 41, 1]
    level, line = widget.contours()[0]
    expected = contour("mcc", level, 20, 41)
    np.testing.assert_allclose(line, np.asarray(expected[0], dtype="<f4"))


def test_changing_the_metric_recolours_and_relabels(widget: RocSlice) -> None:
    widget.metric = "accuracy"
    tp, tn, values = widget.lattice()
    np.testing.assert_array_equal(values, core_values("accuracy", tp, tn, 20, 40).astype("<f4"))
    assert widget._metric_label == METRICS["accuracy"].label
    assert widget._observed_value == pytest.approx(48 / 60)


# ----------------------------------------------------------------------- contours
def _expected_contours(metric: str, levels: list[float], p: int, n: int, extend: bool):
    out = []
    for level in levels:
        for line in contour(metric, level, p, n, extend=extend):
            if len(line) >= 2:
                out.append((level, np.asarray(line, dtype="<f4")))
    return out


def _assert_same_contours(actual, expected) -> None:
    assert len(actual) == len(expected)
    for (level_a, line_a), (level_e, line_e) in zip(actual, expected, strict=True):
        assert level_a == pytest.approx(level_e, abs=1e-6)
        np.testing.assert_array_equal(line_a, line_e)


def test_contours_are_the_core_contours_at_the_levels(widget: RocSlice) -> None:
    actual = widget.contours()
    assert actual, "MCC 0 and 0.5 are attained on the slice"
    _assert_same_contours(actual, _expected_contours("mcc", [0.0, 0.5], 20, 40, False))
    offsets = np.frombuffer(widget._contour_offsets, dtype="<u4")
    assert offsets[0] == 0 and offsets[-1] * 8 == len(widget._contour_xy)


def test_contours_recomputed_when_levels_change(widget: RocSlice) -> None:
    before = widget._contour_xy
    widget.levels = [0.25]
    assert widget._contour_xy != before
    _assert_same_contours(widget.contours(), _expected_contours("mcc", [0.25], 20, 40, False))
    widget.levels = []
    # No levels: the contour through the observed point.
    observed = widget._observed_value
    assert observed == pytest.approx(float(METRICS["mcc"].values(16, 4, 8, 32)))
    levels = [level for level, _ in widget.contours()]
    assert levels, "the observed value's contour passes through the observed point"
    assert levels == pytest.approx([observed] * len(levels), abs=1e-6)


def test_extend_is_passed_to_the_core(widget: RocSlice) -> None:
    widget.metric = "f1"
    widget.levels = [0.5]
    widget.extend = True
    _assert_same_contours(widget.contours(), _expected_contours("f1", [0.5], 20, 40, True))
    widget.extend = False
    _assert_same_contours(widget.contours(), _expected_contours("f1", [0.5], 20, 40, False))


def test_unattained_level_gives_no_polyline(widget: RocSlice) -> None:
    widget.metric = "accuracy"
    widget.levels = [2.0]
    assert widget.contours() == []
    assert np.frombuffer(widget._contour_offsets, dtype="<u4").tolist() == [0]


# --------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    ("kwargs", "trait"),
    [
        ({"p": 20, "tp": 21}, "tp"),
        ({"n": 40, "tn": 41}, "tn"),
        ({"p": 0}, "p"),
        ({"n": -3}, "n"),
        ({"n": 10**8}, "n"),
        ({"p": 2.5}, "p"),
        ({"tp": True}, "tp"),
        ({"metric": "nope"}, "metric"),
        ({"levels": [float("nan")]}, "levels"),
        ({"coordinates": "polar"}, "coordinates"),
        ({"size": 10}, "size"),
    ],
)
def test_bad_construction_names_the_trait(kwargs: dict, trait: str) -> None:
    with pytest.raises(traitlets.TraitError, match=trait):
        RocSlice(**kwargs)


def test_assignments_are_validated_against_the_other_counts(widget: RocSlice) -> None:
    with pytest.raises(traitlets.TraitError, match=r"tp must be between 0 and p=20"):
        widget.tp = 21
    with pytest.raises(traitlets.TraitError, match=r"p=10 is smaller than tp=16"):
        widget.p = 10
    with pytest.raises(traitlets.TraitError, match="metric must be one of"):
        widget.metric = "MCC!"
    assert (widget.p, widget.tp, widget.metric) == (20, 16, "mcc")


def test_metric_aliases_resolve_to_the_registry_name(widget: RocSlice) -> None:
    widget.metric = "tpr"
    assert widget.metric == METRICS["tpr"].name
    assert widget._metric_label == METRICS["tpr"].label


def test_numpy_integers_are_accepted() -> None:
    w = RocSlice(p=np.int64(5), n=np.int32(6), tp=np.uint8(2), tn=3)
    assert (w.p, w.n, w.tp, w.tn) == (5, 6, 2, 3)
    assert type(w.p) is int


def test_set_slice_changes_counts_together_or_not_at_all(widget: RocSlice) -> None:
    widget.set_slice(p=5, tp=5, n=7, tn=0)
    assert (widget.p, widget.n, widget.tp, widget.tn) == (5, 7, 5, 0)
    assert len(widget._values) == 4 * 6 * 8
    with pytest.raises(traitlets.TraitError):
        widget.set_slice(p=3, n=9)  # tp = 5 > 3
    assert (widget.p, widget.n, widget.tp, widget.tn) == (5, 7, 5, 0)
    assert widget._slice == [5, 7, 1]


def test_default_observed_point_is_inside_the_slice() -> None:
    w = RocSlice(p=7, n=3)
    assert (w.tp, w.tn) == (3, 1)


# ----------------------------------------------------------------------- thinning
def test_lattice_drawn_whole_up_to_the_limit() -> None:
    w = RocSlice(p=499, n=499, tp=1, tn=1, levels=[0.5])
    assert w.stride == 1
    assert len(w._values) == 4 * 250_000
    assert MAX_POINTS >= 250_000


def test_lattice_thinned_above_max_points() -> None:
    w = RocSlice(p=100, n=200, tp=50, tn=100, max_points=1000, levels=[0.2])
    tp, tn, values = w.lattice()
    assert w.stride > 1
    assert tp.size * tn.size <= 1000
    np.testing.assert_array_equal(tp, np.arange(0, 101, w.stride))
    np.testing.assert_array_equal(tn, np.arange(0, 201, w.stride))
    np.testing.assert_array_equal(values, core_values("mcc", tp, tn, 100, 200).astype("<f4"))


def test_a_huge_slice_is_thinned_without_materialising_it() -> None:
    w = RocSlice(p=5_000_000, n=3_000_000, tp=1, tn=2, metric="accuracy", levels=[0.5])
    tp, tn, values = w.lattice()
    assert tp.size * tn.size <= MAX_POINTS
    assert tp[-1] <= 5_000_000 and tn[-1] <= 3_000_000
    np.testing.assert_array_equal(values, core_values("accuracy", tp, tn, 5_000_000, 3_000_000).astype("<f4"))


@pytest.mark.parametrize("p", [1, 7, 99, 499, 1000, 4321])
@pytest.mark.parametrize("max_points", [1, 10, 1000, 250_000])
def test_thinning_stride_is_the_smallest_that_fits(p: int, max_points: int) -> None:
    n = 2 * p + 3
    k = thinning_stride(p, n, max_points)

    def points(s: int) -> int:
        return (p // s + 1) * (n // s + 1)

    assert points(k) <= max_points or (k > p and k > n)
    assert k == 1 or points(k - 1) > max_points


def test_construction_and_set_slice_compute_the_lattice_once(monkeypatch) -> None:
    calls = []
    original = RocSlice._update_lattice

    def counting(self: RocSlice) -> None:
        calls.append((self.p, self.n))
        original(self)

    monkeypatch.setattr(RocSlice, "_update_lattice", counting)
    w = RocSlice(p=30, n=50, tp=3, tn=4, metric="f1", levels=[0.5])
    assert calls == [(30, 50)]
    w.set_slice(p=31, n=51)
    assert calls == [(30, 50), (31, 51)]


# ------------------------------------------------------- model bubbles and marginals
def test_model_none_sends_no_marginals(widget: RocSlice) -> None:
    assert widget.model == "none"
    assert widget._pmf_tp == b"" and widget._pmf_tn == b"" and widget._pmf_lo == []
    with pytest.raises(ValueError, match="model is 'none'"):
        widget.slice_model()


@pytest.mark.parametrize("model", ["binomial", "beta-binomial"])
def test_model_marginals_are_the_core_slice_model(widget: RocSlice, model: str) -> None:
    from confusionlab.confusion import ConfusionMatrix
    from confusionlab.models import slice_model

    widget.model = model
    expected = slice_model(ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), model, tolerance=widget.tolerance)
    tp, tp_mass, tn, tn_mass = widget.marginals()
    assert widget._pmf_lo == [expected.tp_lo, expected.tn_lo]
    np.testing.assert_array_equal(tp, np.arange(expected.tp_lo, expected.tp_lo + expected.tp_pmf.size))
    np.testing.assert_array_equal(tp_mass, expected.tp_pmf.astype("<f4"))
    np.testing.assert_array_equal(tn_mass, expected.tn_pmf.astype("<f4"))
    assert tn.size == expected.tn_pmf.size
    assert widget._pmf_pruned == pytest.approx(expected.pruned_mass)
    # The joint (outer product) sums to the kept mass.
    assert float(np.outer(tp_mass, tn_mass).sum()) == pytest.approx(1 - expected.pruned_mass, abs=1e-5)


def test_model_follows_the_observed_point(widget: RocSlice) -> None:
    widget.model = "beta-binomial"
    before = widget._pmf_tp
    widget.tp = 10
    assert widget._pmf_tp != before
    tp, tp_mass, _, _ = widget.marginals()
    assert int(tp[np.argmax(tp_mass)]) in (10, 11)  # mode near the observed count
    widget.model = "none"
    assert widget._pmf_tp == b""


def test_model_rejects_unknown_and_binomial_tolerance_is_checked() -> None:
    with pytest.raises(traitlets.TraitError, match="model"):
        RocSlice(model="dirichlet-multinomial")
    with pytest.raises(traitlets.TraitError, match="tolerance"):
        RocSlice(tolerance=2.0)


def test_marginal_buffers_travel_as_binary(widget: RocSlice) -> None:
    widget.model = "binomial"
    _, buffer_paths, _ = _remove_buffers(widget.get_state())
    paths = {tuple(path) for path in buffer_paths}
    assert ("_pmf_tp",) in paths and ("_pmf_tn",) in paths and ("_contour_metric",) in paths


# ------------------------------------------------------------ several contour metrics
def test_contour_metrics_add_polylines_through_the_observed_point(widget: RocSlice) -> None:
    widget.levels = []
    widget.contour_metrics = ["f1", "BA", "mcc"]  # alias resolved, main metric dropped
    assert widget.contour_metrics == ["f1", "balanced_accuracy", "mcc"]
    index = np.frombuffer(widget._contour_metric, dtype="<u4")
    levels = np.frombuffer(widget._contour_levels, dtype="<f4")
    assert widget._contour_labels == [METRICS[m].label for m in ("mcc", "f1", "balanced_accuracy")]
    assert set(index.tolist()) == {0, 1, 2}
    f1 = float(METRICS["f1"].values(16, 4, 8, 32))
    assert levels[index == 1] == pytest.approx(f1, abs=1e-6)
    expected = contour("f1", f1, 20, 40)
    lines = [line for (level, line), k in zip(widget.contours(), index, strict=True) if k == 1]
    np.testing.assert_allclose(lines[0], np.asarray(expected[0], dtype="<f4"))


def test_contour_levels_per_metric(widget: RocSlice) -> None:
    widget.contour_metrics = ["f1"]
    widget.contour_levels = {"F1": [0.4, 2 / 3]}
    index = np.frombuffer(widget._contour_metric, dtype="<u4")
    levels = np.frombuffer(widget._contour_levels, dtype="<f4")
    assert sorted({round(float(v), 4) for v in levels[index == 1]}) == [0.4, 0.6667]
    before = widget._contour_xy
    widget.tp = 15  # explicit levels everywhere: contours do not move with the point
    assert widget._contour_xy == before


@pytest.mark.parametrize(
    ("trait", "value"),
    [
        ("contour_metrics", ["nope"]),
        ("contour_metrics", list(METRICS)[:9]),
        ("contour_levels", {"nope": [0.5]}),
        ("contour_levels", {"f1": [float("inf")]}),
    ],
)
def test_contour_metric_validation(widget: RocSlice, trait: str, value) -> None:
    with pytest.raises(traitlets.TraitError, match=trait):
        setattr(widget, trait, value)


# ------------------------------------------------------------------ atomic updates
def test_update_changes_everything_in_one_message(widget: RocSlice, monkeypatch) -> None:
    sent = []
    monkeypatch.setattr(widget, "send_state", lambda key=None: sent.append(set(key or ())))
    widget.update(p=30, n=30, tp=24, tn=24, model="binomial", metric="f1", generation=7)
    assert len(sent) == 1
    keys = set(sent[0])
    assert {"p", "n", "tp", "tn", "model", "metric", "generation", "_values", "_pmf_tp"} <= keys
    assert (widget.p, widget.n, widget.generation, widget.model) == (30, 30, 7, "binomial")
    assert len(widget._values) == 4 * 31 * 31


def test_update_is_all_or_nothing(widget: RocSlice) -> None:
    with pytest.raises(traitlets.TraitError):
        widget.update(p=5, n=7)  # tp = 16 > 5
    assert (widget.p, widget.n) == (20, 40)
    with pytest.raises(TypeError, match="unknown traits"):
        widget.update(q=3)


def test_update_of_the_generation_only_recomputes_nothing(widget: RocSlice, monkeypatch) -> None:
    widget.levels = []  # the contour goes through the observed point
    calls = []
    monkeypatch.setattr(RocSlice, "_update_lattice", lambda self: calls.append("lattice"))
    monkeypatch.setattr(RocSlice, "_update_contours", lambda self: calls.append("contours"))
    widget.update(generation=3)
    assert calls == [] and widget.generation == 3
    widget.update(tp=15)
    assert calls == ["contours"]  # the observed point's contour, not the lattice
