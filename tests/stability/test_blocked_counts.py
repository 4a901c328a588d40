"""The blocked comparison path of category counting (issue 15) gives what the other paths give.

``category_counts`` first tries ``_blocked_counts`` (a few numeric categories, counted by
comparison block by block, no sort and no code matrix). Every test here checks it against

* the path used before it existed (``_blocked_counts`` switched off: the int8 comparison path
  or the general ``encode`` + ``np.bincount`` path): counts, categories and their dtype
  identical, and phi/psi/α/κ results identical to the last bit;
* an independent count with ``collections.Counter`` over the Python values of each column.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from hypothesis.extra import numpy as hnp

from confusionlab import stability as st
from confusionlab._validation import TooLargeError, set_memory_limit
from confusionlab.stability import _counting
from confusionlab.stability._checks import check_categories


def counts_before(arrays, categories, ordinal=False):
    """``category_counts`` as it was before the blocked path."""
    saved = _counting._blocked_counts
    _counting._blocked_counts = lambda *args: None
    try:
        return _counting.category_counts(arrays, categories, ordinal=ordinal)
    finally:
        _counting._blocked_counts = saved


def counter_counts(matrix, cats):
    """Independent reference: Counter over the non-missing Python values of each column."""
    out = np.zeros((matrix.shape[1], len(cats)), dtype=np.int64)
    index = {c.item() if hasattr(c, "item") else c: k for k, c in enumerate(cats)}
    for j in range(matrix.shape[1]):
        for value, n in Counter(v for v in matrix[:, j].tolist() if v == v).items():
            out[j, index[value]] = n
    return out


def both(pred, ref, categories=None, ordinal=False):
    arrays = [(pred, pred, "predictions", True), (ref, ref, "reference", False)]
    cats = check_categories(categories)
    now = _counting.category_counts(arrays, cats, ordinal=ordinal)
    fast = _counting._blocked_counts(arrays, cats)
    before = counts_before(arrays, cats, ordinal=ordinal)
    return now, fast, before


def assert_same(now, before):
    (c_now, m_now), cats_now = now
    (c_before, m_before), cats_before = before
    np.testing.assert_array_equal(cats_now, cats_before)
    assert cats_now.dtype == cats_before.dtype
    np.testing.assert_array_equal(c_now, c_before)
    np.testing.assert_array_equal(m_now, m_before)
    assert c_now.dtype == c_before.dtype == np.int64


def random_matrix(rng, shape, values, nan_share):
    x = rng.choice(np.asarray(values, dtype=np.float64), size=shape)
    if nan_share:
        x[rng.random(shape) < nan_share] = np.nan
    return x


CASES = {
    "three integer floats": ([0.0, 1.0, 2.0], 0.0),
    "three integer floats, NaN": ([0.0, 1.0, 2.0], 0.1),
    "five ordinal levels, NaN": ([0.0, 1.0, 2.0, 3.0, 4.0], 0.05),
    "non-integer floats": ([0.25, 0.75, 1.5], 0.0),
    "non-integer floats, NaN": ([-0.5, 0.25, 7.125], 0.2),
    "negative and large": ([-1000.0, 3.0, 1e9], 0.0),
    "sixteen values": (list(range(-8, 8)), 0.02),
    "single value": ([3.0], 0.0),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("shape", [(7, 13), (600, 2000), (3, 100_000)])
def test_equal_to_before_and_to_counter(case, shape):
    values, nan_share = CASES[case]
    rng = np.random.default_rng(zlib.crc32(f"{case}{shape}".encode()))
    pred = random_matrix(rng, shape, values, nan_share)
    ref = random_matrix(rng, 500, values, nan_share)
    now, fast, before = both(pred, ref)
    assert fast is not None  # the blocked path answered
    assert_same(now, before)
    if shape[0] * shape[1] <= 100_000:
        (counts, _), cats = now
        np.testing.assert_array_equal(counts, counter_counts(pred, cats))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.bool_, np.float32])
def test_other_numeric_dtypes(dtype):
    rng = np.random.default_rng(1)
    pred = rng.integers(0, 2 if dtype is np.bool_ else 4, size=(50, 300)).astype(dtype)
    ref = rng.integers(0, 2 if dtype is np.bool_ else 4, size=80).astype(dtype)
    now, _, before = both(pred, ref)
    assert_same(now, before)
    (counts, _), cats = now
    np.testing.assert_array_equal(counts, counter_counts(pred, cats))


@pytest.mark.parametrize(
    ("dtype", "ref"),
    [(np.int8, [0.0, 1.0, 2.5, 300.0]), (np.uint8, [-1, 0, 1]), (np.bool_, [0, 1, 2]), (np.float32, [0.1, 1.0])],
)
def test_narrow_predictions_with_a_wider_reference(dtype, ref):
    """The matrix is compared in its own dtype; categories it cannot hold count 0."""
    rng = np.random.default_rng(11)
    pred = rng.integers(0, 2, size=(40, 3000)).astype(dtype)
    ref = np.asarray(ref)
    now, fast, before = both(pred, ref)
    assert fast is not None
    assert_same(now, before)
    (counts, m), cats = now
    np.testing.assert_array_equal(counts, counter_counts(pred, cats))
    np.testing.assert_array_equal(m, [int(np.sum(ref == c)) for c in cats])


@pytest.mark.parametrize("layout", ["fortran", "strided", "transposed"])
def test_memory_layouts(layout):
    """Fortran order is read through its transpose, other strides block by block."""
    rng = np.random.default_rng(2)
    base = random_matrix(rng, (400, 900), [0.0, 1.0, 2.0, 5.0], 0.05)
    pred = {
        "fortran": np.asfortranarray(base),
        "strided": base[::2, ::3],
        "transposed": np.ascontiguousarray(base.T).T,
    }[layout]
    ref = random_matrix(rng, 100, [0.0, 1.0, 2.0, 5.0], 0.0)
    now, fast, before = both(pred, ref)
    assert fast is not None
    assert_same(now, before)
    (counts, _), cats = now
    np.testing.assert_array_equal(counts, counter_counts(np.ascontiguousarray(pred), cats))


def test_fortran_order_with_more_refits_than_uint16_sums():
    rng = np.random.default_rng(9)
    pred = np.asfortranarray(random_matrix(rng, (70_000, 3), [0.0, 1.0, 2.0], 0.01))
    ref = np.array([0.0, 1.0, 2.0])
    now, fast, before = both(pred, ref)
    assert fast is not None
    assert_same(now, before)
    (counts, _), cats = now
    want = [[int(np.sum(pred[:, j] == v)) for v in cats] for j in range(3)]
    np.testing.assert_array_equal(counts, want)


@pytest.mark.parametrize(
    "categories",
    [[0, 1, 2], [2, 0, 1], [0.0, 1.0, 2.0, 9.0], [2.5, 0, 1, 2], np.array([1, 0, 2], dtype=np.int8)],
    ids=["sorted", "unsorted", "unused float", "unused non-integer", "int8"],
)
def test_given_categories(categories):
    rng = np.random.default_rng(3)
    pred = random_matrix(rng, (300, 1000), [0.0, 1.0, 2.0], 0.1)
    ref = random_matrix(rng, 50, [0.0, 1.0, 2.0], 0.0)
    now, fast, before = both(pred, ref, categories, ordinal=True)
    assert fast is not None
    assert_same(now, before)
    (counts, _), cats = now
    assert cats.tolist() == list(np.asarray(categories).tolist())
    np.testing.assert_array_equal(counts, counter_counts(pred, cats))


def test_value_outside_given_categories_is_refused_as_before():
    pred = np.zeros((300, 1000))
    pred[299, 999] = 3.0
    with pytest.raises(ValueError, match=r"predictions contains values not in categories: 3\.0"):
        st.phi(pred, [0.0, 1.0], "nominal", categories=[0.0, 1.0])
    with pytest.raises(ValueError, match=r"train_y contains values not in categories: 7"):
        st.phi(np.zeros((3, 4)), [0, 1, 7], "nominal", categories=[0, 1])


def test_string_categories_take_the_general_path():
    rng = np.random.default_rng(4)
    pred = rng.choice(np.array(["neg", "pos", "maybe"]), size=(40, 200))
    ref = rng.choice(np.array(["neg", "pos", "maybe"]), size=60)
    arrays = [(pred, pred, "predictions", True), (ref, ref, "reference", False)]
    assert _counting._blocked_counts(arrays, None) is None
    (counts, _), cats = _counting.category_counts(arrays, None, ordinal=False)
    assert cats.tolist() == ["maybe", "neg", "pos"]
    np.testing.assert_array_equal(counts, counter_counts(pred, cats))
    given = check_categories(["pos", "neg", "maybe"])
    assert _counting._blocked_counts(arrays, given) is None


def test_categories_missed_by_the_sample_are_found():
    """The category list is seeded from a sample; rare values are searched and counted."""
    rng = np.random.default_rng(5)
    pred = random_matrix(rng, (500, 3000), [0.0, 1.0], 0.0)
    pred[-1, -1] = 7.0  # once, far from the sample
    pred[-3, 17] = -2.5
    pred[250, :] = np.nan  # a row of missing values
    ref = np.array([0.0, 1.0, 4.0])  # a category only the reference has
    now, fast, before = both(pred, ref)
    assert fast is not None
    assert_same(now, before)
    (counts, m), cats = now
    assert cats.tolist() == [-2.5, 0.0, 1.0, 4.0, 7.0]
    assert m.tolist() == [0, 1, 1, 1, 0]
    np.testing.assert_array_equal(counts, counter_counts(pred, cats))


def test_sample_of_missing_values_only():
    """First and last refits failed (all NaN): the categories are searched in the rest."""
    rng = np.random.default_rng(10)
    pred = random_matrix(rng, (300, 700), [2.0, 3.0, 5.0], 0.0)
    pred[[0, -1]] = np.nan
    ref = np.full(50, np.nan)
    ref[25:27] = [3.0, 2.0]
    now, fast, before = both(pred, ref)
    assert fast is not None
    assert_same(now, before)
    (counts, m), cats = now
    assert cats.tolist() == [2.0, 3.0, 5.0] and m.tolist() == [1, 1, 0]
    np.testing.assert_array_equal(counts, counter_counts(pred, cats))


def test_too_many_categories_fall_back():
    rng = np.random.default_rng(6)
    pred = rng.integers(0, 40, size=(30, 500)).astype(float)  # 40 values: beyond the blocked path
    pred[-1, -1] = 100.0  # and a range beyond the int8 path
    ref = np.arange(40.0)
    now, fast, before = both(pred, ref)
    assert fast is None
    assert_same(now, before)
    # the sample sees two values, the search finds twenty more in the middle rows
    pred = np.zeros((30, 500))
    pred[0, 1] = pred[-1, 1] = 1.0
    pred[15, :20] = np.arange(2.0, 22.0)
    now, fast, before = both(pred, np.array([0.0, 1.0]))
    assert fast is None
    assert_same(now, before)
    assert now[1].tolist() == list(range(22))


def test_all_missing_and_large_pooled_reference():
    rng = np.random.default_rng(7)
    pred = random_matrix(rng, (20, 50), [1.0, 2.0], 0.0)
    pred[:, 3] = np.nan  # one object without predictions
    ref = random_matrix(rng, 8192 * 9 + 5, [1.0, 2.0, 3.0], 0.1)  # several pieces and a remainder
    now, fast, before = both(pred, ref)
    assert fast is not None
    assert_same(now, before)
    (_, m), _ = now
    assert m.tolist() == [int(np.sum(ref == v)) for v in (1.0, 2.0, 3.0)]
    nothing = np.full((3, 4), np.nan)
    assert _counting._blocked_counts([(nothing, nothing, "predictions", True)], None) is None
    with pytest.raises(ValueError, match="no non-missing values"):
        st.krippendorff_alpha(nothing, "nominal")


@pytest.mark.parametrize("scale", ["nominal", "ordinal"])
@pytest.mark.parametrize("nan_share", [0.0, 0.1])
def test_measures_identical_to_before(scale, nan_share, monkeypatch):
    rng = np.random.default_rng(8)
    values = [0.0, 1.0, 2.0, 3.0, 4.0]
    pred = random_matrix(rng, (200, 800), values, nan_share)
    train = random_matrix(rng, 300, values, nan_share)

    def run():
        return (
            st.phi(pred, train, scale),
            st.psi(pred, pred[:50], scale, categories=values),
            float(st.krippendorff_alpha(pred, scale)),
            float(st.fleiss_kappa(np.nan_to_num(pred))),
        )

    now = run()
    monkeypatch.setattr(_counting, "_blocked_counts", lambda *args: None)
    before = run()
    for a, b in zip(now[:2], before[:2], strict=True):
        np.testing.assert_array_equal(a.per_object, b.per_object)
        np.testing.assert_array_equal(a.observed, b.observed)
        np.testing.assert_array_equal(a.n_refits, b.n_refits)
        np.testing.assert_array_equal(a.categories, b.categories)
        assert a.expected == b.expected
    assert now[2:] == before[2:]


def test_memory_checked_before_allocating():
    pred = np.zeros((3, 3000))
    pred[0] = 1.0
    set_memory_limit("64K")
    try:
        with pytest.raises(TooLargeError, match="category counts of predictions"):
            st.phi(pred, [0.0, 1.0], "nominal")
    finally:
        set_memory_limit(None)
    assert st.phi(pred, [0.0, 1.0], "nominal").n_objects == 3000


SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


@SETTINGS
@given(
    pred=hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=2, max_dims=2, min_side=2, max_side=40),
        elements=hs.sampled_from([0.0, -0.0, 1.0, 2.5, -3.0, np.nan, np.inf, 1e300]),
    ),
    ref=hnp.arrays(np.float64, hs.integers(2, 30), elements=hs.sampled_from([0.0, 1.0, 2.5, np.nan, 8.0])),
    order=hs.sampled_from(["C", "F"]),
)
def test_property_equal_to_before(pred, ref, order):
    pred = np.asarray(pred, order=order)
    arrays = [(pred, pred, "predictions", True), (ref, ref, "reference", False)]
    try:
        before = counts_before(arrays, None)
    except ValueError as exc:  # nothing to count: the same refusal now
        with pytest.raises(ValueError, match=re.escape(str(exc)[:40])):
            _counting.category_counts(arrays, None, ordinal=False)
        return
    now = _counting.category_counts(arrays, None, ordinal=False)
    assert_same(now, before)
    (counts, _), cats = now
    np.testing.assert_array_equal(counts, counter_counts(pred, cats))


# ----------------------------------------------------------------------------- threads over ranges of objects
def bincount_counts(matrix: np.ndarray, cats: np.ndarray) -> np.ndarray:
    """Independent reference: codes by searchsorted, then one bincount per (object, category)."""
    finite = ~np.isnan(matrix)
    codes = np.searchsorted(cats, matrix[finite])
    objects = np.broadcast_to(np.arange(matrix.shape[1]), matrix.shape)[finite]
    return np.bincount(objects * cats.size + codes, minlength=matrix.shape[1] * cats.size).reshape(-1, cats.size)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("workers", [2, 3, 4])
def test_counts_on_threads_equal_one_thread_and_bincount(order: str, workers: int, monkeypatch) -> None:
    rng = np.random.default_rng(workers)
    matrix = rng.integers(0, 3, size=(40, 10_001)).astype(float)
    matrix[rng.random(matrix.shape) < 0.01] = np.nan
    matrix = np.asarray(matrix, order=order)
    train = np.array([0.0, 1.0, 2.0] * 10)
    arrays = [(matrix, matrix, "predictions", True), (train, train, "train_y", False)]
    single = _counting.category_counts(arrays, None, ordinal=False)
    monkeypatch.setattr(_counting, "_THREAD_VALUES", 1000)
    monkeypatch.setattr(_counting, "_THREADS", workers)
    monkeypatch.setattr(_counting.os, "cpu_count", lambda: 8)
    monkeypatch.setattr(_counting.os, "getloadavg", lambda: (0.0, 0.0, 0.0))  # idle cores
    threaded = _counting.category_counts(arrays, None, ordinal=False)
    (counts, reference), cats = threaded
    np.testing.assert_array_equal(cats, single[1])
    np.testing.assert_array_equal(counts, single[0][0])
    np.testing.assert_array_equal(reference, single[0][1])
    np.testing.assert_array_equal(counts, bincount_counts(matrix, np.array([0.0, 1.0, 2.0])))
    assert st.phi(matrix, train, "nominal").per_object.tolist() == pytest.approx(
        st.phi(np.ascontiguousarray(matrix), train, "nominal").per_object.tolist(), nan_ok=True, abs=0
    )


@pytest.mark.parametrize(
    ("cores", "load", "expected"),
    [
        (2, 0.0, 2),
        (2, 1.0, 2),
        (2, 1.5, 1),
        (2, 2.0, 1),
        (2, 6.0, 1),
        (1, 0.0, 1),
        (8, 0.0, 2),
        (8, 7.0, 2),
        (8, 7.5, 1),
    ],
)
def test_threads_never_exceed_two_or_the_idle_cores(cores: int, load: float, expected: int, monkeypatch) -> None:
    """One pass by default; allowed two, never more, and none that would wait for a core another
    job keeps busy (issue 24).

    The old rule, ``min(4, cpu_count)``, started two threads on two cores at any load (the
    default and the cases with load ≥ 1.5 on two cores fail on it) and four on eight cores.
    """
    assert _counting._workers(10_000_000) == 1  # the default: one pass (issue 24's measurements)
    monkeypatch.setattr(_counting, "_THREADS", 2)
    monkeypatch.setattr(_counting.os, "cpu_count", lambda: cores)
    monkeypatch.setattr(_counting.os, "getloadavg", lambda: (load, load, load))
    assert _counting._workers(10_000_000) == expected
    assert _counting._workers(1_999_999) == 1  # below two threads' worth of values: one pass


def test_a_busy_machine_counts_in_one_pass_without_a_pool(monkeypatch) -> None:
    """At load 4 on two cores no thread pool is started, and the counts equal an independent bincount."""
    rng = np.random.default_rng(24)
    matrix = rng.integers(0, 3, size=(200, 10_000)).astype(float)
    monkeypatch.setattr(_counting, "_THREADS", 2)
    monkeypatch.setattr(_counting.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(_counting.os, "getloadavg", lambda: (4.0, 4.0, 4.0))

    def no_pool(*args, **kwargs):
        raise AssertionError("a thread pool was started on a busy machine")

    monkeypatch.setattr(_counting, "ThreadPoolExecutor", no_pool)
    (counts, _), cats = _counting.category_counts(
        [(matrix, matrix, "predictions", True), (matrix[0], matrix[0], "train_y", False)], None, ordinal=False
    )
    np.testing.assert_array_equal(counts, bincount_counts(matrix, cats))
