"""Comparators: the published identities and numbers, and equality with the peer packages.

Reference values come from the stability framework's examples (T. M. Lange, F. Heinrich et
al.; given to 3 decimals, hence abs tolerance 5e-4),
from hand computation in comments, or from krippendorff / statsmodels / pingouin run here
on the same inputs.
"""

from __future__ import annotations

import warnings

import krippendorff
import numpy as np
import pandas as pd
import pingouin
import pytest
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

from confusionlab import stability as st

PUBLISHED_TOL = 5e-4  # the published numbers are given to 3 decimals


def prevalence_example() -> tuple[np.ndarray, np.ndarray]:
    """The prevalence paradox: 20 objects × 10 refits; 19 objects all "neg", one object 8 neg / 2 pos.

    The example does not state the training responses behind phi = 0.902. We use 100 training
    responses with 10 "pos" (prevalence 10%): D_e = 1 − (10·9 + 90·89)/(100·99) = 0.1818…,
    D_o of the mixed object = 1 − (8·7 + 2·1)/90 = 0.3556, so
    phi = 1 − 0.3556/(20·0.1818) = 0.9022, which rounds to the published 0.902.
    """
    pred = np.full((10, 20), "neg", dtype=object)
    pred[:2, 19] = "pos"
    train_y = np.array(["pos"] * 10 + ["neg"] * 90, dtype=object)
    return pred, train_y


def test_prevalence_example_spec_numbers():
    pred, train_y = prevalence_example()
    assert float(st.fleiss_kappa(pred)) == pytest.approx(0.102, abs=PUBLISHED_TOL)
    assert float(st.krippendorff_alpha(pred, "nominal")) == pytest.approx(0.107, abs=PUBLISHED_TOL)
    assert float(st.gwet_ac1(pred)) == pytest.approx(0.982, abs=PUBLISHED_TOL)
    assert st.phi(pred, train_y, "nominal").value == pytest.approx(0.902, abs=PUBLISHED_TOL)
    # and exactly (hand computation in the docstring above)
    assert st.phi(pred, train_y, "nominal").value == pytest.approx(
        1 - (1 - 58 / 90) / (20 * (1 - (90 + 90 * 89) / 9900)), rel=1e-12
    )


def test_prevalence_example_matches_peers():
    pred, _ = prevalence_example()
    codes = (pred == "pos").astype(float)
    table, _ = aggregate_raters(codes.T)
    assert float(st.fleiss_kappa(pred)) == pytest.approx(sm_fleiss_kappa(table), rel=1e-12)
    want = krippendorff.alpha(reliability_data=codes, level_of_measurement="nominal")
    assert float(st.krippendorff_alpha(pred, "nominal")) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("r", [2, 3, 5, 10, 25])
def test_fleiss_single_object_is_minus_one_over_r_minus_one(r):
    rng = np.random.default_rng(r)
    pred = rng.integers(0, 3, size=(r, 1))
    pred[0, 0], pred[1, 0] = 0, 1  # at least two categories, else κ is undefined
    assert float(st.fleiss_kappa(pred)) == pytest.approx(-1 / (r - 1), rel=1e-12)


@pytest.mark.parametrize("scale", ["nominal", "ordinal", "metric"])
def test_alpha_single_object_is_zero(scale):
    pred = np.array([[1.0], [2.0], [2.0], [4.0], [np.nan]])
    assert float(st.krippendorff_alpha(pred, scale)) == pytest.approx(0.0, abs=1e-12)
    assert krippendorff.alpha(
        reliability_data=pred, level_of_measurement="interval" if scale == "metric" else scale
    ) == pytest.approx(0.0, abs=1e-12)


def test_all_in_one_class_kappa_undefined_phi_one():
    pred = np.zeros((10, 20), dtype=int)
    table, _ = aggregate_raters(pred.T, n_cat=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert np.isnan(sm_fleiss_kappa(table))  # the peer's silent NaN
    with pytest.warns(st.UndefinedCoefficientWarning, match="one category"):
        k = st.fleiss_kappa(pred, on_undefined="warn")
    assert np.isnan(k) and not k.defined and "P_e = 1" in k.reason
    assert "undefined" in repr(k)
    with pytest.raises(st.UndefinedError, match="fleiss_kappa is undefined"):
        st.fleiss_kappa(pred, on_undefined="raise")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(st.fleiss_kappa(pred, on_undefined="nan"))
    assert st.phi(pred, [0, 1, 0, 0], "nominal").value == 1.0


def two_object_example() -> tuple[np.ndarray, np.ndarray]:
    """Two objects × 10 refits, metric (our construction; the published example gives no data).

    Object 1: 10 ± 0.06 alternating; object 2: 10.0222 ∓ 0.06. Within-object variance
    s² = 0.06²·10/9 = 0.004 (MSW), between-object MSB = 10·0.0222²/2 = 0.0024642, so
    ICC(1,1) = (MSB − MSW)/(MSB + 9·MSW) = −0.0399. Training responses (9, 10, 11) have
    variance 1, so phi_i = 1 − 0.004/1 = 0.996 for both objects: the published −0.040 vs 0.996.
    """
    signs = np.array([1.0, -1.0] * 5)
    pred = np.column_stack((10.0 + 0.06 * signs, 10.0222 - 0.06 * signs))
    return pred, np.array([9.0, 10.0, 11.0])


def icc_pingouin(pred: np.ndarray) -> dict[str, float]:
    r, n = pred.shape
    long = pd.DataFrame(
        {
            "target": np.tile(np.arange(n), r),
            "rater": np.repeat(np.arange(r), n),
            "rating": pred.reshape(-1),
        }
    )
    with warnings.catch_warnings():  # pingouin's own pandas deprecation noise
        warnings.simplefilter("ignore")
        out = pingouin.intraclass_corr(long, targets="target", raters="rater", ratings="rating")
    old_names = {
        "ICC1": "ICC(1,1)",
        "ICC2": "ICC(A,1)",
        "ICC3": "ICC(C,1)",
        "ICC1k": "ICC(1,k)",
        "ICC2k": "ICC(A,k)",
        "ICC3k": "ICC(C,k)",
    }  # pingouin < 0.7
    return {old_names.get(t, t): v for t, v in zip(out["Type"], out["ICC"], strict=True)}


def test_two_object_icc_vs_phi():
    pred, train_y = two_object_example()
    ours = float(st.icc(pred))
    assert ours == pytest.approx(icc_pingouin(pred)["ICC(1,1)"], rel=1e-9)
    assert round(ours, 3) == -0.040
    # phi by brute force over ordered pairs
    d_e = np.mean([(a - b) ** 2 for i, a in enumerate(train_y) for j, b in enumerate(train_y) if i != j])
    for i in range(2):
        col = pred[:, i]
        d_o = np.mean([(a - b) ** 2 for j, a in enumerate(col) for k, b in enumerate(col) if j != k])
        assert st.phi(pred, train_y, "metric").per_object[i] == pytest.approx(1 - d_o / d_e)
    assert st.phi(pred, train_y, "metric").value == pytest.approx(0.996, abs=PUBLISHED_TOL)


def test_icc_one_object_undefined():
    with pytest.warns(st.UndefinedCoefficientWarning, match="one object"):
        v = st.icc([[1.0], [2.0], [1.5]], on_undefined="warn")
    assert np.isnan(v) and v.reason.startswith("one object")


@pytest.mark.parametrize("seed", range(4))
def test_icc_all_forms_match_pingouin(seed):
    rng = np.random.default_rng(seed)
    r, n = int(rng.integers(2, 8)), int(rng.integers(2, 25))
    pred = rng.normal(size=n)[None, :] * rng.uniform(0, 2) + rng.normal(size=(r, n))
    pred += rng.normal(size=(r, 1))  # a refit effect, so the forms differ
    want = icc_pingouin(pred)
    # pingouin 0.7 names the Shrout–Fleiss forms 2 and 3 "A" (agreement) and "C" (consistency)
    for ours, theirs in [
        ("1,1", "ICC(1,1)"),
        ("2,1", "ICC(A,1)"),
        ("3,1", "ICC(C,1)"),
        ("1,k", "ICC(1,k)"),
        ("2,k", "ICC(A,k)"),
        ("3,k", "ICC(C,k)"),
    ]:
        assert float(st.icc(pred, ours)) == pytest.approx(want[theirs], rel=1e-9, abs=1e-12)
        assert float(st.icc(pred, theirs)) == pytest.approx(want[theirs], rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_fleiss_matches_statsmodels(seed):
    rng = np.random.default_rng(seed)
    r, n = int(rng.integers(2, 9)), int(rng.integers(1, 40))
    pred = rng.choice(4, size=(r, n), p=[0.4, 0.3, 0.2, 0.1])
    pred[0, 0], pred[1, 0] = 0, 1
    table, _ = aggregate_raters(pred.T)
    assert float(st.fleiss_kappa(pred)) == pytest.approx(sm_fleiss_kappa(table), rel=1e-10)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("scale", ["nominal", "ordinal", "metric"])
def test_alpha_matches_krippendorff(seed, scale):
    rng = np.random.default_rng(100 + seed)
    r, n = int(rng.integers(2, 9)), int(rng.integers(2, 40))
    if scale == "metric":
        pred = rng.normal(size=(r, n)) + rng.normal(size=n) * 2
    else:
        pred = rng.choice(5, size=(r, n), p=[0.1, 0.3, 0.3, 0.2, 0.1]).astype(float)
    pred[rng.random((r, n)) < 0.15] = np.nan  # missing values, some objects unpairable
    pred[:2, 0] = [1.0, 3.0]
    level = "interval" if scale == "metric" else scale
    want = krippendorff.alpha(reliability_data=pred, level_of_measurement=level)
    assert float(st.krippendorff_alpha(pred, scale)) == pytest.approx(want, rel=1e-9)


def test_alpha_undefined_cases():
    with pytest.warns(st.UndefinedCoefficientWarning, match="two or more"):
        v = st.krippendorff_alpha(np.array([[1.0, np.nan], [np.nan, 2.0]]), "metric", on_undefined="warn")
    assert np.isnan(v)
    v = st.krippendorff_alpha([[1, 1], [1, 1]], "nominal", on_undefined="nan")
    assert np.isnan(v) and "D_e = 0" in v.reason


def test_comparators_need_complete_data():
    pred = np.array([[0.0, 1.0], [np.nan, 1.0]])
    with pytest.raises(ValueError, match="missing values"):
        st.fleiss_kappa(pred)
    with pytest.raises(ValueError, match="missing values"):
        st.icc(pred)


def test_bad_arguments():
    with pytest.raises(ValueError, match="on_undefined must be"):
        st.fleiss_kappa([[0, 1], [1, 1]], on_undefined="ignore")
    with pytest.raises(ValueError, match="form must be one of"):
        st.icc([[0.0, 1.0], [1.0, 1.0]], form="4,1")
    with pytest.raises(ValueError, match="scale must be one of"):
        st.krippendorff_alpha([[0, 1], [1, 1]], scale="interval")


def test_coefficient_is_a_float_and_pickles():
    import pickle

    k = st.fleiss_kappa([[0, 1, 1], [0, 1, 0]])
    # hand: P_i = 1, 1, 0 → P̄ = 2/3; p = (3/6, 3/6) → P_e = 1/2 → κ = (2/3 − 1/2)/(1/2) = 1/3
    assert k == pytest.approx(1 / 3)
    assert isinstance(k, float) and k.defined and k.name == "fleiss_kappa"
    k2 = pickle.loads(pickle.dumps(k))
    assert k2 == k and k2.name == k.name


@pytest.mark.parametrize("scale", ["nominal", "ordinal"])
def test_alpha_and_kappa_large_inputs_match_peers(scale):
    """≥ 100,000 values take the one-byte counting path; compare with the peers there too."""
    rng = np.random.default_rng(11)
    pred = rng.choice(5, size=(40, 2600), p=[0.1, 0.2, 0.4, 0.2, 0.1]).astype(float)
    want = krippendorff.alpha(reliability_data=pred, level_of_measurement=scale)
    assert float(st.krippendorff_alpha(pred, scale)) == pytest.approx(want, rel=1e-9)
    table, _ = aggregate_raters(pred.T.astype(int))
    assert float(st.fleiss_kappa(pred)) == pytest.approx(sm_fleiss_kappa(table), rel=1e-9)
