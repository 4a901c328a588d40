"""stability_curve with real scikit-learn forests (tiny: seconds), incl. a local Dask cluster."""

from __future__ import annotations

import warnings

import matplotlib
import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.ensemble import ExtraTreesRegressor, RandomForestClassifier
from sklearn.neighbors import KNeighborsRegressor

from confusionlab import stability as st

matplotlib.use("Agg")
pytestmark = pytest.mark.filterwarnings("ignore:Some inputs do not have OOB scores")

GRID = [2, 4, 8, 16]


def make_forest(n_learners, random_state):
    return RandomForestClassifier(n_learners, max_depth=4, oob_score=True, random_state=random_state, n_jobs=1)


def make_extra_trees(n_learners, random_state):  # no bootstrap → no out-of-bag predictions
    return ExtraTreesRegressor(n_learners, max_depth=4, random_state=random_state, n_jobs=1)


def make_one_nn(n_learners, random_state):  # memorises the training data exactly
    return KNeighborsRegressor(n_neighbors=1)


@pytest.fixture(scope="module")
def clf_data():
    X, y = make_classification(n_samples=130, n_features=6, random_state=0)
    return X[:100], y[:100], X[100:]


@pytest.fixture(scope="module")
def clf_curve(clf_data):
    X, y, X_test = clf_data
    return st.stability_curve(make_forest, X, y, X_test, n_learners=GRID, repeats=3, n_jobs=1, progress=False)


def test_shapes_scale_and_measures(clf_curve, clf_data):
    _, y, _ = clf_data
    c = clf_curve
    assert c.predictions.shape == (4, 3, 30)
    assert c.scale == "nominal" and c.fit_seconds.shape == (4, 3)
    assert np.all(c.fit_seconds > 0)
    for g in range(4):
        assert c.stability("phi")[g] == pytest.approx(st.phi(c.predictions[g], y, "nominal").value)
        assert c.stability("fleiss_kappa")[g] == pytest.approx(float(st.fleiss_kappa(c.predictions[g])))
    assert c.per_object().shape == (4, 30)
    # out-of-bag psi reference: predicted classes, pooled over the 3 refits
    for ref in c.reference:
        assert ref is not None and 0 < ref.size <= 3 * len(y)
        assert set(np.unique(ref)) <= set(np.unique(y))


def test_seeds_come_from_seedsequence_spawn(clf_curve, clf_data):
    X, y, X_test = clf_data
    children = np.random.SeedSequence(0).spawn(len(GRID) * 3)
    seed = int(children[1 * 3 + 2].generate_state(1, dtype=np.uint32)[0])  # grid 1, repeat 2
    manual = make_forest(GRID[1], seed).fit(X, y).predict(X_test)
    np.testing.assert_array_equal(clf_curve.predictions[1, 2], manual)


def test_reproducible_and_seed_dependent(clf_curve, clf_data):
    X, y, X_test = clf_data
    again = st.stability_curve(make_forest, X, y, X_test, n_learners=GRID, repeats=3, n_jobs=1, progress=False)
    np.testing.assert_array_equal(again.predictions, clf_curve.predictions)
    other = st.stability_curve(
        make_forest,
        X,
        y,
        X_test,
        n_learners=GRID,
        repeats=3,
        n_jobs=1,
        progress=False,
        random_state=1,
    )
    assert not np.array_equal(other.predictions, clf_curve.predictions)


@pytest.mark.filterwarnings("ignore::confusionlab.stability.ExtrapolationWarning")
def test_fit_and_recommendation_from_curve(clf_curve):
    c = clf_curve
    s = c.stability()
    if np.all(s == 1) or np.any(s <= 0):  # guard against a degenerate toy curve
        pytest.fail(f"toy curve unusable for a 2PL fit: {s}")
    fit = c.fit_2pl()
    plain = st.fit_2pl(c.n_learners, s)
    assert fit.p1 == pytest.approx(plain.p1) and fit.p2 == pytest.approx(plain.p2)
    assert c.learners_for(0.99) == pytest.approx(plain.learners_for(0.99))
    with pytest.warns(st.ExtrapolationWarning):  # the toy grid ends at 16 learners
        rec = c.recommendation()
    with pytest.warns(st.ExtrapolationWarning):
        assert rec.n_learners == plain.recommendation().n_learners
    assert rec.expected_seconds is not None and rec.expected_seconds >= 0
    fig = c.plot(stability_target=0.99)
    assert fig.axes[0].get_xscale() == "log"


def test_psi_kfold_reference_is_out_of_fold():
    X, y = make_regression(n_samples=60, n_features=4, noise=1.0, random_state=1)
    c = st.stability_curve(
        make_one_nn,
        X[:50],
        y[:50],
        X[50:],
        n_learners=GRID,
        repeats=2,
        measure="psi",
        n_jobs=1,
        progress=False,
    )
    assert c.scale == "metric"
    for ref in c.reference:
        assert ref.shape == (100,)  # 50 out-of-fold predictions per refit, 2 refits
        # a 1-NN model reproduces its training responses exactly; out of fold it cannot
        assert np.mean(np.isin(ref, y[:50])) == 1.0  # values come from y …
        assert not np.array_equal(np.sort(ref[:50]), np.sort(y[:50]))  # … but not in-sample
    assert np.all(c.stability("psi") == 1.0)  # 1-NN is deterministic


def test_psi_without_oob_uses_kfold():
    X, y = make_regression(n_samples=70, n_features=4, noise=5.0, random_state=2)
    c = st.stability_curve(
        make_extra_trees,
        X[:60],
        y[:60],
        X[60:],
        n_learners=GRID,
        repeats=2,
        measure="psi",
        n_jobs=1,
        progress=False,
    )
    assert all(ref.shape == (120,) for ref in c.reference)
    assert np.all(c.stability() < 1.0)
    with pytest.raises(ValueError, match="oob_score=True"):
        st.stability_curve(
            make_extra_trees,
            X[:60],
            y[:60],
            X[60:],
            n_learners=GRID,
            repeats=2,
            reference="oob",
            n_jobs=1,
            progress=False,
        )


def test_dask_backend_gives_identical_results(clf_curve, clf_data):
    import joblib
    from dask.distributed import Client, LocalCluster, get_task_stream

    X, y, X_test = clf_data
    # 2 threads: with a single worker thread joblib would fall back to running sequentially
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with (
            LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster,
            Client(cluster) as client,
            joblib.parallel_backend("dask"),
            get_task_stream(client) as stream,
        ):
            curve = st.stability_curve(make_forest, X, y, X_test, n_learners=GRID, repeats=3, progress=False)
    assert len(stream.data) >= 1  # the refits really ran on the Dask worker
    assert cluster.status.name == "closed"
    np.testing.assert_array_equal(curve.predictions, clf_curve.predictions)


def test_progress_bar_reports(clf_data, capsys):
    X, y, X_test = clf_data
    st.stability_curve(make_forest, X, y, X_test, n_learners=[1, 2], repeats=2, n_jobs=1)
    assert "refits" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"repeats": 1}, ValueError, "repeats must be at least 2"),
        ({"repeats": 2.0}, TypeError, "repeats must be an integer"),
        ({"repeats": 10**9}, ValueError, "repeats must be at most"),
        ({"n_learners": [1, 2, 2**60]}, ValueError, "n_learners must be at most"),
        ({"n_learners": "10"}, TypeError, "n_learners must be"),
        ({"n_folds": 1}, ValueError, "n_folds must be at least 2"),
        ({"n_folds": 10**6}, ValueError, "n_folds must be at most"),
        ({"random_state": "seed"}, TypeError, "random_state must be"),
        ({"random_state": -1}, TypeError, "random_state must be"),
        ({"n_jobs": "all"}, TypeError, "n_jobs must be"),
        ({"n_learners": []}, ValueError, "n_learners must be"),
        ({"n_learners": [0, 2]}, ValueError, "positive integers"),
        ({"measure": "kappa"}, ValueError, "measure must be one of"),
        ({"reference": "bag"}, ValueError, "reference must be"),
        ({"scale": "ratio"}, ValueError, "scale must be one of"),
        ({"make_model": 3}, TypeError, "make_model must be callable"),
    ],
)
def test_bad_arguments(clf_data, kwargs, exc, match):
    X, y, X_test = clf_data
    args = {"make_model": make_forest, "n_learners": GRID, "repeats": 2, "n_jobs": 1} | kwargs
    with pytest.raises(exc, match=match):
        st.stability_curve(X=X, y=y, X_test=X_test, progress=False, **args)


def test_pandas_training_data_give_the_same_kfold_reference():
    import pandas as pd

    X, y = make_regression(n_samples=60, n_features=4, noise=1.0, random_state=1)
    kwargs = {"n_learners": GRID, "repeats": 2, "measure": "psi", "n_jobs": 1, "progress": False}
    a = st.stability_curve(make_extra_trees, X[:50], y[:50], X[50:], **kwargs)
    b = st.stability_curve(
        make_extra_trees,
        pd.DataFrame(X[:50]),
        pd.Series(y[:50]),
        pd.DataFrame(X[50:]),
        **kwargs,
    )
    for ra, rb in zip(a.reference, b.reference, strict=True):
        np.testing.assert_array_equal(ra, rb)
    np.testing.assert_array_equal(a.predictions, b.predictions)


def test_light_defaults():
    """Not all cores by default, and a default grid far lighter than optRF's 4,500 trees."""
    import inspect

    params = inspect.signature(st.stability_curve).parameters
    assert params["n_jobs"].default == 1
    assert params["n_learners"].default == st.DEFAULT_N_LEARNERS
    assert len(st.DEFAULT_N_LEARNERS) >= 4 and sum(st.DEFAULT_N_LEARNERS) < 4500 / 4


def test_random_state_generator_and_seedsequence(clf_data):
    X, y, X_test = clf_data
    kwargs = {"n_learners": GRID, "repeats": 2, "n_jobs": 1, "progress": False}
    a = st.stability_curve(make_forest, X, y, X_test, random_state=np.random.default_rng(5), **kwargs)
    b = st.stability_curve(make_forest, X, y, X_test, random_state=np.random.default_rng(5), **kwargs)
    np.testing.assert_array_equal(a.predictions, b.predictions)
    c = st.stability_curve(make_forest, X, y, X_test, random_state=np.random.SeedSequence(7), **kwargs)
    d = st.stability_curve(make_forest, X, y, X_test, random_state=7, **kwargs)
    np.testing.assert_array_equal(c.predictions, d.predictions)


def test_curve_stability_on_undefined_policy(clf_curve):
    with pytest.raises(ValueError, match="on_undefined must be one of"):
        clf_curve.stability("fleiss_kappa", on_undefined="ignore")
    quiet = clf_curve.stability("fleiss_kappa", on_undefined="nan")
    np.testing.assert_array_equal(quiet, clf_curve.stability("fleiss_kappa"))


def _constant_reference_curve() -> st.StabilityCurve:
    """A curve whose training responses are constant: phi's expected disagreement D_e is 0."""
    rng = np.random.default_rng(0)
    predictions = rng.integers(0, 2, size=(2, 3, 12))
    return st.StabilityCurve(
        n_learners=np.array([2, 4]),
        predictions=predictions,
        train_y=np.zeros(20, dtype=int),
        reference=[None, None],
        fit_seconds=np.ones((2, 3)),
        measure="phi",
        scale="nominal",
    )


def test_phi_on_undefined_is_passed_on():
    """Issue 20 defect 6: the policy reached the comparators but not phi/psi."""
    curve = _constant_reference_curve()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = curve.stability("phi", on_undefined="nan")
    assert np.isnan(quiet).all()
    with pytest.warns(st.UndefinedCoefficientWarning):
        assert np.isnan(curve.stability("phi", on_undefined="warn")).all()
    with pytest.raises(st.UndefinedError, match="constant"):
        curve.stability("phi", on_undefined="raise")


def test_one_default_policy_everywhere():
    """Bad input gets a clear error: the default is "raise" in the comparators, the curve and the measures."""
    import inspect

    for func in (
        st.fleiss_kappa,
        st.gwet_ac1,
        st.krippendorff_alpha,
        st.icc,
        st.phi,
        st.psi,
        st.StabilityCurve.stability,
    ):
        assert inspect.signature(func).parameters["on_undefined"].default == "raise", func
    with pytest.raises(st.UndefinedError):
        st.fleiss_kappa([["a"], ["a"], ["a"]])
    with pytest.raises(st.UndefinedError):
        _constant_reference_curve().stability("phi")
