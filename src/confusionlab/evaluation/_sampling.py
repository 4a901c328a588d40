"""The Monte Carlo sampler of the metrics of a whole K × K table (more than two classes).

A macro average (the mean over classes of a one-vs-rest metric) or the multi-class MCC
of a K × K confusion table has no exact lattice small enough to enumerate, so it is
sampled: each row i of
the table (the objects of true class i) gets θ_i ~ Dirichlet(row + α) (α from ``prior``,
0.1 by default in :func:`evaluate`) — the row-wise
Dirichlet-multinomial model — and the new row is Multinomial(n_i, θ_i) for a new test
set of the same size, or n_i·θ_i for the true value. The distribution of the draws
comes with the Monte Carlo standard error of its mean, kept by the caller.
"""

from __future__ import annotations

import math

import numpy as np

from .._validation import check_memory
from ..distribution import MetricDistribution
from ..models import dirichlet_shares, multinomial_rows
from ._metrics import table_values

__all__: list[str] = []

#: Bytes per Monte Carlo matrix cell (the Dirichlet draws, the matrices and the metric's work).
_MC_BYTES_PER_CELL = 40


def check_macro_memory(n_draws: int, per_table: int, k: int) -> None:
    """Refuse before sampling ``per_table`` draws of k × k matrices above the memory limit."""
    check_memory(
        float(per_table) * k * k * _MC_BYTES_PER_CELL,
        f"n_draws={n_draws:,} Monte Carlo draws of {k} × {k} matrices",
        "use a smaller n_draws",
    )


#: Draws per progress step of the sampler (the random stream does not depend on it).
_CHUNK = 50_000
#: Seconds of work before a progress bar appears.
PROGRESS_DELAY = 0.5


def macro_samples(
    table: np.ndarray,
    name: str,
    n_draws: int,
    rng: np.random.Generator,
    target: str,
    prior: float = 1.0,
    progress: bool = False,
) -> np.ndarray:
    """``n_draws`` draws of the table metric ``name`` (a macro average or the multi-class MCC,
    :func:`._metrics.table_values`) of the K × K ``table`` (rows true, columns predicted)
    under the row-wise Dirichlet-multinomial model (Dirichlet(row + ``prior``)).

    The work goes in steps of :data:`_CHUNK` draws along the first axis, which consume the
    random stream in the same order as one call would: the draws are the same with and
    without the progress bar (``progress``, tqdm's, shown after :data:`PROGRESS_DELAY` seconds).
    The draws are :func:`~confusionlab.models.dirichlet_shares` and, for a new test set,
    :func:`~confusionlab.models.multinomial_rows` (row by row).
    """
    from tqdm.auto import tqdm

    k = table.shape[0]
    n_rows = table.sum(axis=1)
    steps = [(a, min(a + _CHUNK, n_draws)) for a in range(0, n_draws, _CHUNK)]
    stages = 2 if target == "true_value" else 3
    total = len(steps) * (stages - 1) + (k if stages == 3 else 0)
    with tqdm(total=total, desc=f"{name} draws", delay=PROGRESS_DELAY, disable=not progress, leave=False) as bar:
        # the gamma variates in C order, a chunk per step: the same as one call of size (n_draws, k, k)
        theta = dirichlet_shares(rng, table, n_draws, prior, chunk=_CHUNK, advance=lambda _: bar.update(1))
        if target == "true_value":
            mats = theta
            mats *= n_rows[None, :, None]
        else:
            mats = multinomial_rows(rng, n_rows, theta, advance=lambda _: bar.update(1))
        out = np.empty(n_draws)
        for a, b in steps:
            out[a:b] = table_values(name, mats[a:b])
            bar.update(1)
    return out


def macro_distribution(
    table: np.ndarray,
    name: str,
    n_draws: int,
    rng: np.random.Generator,
    target: str,
    prior: float = 1.0,
    progress: bool = False,
) -> tuple[MetricDistribution, float]:
    """The sampled distribution of the macro average ``name`` of ``table`` and the Monte Carlo
    standard error of its mean (sd of the draws / √n_draws).

    Classes absent from both the true labels and the predictions of ``table`` are left out
    (scikit-learn's ``average="macro"`` over the labels present). The caller checks the
    memory first (:func:`check_macro_memory`).
    """
    present = np.flatnonzero(table.sum(axis=0) + table.sum(axis=1))
    sample = macro_samples(table[np.ix_(present, present)], name, n_draws, rng, target, prior, progress)
    values, counts = np.unique(sample, return_counts=True)
    d = MetricDistribution(
        values,
        counts / float(n_draws),
        counts,
        metric=name,
        model="dirichlet-multinomial rows (Monte Carlo)",
        strategy=f"monte-carlo({n_draws})",
        check_total=True,
        target=target,
        mc_error=float(np.std(sample) / math.sqrt(n_draws)),
        method="monte-carlo",
    )
    return d, d.mc_error
