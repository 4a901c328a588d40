"""evaluate / Evaluation against independent references: scikit-learn's confusion matrices and
metrics, brute-force mixtures and variances, a numpy simulation of the macro averages, scipy's
Beta distribution, and the stability formula written out."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import confusion_matrix, f1_score, multilabel_confusion_matrix, precision_score, recall_score

import confusionlab.evaluation._distributions as evaluation_distributions
from confusionlab import ConfusionMatrix, metric_distribution
from confusionlab.evaluation import evaluate, mixture
from confusionlab.stability import psi


def _binary_data(seed: int, m: int = 300, refits: int = 6):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, m)
    pred = np.where(rng.random(m) < 0.8, y, 1 - y)
    runs = np.where(rng.random((refits, m)) < 0.9, pred, 1 - pred)
    groups = rng.choice(["F", "M", "X"], m, p=[0.5, 0.4, 0.1])
    return y, pred, runs, groups


def _sk_cm(y, p) -> ConfusionMatrix:
    return ConfusionMatrix.from_sklearn(confusion_matrix(y, p, labels=[0, 1]))


def _same(a, b) -> None:
    np.testing.assert_array_equal(a.values, b.values)
    np.testing.assert_array_equal(a.probabilities, b.probabilities)
    np.testing.assert_array_equal(a.multiplicities, b.multiplicities)


# ----------------------------------------------------------------------------- one vector
@pytest.mark.parametrize("metric", ["f1", "mcc", "balanced_accuracy", "precision"])
def test_distribution_is_the_cores_on_sklearns_counts(metric: str) -> None:
    y, pred, _, groups = _binary_data(1)
    ev = evaluate(y, pred, groups=groups, target="next_test_set")
    _same(ev.distribution(metric), metric_distribution(_sk_cm(y, pred), metric))
    for name, d in ev.by_group(metric).items():
        _same(d, metric_distribution(_sk_cm(y[groups == name], pred[groups == name]), metric))
    assert set(ev.by_group(metric)) == {"F", "M", "X"}


def test_value_matches_sklearn_and_strings_with_positive() -> None:
    y, pred, _, _ = _binary_data(2)
    ev = evaluate(y, pred)
    assert ev.value_of("f1") == pytest.approx(f1_score(y, pred), abs=1e-15)
    assert ev.value_of("recall") == pytest.approx(recall_score(y, pred), abs=1e-15)
    names = np.array(["no", "yes"])
    ev_s = evaluate(list(names[y]), list(names[pred]), positive="yes")
    _same(ev_s.distribution("f1"), ev.distribution("f1"))


def test_model_and_target_pass_through() -> None:
    y, pred, _, _ = _binary_data(3)
    cm = _sk_cm(y, pred)
    for model in ("binomial", "dirichlet-multinomial"):
        _same(
            evaluate(y, pred, model=model, target="next_test_set").distribution("mcc"),
            metric_distribution(cm, "mcc", model),
        )
    d = evaluate(y, pred, target="true_value").distribution("mcc")  # Jeffreys' prior by default
    _same(d, metric_distribution(cm, "mcc", target="true_value", prior=0.5))
    assert d.target == "true_value"
    _same(d, metric_distribution(cm, "mcc", target="true_value"))  # the library's one default
    uniform = evaluate(y, pred, target="true_value", prior="uniform").distribution("mcc")
    _same(uniform, metric_distribution(cm, "mcc", target="true_value", prior="uniform"))


# ----------------------------------------------------------------------------- refits
def test_refit_mixture_and_decomposition_by_brute_force() -> None:
    y, _, runs, groups = _binary_data(4)
    ev = evaluate(y, refits=runs, groups=groups, target="next_test_set")
    for name in [None, "F", "M", "X"]:
        sel = np.ones(y.size, bool) if name is None else groups == name
        dists = [metric_distribution(_sk_cm(y[sel], r[sel]), "f1") for r in runs]
        mix = ev.distribution("f1", name)
        # brute-force pooled PMF: value -> mean probability
        pooled: dict[float, float] = {}
        for d in dists:
            for v, p in zip(d.values.tolist(), d.probabilities.tolist(), strict=True):
                pooled[v] = pooled.get(v, 0.0) + p / len(dists)
        assert sorted(pooled) == mix.values.tolist()
        np.testing.assert_allclose([pooled[v] for v in mix.values.tolist()], mix.probabilities, rtol=1e-12, atol=0)
        dec = ev.decompose("f1", name)
        means = np.array([d.mean() for d in dists])
        variances = np.array([d.var() for d in dists])
        assert dec["test_set_sd"] ** 2 == pytest.approx(variances.mean(), abs=1e-12)
        assert dec["refit_sd"] ** 2 == pytest.approx(((means - means.mean()) ** 2).mean(), abs=1e-12)
        # the identity: total variance = the mixture's own variance = the sum of the parts
        assert abs(dec["total_sd"] ** 2 - mix.var()) < 1e-9
        assert abs(dec["total_sd"] ** 2 - dec["test_set_sd"] ** 2 - dec["refit_sd"] ** 2) < 1e-12
    by_group = ev.decompose("f1", by_group=True)
    assert set(by_group) == {"F", "M", "X"} and by_group["F"] == ev.decompose("f1", "F")
    # value without y_pred: the mean of the refits' values (scikit-learn's)
    assert ev.value_of("f1") == pytest.approx(np.mean([f1_score(y, r) for r in runs]), abs=1e-14)


def test_mixture_of_one_is_itself_and_refuses_nothing() -> None:
    d = metric_distribution(ConfusionMatrix(tp=5, fn=2, fp=1, tn=9), "f1")
    assert mixture([d]) is d
    with pytest.raises(ValueError, match="distributions"):
        mixture([])


def test_stability_is_psi_of_the_refits_and_matches_the_formula() -> None:
    y, _, runs, _ = _binary_data(5, m=80, refits=7)
    ev = evaluate(y, refits=runs)
    r = runs.shape[0]
    ones = runs.sum(axis=0)
    observed = 1 - (ones * (ones - 1) + (r - ones) * (r - ones - 1)) / (r * (r - 1))
    pooled = runs.ravel()
    n1, n = pooled.sum(), pooled.size
    expected = 1 - (n1 * (n1 - 1) + (n - n1) * (n - n1 - 1)) / (n * (n - 1))
    np.testing.assert_allclose(ev.stability.per_object, 1 - observed / expected, rtol=1e-12)
    np.testing.assert_array_equal(ev.stability.per_object, psi(runs, pooled, "nominal").per_object)
    worst = ev.least_stable(5)
    assert np.all(ev.stability.per_object[worst] <= np.sort(ev.stability.per_object)[4] + 1e-15)
    assert ev.phi.measure == "phi"


# ----------------------------------------------------------------------------- classes
def _multiclass(seed: int, m: int = 400, k: int = 4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, m)
    pred = np.where(rng.random(m) < 0.7, y, rng.integers(0, k, m))
    return y, pred


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_macro_values_equal_sklearn(seed: int) -> None:
    y, pred = _multiclass(seed)
    pred[pred == 3] = 2  # a class never predicted (0/0 precision -> 0, as zero_division=0)
    ev = evaluate(y, pred)
    assert ev.value_of("macro_f1") == pytest.approx(f1_score(y, pred, average="macro"), abs=1e-14)
    assert ev.value_of("macro_recall") == pytest.approx(recall_score(y, pred, average="macro"), abs=1e-14)
    assert ev.value_of("macro_precision") == pytest.approx(
        precision_score(y, pred, average="macro", zero_division=0), abs=1e-14
    )
    labels = np.array(["ant", "bee", "cat", "dog"])
    ev_s = evaluate(labels[y], labels[pred])
    assert ev_s.value_of("macro_f1") == pytest.approx(f1_score(labels[y], labels[pred], average="macro"), abs=1e-14)


def test_per_class_is_exact_one_vs_rest() -> None:
    y, pred = _multiclass(3)
    ev = evaluate(y, pred, target="next_test_set")
    mcm = multilabel_confusion_matrix(y, pred, labels=[0, 1, 2, 3])
    per = ev.per_class("f1")
    for c in range(4):
        _same(per[c], metric_distribution(ConfusionMatrix.from_sklearn(mcm[c]), "f1"))


def _numpy_macro_f1(table: np.ndarray, draws: int, rng: np.random.Generator, alpha: float) -> np.ndarray:
    """Independent simulation: Dirichlet(row + alpha) rows by numpy's dirichlet, multinomial rows, F1 by hand."""
    k = table.shape[0]
    mats = np.zeros((draws, k, k))
    for i in range(k):
        theta = rng.dirichlet(table[i] + alpha, size=draws)
        for s in range(draws):
            mats[s, i] = rng.multinomial(table[i].sum(), theta[s])
    out = np.zeros(draws)
    for c in range(k):
        tp = mats[:, c, c]
        denom = mats[:, c, :].sum(axis=1) + mats[:, :, c].sum(axis=1)
        out += np.where(denom > 0, 2 * tp / np.where(denom > 0, denom, 1), 0.0)
    return out / k


@pytest.mark.parametrize(("prior", "alpha"), [(None, 0.1), ("uniform", 1.0)])  # None: the default, α = 0.1
def test_macro_f1_mean_within_five_standard_errors_of_numpy_simulation(prior, alpha) -> None:
    y, pred = _multiclass(4, m=150, k=3)
    ev = evaluate(
        y, pred, n_draws=20_000, random_state=7, target="next_test_set", **({} if prior is None else {"prior": prior})
    )
    d = ev.distribution("macro_f1")
    err = ev.mc_error("macro_f1")
    assert 0 < err < 0.01
    reference = _numpy_macro_f1(confusion_matrix(y, pred), 8_000, np.random.default_rng(123), alpha)
    se = math.hypot(err, reference.std() / math.sqrt(reference.size))
    assert abs(d.mean() - reference.mean()) < 5 * se
    assert d.std() == pytest.approx(reference.std(), rel=0.05)


def test_binary_metric_with_many_classes_is_refused_before_computing(monkeypatch: pytest.MonkeyPatch) -> None:
    y, pred = _multiclass(5)

    def boom(*args, **kwargs):
        raise AssertionError("computed before refusing")

    monkeypatch.setattr(evaluation_distributions, "metric_distribution", boom)
    with pytest.raises(ValueError, match=r"metrics.*positive"):
        evaluate(y, pred, metrics=["f1"], target="next_test_set")
    ev = evaluate(y, pred, target="next_test_set")
    with pytest.raises(ValueError, match="metric 'f1' is binary"):
        ev.distribution("f1")
    with pytest.raises(ValueError, match="metric 'f1' is binary"):
        ev.value_of("f1")
    monkeypatch.undo()
    ev1 = evaluate(y, pred, positive=2, metrics=["f1"], target="next_test_set")
    _same(ev1.distribution("f1"), metric_distribution(ConfusionMatrix.from_predictions(y, pred, positive=2), "f1"))


# ----------------------------------------------------------------------------- true value
def test_true_value_recall_is_the_beta_posterior() -> None:
    cm = ConfusionMatrix(tp=70, fn=30, fp=40, tn=160)
    d = metric_distribution(cm, "recall", target="true_value", prior="uniform")
    beta = stats.beta(71, 31)  # TP + 1, FN + 1: the uniform prior's posterior
    x = np.linspace(0.5, 0.9, 801)
    assert np.max(np.abs(d.cdf(x) - beta.cdf(x))) <= d.cdf_error
    assert d.mean() == pytest.approx(beta.mean(), abs=1e-4)
    assert d.std() == pytest.approx(beta.std(), rel=0.01)


def test_true_value_balanced_accuracy_against_simulation_and_its_width() -> None:
    cm = ConfusionMatrix(tp=800, fn=200, fp=600, tn=2400)
    d = metric_distribution(cm, "f1", target="true_value", prior="uniform")
    rng = np.random.default_rng(0)
    tpr = rng.beta(801, 201, 400_000)  # the uniform prior's posteriors
    tnr = rng.beta(2401, 601, 400_000)
    f1 = 2 * 1000 * tpr / (1000 * tpr + 1000 + 3000 * (1 - tnr))
    assert d.mean() == pytest.approx(f1.mean(), abs=5 * f1.std() / math.sqrt(f1.size))
    assert d.std() == pytest.approx(f1.std(), rel=0.01)
    q = np.quantile(f1, [0.025, 0.975])
    assert abs(d.cdf(q[0]) - 0.025) < d.cdf_error + 0.002 and abs(d.cdf(q[1]) - 0.975) < d.cdf_error + 0.002
    ratio = d.std() / metric_distribution(cm, "f1").std()
    assert ratio == pytest.approx(1 / math.sqrt(2), abs=0.02)


def test_true_value_refuses_other_models_and_future_size() -> None:
    cm = ConfusionMatrix(tp=7, fn=3, fp=4, tn=16)
    with pytest.raises(ValueError, match=r"target='true_value'.*model='binomial'"):
        metric_distribution(cm, "f1", "binomial", target="true_value")
    with pytest.raises(ValueError, match="future_size"):
        metric_distribution(cm, "f1", future_size=(10, 20), target="true_value")
    with pytest.raises(ValueError, match="target"):
        metric_distribution(cm, "f1", target="next_year")
    d = metric_distribution(ConfusionMatrix(tp=0, fn=0, fp=3, tn=5), "precision", target="true_value")
    assert d.undefined_mass == 0 and d.mean() >= 0


# ----------------------------------------------------------------------------- bad input
def test_bad_input_names_the_argument() -> None:
    y, pred, runs, groups = _binary_data(6, m=50)
    with pytest.raises(ValueError, match="y_true and y_pred must have the same length"):
        evaluate(y, pred[:-1])
    with pytest.raises(ValueError, match=r"refits.*transposed"):
        evaluate(y, refits=runs.T)
    with pytest.raises(ValueError, match="refits must be a 2-D"):
        evaluate(y, refits=runs[0])
    with pytest.raises(ValueError, match=r"refits must have one column per test object"):
        evaluate(y, refits=runs[:, :-1])
    with pytest.raises(ValueError, match="refits needs at least 2"):
        evaluate(y, refits=runs[:1])
    with pytest.raises(ValueError, match=r"groups: 1 group.*single row"):
        evaluate(y, pred, groups=np.r_[groups[:-1], ["lonely"]])
    with pytest.raises(ValueError, match="groups must have one label per object"):
        evaluate(y, pred, groups=groups[:-2])
    with pytest.raises(ValueError, match=r"y_pred .*or refits"):
        evaluate(y)
    with pytest.raises(ValueError, match="refits has 1 missing"):
        evaluate(y, refits=np.where(np.arange(runs.size).reshape(runs.shape) == 3, np.nan, runs))
    with pytest.raises(ValueError, match="metrics: unknown metric"):
        evaluate(y, pred, metrics=["accuracyy"])
    with pytest.raises(ValueError, match="model"):
        evaluate(y, pred, model="gaussian")


def test_too_small_groups_are_flagged() -> None:
    rng = np.random.default_rng(8)
    y = np.r_[rng.integers(0, 2, 200), [1, 1, 0, 0, 0, 0, 0, 0]]
    pred = np.r_[y[:200], [1, 0, 0, 0, 1, 0, 0, 0]]
    groups = np.r_[np.full(200, "big"), np.full(8, "tiny")]
    ev = evaluate(y, pred, groups=groups)
    assert ev.too_small("f1", "tiny") and not ev.too_small("f1", "big")
    frame = ev.to_frame(["f1", "recall"])
    tiny = frame[frame.group == "tiny"]
    assert tiny.too_small.all() and (tiny.positives == 2).all()
    assert set(frame.columns) >= {"value", "lower", "upper", "test_set_sd", "refit_sd", "total_sd"}


def test_plot_and_self_contained_page(tmp_path: Path) -> None:
    y, _, runs, groups = _binary_data(9, m=120, refits=4)
    ev = evaluate(y, refits=runs, groups=groups, metrics=["f1"])
    fig = ev.plot()
    assert len(fig.axes) == 2 * 4
    text = ev.to_html(tmp_path / "report.html")
    assert (tmp_path / "report.html").read_text(encoding="utf-8") == text
    assert ev.question("f1") in text and "new refit" in text
    assert "http://" not in text and "https://" not in text and "<script" not in text
    assert "data:image/png;base64," in text


def test_confusion_matrix_per_group_and_refit_equals_scikit_learn() -> None:
    """Evaluation.confusion_matrix against sklearn.metrics.confusion_matrix (it refused every call once)."""
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 120)
    refits = np.where(rng.random((3, 120)) < 0.8, y, 1 - y)
    groups = np.where(rng.random(120) < 0.5, "F", "M")
    ev = evaluate(y, refits=refits, groups=groups)
    for run in range(3):
        for g in ("F", "M"):
            keep = groups == g
            (tn, fp), (fn, tp) = confusion_matrix(y[keep], refits[run][keep], labels=[0, 1])
            assert ev.confusion_matrix(g, run=run).as_tuple() == (tp, fn, fp, tn)
    assert ev.confusion_matrix("F") == ev.confusion_matrix("F", run=0)
    with pytest.raises(ValueError, match="run must be at most 2"):
        ev.confusion_matrix("F", run=3)
    multi = evaluate([0, 1, 2, 2], [0, 2, 2, 1])
    with pytest.raises(ValueError, match="confusion_matrix needs a binary evaluation"):
        multi.confusion_matrix()


def test_by_group_in_threads_equals_each_group_alone() -> None:
    """by_group computes the groups' mixtures on threads; each must equal the group computed alone."""
    rng = np.random.default_rng(9)
    y = rng.integers(0, 2, 3000)
    refits = np.where(rng.random((6, 3000)) < 0.85, y, 1 - y)
    groups = rng.integers(0, 5, 3000)
    together = evaluate(y, refits=refits, groups=groups).by_group("mcc")
    for name, d in together.items():
        alone = evaluate(y, refits=refits, groups=groups).distribution("mcc", name)
        np.testing.assert_array_equal(d.values, alone.values)
        np.testing.assert_array_equal(d.probabilities, alone.probabilities)
