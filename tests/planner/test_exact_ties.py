"""A size whose half-width meets the goal exactly is not decided by float rounding.

Recall's interval ends on a test set with p' positives are multiples of 1/p', so its half-width
is an integer over 2·p'. At prevalence 0.5 the sizes 249 and 250 both plan p' = 125 positives
(p' = ⌊N/2 + ½⌋), and there the half-width computes as 0.10000000000000003: exactly 25/250 = 1/10,
the goal. Before the comparison took a relative slack of 1e-12 (``planner._search.TIE_SLACK``),
both sizes counted as misses and ``N_stable`` came out 251 (found while rewriting lesson 12).
"""

from __future__ import annotations

from fractions import Fraction

import confusionlab as cl
from confusionlab.planner._search import TIE_SLACK, with_slack


def test_sizes_that_meet_the_goal_exactly_count_as_meeting_it() -> None:
    plan = cl.plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1, target="next_test_set")
    for size in (249, 250):
        h = plan.curve[size]
        exact = Fraction(h).limit_denominator(250)
        assert exact == Fraction(1, 10), (size, h)  # an integer over 2·125: the goal exactly
        assert abs(h - 0.1) < 1e-15
    assert plan.N_stable == 249
    frame = plan.to_frame().set_index("N")
    assert bool(frame.loc[249, "reached"]) and bool(frame.loc[250, "reached"])
    assert not bool(frame.loc[248, "reached"])  # 25/248 > 1/10: a real miss stays a miss


def test_the_slack_is_far_below_any_real_difference_of_half_widths() -> None:
    # Two half-widths of a test set of up to 10**6 examples differ by at least 1/(2·10**6)² when
    # they differ at all (integers over 2p'), far more than the slack at any goal ≤ 1.
    assert TIE_SLACK < 1 / (2 * 10**6) ** 2 * 1e2
    assert with_slack(0.05) - 0.05 < 1e-13
