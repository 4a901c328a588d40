"""How an :class:`~confusionlab.evaluation.Evaluation` computes its distributions: each when
first asked for, then kept (:class:`~._budget.KeptDistributions`).

* one matrix's distribution (:meth:`~Distributions._exact`: exact, or sampled as ``method``
  allows, every metric of a simplex from one build), its Monte Carlo stream keyed by the
  counts (:func:`~confusionlab.models.keyed_stream`);
* the refits' mixture of a group (:meth:`~Distributions._mixed`: one slice shared by the refits,
  or their distributions pooled) and its decomposition;
* the small groups batched in array operations (:meth:`~Distributions._batch`), the large ones on
  threads (:meth:`~Distributions._prefetch`);
* the macro averages sampled per run (:meth:`~Distributions._macro`);
* the sizes and observed values of every group at once.

:class:`Distributions` is the part of :class:`~confusionlab.evaluation.Evaluation` that holds
this machinery; the result itself (its values, intervals, frame, figure and page) is in
``_result.py``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from .._validation import InvalidParameterError, TooLargeError, check_memory, memory_limit
from ..confusion import ConfusionMatrix
from ..distribution import (
    EXACT_MIXTURE_POINTS,
    MetricDistribution,
    decompose,
    decompose_rows,
    lattice_bytes,
    metric_distribution,
    mixture,
    shared_simplex,
    slice_mixture,
    slice_mixtures,
)
from ..metrics import Metric, get_metric
from ..models import SIMPLEX_MODELS, SLICE_MODELS, keyed_stream, seedable, slice_model
from . import _sampling
from ._budget import (
    KEPT_BYTES_PER_ATOM,
    KeptDistributions,
    kept_in_advance,
    mixture_peak,
    mixture_points,
    parallel_jobs,
)
from ._metrics import _is_macro
from ._sampling import check_macro_memory, macro_distribution

__all__ = ["TRUE_VALUE_MIXTURE_ATOMS", "Distributions"]

#: Most atoms of the refits' true-value distributions pooled exactly under ``method="auto"``
#: (12 quadratures of 160,000 atoms); beyond, each refit's posterior is sampled (``_run_dists``).
TRUE_VALUE_MIXTURE_ATOMS = 2_000_000


class Distributions:
    """The distributions of an evaluation, computed when first asked for and kept (a base of
    :class:`~confusionlab.evaluation.Evaluation`, whose constructor sets the attributes below and
    whose ``value_of`` gives a table metric's observed value)."""

    classes: list[Any]
    positive_index: int | None
    groups: list[Any]
    counts: np.ndarray
    model: str
    target: str
    tolerance: float
    prior: float
    table_prior: float
    metrics: list[str]
    n_draws: int
    method: str
    progress: bool
    _record: np.ndarray | None
    _rng: np.random.Generator
    _cache: dict[tuple[Any, ...], Any]
    _kept: KeptDistributions

    def _binary(self, metric: str, argument: str = "metric") -> Metric:
        if self.positive_index is None:
            raise InvalidParameterError(
                f"{argument} {metric!r} is binary but there are {len(self.classes)} classes; pass positive=<label> to "
                "evaluate(), use per_class(metric), or a macro average such as 'macro_f1'"
            )
        return get_metric(metric)

    @staticmethod
    def _one_vs_rest(table: np.ndarray, c: int) -> ConfusionMatrix:
        tp = int(table[c, c])
        fn = int(table[c].sum()) - tp
        fp = int(table[:, c].sum()) - tp
        return ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=int(table.sum()) - tp - fn - fp)

    def _seed(self, cm: ConfusionMatrix) -> np.random.Generator:
        """The Monte Carlo stream of one matrix's sampled distributions: from ``random_state``
        and the counts, so it does not depend on the order in which distributions are asked
        for (and every metric of a matrix sees the same draws)."""
        self._rng = seedable(self._rng)
        return keyed_stream(self._rng, cm.as_tuple())

    def _exact(self, cm: ConfusionMatrix, metric: str, method: str | None = None) -> MetricDistribution:
        """The distribution of one matrix (exact, or sampled as :attr:`method` allows).

        Under the simplex model the other binary metrics of the evaluation are computed at
        the same time, from one build of the simplex (:func:`~confusionlab.distribution.shared_simplex`).
        """
        method = method or self.method
        key = ("exact", metric, cm.as_tuple(), method)
        found = self._cache.get(key)
        if found is None:
            names = [metric]
            if self.model in SIMPLEX_MODELS:
                names += [n for n in self.metrics if not _is_macro(n)]
            with shared_simplex():
                for name in dict.fromkeys(names):
                    k = ("exact", name, cm.as_tuple(), method)
                    if k not in self._cache:
                        d = self._kept.keep(
                            k,
                            metric_distribution(
                                cm,
                                name,
                                self.model,
                                prior=self.prior,
                                tolerance=self.tolerance,
                                target=self.target,
                                method=method,
                                n_draws=self.n_draws,
                                random_state=self._seed(cm),
                            ),
                        )
                        found = d if k == key else found
        return found

    def _check_exact(self) -> None:
        """For ``method="exact"``: refuse now (TooLargeError) when a binary metric's lattice of
        the whole test set would not fit in memory — the largest of the evaluation's lattices."""
        if self.positive_index is None or self.target != "next_test_set" or self.model not in SLICE_MODELS:
            return
        names = [n for n in self.metrics if not _is_macro(n)]
        if not names:
            return
        price = max(lattice_bytes(get_metric(n), int(self.counts[0][-1].sum())) for n in names)
        for tables in self.counts if self._record is None else [self._record]:
            cm = self._one_vs_rest(tables[-1], self.positive_index)
            sl = slice_model(cm, self.model, prior=self.prior, tolerance=self.tolerance)
            check_memory(
                float(sl.tp_pmf.size) * float(sl.tn_pmf.size) * price,
                f"the {self.model} lattice of {sl.tp_pmf.size:,} × {sl.tn_pmf.size:,} (TP, TN) points of the "
                "whole test set",
                "use method='auto' (Monte Carlo of the same model where exact does not fit) or "
                f"raise tolerance (now {self.tolerance:g})",
            )

    def _mixed(
        self, metric: str, g: int, c: int | None = None
    ) -> tuple[MetricDistribution, dict[str, float], np.ndarray]:
        """The refits' mixture, its decomposition and the refits' means for group ``g``
        (class ``c`` against the rest).

        Binary metrics of a new test set under a slice model share one slice across the
        refits (the true labels are fixed), so :func:`~confusionlab.distribution.slice_mixture`
        gives all three from one exact grouping; otherwise the refits' distributions are
        pooled (:func:`~confusionlab.distribution.mixture`). Either way the decomposition is
        :func:`~confusionlab.distribution.decompose` of the refits' moments.
        """
        key = ("mixed", metric, g, c)
        found = self._cache.get(key)
        if found is None:
            if not self._one_slice(metric):
                dists = self._run_dists(metric, g, c)
                means = np.array([d.mean() for d in dists])
                variances = np.array([d.var() for d in dists])
                found = self._kept.keep(key, (mixture(dists), decompose(means, variances), means))
            else:
                if c is None:
                    self._binary(metric)
                    c = self.positive_index
                cms = self._run_matrices(g, c)  # type: ignore[arg-type]
                budget = EXACT_MIXTURE_POINTS if self.method == "auto" else None
                self._kept.make_room(mixture_peak(get_metric(metric), cms[0].p, cms[0].n, budget))
                try:
                    mix = slice_mixture(
                        cms, metric, self.model, prior=self.prior, tolerance=self.tolerance, max_points=budget
                    )
                    found = self._kept.keep(key, (mix.distribution, mix.decompose(), mix.means))
                except TooLargeError:
                    # the refits' union lattice does not fit, or is above the budget of method="auto":
                    # pool the refits' own distributions, exact for method="exact", sampled for "auto"
                    # (exact ones would take minutes)
                    method = "exact" if self.method == "exact" else "monte-carlo"
                    dists = [self._exact(cm, metric, method) for cm in cms]
                    means = np.array([d.mean() for d in dists])
                    variances = np.array([d.var() for d in dists])
                    found = self._kept.keep(key, (mixture(dists), decompose(means, variances), means))
        return found

    def _run_matrices(self, g: int, c: int) -> list[ConfusionMatrix]:
        """Each run's one-vs-rest matrix of group ``g`` (class ``c`` positive); runs with the
        same counts share one object (refits of a small group often agree)."""
        tables = self.counts[:, g]
        tp = tables[:, c, c]
        fn = tables[:, c, :].sum(axis=1) - tp
        fp = tables[:, :, c].sum(axis=1) - tp
        tn = tables.sum(axis=(1, 2)) - tp - fn - fp
        rows = np.stack([tp, fn, fp, tn], axis=1).tolist()
        made: dict[tuple[int, ...], ConfusionMatrix] = {}
        out = []
        for row in rows:
            key = tuple(row)
            if key not in made:
                made[key] = ConfusionMatrix(tp=key[0], fn=key[1], fp=key[2], tn=key[3])
            out.append(made[key])
        return out

    def _one_slice(self, metric: str) -> bool:
        """Whether the refits' distributions of ``metric`` share one slice (see :meth:`_mixed`)."""
        return not (
            _is_macro(metric)
            or self.target != "next_test_set"
            or self.model not in SLICE_MODELS
            or self.method == "monte-carlo"
        )

    def _prefetch(self, metric: str | Sequence[str], groups: Sequence[int]) -> None:
        """Compute the groups' exact mixtures of ``metric`` (one name, or several: their small
        groups in one batch) on up to 4 threads (numpy's sorts release the GIL).

        Only the exact slice mixtures run in parallel: they involve no random numbers, so the
        results do not depend on the order in which threads finish.
        """
        names = [metric] if isinstance(metric, str) else list(metric)
        todo = {name: [g for g in groups if ("mixed", name, g, None) not in self._cache] for name in names}
        names = [name for name in names if len(todo[name]) >= 2 and self._one_slice(name)]
        if not names:
            return
        for name in names:
            self._binary(name)
        left = self._batch(names, sorted(set().union(*(todo[name] for name in names))))
        from tqdm.auto import tqdm

        room = memory_limit() / 2 - self._kept.total  # the rest: what is computed when read

        for name in names:  # one metric at a time: a large group's lattice is the memory's largest item
            wanted = set(todo[name])
            jobs = [g for g in left[name] if g in wanted]
            if len(jobs) < 2:
                continue
            budget = EXACT_MIXTURE_POINTS if self.method == "auto" else None
            counts = self._all_sizes()
            sizes = [(int(counts["positives"][g]), int(counts["negatives"][g])) for g in jobs]
            ahead = kept_in_advance([mixture_points(p, n, budget) for p, n in sizes], room)
            jobs, sizes = jobs[:ahead], sizes[:ahead]
            room -= sum(mixture_points(p, n, budget) for p, n in sizes) * KEPT_BYTES_PER_ATOM
            if len(jobs) < 2:
                continue
            peaks = [mixture_peak(get_metric(name), p, n, budget) for p, n in sizes]
            workers = parallel_jobs(peaks, min(4, os.cpu_count() or 1, len(jobs)))
            with (
                threadpool_limits(limits=1, user_api="blas"),
                ThreadPoolExecutor(workers) as pool,
                tqdm(
                    total=len(jobs), desc=f"{name}: groups", delay=_sampling.PROGRESS_DELAY, disable=not self.progress
                ) as bar,
            ):
                for _ in pool.map(lambda g, name=name: self._mixed(name, g), jobs):
                    bar.update(1)

    def _batch(self, metrics: Sequence[str], groups: Sequence[int]) -> dict[str, list[int]]:
        """The small groups' exact mixtures of ``metrics`` in array operations across groups
        (:func:`~confusionlab.distribution.slice_mixtures`: one marginal per distinct count, one
        batched product per chunk of groups for every metric, one sort per metric); returns,
        per metric, the groups left to :meth:`_mixed` one by one. Refits only: one
        prediction vector keeps :func:`~confusionlab.metric_distribution`'s own grouping, bit
        for bit (the batch sums masses in another order: equal to rounding)."""
        if self.counts.shape[0] < 2:
            return {name: list(groups) for name in metrics}
        c = self.positive_index
        idx = np.asarray(groups, dtype=np.intp)
        tables = self.counts[:, idx]  # (runs, groups, classes, classes)
        tp = tables[..., c, c]
        fn = tables[..., c, :].sum(axis=-1) - tp
        fp = tables[..., :, c].sum(axis=-1) - tp
        tn = tables.sum(axis=(-2, -1)) - tp - fn - fp
        counts = np.stack([tp, fn, fp, tn], axis=-1).transpose(1, 0, 2)  # (groups, runs, 4)
        batched = slice_mixtures(counts, list(metrics), self.model, prior=self.prior, tolerance=self.tolerance)
        left = {}
        for name in metrics:
            mixes = batched[get_metric(name).name]
            done = [i for i, mix in enumerate(mixes) if mix is not None]
            if done:
                parts = decompose_rows(
                    np.stack([mixes[i].means for i in done]),  # type: ignore[union-attr]
                    np.stack([mixes[i].variances for i in done]),  # type: ignore[union-attr]
                )
                for i, part in zip(done, parts, strict=True):
                    mix = mixes[i]
                    key = ("mixed", name, groups[i], None)
                    if key not in self._cache:
                        self._kept.keep(key, (mix.distribution, part, mix.means))  # type: ignore[union-attr]
            left[name] = [g for g, mix in zip(groups, mixes, strict=True) if mix is None]
        return left

    def _run_dists(self, metric: str, g: int, c: int | None = None) -> list[MetricDistribution]:
        """One distribution per run (refit) of group ``g``: exact, or Monte Carlo for macro.

        Under ``method="auto"``, refits' true values whose pooled atoms would exceed
        :data:`TRUE_VALUE_MIXTURE_ATOMS` (R quadratures of 160,000 atoms each) are sampled
        instead: ``n_draws / R`` draws of each refit's posterior, so the mixture pools
        ``n_draws`` draws, labelled Monte Carlo (each refit's quadrature takes 30 ms and 5 MB
        kept: 20 refits of 20 groups ran out of 4 GB).
        """
        if _is_macro(metric):
            return self._macro(metric, g)[0]
        if c is None:
            self._binary(metric)
            c = self.positive_index
        cms = [self._one_vs_rest(tables[g], c) for tables in self.counts]  # type: ignore[arg-type]
        if self.target == "true_value" and self.method == "auto" and len(cms) > 1:
            first = self._exact(cms[0], metric)
            if float(first.values.size) * len(cms) > TRUE_VALUE_MIXTURE_ATOMS:
                share = -(-self.n_draws // len(cms))
                return [
                    metric_distribution(
                        cm,
                        metric,
                        self.model,
                        prior=self.prior,
                        tolerance=self.tolerance,
                        target=self.target,
                        method="monte-carlo",
                        n_draws=share,
                        random_state=self._seed(cm),
                    )
                    for cm in cms
                ]
        return [self._exact(cm, metric) for cm in cms]

    def _macro(self, metric: str, g: int) -> tuple[list[MetricDistribution], list[float]]:
        """Each run's Monte Carlo distribution of the macro average for group ``g``, and its error."""
        key = ("macro", metric, g)
        if key not in self._cache:
            runs = self.counts
            per_run = max(1, self.n_draws // runs.shape[0])
            check_macro_memory(self.n_draws, per_run, runs.shape[-1])
            from tqdm.auto import tqdm

            several = runs.shape[0] > 1  # one bar: over the refits, or over one run's draws
            pairs = []
            with tqdm(
                total=runs.shape[0],
                desc=f"{metric}: refits",
                delay=_sampling.PROGRESS_DELAY,
                disable=not (self.progress and several),
            ) as bar:
                for table in runs[:, g]:
                    inner = self.progress and not several
                    pairs.append(
                        macro_distribution(table, metric, per_run, self._rng, self.target, self.table_prior, inner)
                    )
                    bar.update(1)
            self._cache[key] = ([d for d, _ in pairs], [e for _, e in pairs])
        return self._cache[key]

    def _all_sizes(self) -> dict[str, np.ndarray]:
        """:meth:`sizes` of every group at once (arrays over :attr:`groups`)."""
        rows = self.counts[0].sum(axis=2)  # (groups, classes)
        objects = rows.sum(axis=1)
        present = np.where(rows > 0, rows, np.iinfo(np.int64).max)
        smallest = np.where(rows.any(axis=1), present.min(axis=1), 0)
        out = {"objects": objects, "smallest_class": smallest}
        if self.positive_index is not None:
            out["positives"] = rows[:, self.positive_index]
            out["negatives"] = objects - out["positives"]
        return out

    def _all_values(self, metric: str) -> np.ndarray:
        """:meth:`value_of` of every group at once: a binary metric on the arrays of counts of
        every (run, group); the table metrics one group at a time."""
        if _is_macro(metric):
            return np.array([self.value_of(metric, name) for name in self.groups])
        m = self._binary(metric)
        tables = self._record[None] if self._record is not None else self.counts
        c = self.positive_index
        tp = tables[..., c, c]
        fn = tables[..., c, :].sum(axis=-1) - tp
        fp = tables[..., :, c].sum(axis=-1) - tp
        tn = tables.sum(axis=(-2, -1)) - tp - fn - fp
        with np.errstate(all="ignore"):
            vals = np.broadcast_to(m.values(tp, fn, fp, tn, undefined=0.0), tp.shape)
        return np.mean(np.ascontiguousarray(vals.T, dtype=np.float64), axis=1)
