"""rank_models: k ≥ 2 classifiers scored on one test set."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .._deprecation import renamed_arguments, renamed_attribute
from .._deps import require
from .._result import Result, new_figure
from .._text import as_written
from .._validation import (
    DEFAULT_TOLERANCE,
    as_labels,
    check_classifiers,
    check_confidence,
    check_labels_not_scores,
    check_n_draws,
    check_random_state,
    check_same_length,
)
from ..confusion import ConfusionMatrix
from ..labels import distinct_labels, labels_equal, positive_label
from ..metrics import Metric, get_metric, metric_value
from ..models import agreement_shares, classifier_counts
from ..models.paired_draws import CHUNK_ENTRIES
from ..palette import NEUTRAL, PAIR_COLOURS
from ._checks import (
    check_binary_labels,
    check_cluster_question,
    check_member,
    check_observed_class,
    check_test_set_size,
)
from ._cluster import ClusteredClassifiers, ClusteredRanking, clustered_classifiers
from ._compare import MAX_BOX_POINTS, exact_points, from_cells
from ._counts import PairedCounts
from ._model import cell_prior
from ._options import Options, check_options
from ._ranks import exact_ranks
from ._result import PairedComparison

__all__ = ["MAX_CLASSIFIERS", "Ranking", "rank_models"]

#: Largest number of classifiers :func:`rank_models` ranks (2**k agreement cells per class).
MAX_CLASSIFIERS = 12
#: ``method="auto"`` enumerates every pair exactly while their boxes and tables hold at most
#: this many points in all (a few seconds); beyond, the pairwise matrix comes from the draws.
MAX_PAIRWISE_POINTS = 2 * MAX_BOX_POINTS


def __getattr__(name: str) -> Any:
    if name == "MAX_MODELS":
        warnings.warn(
            "MAX_MODELS is renamed MAX_CLASSIFIERS (it counts classifiers, not models); "
            "the old name will stop working in the next release",
            FutureWarning,
            stacklevel=2,
        )
        return MAX_CLASSIFIERS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Ranking(ClusteredRanking, Result):
    """Result of :func:`rank_models`: which of k classifiers scored on one test set is best.

    It speaks the library's result protocol: :attr:`value` is the mapping classifier →
    P(best), :meth:`interval` the Monte Carlo uncertainty of each, :meth:`to_frame`,
    :meth:`~confusionlab._result.Result.to_html`, :meth:`plot` (P(best) bars) and
    :meth:`view` (the paired view of the two most likely best).

    Attributes
    ----------
    names : list of str
    prob_best : dict
        P(each classifier has the best metric on a new test set, or the best true value under
        ``target="true_value"``); a tie for the best is shared equally, so the probabilities
        add up to 1. Also :attr:`value`.
    expected_rank : dict
        Expected rank, 1 = best; tied classifiers share the mean of their ranks.
    pairwise : ndarray, shape (k, k)
        ``pairwise[i, j]`` = P(metric of i > metric of j): exact (:func:`compare_paired`
        on each pair) when ``pairwise_method == "exact"``, else from the ranking's Monte
        Carlo draws (standard error at most ``pairwise_error``); the diagonal is 0.
    method : str
        How P(best) was computed: ``"exact"`` (k = 2, exact pair) or ``"monte-carlo"``.
    pairwise_method : str
        ``"exact"`` or ``"monte-carlo"`` (see ``pairwise``).
    pairwise_error : float
        Largest standard error of ``pairwise`` (0.0 when exact).
    target : str
        The question answered: ``"next_test_set"`` (who wins on a new test set) or
        ``"true_value"`` (who has the best true metric).
    mc_error : float
        Largest standard error of ``prob_best`` (0.0 when exact).
    n_draws : int or None
        Monte Carlo draws (None when exact). ``draws`` is its old name (it still works,
        with a FutureWarning).
    metric, model : str
    prob_best_error : dict
        Standard error of each ``prob_best`` (0.0 when exact).
    observed : dict
        Each classifier's metric on the test set.

    With ``cluster=`` (:func:`rank_models`), :meth:`metric_intervals` gives each classifier's
    cluster-robust interval (:attr:`interval_method`), :attr:`icc`, :attr:`design_effect` and
    :attr:`effective_size` say what the clustering costs each, :meth:`to_frame` has their
    columns and :meth:`compare` the pair's clustered comparison; ``prob_best``, ``pairwise`` and
    the expected ranks stay those of independent rows.

    Examples
    --------
    >>> y = [1] * 10 + [0] * 10
    >>> preds = {"a": [1] * 9 + [0] + [0] * 10, "b": [1] * 7 + [0] * 3 + [0] * 8 + [1] * 2}
    >>> r = rank_models(y, preds, "accuracy")
    >>> r.best, sorted(r.value) == ["a", "b"], r.observed
    ('a', True, {'a': 0.95, 'b': 0.75})
    """

    names: list[str]
    prob_best: dict[str, float]
    expected_rank: dict[str, float]
    pairwise: np.ndarray
    method: str
    mc_error: float
    n_draws: int | None
    metric: str
    model: str
    prob_best_error: dict[str, float] = field(default_factory=dict)
    observed: dict[str, float] = field(default_factory=dict)
    #: ``"exact"`` (each pair enumerated) or ``"monte-carlo"`` (from the ranking's draws).
    pairwise_method: str = "exact"
    #: Largest standard error of the pairwise matrix (0.0 when exact).
    pairwise_error: float = 0.0
    #: The question: ``"next_test_set"`` or ``"true_value"``.
    target: str = "next_test_set"
    #: What :meth:`compare` needs: the 2**k cells per class and the options of the ranking.
    _setup: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    #: With ``cluster=``: the classifiers' cells per cluster.
    _cluster: ClusteredClassifiers | None = field(default=None, repr=False, compare=False)

    title = "Ranking"

    @property
    def value(self) -> dict[str, float]:
        """Classifier name → P(it has the best metric on a new test set, or the best true value
        under ``target="true_value"``) (:attr:`prob_best`).

        Until 0.1 ``value`` was the name of the classifier most likely best: that is now
        :attr:`best`.
        """
        return dict(self.prob_best)

    @property
    def best(self) -> str:
        """The classifier most likely to be best (the largest :attr:`prob_best`, a tie broken by the
        smaller expected rank; ``value`` until 0.1)."""
        return self._order()[0]

    draws = renamed_attribute("n_draws")

    def _order(self) -> list[str]:
        """Names best first: by P(best), ties (often at P(best) = 0) by expected rank, then as given."""
        return sorted(self.names, key=lambda k: (-self.prob_best[k], self.expected_rank[k]))

    def interval(self, confidence: float = 0.95) -> dict[str, tuple[float, float]]:
        """Classifier → the ``confidence`` interval of its P(best) (keyed like :attr:`value`).

        The rows are assumed independent here (with ``cluster=``, :meth:`metric_intervals` gives the
        clustered intervals).

        P(best) is a probability under the model, not an estimate from the test set: its
        only uncertainty is the Monte Carlo error (k > 2), p ± z·se clipped to [0, 1]
        with z the normal quantile. When exact (k = 2) each interval is the point (p, p).
        """
        from scipy.stats import norm

        c = check_confidence(confidence)
        z = float(norm.ppf((1 + c) / 2))
        out = {}
        for name in self.names:
            p, se = self.prob_best[name], self.prob_best_error.get(name, self.mc_error)
            out[name] = (max(0.0, p - z * se), min(1.0, p + z * se))
        return out

    def to_frame(self) -> Any:
        """A pandas DataFrame: one row per classifier (prob_best, expected_rank, observed metric), best first."""
        pd = require("pandas", "notebooks", "to_frame()")

        columns: dict[str, Any] = {"prob_best": self.prob_best, "expected_rank": self.expected_rank}
        if self.observed:
            columns[self.metric] = self.observed
        if self._cluster is not None:
            intervals = self.metric_intervals()
            columns |= {
                "lower": {k: v[0] for k, v in intervals.items()},
                "upper": {k: v[1] for k, v in intervals.items()},
                "std_error": {k: v.std_error for k, v in intervals.items()},  # type: ignore[attr-defined]
                "interval_method": dict.fromkeys(self.names, self.interval_method),
                "icc": self.icc,
                "design_effect": self.design_effect,
            }
        frame = pd.DataFrame(columns, index=pd.Index(self.names, name="classifier"))
        return frame.sort_values("expected_rank")

    def plot(self, ax: Any = None) -> Any:
        """P(best) of each classifier as bars, best first (matplotlib; into ``ax`` when given).

        The two most likely best are drawn in the colours of A and B of their paired view
        (:data:`confusionlab.palette.PAIR_COLOURS`), the others in the neutral colour;
        Monte Carlo error bars are 95 % intervals. Returns the Figure.
        """
        fig, ax = new_figure(ax)
        order = self._order()
        colours = [PAIR_COLOURS["A"], PAIR_COLOURS["B"]] + [NEUTRAL] * (len(order) - 2)
        heights = [self.prob_best[k] for k in order]
        intervals = self.interval(0.95)
        err = np.array([[h - intervals[k][0] for k, h in zip(order, heights, strict=True)],
                        [intervals[k][1] - h for k, h in zip(order, heights, strict=True)]])  # fmt: skip
        ax.bar(range(len(order)), heights, color=colours, yerr=err if self.mc_error else None, capsize=3)
        as_written(ax.set_xticks(range(len(order)), order))
        ax.set_ylim(0, 1)
        ax.set_ylabel("P(best true value)" if self.target == "true_value" else "P(best on a new test set)")
        as_written(ax.set_title(f"{self.metric}: {self.best!r} most likely best", fontsize="medium"))
        return fig

    def compare(self, a: str, b: str) -> PairedComparison:
        """The paired comparison of classifiers ``a`` and ``b`` of the ranking (same options).

        Its ``prob_greater`` is ``pairwise[i, j]`` for ``a = names[i]``, ``b = names[j]``: exactly when
        :attr:`pairwise_method` is ``"exact"``, within the two Monte Carlo errors otherwise.
        """
        i, j = (self.names.index(check_member(x, name, self.names)) for x, name in ((a, "a"), (b, "b")))
        cells_pos, cells_neg = self._setup["cells"]
        comparison = _compare_pair(cells_pos, cells_neg, i, j, self._setup["options"])
        if self._cluster is not None:
            comparison._cluster = self._cluster.pair(i, j)
        return comparison

    def view(self, **traits: Any) -> Any:
        """The paired view (:class:`~confusionlab.widgets.paired_view.PairedView`) of the two
        classifiers most likely best, A the first; ``traits`` are passed on."""
        first, second = self._order()[:2]
        traits = {"name_a": first, "name_b": second, **traits}
        return self.compare(first, second).view(**traits)

    def summary(self, confidence: float = 0.95) -> str:
        """Which classifier is most likely best, in words (and the runner-up)."""
        c = check_confidence(confidence)
        first, second = self._order()[:2]
        lo, hi = self.interval(c)[first]
        err = f" ({c:.0%} Monte Carlo interval [{lo:.3g}, {hi:.3g}])" if self.mc_error else ""
        question = "to have the best true value" if self.target == "true_value" else "to be best on a new test set"
        return (
            f"{get_metric(self.metric).label}: of {len(self.names)} classifiers scored on the same test set, "
            f"{first!r} is the most likely {question}: P(best) = {self.prob_best[first]:.3g}"
            f"{err}, expected rank {self.expected_rank[first]:.3g}; next {second!r} with P(best) = "
            f"{self.prob_best[second]:.3g}."
        )


@renamed_arguments(draws="n_draws")
def rank_models(
    y_true: Any,
    predictions: dict[str, Any],
    metric: str | Metric,
    *,
    model: str = "paired-beta-binomial",
    tolerance: float = DEFAULT_TOLERANCE,
    future_size: int | tuple[int, int] | None = None,
    positive: Any = None,
    undefined: float = 0.0,
    n_draws: int = 100_000,
    random_state: Any = 0,
    target: str = "true_value",
    method: str = "auto",
    progress: bool | None = None,
    data: Any = None,
    cluster: Any = None,
) -> Ranking:
    """Rank k ≥ 2 classifiers scored on the same test set.

    Without ``cluster=`` the rows are assumed independent (one draw each): with several rows per patient,
    passage or speaker, pass ``cluster=`` or the intervals are too narrow.

    Parameters
    ----------
    y_true : array-like of labels
    predictions : dict
        Classifier name → its predicted labels on the same examples (at most
        :data:`MAX_CLASSIFIERS` classifiers).
    metric, model, tolerance, future_size, positive, undefined
        As in :func:`compare_paired` (``future_size``: N or (p, n)).
    n_draws : int, default 100,000
        Monte Carlo draws for P(best) and expected ranks when k > 2. ``draws`` is its old
        name (it still works, with a FutureWarning).
    random_state : default 0
    target : {"true_value", "next_test_set"}, default "true_value"
        The question, as in :func:`compare_paired`: who has the best true metric (the
        posterior of the 2**k agreement shares, by Monte Carlo, also for k = 2; the
        default), or who wins on a new test set.
    method : {"auto", "exact", "monte-carlo"}, default "auto"
        How the pairwise matrix (and, for k = 2, P(best)) is computed, as in
        :func:`compare_paired`. ``"auto"``: exactly where every pair fits
        (:data:`~confusionlab.paired.MAX_BOX_POINTS`, the memory limit, exact keys), else
        from the ranking's own Monte Carlo draws of the same model (at any size: MCC at
        N = 10⁵, or a ×1000 ``future_size``). ``"exact"`` refuses what does not fit;
        ``"monte-carlo"`` always draws. P(best) of k > 2 is always Monte Carlo.
        :attr:`Ranking.method` and :attr:`Ranking.pairwise_method` say which was used,
        ``mc_error`` and ``pairwise_error`` the Monte Carlo standard errors.
    progress : bool or None
        A progress bar over the draws (tqdm's; None: only in Jupyter or a terminal).

    data : DataFrame, optional
        pandas, polars, pyarrow, DuckDB, Dask or PySpark: then ``y_true`` is a column name and
        ``predictions`` maps each classifier to its column (or lists the columns); the
        agreement patterns are counted by the engine (``paired/_data.py``; the same numbers).
    cluster : array-like, optional
        A cluster id per example (a column name with ``data=``). Without it the examples are
        assumed independent. With it, :meth:`Ranking.metric_intervals` gives each classifier's
        cluster-robust delta-method interval of its true metric (as :func:`compare_paired`'s),
        with :attr:`~Ranking.icc`, :attr:`~Ranking.design_effect` and
        :attr:`~Ranking.effective_size` per classifier, and :meth:`Ranking.compare` the pair's
        clustered comparison. ``target="true_value"`` only.

    Returns
    -------
    Ranking
        Its :attr:`~Ranking.value` maps each classifier to P(best);
        :attr:`~Ranking.best` is the one most likely best.

    See Also
    --------
    compare_paired : Two classifiers on one test set (the pairwise entries).
    compare_paired_cells : The same from the 2 × 4 table of agreement cells.
    confusionlab.compare : Two classifiers on independent test sets.
    confusionlab.metric_distribution : One classifier's metric on a new test set.

    Notes
    -----
    The model generalises :func:`compare_paired`'s: per true class the 2**k cells of
    agreement are Dirichlet-multinomial with prior 2**(1 − k) per cell (under
    ``"paired-beta-binomial"``), so every pair of classifiers has exactly the paired
    model (prior ½ per cell of the pair) and each classifier alone the core's
    ``"beta-binomial"`` model (uniform prior). P(best) and expected ranks come from exact
    comparisons when k = 2 and from Monte Carlo (values ranked exactly, ``mc_error``)
    when k > 2; the pairwise matrix is exact.

    Examples
    --------
    >>> y = [1] * 10 + [0] * 10
    >>> preds = {"a": [1] * 9 + [0] + [0] * 10, "b": [1] * 7 + [0] * 3 + [0] * 8 + [1] * 2}
    >>> r = rank_models(y, preds, "accuracy", target="next_test_set")
    >>> r.best, r.method, round(r.value["a"] + r.value["b"], 12)
    ('a', 'exact', 1.0)
    >>> rank_models(y, preds, "accuracy").target
    'true_value'

    """
    options = check_options(
        metric=metric,
        model=model,
        tolerance=tolerance,
        future_size=future_size,
        positive=positive,
        undefined=undefined,
        method=method,
        n_draws=n_draws,
        random_state=random_state,
        target=target,
        progress=progress,
        stacklevel=3,
    )
    check_cluster_question(cluster, options.target, "intervals of the true metrics")
    if data is not None:  # data= with column names: the patterns counted by the data's own engine
        from ._data import RANK_DOOR, rank_from_counts

        table = RANK_DOOR(data, options, y_true=y_true, predictions=predictions, cluster=cluster)
        return rank_from_counts(table, options)
    names = check_classifiers(predictions, MAX_CLASSIFIERS)
    t = check_labels_not_scores(as_labels(y_true, "y_true"), "y_true")
    preds = [check_labels_not_scores(as_labels(v, f"predictions[{k!r}]"), f"predictions[{k!r}]")
             for k, v in predictions.items()]  # fmt: skip
    check_same_length(
        {"y_true": t, **{f"predictions[{k!r}]": a for k, a in zip(names, preds, strict=True)}}, "a ranking"
    )
    labels = distinct_labels(t, *preds)
    check_binary_labels(labels, positive, ("y_true", "the predictions"), "a ranking")
    positive = positive_label(labels, positive)
    truth = labels_equal(t, positive)
    bits = np.stack([labels_equal(a, positive) for a in preds])  # (k, N)
    k = len(names)
    pattern = (bits.astype(np.int64) << np.arange(k)[:, None]).sum(axis=0)
    cells_pos = np.bincount(pattern[truth], minlength=2**k)
    cells_neg = np.bincount(pattern[~truth], minlength=2**k)
    ranking = rank_cells(names, cells_pos, cells_neg, options)
    if cluster is None:
        return ranking
    return replace(ranking, _cluster=clustered_classifiers(options.metric.name, names, truth, list(bits), cluster))


def rank_cells(names: list[str], cells_pos: np.ndarray, cells_neg: np.ndarray, options: Options) -> Ranking:
    """The ranking of the classifiers ``names`` from the 2**k agreement patterns of each class (bit i
    of a pattern: classifier i predicts positive) under the checked ``options``: what both paths of
    :func:`rank_models` end in.

    >>> from confusionlab.paired._options import check_options
    >>> o = check_options(metric="accuracy", model="paired-beta-binomial", tolerance=1e-12, future_size=None,
    ...                   undefined=0.0, method="auto", n_draws=1000, random_state=0, target="next_test_set",
    ...                   stacklevel=1)
    >>> rank_cells(["a", "b"], np.array([0, 0, 1, 9]), np.array([9, 1, 0, 0]), o).observed  # a: 9 + 9 of 20 right
    {'a': 0.9, 'b': 1.0}
    """
    m, model, tolerance, undefined_value = options.metric, options.model, options.tolerance, options.undefined
    method, n_draws, target = options.method, options.n_draws, options.target
    k = len(names)
    p_obs, n_obs = int(cells_pos.sum()), int(cells_neg.sum())
    p, n = check_test_set_size(options.future_size, p_obs, n_obs)
    if model == "paired-binomial":
        check_observed_class(p_obs, p, "positives", model)
        check_observed_class(n_obs, n, "negatives", model)
    pair = replace(options, future_size=(p, n) if target == "next_test_set" else None)
    bitmat = ((np.arange(2**k)[:, None] >> np.arange(k)[None, :]) & 1).astype(np.int64)  # (cells, k)
    observed = {}
    for name, tp, fp in zip(names, (cells_pos @ bitmat).tolist(), (cells_neg @ bitmat).tolist(), strict=True):
        cm = ConfusionMatrix(tp=tp, fn=p_obs - tp, fp=fp, tn=n_obs - fp)
        observed[name] = metric_value(cm, m, undefined=undefined_value)
    common = {"metric": m.name, "model": model, "observed": observed, "target": target,
              "_setup": {"cells": (cells_pos, cells_neg), "options": pair}}  # fmt: skip
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]

    if k == 2 and target == "next_test_set" and method != "monte-carlo":
        r = _compare_pair(cells_pos, cells_neg, 0, 1, pair)
        pairwise = np.array([[0.0, r.prob_greater], [r.prob_less, 0.0]])
        tie = r.prob_equal
        best = [float(r.prob_greater + tie / 2), float(r.prob_less + tie / 2)]
        ranks = [float(1 + r.prob_less + tie / 2), float(1 + r.prob_greater + tie / 2)]
        return Ranking(names, dict(zip(names, best, strict=True)), dict(zip(names, ranks, strict=True)), pairwise,
                       r.method, r.mc_error, r.n_draws, prob_best_error=dict.fromkeys(names, r.mc_error),
                       pairwise_method=r.method, pairwise_error=r.mc_error, **common)  # fmt: skip

    exact_pairs = target == "next_test_set" and method != "monte-carlo"
    if exact_pairs and method == "auto":  # every pair must fit, and all of them within one budget
        budget = 0.0
        for i, j in pairs:
            pc = PairedCounts(_pair_cells(cells_pos, i, j), _pair_cells(cells_neg, i, j))
            points = exact_points(m, model, pc, p, n, tolerance)
            budget = math.inf if points is None else budget + points
            if budget > MAX_PAIRWISE_POINTS:
                exact_pairs = False
                break
    rng = check_random_state(options.random_state)
    check_n_draws(n_draws, bytes_per_draw=k * 48)  # k counts, values and ranks per draw
    prior = cell_prior(target, k, "rank_models")  # 2**(1 − k): α = 1 per classifier's rate
    if target == "true_value":  # the posterior of the shares; real values, ranked by sorting
        tp, fp = np.zeros((n_draws, k)), np.zeros((n_draws, k))
        step = max(1, CHUNK_ENTRIES // 2**k)
        for s in range(0, n_draws, step):  # chunks: 2**k shares per draw are never held for all draws
            r = min(step, n_draws - s)
            if p:
                tp[s : s + r] = p * (agreement_shares(rng, cells_pos + prior, r) @ bitmat)
            if n:
                fp[s : s + r] = n * (agreement_shares(rng, cells_neg + prior, r) @ bitmat)
        values = m.values(tp, p - tp, fp, n - fp, undefined=undefined_value)
        rank = np.unique(values.reshape(-1), return_inverse=True)[1].reshape(n_draws, k)
    else:
        from tqdm.auto import tqdm

        with tqdm(total=2 * n_draws, desc="rank_models", unit=" draws", disable=not options.progress, delay=2.0) as bar:
            tp = classifier_counts(model, cells_pos, bitmat, p, n_draws, rng, prior, bar.update)
            fp = classifier_counts(model, cells_neg, bitmat, n, n_draws, rng, prior, bar.update)
        span = n + 1
        uniq, inv = np.unique((tp * span + fp).reshape(-1), return_inverse=True)
        ranked = exact_ranks(m, uniq // span, uniq % span, p, n, undefined_value)
        rank = ranked.ranks[inv.reshape(-1)].reshape(n_draws, k)
    top = rank.max(axis=1, keepdims=True)
    at_top = rank == top
    share = at_top / at_top.sum(axis=1, keepdims=True)
    prob_best = share.mean(axis=0)
    se = share.std(axis=0) / math.sqrt(n_draws)
    greater = (rank[:, None, :] > rank[:, :, None]).sum(axis=2)  # others better than me
    equal = (rank[:, None, :] == rank[:, :, None]).sum(axis=2) - 1
    expected = (1 + greater + equal / 2).mean(axis=0)
    pairwise = np.zeros((k, k))
    if exact_pairs:
        for i, j in pairs:
            r = _compare_pair(cells_pos, cells_neg, i, j, replace(pair, method="exact"))
            pairwise[i, j], pairwise[j, i] = r.prob_greater, r.prob_less
        pairwise_method, pairwise_error = "exact", 0.0
    else:  # from the same draws: consistent with P(best) by construction
        for i, j in pairs:
            pairwise[i, j] = float(np.mean(rank[:, i] > rank[:, j]))
            pairwise[j, i] = float(np.mean(rank[:, j] > rank[:, i]))
        worst = float(np.max(pairwise * (1 - pairwise)))
        pairwise_method, pairwise_error = "monte-carlo", math.sqrt(worst / n_draws)
    return Ranking(
        names,
        dict(zip(names, prob_best.tolist(), strict=True)),
        dict(zip(names, expected.tolist(), strict=True)),
        pairwise,
        "monte-carlo",
        float(se.max()),
        n_draws,
        prob_best_error=dict(zip(names, se.tolist(), strict=True)),
        pairwise_method=pairwise_method,
        pairwise_error=pairwise_error,
        **common,
    )


def _compare_pair(cells_pos: np.ndarray, cells_neg: np.ndarray, i: int, j: int, options: Options) -> PairedComparison:
    """The paired comparison of classifiers i (as A) and j (as B) from the 2**k cells of each class."""
    return from_cells(PairedCounts(_pair_cells(cells_pos, i, j), _pair_cells(cells_neg, i, j)), options)


def _pair_cells(cells: np.ndarray, i: int, j: int) -> tuple[int, int, int, int]:
    idx = np.arange(cells.size)
    a, b = (idx >> i) & 1, (idx >> j) & 1
    return tuple(int(cells[(a == x) & (b == y)].sum()) for x, y in ((1, 1), (1, 0), (0, 1), (0, 0)))  # type: ignore[return-value]
