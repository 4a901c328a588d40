"""The posterior of net benefit: Beta tails, its distribution by one-dimensional quadrature, P(best), EVPI.

The four cells (TP, FP, FN, TN) at a threshold have the Dirichlet posterior with α added to each
count. Grouped by the decision, the test-positive rate ``a`` ~ Beta(TP + FP + 2α, FN + TN + 2α),
``PPV`` ~ Beta(TP + α, FP + α) and ``NPV`` ~ Beta(TN + α, FN + α) are independent (the Dirichlet's
aggregation property); grouped by the truth, so are the prevalence π ~ Beta(P + 2α, N₋ + 2α),
TPR ~ Beta(TP + α, FN + α) and FPR ~ Beta(FP + α, TN + α). With ``k = 1/(1 − p_t)``:

* NB_model − NB_none = a · k · (PPV − p_t) − harm, so P(useful) = P(PPV > p_t) without harm;
* NB_model − NB_all = (1 − a) · k · (NPV − (1 − p_t)) − harm, so P(better than all) = P(NPV > 1 − p_t);
* NB_all = k · (π − p_t).

Each difference is ``β(U)·B + γ(U)`` given a second independent rate ``U`` (β, γ affine in U and
β > 0), so its cdf is ``∫ f_U(u) I_{(x − γ(u))/β(u)}(a_B, b_B) du``: Gauss–Legendre in U's quantiles'
normal scores (:func:`beta_nodes`) over the u where the Beta cdf ``I`` is neither 0 nor 1 (the
rest of U's mass exactly), ``I`` exact (``scipy.special``): the cdf agrees with scipy's adaptive
quadrature to 1e-8, and to 1e-5 where a cell count is 0 (then a Beta density is unbounded at an
end of the sub-interval, where the rule converges slowly; tested).
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
OUTER = 32

_X, _W = np.polynomial.legendre.leggauss(NODES)
_Q, _WQ = (_X + 1.0) / 2.0, _W / 2.0
_XO, _WO = np.polynomial.legendre.leggauss(OUTER)
_QO, _WQO = (_XO + 1.0) / 2.0, _WO / 2.0


#: Both parameters at least this: the Beta is a bell, integrated in u itself (:meth:`Conditional._nodes`).
BELL = 50.0
#: A quantile is taken where the cdf is within this of its level (the quadrature's own accuracy is ≈ 1e-9).
CDF_TOLERANCE = 1e-10
#: Normal scores beyond which a rate's tails are dropped (Φ(−8.3) ≈ 5e-17 of mass each side).
SCORE_RANGE = 8.3


def beta_nodes(
    a: np.ndarray, b: np.ndarray, lo: np.ndarray | float = 0.0, hi: np.ndarray | float = 1.0, nodes: int = NODES
):
    """Nodes ``u`` and weights of ``∫ f(u) g(u) du`` over the quantiles ``(lo, hi)`` of Beta(a, b), shapes
    (…, nodes); ``nodes`` is :data:`NODES` or :data:`OUTER`.

    Gauss–Legendre in the normal score ``s`` of the quantile (``q = Φ(s)``, ``u = F⁻¹(q)``, weight
    ``φ(s) ds``): a posterior rate's quantile function is nearly linear in ``s``, so the rule converges
    fast where it would only converge slowly in ``q`` (whose tails the quantile function stretches).
    """
    a, b = np.asarray(a, dtype=np.float64)[..., None], np.asarray(b, dtype=np.float64)[..., None]
    lo, hi = np.asarray(lo, dtype=np.float64)[..., None], np.asarray(hi, dtype=np.float64)[..., None]
    s0 = np.clip(special.ndtri(lo), -SCORE_RANGE, SCORE_RANGE)
    s1 = np.clip(special.ndtri(hi), -SCORE_RANGE, SCORE_RANGE)
    q, wq = (_Q, _WQ) if nodes == NODES else (_QO, _WQO)
    score = s0 + (s1 - s0) * q
    shape = np.broadcast_shapes(a.shape, b.shape, score.shape)
    a, b, score = (np.broadcast_to(v, shape) for v in (a, b, score))
    low = score <= 0  # the upper half from its own tail (1 − q is then exact)
    u = np.empty(score.shape)
    u[low] = special.betaincinv(a[low], b[low], special.ndtr(score[low]))
    u[~low] = special.betainccinv(a[~low], b[~low], special.ndtr(-score[~low]))
    weight = (s1 - s0) * wq * np.exp(-0.5 * score * score) / np.sqrt(2 * np.pi)
    return u, weight


def _ibeta(a, b, z):
    """I_z(a, b) with z clipped to [0, 1]."""
    return special.betainc(a, b, np.clip(z, 0.0, 1.0))


def _ibetac(a, b, z):
    """1 − I_z(a, b) as I_{1−z}(b, a): exact in the upper tail, at betainc's cost (scipy's betaincc is slower)."""
    return special.betainc(b, a, 1.0 - np.clip(z, 0.0, 1.0))


@dataclass
class Conditional:
    """``Y = β(U)·B + γ(U)`` with ``β(u) = β₀ + β₁u > 0``, ``γ(u) = γ₀ + γ₁u``, U ~ Beta(a_u, b_u) and
    B ~ Beta(a, b) independent (one row per threshold; every field an array over the rows).

    ``Y ≤ x`` ⟺ ``B ≤ z(u) = (x − γ(u))/β(u)``, monotone in u: on the u where z ≥ 1 the Beta cdf is 1
    (that mass is ``F_U`` of an end, exact), where z ≤ 0 it is 0, and between them smooth: the nodes are
    put there (:func:`beta_nodes` over that sub-interval's quantiles), so that the kinks where z leaves
    [0, 1] cost no accuracy.
    """

    a_u: np.ndarray
    b_u: np.ndarray
    a: np.ndarray
    b: np.ndarray
    beta0: np.ndarray
    beta1: np.ndarray
    gamma0: np.ndarray
    gamma1: np.ndarray

    def __post_init__(self) -> None:
        for name in ("a_u", "b_u", "a", "b", "beta0", "beta1", "gamma0", "gamma1"):
            setattr(self, name, np.asarray(getattr(self, name), dtype=np.float64))
        self._full: tuple[np.ndarray, np.ndarray] | None = None

    def rows(self, rows: np.ndarray) -> Conditional:
        fields = ("a_u", "b_u", "a", "b", "beta0", "beta1", "gamma0", "gamma1")
        out = Conditional(*(getattr(self, f)[rows] for f in fields))
        if self._full is not None:
            out._full = (self._full[0][rows], self._full[1][rows])
        return out

    def _nodes(self, u0: np.ndarray, u1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Nodes over U in (u0, u1). The whole range's (:func:`beta_nodes`, computed once) where that is
        the whole range; elsewhere, for a wide-parameter U (both parameters ≥ :data:`BELL`, a bell with
        negligible mass beyond 12 σ), Gauss–Legendre in u itself over the interval's part within 12 σ
        of the mean, weighted by the exact density (no quantile to invert: ``betaincinv`` far in the
        tails of such a Beta is the slow step); for a narrow-parameter U, :func:`beta_nodes` over the
        interval's quantiles."""
        if self._full is None:
            self._full = beta_nodes(self.a_u, self.b_u)
        u, w = self._full
        f0, f1 = _ibeta(self.a_u, self.b_u, u0), _ibeta(self.a_u, self.b_u, u1)
        part = (f0 > 1e-15) | (f1 < 1.0 - 1e-15)
        if not part.any():
            return u, w
        u, w = u.copy(), np.array(w)
        bell = part & (np.minimum(self.a_u, self.b_u) >= BELL)
        if bell.any():
            a, b = self.a_u[bell], self.b_u[bell]
            mean, sd = a / (a + b), np.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)))
            lo = np.clip(np.maximum(u0[bell], mean - 12 * sd), 0.0, 1.0)
            hi = np.clip(np.minimum(u1[bell], mean + 12 * sd), 0.0, 1.0)
            width = np.maximum(hi - lo, 0.0)[:, None]
            nodes = lo[:, None] + width * _Q
            log_pdf = special.xlogy(a[:, None] - 1, nodes) + special.xlog1py(b[:, None] - 1, -nodes)
            u[bell], w[bell] = nodes, width * _WQ * np.exp(log_pdf - special.betaln(a, b)[:, None])
        narrow = part & ~bell
        if narrow.any():
            u[narrow], w[narrow] = beta_nodes(
                self.a_u[narrow], self.b_u[narrow], f0[narrow], np.maximum(f1, f0)[narrow]
            )
        return u, w

    def _where(self, x: np.ndarray, v: float) -> np.ndarray:
        """The u at which z(u) = v (0 where z never equals v; used only where it does in [0, 1])."""
        with np.errstate(divide="ignore", invalid="ignore"):
            u = (x - self.gamma0 - v * self.beta0) / (self.gamma1 + v * self.beta1)
        return np.clip(np.where(np.isfinite(u), u, 0.0), 0.0, 1.0)

    def _regions(self, x: np.ndarray):
        """``(low, mid, high)``: the u-intervals of [0, 1] where z ≤ 0, 0 < z < 1 and z ≥ 1 (z is monotone
        in u on [0, 1], β > 0 there), each as a pair of arrays (from, to)."""
        x = np.asarray(x, dtype=np.float64)
        za, zb = self._z(x, np.zeros_like(x)), self._z(x, np.ones_like(x))
        u0, u1 = self._where(x, 0.0), self._where(x, 1.0)
        zero, one = np.zeros_like(x), np.ones_like(x)
        inc = zb >= za
        a0 = np.where(
            inc, np.where(za >= 0, 0.0, np.where(zb <= 0, 1.0, u0)), np.where(za <= 0, 0.0, np.where(zb >= 0, 1.0, u0))
        )
        a1 = np.where(
            inc, np.where(za >= 1, 0.0, np.where(zb <= 1, 1.0, u1)), np.where(za <= 1, 0.0, np.where(zb >= 1, 1.0, u1))
        )
        low = (np.where(inc, zero, a0), np.where(inc, a0, one))
        mid = (np.where(inc, a0, a1), np.where(inc, a1, a0))
        high = (np.where(inc, a1, zero), np.where(inc, one, a1))
        return low, mid, high

    def _mass(self, interval) -> np.ndarray:
        return np.maximum(_ibeta(self.a_u, self.b_u, interval[1]) - _ibeta(self.a_u, self.b_u, interval[0]), 0.0)

    def _pieces(self, x: np.ndarray):
        """``(mass where z ≥ 1, mass where z ≤ 0, nodes u, weights)``: nodes over the u where 0 < z < 1."""
        low, mid, high = self._regions(x)
        u, w = self._nodes(*mid)
        return self._mass(high), self._mass(low), u, w

    def _z(self, x: np.ndarray, u: np.ndarray) -> np.ndarray:
        """z(u) = (x − γ(u))/β(u): ``u`` one value per row, or a row of nodes per row."""
        x = np.asarray(x, dtype=np.float64)
        cols = np.ndim(u) > np.ndim(x)
        x, b0, b1, g0, g1 = (v[:, None] if cols else v for v in (x, self.beta0, self.beta1, self.gamma0, self.gamma1))
        return (x - g0 - g1 * u) / np.maximum(b0 + b1 * u, 1e-300)

    def cdf(self, x: np.ndarray) -> np.ndarray:
        """P(Y ≤ x) per row (``x``: one point per row)."""
        above, _, u, w = self._pieces(x)
        inner = (w * _ibeta(self.a[:, None], self.b[:, None], self._z(x, u))).sum(-1)
        return np.clip(above + inner, 0.0, 1.0)

    def sf(self, x: np.ndarray) -> np.ndarray:
        """P(Y > x) per row, from the upper tails (exact where it is small)."""
        _, below, u, w = self._pieces(x)
        inner = (w * _ibetac(self.a[:, None], self.b[:, None], self._z(x, u))).sum(-1)
        return np.clip(below + inner, 0.0, 1.0)

    def pdf(self, x: np.ndarray) -> np.ndarray:
        """The density of Y per row (the outer parts' boundary terms cancel)."""
        return self._cdf_pdf(x)[1]

    def _cdf_pdf(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        above, _, u, w = self._pieces(x)
        z = self._z(x, u)
        a, b = self.a[:, None], self.b[:, None]
        cdf = np.clip(above + (w * _ibeta(a, b, z)).sum(-1), 0.0, 1.0)
        zc = np.clip(z, 1e-300, 1.0 - 1e-16)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            dens = np.exp(special.xlogy(a - 1, zc) + special.xlog1py(b - 1, -zc) - special.betaln(a, b))
        scale = self.beta0[:, None] + self.beta1[:, None] * u
        return cdf, (w * np.where(np.isfinite(dens), dens, 0.0) / scale).sum(-1)

    def _u_moments(self) -> tuple[np.ndarray, np.ndarray]:
        s = self.a_u + self.b_u
        return self.a_u / s, self.a_u * (self.a_u + 1) / (s * (s + 1))

    def mean(self) -> np.ndarray:
        eu, _ = self._u_moments()
        mu = self.a / (self.a + self.b)
        return (self.beta0 + self.beta1 * eu) * mu + self.gamma0 + self.gamma1 * eu

    def _sd(self) -> np.ndarray:
        eu, eu2 = self._u_moments()
        s = self.a + self.b
        mu, mu2 = self.a / s, self.a * (self.a + 1) / (s * (s + 1))
        b0, b1, g0, g1 = self.beta0, self.beta1, self.gamma0, self.gamma1
        e_bb = b0 * b0 + 2 * b0 * b1 * eu + b1 * b1 * eu2
        e_bg = b0 * g0 + (b0 * g1 + b1 * g0) * eu + b1 * g1 * eu2
        e_gg = g0 * g0 + 2 * g0 * g1 * eu + g1 * g1 * eu2
        m = self.mean()
        return np.sqrt(np.maximum(e_bb * mu2 + 2 * e_bg * mu + e_gg - m * m, 0.0))

    def excess(self, m: np.ndarray) -> np.ndarray:
        """E[(Y − m)⁺] per row. Where z ≤ 0 (every B exceeds the level) it is the linear β(u)·μ + γ(u) − m,
        integrated exactly (U's partial moments); where z ≥ 1 it is 0; between, β·E[(B − z)⁺] in closed
        form at each node."""
        m = np.asarray(m, dtype=np.float64)
        low, mid, _ = self._regions(m)
        mu = self.a / (self.a + self.b)
        eu = self.a_u / (self.a_u + self.b_u)
        mass = self._mass(low)  # U's mass and first moment where z ≤ 0
        first = eu * np.maximum(_ibeta(self.a_u + 1, self.b_u, low[1]) - _ibeta(self.a_u + 1, self.b_u, low[0]), 0.0)
        outer = (self.beta0 * mu + self.gamma0 - m) * mass + (self.beta1 * mu + self.gamma1) * first
        u, w = self._nodes(*mid)
        z = np.clip(self._z(m, u), 0.0, 1.0)
        a, b = self.a[:, None], self.b[:, None]
        part = mu[:, None] * _ibetac(a + 1.0, b, z) - z * _ibetac(a, b, z)
        scale = self.beta0[:, None] + self.beta1[:, None] * u
        return outer + (w * scale * part).sum(-1)

    def support(self) -> tuple[np.ndarray, np.ndarray]:
        lo = np.minimum(self.gamma0, self.gamma0 + self.gamma1)
        hi = np.maximum(self.gamma0 + self.beta0, self.gamma0 + self.gamma1 + self.beta0 + self.beta1)
        return lo, hi

    def ppf(self, q: float) -> np.ndarray:
        """The ``q`` quantile per row: Newton from the normal guess inside a bracket (the support, where
        the cdf is 0 and 1), a step that leaves it or stalls replaced by regula falsi on the bracket
        (Illinois-weighted) or, every other time, by bisection; each row until its cdf is within
        :data:`CDF_TOLERANCE` of ``q`` or its bracket narrower than 1e-12."""
        if self._full is None:  # the whole range's nodes once, shared by every row subset below
            self._full = beta_nodes(self.a_u, self.b_u)
        lo, hi = self.support()
        f_lo, f_hi = np.full(lo.shape, -q), np.full(hi.shape, 1.0 - q)
        x = np.clip(self.mean() + special.ndtri(q) * self._sd(), lo, hi)
        active = np.arange(x.size)
        for sweep in range(200):
            part = self.rows(active)
            xa = x[active]
            cdf, pdf = part._cdf_pdf(xa)
            f = cdf - q
            below = f < 0
            lo[active], f_lo[active] = np.where(below, xa, lo[active]), np.where(below, f, f_lo[active] / 2.0)
            hi[active], f_hi[active] = np.where(below, hi[active], xa), np.where(below, f_hi[active] / 2.0, f)
            la, ha, fl, fh = lo[active], hi[active], f_lo[active], f_hi[active]
            with np.errstate(divide="ignore", invalid="ignore"):
                step = xa - f / pdf
                falsi = (la * fh - ha * fl) / (fh - fl)
            bad = ~np.isfinite(step) | (step <= la) | (step >= ha) | (np.abs(step - xa) <= 1e-13)
            fallback = (la + ha) / 2.0 if sweep % 2 else np.where(np.isfinite(falsi), falsi, (la + ha) / 2.0)
            hit = np.abs(f) <= CDF_TOLERANCE
            x[active] = np.where(hit, xa, np.where(bad, fallback, step))
            active = active[~(hit | ((ha - la) <= 1e-12))]
            if active.size == 0:
                break
        return x


def _product(a_u, b_u, a_b, b_b, k: np.ndarray, c: np.ndarray, harm: float) -> Conditional:
    """``Y = U · k · (B − c) − harm`` with U ~ Beta(a_u, b_u), B ~ Beta(a_b, b_b)."""
    zero = np.zeros_like(k)
    return Conditional(a_u, b_u, a_b, b_b, zero, k, zero - harm, -k * c)


def _difference(a_b, b_b, c_b: np.ndarray, a_u, b_u, c_u: np.ndarray, const: np.ndarray) -> Conditional:
    """``Y = c_b · B + c_u · U + const`` with c_b > 0, U ~ Beta(a_u, b_u), B ~ Beta(a_b, b_b)."""
    zero = np.zeros_like(np.asarray(c_u, dtype=np.float64))
    return Conditional(a_u, b_u, a_b, b_b, zero + c_b, zero, zero + const, zero + c_u)


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
        return _product(fn + tn + 2 * alpha, tp + fp + 2 * alpha, tn + alpha, fn + alpha, k, 1.0 - t, harm)
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
        split = special.betainc(a_pi, b_pi, t)  # NB_all changes sign at π = p_t: a rule on each side
        r0, v0 = beta_nodes(a_pi, b_pi, 0.0, split, OUTER)
        r1, v1 = beta_nodes(a_pi, b_pi, split, 1.0, OUTER)
        r, v = np.concatenate([r0, r1], axis=1), np.concatenate([v0, v1], axis=1)
        mean_pi = a_pi / (a_pi + b_pi)
    else:
        r = np.full((t.size, 1), prevalence)
        v = np.ones((t.size, 1))
        mean_pi = np.full(t.shape, prevalence)
    rows, outer = r.shape
    rep = lambda x: np.repeat(x, outer)  # noqa: E731 - one row per (threshold, π node)
    rr, ww = r.ravel(), rep(w)
    cond = _difference(rep(tp) + alpha, rep(fn) + alpha, rr, rep(fp) + alpha, rep(tn) + alpha, -ww * (1 - rr), -harm)
    u, uw = beta_nodes(fp + alpha, tn + alpha)  # FPR's nodes: the same for every π node of a threshold
    cond._full = (np.repeat(u, outer, axis=0), np.repeat(uw, outer, axis=0))
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
