"""Exact grouping (issue 15): the packed int64 sort, MCC's slice form and both ways of summing
groups, against independent references — numpy's stable argsort, Python integers and the
``fractions.Fraction`` brute force of ``brute.py``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_exact_pmf import ALL_METRICS, assert_matches_brute

import confusionlab as cl
from confusionlab import grouping, sorting
from confusionlab.distribution import key_arithmetic as _arithmetic
from confusionlab.distribution import lattice_distribution
from confusionlab.metrics import ExactForm, get_metric
from confusionlab.models import slice_model

SETTINGS = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
MCC = get_metric("mcc")

# doubles that stress the packed keys: signed zeros, subnormals, infinities, and runs of
# distinct doubles a few ulps apart (same high bits, so they tie in the packed sort)
_BASES = [0.0, -0.0, 5e-324, -5e-324, 1e-310, -1e-310, 1.0, -1.0, 1 / 3, -2.5e15, 7e300, np.inf, -np.inf]
special = st.sampled_from(_BASES)
near_one = st.builds(lambda base, steps: float(base * (1 + steps * 2.0**-52)), st.sampled_from([1.0, -3.0]),
                     st.integers(-6, 6))  # fmt: skip
doubles = st.one_of(special, near_one, st.floats(allow_nan=False, width=64))


def _reference(f: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(f, kind="stable")
    fs = f[order]
    return order, fs[1:] == fs[:-1]


@SETTINGS
@given(values=st.lists(doubles, max_size=300), block=st.sampled_from([3, 64, 1 << 15]), dense=st.booleans())
def test_sort_doubles_is_a_stable_argsort(monkeypatch, values, block, dense) -> None:
    """Same permutation as numpy's stable argsort (ties in index order), same ties."""
    monkeypatch.setattr(sorting, "_BLOCK", block)
    monkeypatch.setattr(sorting, "_DENSE_RUNS", 10**9 if dense else 1)
    f = np.array(values, dtype=np.float64)
    order, same = sorting.sort_doubles(f)
    ref_order, ref_same = _reference(f)
    np.testing.assert_array_equal(order, ref_order)
    np.testing.assert_array_equal(same, ref_same)


@pytest.mark.parametrize("dense", [True, False])
def test_sort_doubles_reorders_near_doubles_out_of_index_order(monkeypatch, dense) -> None:
    """Distinct doubles 1–3 ulps apart share their high bits: their run is re-sorted on the doubles."""
    monkeypatch.setattr(sorting, "_DENSE_RUNS", 10**9 if dense else 1)
    ulp = 2.0**-52
    rng = np.random.default_rng(0)
    f = rng.permutation(np.r_[np.linspace(-50, 50, 2000), [1 + 3 * ulp, 1.0, 1 + ulp, 1 + 2 * ulp, 1.0, -0.0, 0.0]])
    order, same = sorting.sort_doubles(f)
    ref_order, ref_same = _reference(f)
    np.testing.assert_array_equal(order, ref_order)
    np.testing.assert_array_equal(same, ref_same)
    assert same.sum() == 2  # 1.0 twice, −0.0 == +0.0


def _mcc_integers(tp: int, tn: int, p: int, n: int) -> tuple[int, int]:
    """MCC's exact ratio r·|r| / ((TP+FP)(TP+FN)(TN+FP)(TN+FN)) in Python integers."""
    fn, fp = p - tp, n - tn
    r = tp * tn - fp * fn
    return r * abs(r), (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)


@SETTINGS
@given(p=st.integers(0, 40), n=st.integers(0, 40), as_float=st.booleans())
def test_mcc_slice_form_is_the_general_form(p, n, as_float) -> None:
    """On the whole slice — the 0/0 corners (TP+FP = 0, FN+TN = 0), negative r included —
    the slice form holds the very integers of the definition, and its bounds hold."""
    tp, tn = np.arange(p + 1)[:, None], np.arange(n + 1)[None, :]
    form = MCC._exact_on_slice(tp, tn, p, n, as_float=as_float)
    pairs = [[_mcc_integers(a, b, p, n) for b in range(n + 1)] for a in range(p + 1)]
    num = np.array([[x[0] for x in row] for row in pairs], dtype=object)
    den = np.array([[x[1] for x in row] for row in pairs], dtype=object)
    np.testing.assert_array_equal(np.broadcast_to(form.num, num.shape).astype(object), num)
    np.testing.assert_array_equal(np.broadcast_to(form.den, den.shape).astype(object), den)
    assert (form.num < 0).any() == (p > 0 and n > 0)  # r < 0 somewhere on every proper slice
    if form.bounds is not None:
        big_num, big_den, big_ratio = form.bounds
        assert max(abs(int(x)) for x in num.ravel()) <= big_num
        assert max(int(x) for x in den.ravel()) <= big_den
        assert all(abs(a) <= big_ratio * d for a, d in zip(num.ravel(), den.ravel(), strict=True) if d > 0)


@pytest.mark.parametrize(("p", "n"), [(6850, 6850), (1, 13699), (13699, 1), (4000, 9700)])
def test_mcc_slice_form_is_exact_in_float64_just_below_2_53(p: int, n: int) -> None:
    """N = 13,700: N⁴/4 is just below 2**53, the largest slice computed in float64 — every
    integer still exact (Python integers as reference), at the lattice's extreme points."""
    assert _arithmetic(MCC, p + n, ()) == "float" and _arithmetic(MCC, p + n + 100, ()) != "float"
    tps = np.array(sorted({0, 1, p // 3, p // 2, p - 1, p}))[:, None]
    tns = np.array(sorted({0, 1, n // 3, n // 2, n - 1, n}))[None, :]
    form = MCC._exact_on_slice(tps, tns, p, n, as_float=True)
    for i, a in enumerate(tps[:, 0].tolist()):
        for j, b in enumerate(tns[0].tolist()):
            num, den = _mcc_integers(a, b, p, n)
            assert int(form.num[i, j]) == num and int(form.den[i, j]) == den, (a, b)
    big_num, big_den, _ = form.bounds
    assert big_num < 2.0**53 and big_den < 2.0**53


def test_slice_and_general_forms_give_identical_distributions_near_2_53() -> None:
    """At N = 13,700 (float64 slice form) the PMF is bit for bit the one of the general form."""
    cm = cl.ConfusionMatrix.from_rates(6850, 6850, 0.8, 0.7)
    sl = slice_model(cm, "beta-binomial", tolerance=1e-6)
    tp, tn = sl.tp, sl.tn
    cols = (tp, sl.p - tp, sl.n - tn, tn)
    args = {"largest": sl.p + sl.n, "pruned": sl.pruned_mass, "model": "beta-binomial", "undefined": 0.0}
    fast = lattice_distribution(MCC, cols, sl.joint(), slice_pn=(sl.p, sl.n), **args)
    plain = lattice_distribution(MCC, cols, sl.joint(), **args)
    np.testing.assert_array_equal(fast.values, plain.values)
    np.testing.assert_array_equal(fast.multiplicities, plain.multiplicities)
    np.testing.assert_allclose(fast.probabilities, plain.probabilities, rtol=1e-13)
    assert (fast.multiplicities > 1).any()  # ties were grouped


@pytest.mark.parametrize("ties", ["few", "many"])
@pytest.mark.parametrize("runs", ["dense", "sparse"])
@pytest.mark.parametrize(
    "counts", [(16, 4, 9, 32), (6, 6, 6, 6), (0, 4, 3, 3), (5, 0, 2, 6), (1, 0, 0, 1), (3, 9, 0, 0), (0, 0, 2, 5)]
)
def test_every_metric_matches_brute_force_in_every_branch(monkeypatch, ties, runs, counts) -> None:
    """Groups summed from their first point or by runs, near runs checked sparsely or densely:
    every metric's PMF against exact Fraction enumeration (slices with p = 0 or n = 0 included)."""
    monkeypatch.setattr(grouping, "_FEW_TIES", 1 if ties == "few" else 10**9)
    monkeypatch.setattr(sorting, "_DENSE_RUNS", 10**9 if runs == "dense" else 1)
    cm = cl.ConfusionMatrix(**dict(zip(("tp", "fn", "fp", "tn"), counts, strict=True)))
    for metric in ALL_METRICS:
        d = cl.metric_distribution(cm, metric, "beta-binomial", tolerance=0)
        assert_matches_brute(d, metric, cm, "beta-binomial")


@pytest.mark.parametrize("counts", [(16, 4, 9, 32), (3, 9, 1, 0), (0, 5, 5, 0)])
def test_mcc_slice_form_with_undefined_points_excluded(counts) -> None:
    """The 0/0 corners of MCC's slice form are the general form's: same excluded mass and points."""
    cm = cl.ConfusionMatrix(**dict(zip(("tp", "fn", "fp", "tn"), counts, strict=True)))
    sl = slice_model(cm, "beta-binomial", tolerance=0)
    tp, tn = sl.tp, sl.tn
    cols = (tp, sl.p - tp, sl.n - tn, tn)
    args = {"largest": sl.p + sl.n, "pruned": 0.0, "model": "beta-binomial", "undefined": None}
    fast = lattice_distribution(MCC, cols, sl.joint(), slice_pn=(sl.p, sl.n), **args)
    plain = lattice_distribution(MCC, cols, sl.joint(), **args)
    np.testing.assert_array_equal(fast.values, plain.values)
    np.testing.assert_array_equal(fast.multiplicities, plain.multiplicities)
    assert fast.undefined_points == plain.undefined_points > 0
    assert fast.undefined_mass == pytest.approx(plain.undefined_mass, rel=1e-15)


@SETTINGS
@given(
    num=st.lists(st.integers(-(10**6), 10**6), min_size=1, max_size=60),
    den_seed=st.integers(0, 2**32 - 1),
    kind=st.sampled_from(["ratio", "signed_square"]),
)
def test_bounds_give_the_groups_of_a_scan(num, den_seed, kind) -> None:
    """A form whose upper bounds are given groups exactly as the scanned one."""
    num = np.array(num, dtype=np.int64)
    den = np.random.default_rng(den_seed).integers(1, 10**6, num.size)
    w = np.full(num.size, 1.0 / num.size)
    scanned = grouping.group_exact(ExactForm(num, den, kind), w)
    ratio_bound = float(np.max(np.abs(num) / den))
    bounded = grouping.group_exact(ExactForm(num, den, kind, bounds=(10**6, 10**6, ratio_bound * 2)), w)
    np.testing.assert_array_equal(bounded.values, scanned.values)
    np.testing.assert_array_equal(bounded.counts, scanned.counts)
    np.testing.assert_allclose(bounded.masses, scanned.masses, rtol=1e-14)


def test_signed_square_values_overwrite_and_signed_zeros() -> None:
    """In-place values equal sign(x)·sqrt(|x|) (numpy's own formula); −0.0 gives +0.0."""
    form = ExactForm(np.zeros(1), np.ones(1), "signed_square")
    x = np.array([-0.0, 0.0, 0.25, -4.0, 2.0])
    expected = np.sign(x) * np.sqrt(np.abs(x))
    got = form.value(x.copy(), 1, overwrite=True)
    np.testing.assert_array_equal(got, expected)
    assert not np.signbit(got[:2]).any()
    np.testing.assert_array_equal(form.value(x, np.full(5, 4.0)), np.sign(x) * np.sqrt(np.abs(x) / 4))
    assert form.value(np.float64(-9.0), np.float64(4.0)) == -1.5


def test_bounds_beyond_the_wrapped_check_fall_back_to_gcd() -> None:
    """Given bounds too large for the wrapped check, grouping falls back to gcd-reduced pairs."""
    num = np.array([1, 2, 3, 4, 6], dtype=np.int64)
    den = np.array([2, 4, 4, 8, 8], dtype=np.int64)
    w = np.full(5, 0.2)
    g = grouping.group_exact(ExactForm(num, den, bounds=(2.0**52, 2.0**52, 2.0**52)), w)
    assert g.strategy == "gcd"
    np.testing.assert_array_equal(g.values, [0.5, 0.75])
    np.testing.assert_array_equal(g.counts, [3, 2])
