"""Two ways to evaluate the paired model: exact enumeration and Monte Carlo.

**Exact.** The joint of (TP_A, TP_B) and of (FP_A, FP_B) are tables ``P1`` and ``P2``
(:func:`~confusionlab.paired._model.count_joint`); A's value is a function of
(TP_A, FP_A) and B's of (TP_B, FP_B), both read from one table of exact ranks over
the (TP, FP) grid. Every question is a sum over the four-dimensional support

    Σ P1[ta, tb] · P2[fa, fb] · [key_B(tb, fb) < key_A(ta, fa)]    (or ≤),

which is computed without visiting its points one by one: for each TP_B = tb the
row ``key_B(tb, ·)`` is sorted once and ``P2``'s columns cumulated in that order, so
for every (ta, fa) the mass of all fb below A's key is one binary search and one
look-up. Cost: O(L_tb · (L_fa · L_fb + L_ta · L_fa · log L_fb)) instead of
O(L_ta · L_tb · L_fa · L_fb). With ranks as keys the comparison is exact (ties are
equal ranks); with float values shifted by a margin it decides |A − B| ≤ margin.
Only the distribution of the difference itself visits the pairs (``max_points``),
or is binned beyond.

**Monte Carlo.** Cells drawn from the model (Dirichlet shares, then multinomial
counts), values ranked exactly, probabilities estimated with standard error
√(P(1 − P)/n_draws).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .._validation import check_n_draws
from ..metrics import Metric
from ..models import agreement_counts, agreement_shares
from ._model import CountJoint, cell_priors
from ._ranks import exact_ranks

__all__ = ["ExactEngine", "MonteCarloEngine", "TrueValueEngine"]

#: Bytes per drawn example while Monte Carlo draws are held (cells, counts, ranks).
BYTES_PER_DRAW = 160


@dataclass
class ExactEngine:
    """Exact sums over the pruned support (see the module docstring)."""

    metric: Metric
    p: int
    n: int
    pos: CountJoint
    neg: CountJoint
    undefined: float
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        pos, neg = self.pos, self.neg
        la, lb = pos.pmf.shape
        lfa, lfb = neg.pmf.shape
        t0, t1 = min(pos.a_lo, pos.b_lo), max(pos.a_lo + la, pos.b_lo + lb)
        f0, f1 = min(neg.a_lo, neg.b_lo), max(neg.a_lo + lfa, neg.b_lo + lfb)
        t = np.arange(t0, t1)[:, None]
        f = np.arange(f0, f1)[None, :]
        tt, ff = np.broadcast_arrays(t, f)
        ranked = exact_ranks(self.metric, tt, ff, self.p, self.n, self.undefined)
        self.values = ranked.values
        grid = ranked.ranks
        self.rank_a = grid[pos.a_lo - t0 : pos.a_lo - t0 + la, neg.a_lo - f0 : neg.a_lo - f0 + lfa]
        self.rank_b = grid[pos.b_lo - t0 : pos.b_lo - t0 + lb, neg.b_lo - f0 : neg.b_lo - f0 + lfb]
        self.total = float(pos.pmf.sum()) * float(neg.pmf.sum())

    @staticmethod
    def work(pos: CountJoint, neg: CountJoint) -> float:
        """Elementary operations of one sweep (for choosing exact or Monte Carlo)."""
        lb = pos.pmf.shape[1]
        lfa, lfb = neg.pmf.shape
        return float(lb) * lfa * lfb + float(np.count_nonzero(pos.pmf)) * lfa * max(1.0, np.log2(lfb + 1))

    @property
    def points(self) -> int:
        """Points of the four-dimensional support with positive mass."""
        return int(np.count_nonzero(self.pos.pmf)) * int(np.count_nonzero(self.neg.pmf))

    def below(self, offsets: list[float | None], strict: list[bool]) -> np.ndarray:
        """Masses of B < A − offset (``strict``) or B ≤ A − offset, normalised to the retained mass.

        ``offset=None`` compares exact ranks (B < A or B ≤ A); a number compares float values.
        """
        key = tuple(zip(offsets, strict, strict=True))
        missing = [q for q in key if q not in self._cache]
        if missing:
            for q, m in zip(missing, self._sweep(missing), strict=True):
                self._cache[q] = m
        return np.array([self._cache[q] for q in key])

    def _sweep(self, queries: list[tuple[float | None, bool]]) -> list[float]:
        p1, p2 = self.pos.pmf, self.neg.pmf
        lfa, lfb = p2.shape
        out = np.zeros(len(queries))
        fa = np.arange(lfa)[None, :]
        cum = np.zeros((lfa, lfb + 1))
        value_a = self.values[self.rank_a]
        for j in np.flatnonzero(p1.any(axis=0)):
            rows = np.flatnonzero(p1[:, j])
            weight = p1[rows, j]
            rb = self.rank_b[j]
            order = np.argsort(rb, kind="stable")
            np.cumsum(p2[:, order], axis=1, out=cum[:, 1:])
            sorted_rank = rb[order]
            sorted_value = self.values[sorted_rank]
            for i, (offset, strict) in enumerate(queries):
                side = "left" if strict else "right"
                if offset is None:
                    k = np.searchsorted(sorted_rank, self.rank_a[rows], side=side)
                else:
                    k = np.searchsorted(sorted_value, value_a[rows] - offset, side=side)
                out[i] += float(weight @ cum[fa, k].sum(axis=1))
        return list(np.clip(out / self.total, 0.0, 1.0)) if self.total > 0 else list(out)

    @cached_property
    def pair_masses(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Distinct (rank A, rank B) pairs with their mass (normalised), by visiting every point."""
        p1, p2 = self.pos.pmf, self.neg.pmf
        ia, ib = np.nonzero(p1)
        ja, jb = np.nonzero(p2)
        w1, w2 = p1[ia, ib], p2[ja, jb]
        nvals = self.values.size
        keys, masses = [], []
        chunk = max(1, (1 << 21) // max(1, ja.size))
        for s in range(0, ia.size, chunk):
            ra = self.rank_a[ia[s : s + chunk, None], ja[None, :]]
            rb = self.rank_b[ib[s : s + chunk, None], jb[None, :]]
            key = (ra * nvals + rb).reshape(-1)
            mass = np.multiply.outer(w1[s : s + chunk], w2).reshape(-1)
            uniq, inv = np.unique(key, return_inverse=True)
            keys.append(uniq)
            masses.append(np.bincount(inv.reshape(-1), weights=mass))
        key, inv = np.unique(np.concatenate(keys), return_inverse=True)
        mass = np.bincount(inv.reshape(-1), weights=np.concatenate(masses))
        return key // nvals, key % nvals, mass / self.total

    def binned_joint(self, edges_a: np.ndarray, edges_b: np.ndarray) -> np.ndarray:
        """Mass of (A's value in bin i, B's value in bin j), without visiting the pairs."""
        p1, p2 = self.pos.pmf, self.neg.pmf
        lfa = p2.shape[0]
        na, nb = edges_a.size - 1, edges_b.size - 1
        bin_a = np.clip(np.searchsorted(edges_a, self.values, side="right") - 1, 0, na - 1)[self.rank_a]
        bin_b = np.clip(np.searchsorted(edges_b, self.values, side="right") - 1, 0, nb - 1)[self.rank_b]
        joint = np.zeros((na, nb))
        fa = np.arange(lfa)
        for j in np.flatnonzero(p1.any(axis=0)):
            # q[fa, bin of B] = Σ_fb P2[fa, fb] [B's bin at (j, fb)]
            q = np.zeros((lfa, nb))
            np.add.at(q, (fa[:, None], np.broadcast_to(bin_b[j], p2.shape)), p2)
            rows = np.flatnonzero(p1[:, j])
            s = np.bincount(
                (bin_a[rows] * lfa + fa[None, :]).reshape(-1),
                weights=np.repeat(p1[rows, j], lfa),
                minlength=na * lfa,
            ).reshape(na, lfa)
            joint += s @ q
        return joint / self.total if self.total > 0 else joint


@dataclass
class MonteCarloEngine:
    """Estimates from draws of the paired model, values ranked exactly."""

    metric: Metric
    model: str
    p: int
    n: int
    cells_pos: np.ndarray
    cells_neg: np.ndarray
    n_draws: int
    rng: np.random.Generator
    undefined: float

    def __post_init__(self) -> None:
        check_n_draws(self.n_draws, bytes_per_draw=BYTES_PER_DRAW)
        prior = np.array(cell_priors("next_test_set"))
        pos = agreement_counts(self.model, self.cells_pos, self.p, self.n_draws, self.rng, prior)
        neg = agreement_counts(self.model, self.cells_neg, self.n, self.n_draws, self.rng, prior)
        tp = np.concatenate((pos[:, 0] + pos[:, 1], pos[:, 0] + pos[:, 2]))
        fp = np.concatenate((neg[:, 0] + neg[:, 1], neg[:, 0] + neg[:, 2]))
        # rank only the distinct (tp, fp) points drawn
        span = self.n + 1
        uniq, inv = np.unique(tp * span + fp, return_inverse=True)
        ranked = exact_ranks(self.metric, uniq // span, uniq % span, self.p, self.n, self.undefined)
        ranks = ranked.ranks[inv.reshape(-1)]
        self.values = ranked.values
        self.rank_a, self.rank_b = ranks[: self.n_draws], ranks[self.n_draws :]

    def below(self, offsets: list[float | None], strict: list[bool]) -> np.ndarray:
        out = []
        va, vb = self.values[self.rank_a], self.values[self.rank_b]
        for offset, s in zip(offsets, strict, strict=True):
            if offset is None:
                hit = self.rank_b < self.rank_a if s else self.rank_b <= self.rank_a
            else:
                hit = vb < va - offset if s else vb <= va - offset
            out.append(float(np.mean(hit)))
        return np.array(out)

    @cached_property
    def pair_masses(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        nvals = self.values.size
        key, counts = np.unique(self.rank_a * nvals + self.rank_b, return_counts=True)
        return key // nvals, key % nvals, counts / self.n_draws

    def binned_joint(self, edges_a: np.ndarray, edges_b: np.ndarray) -> np.ndarray:
        va, vb = self.values[self.rank_a], self.values[self.rank_b]
        na, nb = edges_a.size - 1, edges_b.size - 1
        ia = np.clip(np.searchsorted(edges_a, va, side="right") - 1, 0, na - 1)
        ib = np.clip(np.searchsorted(edges_b, vb, side="right") - 1, 0, nb - 1)
        return np.bincount(ia * nb + ib, minlength=na * nb).reshape(na, nb) / self.n_draws


@dataclass
class TrueValueEngine(MonteCarloEngine):
    """Estimates for the classifiers' *true* values: draws of each class's four agreement
    shares from their posterior Dirichlet(cells + ½) (the prior of every cell, whatever its
    count), A's true rates θ_both + θ_onlyA and B's θ_both + θ_onlyB, the prevalence fixed
    at the observed one (as :func:`~confusionlab.metric_distribution`'s ``target="true_value"``).
    The values are real numbers: ranked by sorting (ties have probability 0 but for equal
    draws, e.g. a metric that ignores the cells where A and B differ)."""

    def __post_init__(self) -> None:
        check_n_draws(self.n_draws, bytes_per_draw=BYTES_PER_DRAW)
        prior = np.array(cell_priors("true_value"))
        p, n = float(self.p), float(self.n)

        def rates(cells: np.ndarray, size: float) -> tuple[np.ndarray, np.ndarray]:
            if size == 0:
                return np.zeros(self.n_draws), np.zeros(self.n_draws)
            shares = agreement_shares(self.rng, np.asarray(cells, dtype=np.float64) + prior, self.n_draws)
            return shares[:, 0] + shares[:, 1], shares[:, 0] + shares[:, 2]

        tpr_a, tpr_b = rates(self.cells_pos, p)
        fpr_a, fpr_b = rates(self.cells_neg, n)
        tp = np.concatenate((p * tpr_a, p * tpr_b))
        fp = np.concatenate((n * fpr_a, n * fpr_b))
        values = self.metric.values(tp, p - tp, fp, n - fp, undefined=self.undefined)
        self.values, ranks = np.unique(values, return_inverse=True)
        ranks = ranks.reshape(-1)
        self.rank_a, self.rank_b = ranks[: self.n_draws], ranks[self.n_draws :]
