"""Several calibrations read together: one per class (``multi_class="classwise"``) or per group.

:class:`CalibrationSet` holds one :class:`Calibration` per member and makes the statements
that hold for all members at once:

* **Bands.** For groups (disjoint examples, hence independent counts) each group's band is
  taken at ``confidence ** (1/G)`` and, inside it, each bin at that level ``** (1/B_g)``
  (Šidák twice): by independence every bin of every group lies inside with probability at
  least ``confidence``. For classes the members share the examples, so their counts are
  dependent; each class's band is taken at ``1 − (1 − confidence)/K`` (Bonferroni, valid
  under any dependence), Šidák over its bins inside.
* **Value.** Classwise: the mean of the classes' ECEs (the classwise ECE of Kull et al.,
  2019). Groups: the largest group's ECE.
* **Interval.** Both are increasing in every member's ECE, so when every member's interval
  (each at level ``1 − (1 − confidence)/M`` for ``M`` members, Bonferroni) holds, the
  aggregate of the lower ends and of the upper ends bracket the aggregate: a conservative
  interval valid under any dependence.
* **p-value.** Groups: the null distribution of the largest ECE is drawn exactly, each
  group's counts from its own Poisson-binomial PMFs (the groups are independent under
  calibration). Classes: Bonferroni over the classes' tests, ``min(1, K·min_k p_k)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._deprecation import default_changes, float_with_moved_attributes
from .._deps import require
from .._grouped import GroupedResult
from .._result import new_figure
from .._validation import check_confidence, check_n_draws, check_random_state
from ..palette import CONTOUR_COLOURS, NEUTRAL
from ._band import ConsistencyBand
from ._pvalue import MOVED_TO_TEST, CalibrationTest, monte_carlo_test, null_ece
from ._result import _DRAW_BYTES, Calibration, finish_reliability_axes

__all__ = ["CalibrationSet"]

#: What the members are, and how the set sums them up.
KINDS = {
    "classwise": ("class", "classes", "classwise ECE (mean over classes)"),
    "groups": ("group", "groups", "largest group ECE"),
}


class CalibrationSet(GroupedResult):
    """One :class:`Calibration` per class (one-vs-rest) or per group, with simultaneous statements.

    Built by :func:`confusionlab.calibration` with ``multi_class="classwise"`` or ``groups=``.
    The grouped results' surface (:class:`confusionlab._grouped.GroupedResult`, as fairlearn's
    ``MetricFrame``): ``cs[name]`` is a member's :class:`Calibration`, ``cs.names`` lists them,
    :attr:`by_group` is each member's ECE (keyed by class for ``"classwise"``), :meth:`difference`
    the largest gap between two members' ECEs with the two members, :meth:`intervals` each
    member's interval simultaneous over the members. :attr:`overall` is, for groups, the
    calibration of the whole test set, the groups pooled (what ``calibration`` without
    ``groups=`` returns, with the same seed); None for classes, which share their examples (the
    whole test set's is ``multi_class="top-label"``).

    Attributes
    ----------
    kind : str
        ``"classwise"`` (members are classes) or ``"groups"``.
    members : dict
        Name → :class:`Calibration`.

    See Also
    --------
    confusionlab.calibration : builds it.
    Calibration : one member.

    Examples
    --------
    >>> import numpy as np
    >>> import confusionlab as cl
    >>> rng = np.random.default_rng(0)
    >>> q = rng.uniform(size=3000)
    >>> groups = rng.choice(["F", "M"], size=3000)
    >>> y = rng.uniform(size=3000) < np.where(groups == "F", q, q**2)  # M's forecasts are too high
    >>> cs = cl.calibration(y, q, bins=5, groups=groups, random_state=0)
    >>> {name: int(b.outside.sum()) for name, b in cs.band().items()}
    {'F': 0, 'M': 5}
    >>> cs.p_value() < 0.001
    True
    >>> gap = cs.difference()
    >>> gap.high, gap.low, bool(gap == cs.by_group["M"] - cs.by_group["F"])
    ('M', 'F', True)
    >>> cs.overall.value == cl.calibration(y, q, bins=5, random_state=0).value
    True
    """

    title = "Calibration"
    mapping_noun = "calibration set"
    repr_attributes = ("kind",)

    def __init__(
        self,
        members: dict[Any, Calibration],
        kind: str,
        *,
        n_draws: int,
        random_state: Any,
        overall: Calibration | None = None,
    ) -> None:
        self.members = dict(members)
        self._overall = overall
        self.kind = kind
        self.n_draws = n_draws
        self._rng = check_random_state(random_state)
        self._tests: dict[int, CalibrationTest] = {}

    @property
    def independent_members(self) -> bool:  # type: ignore[override]
        """Groups hold disjoint examples (independent); classes share them (one-vs-rest)."""
        return self.kind == "groups"

    def _aggregate(self, values: Any) -> float:
        values = np.asarray(list(values), dtype=np.float64)
        return float(values.mean() if self.kind == "classwise" else values.max())

    @property
    def value(self) -> float:
        """Classwise: the mean of the classes' ECEs; groups: the largest group's ECE."""
        return self._aggregate(c.value for c in self.members.values())

    @property
    def member_noun(self) -> str:
        """What a member is: ``"class"`` (classwise) or ``"group"``."""
        return KINDS[self.kind][0]

    def member_confidence(self, confidence: float = 0.95, *, what: str | None = None) -> float:
        """The level each member's band (``what="band"``) or interval (``"interval"``) is taken at
        (see :meth:`GroupedResult.member_confidence <confusionlab._grouped.GroupedResult.member_confidence>`).

        Without ``what`` it is the band's level for one more release (with a FutureWarning where
        that differs from the interval's, for groups); then ``"interval"``, as every grouped result.
        """
        if what is None:
            if self.kind == "groups":
                default_changes("CalibrationSet.member_confidence", "what", "band", "interval")
            what = "band"
        return super().member_confidence(confidence, what=what)

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """A conservative interval of :attr:`value` (Bonferroni over the members' intervals)."""
        level = self.member_confidence(confidence, what="interval")
        ends = np.array([c.interval(level) for c in self.members.values()])
        return self._aggregate(ends[:, 0]), self._aggregate(ends[:, 1])

    def band(self, confidence: float = 0.95) -> dict[Any, ConsistencyBand]:
        """Each member's consistency band, simultaneous over all members and bins at ``confidence``."""
        level = self.member_confidence(confidence, what="band")
        return {name: c.band(level) for name, c in self.members.items()}

    def p_value(self, n_draws: int | None = None, random_state: Any = None) -> float:
        """The p-value of the test that every member is calibrated, a float (arguments as :meth:`test`)."""
        test = self.test(n_draws, random_state)
        return float_with_moved_attributes(
            test.p_value, test, MOVED_TO_TEST, old="CalibrationSet.p_value()", new="CalibrationSet.test()"
        )

    def test(self, n_draws: int | None = None, random_state: Any = None) -> CalibrationTest:
        """The test that every member is calibrated (see the module docstring); ``.statistic`` is :attr:`value`."""
        if self.kind == "classwise":
            tests = [c.test() for c in self.members.values()]
            k = len(tests)
            best = min(tests, key=lambda t: t.p_value)
            return CalibrationTest(
                p_value=min(1.0, k * best.p_value),
                mc_error=min(1.0, k * best.mc_error),
                statistic=self.value,
                n_draws=best.n_draws,
            )
        draws = self.n_draws if n_draws is None else n_draws
        draws = check_n_draws(draws, bytes_per_draw=_DRAW_BYTES)
        if random_state is None and draws in self._tests:
            return self._tests[draws]
        rng = self._rng if random_state is None else check_random_state(random_state)
        null = np.full(draws, -np.inf)
        for c in self.members.values():
            null = np.maximum(null, null_ece(c._pmfs, c._bins.forecast_sums, c.n_forecasts, draws, rng))
        test = monte_carlo_test(null, self.value)
        if random_state is None:
            self._tests[draws] = test
        return test

    # -- the protocol -------------------------------------------------------------------
    def to_frame(self) -> Any:
        """One row per member and bin (the members' frames, the band simultaneous over all)."""
        pd = require("pandas", "notebooks", "to_frame()")

        member = self.member_noun
        bands = self.band(0.95)
        frames = []
        for name, c in self.members.items():
            frame = c.to_frame()
            band = bands[name]
            frame["band_lower"], frame["band_upper"], frame["outside_band"] = band.lower, band.upper, band.outside
            frame.insert(0, member, [name] * len(frame))
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

    def summary(self, confidence: float = 0.95) -> str:
        confidence = check_confidence(confidence)
        _, members, what = KINDS[self.kind]
        lo, hi = self.interval(confidence)
        bands = self.band(confidence)
        outside = sum(int(b.outside.sum()) for b in bands.values())
        bins = sum(c.n_bins for c in self.members.values())
        test = self.test()
        pct = f"{confidence:.0%}"
        per = "; ".join(f"{name}: ECE {c.value:.3g}" for name, c in self.members.items())
        notes = {c.approximation for c in self.members.values()} - {None}
        approximation = "".join(f" Approximate: {note}." for note in sorted(notes))
        return (
            f"{what} = {self.value:.3g} (conservative {pct} interval [{lo:.3g}, {hi:.3g}]) over {len(self)} "
            f"{members}; {outside} of {bins} bins lie outside the {pct} band (simultaneous over all); "
            f"p = {test.p_value:.3g} (± {test.mc_error:.1g}). {per}.{approximation}"
        )

    def plot(self, ax: Any = None) -> Any:
        """The members' reliability diagrams on one axes, each with its simultaneous 95 % band."""
        fig, ax = new_figure(ax, figsize=(4.8, 4.4))
        ax.plot([0, 1], [0, 1], color=NEUTRAL, lw=0.8, ls="--")
        for k, (name, band) in enumerate(self.band(0.95).items()):
            c, colour = self.members[name], CONTOUR_COLOURS[k % len(CONTOUR_COLOURS)]
            x = c.mean_forecast
            ax.vlines(x, band.lower, band.upper, color=colour, alpha=0.25, lw=6)
            ax.plot(x, c.observed_frequency, color=colour, lw=1, marker="o", ms=3.5, label=str(name))
        finish_reliability_axes(ax, f"{KINDS[self.kind][2]} = {self.value:.3g}")
        return fig
