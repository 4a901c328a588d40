"""The posterior of net benefit: Beta tails, its distribution by one-dimensional quadrature, P(best), EVPI.

The four cells (TP, FP, FN, TN) at a threshold have the Dirichlet posterior with α added to each
count. Grouped by the decision, the test-positive rate ``a`` ~ Beta(TP + FP + 2α, FN + TN + 2α),
``PPV`` ~ Beta(TP + α, FP + α) and ``NPV`` ~ Beta(TN + α, FN + α) are independent (the Dirichlet's
aggregation property); grouped by the truth, so are the prevalence π ~ Beta(P + 2α, N₋ + 2α),
TPR ~ Beta(TP + α, FN + α) and FPR ~ Beta(FP + α, TN + α). With ``k = 1/(1 − p_t)``:

* NB_model − NB_none = a · k · (PPV − p_t) − harm, so P(useful) = P(PPV > p_t) without harm;
* NB_model − NB_all = (1 − a) · k · ((1 − NPV) − p_t) − harm, so P(better than all) = P(NPV > 1 − p_t);
* NB_all = k · (π − p_t).

Each difference is ``β·B + γ`` given a second independent rate ``U`` (β, γ depending on U and
β > 0), so its cdf is ``∫ f_U(u) I_{(x − γ(u))/β(u)}(a_B, b_B) du``: Gauss–Legendre in U's quantile
coordinates (:data:`NODES` nodes at ``F_U⁻¹(q_j)``), the Beta cdf ``I`` exact (``scipy.special``).
With a given prevalence π₀, NB = π₀ · TPR − w · (1 − π₀) · FPR − harm (U = FPR).

P(best) among the model, "all" and "none", and the expected value of perfect information
EVPI = E[max(NB_model, NB_all, 0)] − max(E NB_model, E NB_all, 0) (Sadatsafavi et al. 2022), hold
π fixed in the inner integral (NB_all is then a number) and integrate π outside (:data:`OUTER`
nodes on each side of ``p_t``, where NB_all changes sign): a two-level quadrature, one level of it
given a prevalence.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

__all__ = ["NODES", "OUTER", "Conditional", "best_and_evpi", "beta_nodes"]

#: Gauss–Legendre nodes of the integral over the conditioning rate.
NODES = 48
#: Nodes over the prevalence on each side of ``p_t`` (P(best), EVPI).
OUTER = 16

_X, _W = np.polynomial.legendre.leggauss(NODES)
_Q, _WQ = (_X + 1.0) / 2.0, _W / 2.0
_XO, _WO = np.polynomial.legendre.leggauss(OUTER)
_QO, _WQO = (_XO + 1.0) / 2.0, _WO / 2.0


def beta_nodes(a: np.ndarray, b: np.ndarray, lo: np.ndarray | float = 0.0, hi: np.ndarray | float = 1.0):
    """Nodes ``u`` and weights of ``∫ f(u) g(u) du`` over the quantiles ``(lo, hi)`` of Beta(a, b):
    ``u_j = F⁻¹(lo + (hi − lo)·q_j)``, weights ``(hi − lo)·w_j`` (shapes (…, NODES))."""
    a, b = np.asarray(a, dtype=np.float64)[..., None], np.asarray(b, dtype=np.float64)[..., None]
    lo, hi = np.asarray(lo, dtype=np.float64)[..., None], np.asarray(hi, dtype=np.float64)[..., None]
    q = lo + (hi - lo) * _Q
    u = special.betaincinv(a, b, q)
    return u, np.broadcast_to((hi - lo) * _WQ, u.shape)


@dataclass
class Conditional:
    """``Y = β_j · B + γ_j`` with probability ``w_j`` (rows × nodes), B ~ Beta(a, b) (per row).

    A mixture over the conditioning rate's nodes; its cdf, survival, density, quantiles and
    partial expectation are sums over the nodes of exact Beta quantities.
    """

    a: np.ndarray
    b: np.ndarray
    scale: np.ndarray
    shift: np.ndarray
    weight: np.ndarray

    def __post_init__(self) -> None:
        self.scale = np.maximum(self.scale, 1e-300)  # a node of zero weight may sit where the scale is 0

    def _z(self, x: np.ndarray) -> np.ndarray:
        return np.clip((np.asarray(x, dtype=np.float64)[..., None] - self.shift) / self.scale, 0.0, 1.0)

    def cdf(self, x: np.ndarray) -> np.ndarray:
        """P(Y ≤ x) per row (``x``: one point per row)."""
        return np.clip((self.weight * special.betainc(self.a[..., None], self.b[..., None], self._z(x))).sum(-1), 0, 1)

    def sf(self, x: np.ndarray) -> np.ndarray:
        """P(Y > x) per row."""
        z = self._z(x)  # I_{1−z}(b, a) = 1 − I_z(a, b), at betainc's cost (scipy's betaincc is slower)
        return np.clip((self.weight * special.betainc(self.b[..., None], self.a[..., None], 1.0 - z)).sum(-1), 0, 1)

    def pdf(self, x: np.ndarray) -> np.ndarray:
        z = (np.asarray(x, dtype=np.float64)[..., None] - self.shift) / self.scale
        inside = (z > 0) & (z < 1)
        zc = np.clip(z, 1e-300, 1 - 1e-16)
        a, b = self.a[..., None], self.b[..., None]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            dens = np.exp(special.xlogy(a - 1, zc) + special.xlog1py(b - 1, -zc) - special.betaln(a, b))
        return (self.weight * np.where(inside, dens / self.scale, 0.0)).sum(-1)

    def mean(self) -> np.ndarray:
        return (self.weight * (self.scale * (self.a / (self.a + self.b))[..., None] + self.shift)).sum(-1)

    def excess(self, m: np.ndarray) -> np.ndarray:
        """E[(Y − m)⁺] per row: ``β·E[(B − t)⁺]`` at ``t = (m − γ)/β``, in closed form at each node."""
        a, b = self.a[..., None], self.b[..., None]
        t = (np.asarray(m, dtype=np.float64)[..., None] - self.shift) / self.scale
        tc = np.clip(t, 0.0, 1.0)
        mu = a / (a + b)
        part = mu * special.betainc(b, a + 1.0, 1.0 - tc) - tc * special.betainc(b, a, 1.0 - tc)
        part = np.where(t <= 0, mu - t, np.where(t >= 1, 0.0, part))
        return (self.weight * self.scale * part).sum(-1)

    def support(self) -> tuple[np.ndarray, np.ndarray]:
        return (self.shift.min(-1), (self.shift + self.scale).max(-1))

    def ppf(self, q: float) -> np.ndarray:
        """The ``q`` quantile per row: Newton from the normal guess, bisecting where a step leaves the
        bracket, each row until its step is below 1e-12 (relative) and its cdf within 1e-12 of ``q``."""
        lo, hi = self.support()
        m = self.mean()
        sd = np.sqrt(np.maximum((self.weight * self._second_moment()).sum(-1) - m * m, 0.0))
        x = np.clip(m + special.ndtri(q) * sd, lo, hi)
        active = np.arange(x.size)
        for _ in range(100):
            part = self._rows(active)
            xa = x[active]
            f = part.cdf(xa) - q
            lo[active] = np.where(f < 0, xa, lo[active])
            hi[active] = np.where(f >= 0, xa, hi[active])
            with np.errstate(divide="ignore", invalid="ignore"):
                step = xa - f / part.pdf(xa)
            la, ha = lo[active], hi[active]
            bad = ~np.isfinite(step) | (step <= la) | (step >= ha)
            new = np.where(bad, (la + ha) / 2.0, step)
            x[active] = new
            done = (np.abs(new - xa) <= 1e-12 * np.maximum(1.0, np.abs(xa))) & (np.abs(f) < 1e-12)
            done |= (ha - la) <= 1e-14 * np.maximum(1.0, np.abs(xa))
            active = active[~done]
            if active.size == 0:
                break
        return x

    def _rows(self, rows: np.ndarray) -> Conditional:
        return Conditional(self.a[rows], self.b[rows], self.scale[rows], self.shift[rows], self.weight[rows])

    def _second_moment(self) -> np.ndarray:
        a, b = self.a[..., None], self.b[..., None]
        mu = a / (a + b)
        ex2 = a * (a + 1) / ((a + b) * (a + b + 1))
        return self.scale**2 * ex2 + 2 * self.scale * self.shift * mu + self.shift**2


def _product(a_u, b_u, a_b, b_b, k: np.ndarray, c: np.ndarray, harm: float) -> Conditional:
    """``Y = U · k · (B − c) − harm`` with U ~ Beta(a_u, b_u), B ~ Beta(a_b, b_b)."""
    u, w = beta_nodes(a_u, b_u)
    scale = np.maximum(k[:, None] * u, 1e-300)
    return Conditional(np.asarray(a_b, float), np.asarray(b_b, float), scale, -scale * c[:, None] - harm, w)


def _difference(a_b, b_b, c_b: np.ndarray, a_u, b_u, c_u: np.ndarray, const: np.ndarray) -> Conditional:
    """``Y = c_b · B + c_u · U + const`` with c_b > 0, U ~ Beta(a_u, b_u), B ~ Beta(a_b, b_b)."""
    u, w = beta_nodes(a_u, b_u)
    scale = np.broadcast_to(np.asarray(c_b, float)[..., None], u.shape)
    shift = np.asarray(c_u, float)[..., None] * u + np.asarray(const, float)[..., None]
    return Conditional(np.asarray(a_b, float), np.asarray(b_b, float), scale, shift, w)


def model_vs_none(tp, fp, fn, tn, t, alpha: float, harm: float, prevalence: float | None) -> Conditional:
    """NB_model − NB_none (the model's net benefit) at each threshold ``t``, as a :class:`Conditional`."""
    k = 1.0 / (1.0 - t)
    if prevalence is None:
        return _product(tp + fp + 2 * alpha, fn + tn + 2 * alpha, tp + alpha, fp + alpha, k, t, harm)
    w = t * k
    c = np.full(t.shape, prevalence)
    return _difference(tp + alpha, fn + alpha, c, fp + alpha, tn + alpha, -w * (1 - prevalence), -harm + 0 * t)


def model_vs_all(tp, fp, fn, tn, t, alpha: float, harm: float, prevalence: float | None) -> Conditional:
    """NB_model − NB_all at each threshold ``t``."""
    k = 1.0 / (1.0 - t)
    if prevalence is None:
        return _product(fn + tn + 2 * alpha, tp + fp + 2 * alpha, fn + alpha, tn + alpha, k, t, harm)
    w = t * k  # π₀·TPR + w(1 − π₀)·TNR − π₀ − harm
    c = np.full(t.shape, prevalence)
    return _difference(
        tp + alpha, fn + alpha, c, tn + alpha, fp + alpha, w * (1 - prevalence), -prevalence - harm + 0 * t
    )


def prob_positive(tp, fp, fn, tn, t, alpha: float, harm: float, prevalence: float | None, versus: str) -> np.ndarray:
    """P(NB_model > NB_none) (``versus="none"``) or P(NB_model > NB_all) (``"all"``): exact Beta tails
    without harm in a cohort (P(PPV > p_t), P(NPV > 1 − p_t)), by quadrature otherwise."""
    if prevalence is None and harm == 0.0:
        if versus == "none":
            return special.betaincc(tp + alpha, fp + alpha, t)
        return special.betaincc(tn + alpha, fn + alpha, 1.0 - t)
    cond = (model_vs_none if versus == "none" else model_vs_all)(tp, fp, fn, tn, t, alpha, harm, prevalence)
    return cond.sf(np.zeros(t.shape))


def best_and_evpi(tp, fp, fn, tn, t, alpha: float, harm: float, prevalence: float | None):
    """``(P(model best), P(all best), P(none best), EVPI)`` at each threshold (arrays).

    Given π = r: NB_all = (r − p_t)/(1 − p_t) =: m is a number and NB_model | r is
    ``r · TPR − w (1 − r) · FPR − harm``; P(model best | r) = P(NB_model > max(m, 0)),
    P(all best | r) = [m > 0] P(NB_model ≤ m), and E[max(NB_model, m, 0) | r] = M + E[(NB_model − M)⁺]
    with M = max(m, 0). The prevalence is integrated outside (or fixed at the given one).
    """
    tp, fp, fn, tn, t = (np.asarray(v, dtype=np.float64) for v in (tp, fp, fn, tn, t))
    w = t / (1.0 - t)
    if prevalence is None:
        a_pi, b_pi = tp + fn + 2 * alpha, fp + tn + 2 * alpha
        split = special.betainc(a_pi, b_pi, t)[:, None]
        q = np.concatenate([split * _QO, split + (1 - split) * _QO], axis=1)
        r = special.betaincinv(a_pi[:, None], b_pi[:, None], q)
        v = np.concatenate([split * _WQO, (1 - split) * _WQO], axis=1)
        mean_pi = a_pi / (a_pi + b_pi)
    else:
        r = np.full((t.size, 1), prevalence)
        v = np.ones((t.size, 1))
        mean_pi = np.full(t.shape, prevalence)
    rows, outer = r.shape
    rep = lambda x: np.repeat(x, outer)  # noqa: E731 - one row per (threshold, π node)
    rr, ww = r.ravel(), rep(w)
    u, uw = beta_nodes(fp + alpha, tn + alpha)  # FPR's nodes: the same for every π node of a threshold
    u, uw = np.repeat(u, outer, axis=0), np.repeat(uw, outer, axis=0)
    cond = Conditional(
        rep(tp) + alpha,
        rep(fn) + alpha,
        np.repeat(rr[:, None], u.shape[1], axis=1),
        -(ww * (1 - rr))[:, None] * u - harm,
        uw,
    )
    m = (rr - rep(t)) / (1.0 - rep(t))
    big = np.maximum(m, 0.0)
    beats = cond.sf(big)  # P(NB_model > max(m, 0)); where m > 0, "all" is best otherwise
    p_model = beats.reshape(rows, outer)
    p_all = np.where(m > 0, 1.0 - beats, 0.0).reshape(rows, outer)
    e_max = (big + cond.excess(big)).reshape(rows, outer)
    p_model, p_all, e_max = ((x * v).sum(1) for x in (p_model, p_all, e_max))
    mean_tpr = (tp + alpha) / (tp + fn + 2 * alpha)
    mean_fpr = (fp + alpha) / (fp + tn + 2 * alpha)
    e_model = mean_pi * mean_tpr - w * (1 - mean_pi) * mean_fpr - harm
    e_all = (mean_pi - t) / (1.0 - t)
    evpi = np.maximum(e_max - np.maximum(np.maximum(e_model, e_all), 0.0), 0.0)
    return p_model, p_all, np.clip(1.0 - p_model - p_all, 0.0, 1.0), evpi
