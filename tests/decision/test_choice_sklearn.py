"""choose_threshold against scikit-learn 1.9.1, run here: ``TunedThresholdClassifierCV`` evaluating the
same candidate thresholds on the same data (``cv="prefit"``) picks the same threshold, and
``sklearn.metrics`` gives the same confusion matrix and values; ``ThresholdChoice.from_estimator``
reads a fitted classifier's scores as scikit-learn does and checks a tuned classifier's threshold."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score, confusion_matrix, f1_score, make_scorer
from sklearn.model_selection import TunedThresholdClassifierCV
from sklearn.svm import LinearSVC

import confusionlab as cl
from confusionlab.decision import ThresholdChoice


class _Scores(ClassifierMixin, BaseEstimator):
    """A fitted classifier whose positive-class probability is the first feature (the scores as given)."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        p = np.asarray(X)[:, 0]
        return np.column_stack([1 - p, p])


def _data(seed: int, n: int = 200):
    rng = np.random.default_rng(seed)
    y = (rng.uniform(size=n) < 0.3).astype(int)
    s = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.5 * y)))
    return y, s.round(2)  # ties, and fewer thresholds for scikit-learn to score one by one


def _tuned(y, s, scoring):
    X = s[:, None]
    model = _Scores().fit(X, y)
    tuned = TunedThresholdClassifierCV(model, cv="prefit", refit=False, thresholds=np.unique(s), scoring=scoring)
    return tuned.fit(X, y)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("cost", [(1, 1), (1, 5), (3, 1)])
def test_tuned_threshold_classifier_picks_the_same_threshold_for_a_cost(seed, cost):
    y, s = _data(seed)

    def neg_cost(y_true, y_pred):
        _, fp, fn, _ = confusion_matrix(y_true, y_pred, labels=[0, 1]).ravel()
        return -(cost[0] * fp + cost[1] * fn) / len(y_true)

    tuned = _tuned(y, s, make_scorer(neg_cost))
    choice = cl.choose_threshold(y, s, cost=cost)
    if np.isinf(choice.threshold):  # scikit-learn's grid has no "none positive"
        pytest.skip("the best is none positive, outside scikit-learn's thresholds")
    assert choice.threshold == tuned.best_threshold_
    assert choice.value == pytest.approx(-tuned.best_score_, rel=1e-12)
    tn, fp, fn, tp = confusion_matrix(y, (s >= choice.threshold).astype(int)).ravel()
    assert choice.confusion_matrix == cl.ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("metric", "score"), [("balanced_accuracy", balanced_accuracy_score), ("f1", f1_score)])
def test_tuned_threshold_classifier_picks_the_same_threshold_for_a_metric(seed, metric, score):
    y, s = _data(seed)
    tuned = _tuned(y, s, metric)
    choice = cl.choose_threshold(y, s, maximize=metric)
    assert choice.value == pytest.approx(score(y, (s >= choice.threshold).astype(int)), rel=1e-12)
    assert choice.value == pytest.approx(tuned.best_score_, rel=1e-12)
    assert choice.threshold == tuned.best_threshold_


def test_from_estimator_reads_predict_proba_of_the_positive_class():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(600, 3))
    y = np.where(X[:, 0] + rng.normal(size=600) > 0.3, "yes", "no")
    clf = LogisticRegression().fit(X[:300], y[:300])
    choice = ThresholdChoice.from_estimator(clf, X[300:], y[300:], cost=(1, 3))
    direct = cl.choose_threshold(y[300:], clf.predict_proba(X[300:])[:, 1], cost=(1, 3), positive="yes")
    assert (choice.threshold, choice.confusion_matrix) == (direct.threshold, direct.confusion_matrix)
    assert choice.positive == "yes" and choice.estimator_threshold is None
    other = ThresholdChoice.from_estimator(clf, X[300:], y[300:], cost=(1, 3), positive="no")
    assert other.positive == "no"
    assert other.confusion_matrix.p == int((y[300:] == "no").sum())


def test_from_estimator_negates_the_decision_function_for_the_first_class():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(400, 2))
    y = (X[:, 0] > 0).astype(int)
    svc = LinearSVC().fit(X[:200], y[:200])
    pos = ThresholdChoice.from_estimator(svc, X[200:], y[200:], maximize="accuracy")
    assert pos.threshold in set(svc.decision_function(X[200:]).tolist()) | {np.inf}
    neg = ThresholdChoice.from_estimator(svc, X[200:], y[200:], maximize="accuracy", positive=0)
    assert neg.value == pytest.approx(pos.value)


def test_from_estimator_checks_a_tuned_classifiers_threshold_against_the_plausible_set():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(2000, 2))
    y = (X[:, 0] + 0.8 * rng.normal(size=2000) > 0.8).astype(int)
    tuned = TunedThresholdClassifierCV(LogisticRegression(), scoring="balanced_accuracy").fit(X[:1000], y[:1000])
    choice = ThresholdChoice.from_estimator(tuned, X[1000:], y[1000:])
    assert choice.objective == "balanced_accuracy"  # the tuned classifier's own scoring
    assert choice.estimator_threshold == tuned.best_threshold_
    assert choice.estimator_threshold_plausible is True
    scores = tuned.estimator_.predict_proba(X[1000:])[:, 1]
    assert choice.estimator_threshold_plausible == choice.is_plausible(tuned.best_threshold_)
    # the tuned threshold labels the test set as our candidate standing for it does
    k = int(np.searchsorted(choice.candidates, tuned.best_threshold_))
    frame = choice.to_frame()
    assert frame["tp"][k] == int(((scores >= tuned.best_threshold_) & (y[1000:] == 1)).sum())
    assert (tuned.predict(X[1000:]) == (scores >= tuned.best_threshold_)).all()
    assert "lies in the plausible set" in choice.summary()
    with pytest.raises(cl.InvalidParameterError, match="positive"):
        ThresholdChoice.from_estimator(tuned, X[1000:], y[1000:], positive=0)


def test_from_estimator_refuses_what_is_not_a_fitted_binary_classifier():
    with pytest.raises(cl.InvalidParameterError, match="fitted"):
        ThresholdChoice.from_estimator(LogisticRegression(), np.zeros((4, 1)), [0, 1, 0, 1], cost=(1, 1))
    X, y3 = np.arange(9.0)[:, None], np.repeat([0, 1, 2], 3)
    with pytest.raises(cl.InvalidParameterError, match="binary"):
        ThresholdChoice.from_estimator(LogisticRegression().fit(X, y3), X, y3, cost=(1, 1))
    X, y = np.arange(8.0)[:, None], np.repeat([0, 1], 4)
    with pytest.raises(cl.InvalidParameterError, match="response_method"):
        ThresholdChoice.from_estimator(LogisticRegression().fit(X, y), X, y, cost=(1, 1), response_method="x")
    with pytest.raises(cl.InvalidParameterError, match="positive"):
        ThresholdChoice.from_estimator(LogisticRegression().fit(X, y), X, y, cost=(1, 1), positive=7)
