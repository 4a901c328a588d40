"""One sort of class-tagged keys gives the same tie blocks and sorted classes as sorting each class
and merging (the path kept for scores whose scaling would not be exact), by hypothesis over
awkward doubles: ±0.0, neighbours one ulp apart, huge and subnormal magnitudes, heavy ties."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from confusionlab.scores._input import Scores, split_scores, tagged_keys, tie_blocks

AWKWARD = st.sampled_from(
    [0.0, -0.0, 1.0, np.nextafter(1.0, 2.0), np.nextafter(1.0, 0.0), 0.5, -2.5, 3.0, 1e300, -1e300, 5e-324, 1e-310, 2.0]
)
SCORES = st.lists(st.one_of(AWKWARD, st.floats(allow_nan=False, allow_infinity=False)), min_size=2, max_size=60)


@settings(max_examples=300, deadline=None)
@given(SCORES, st.data())
def test_tagged_keys_equal_the_per_class_sort(values, data):
    x = np.array(values, dtype=np.float64)
    is_pos = np.array(data.draw(st.lists(st.booleans(), min_size=x.size, max_size=x.size)))
    is_pos[0], is_pos[1] = True, False
    s = split_scores(is_pos, x, 1)
    reference_pos, reference_neg = np.sort(x[is_pos]) + 0.0, np.sort(x[~is_pos]) + 0.0
    np.testing.assert_array_equal(s.positives, reference_pos)
    np.testing.assert_array_equal(s.negatives, reference_neg)
    for got, want in zip(s.blocks, tie_blocks(reference_pos, reference_neg), strict=True):
        np.testing.assert_array_equal(got, want)
    assert (s.p, s.n) == (int(is_pos.sum()), int((~is_pos).sum()))
    reference = Scores(reference_pos, reference_neg, 1)
    assert [b.tolist() for b in reference.blocks] == [b.tolist() for b in s.blocks]


def test_scores_that_would_lose_bits_take_the_per_class_path():
    x = np.array([5e-324, 1e300, 0.5, 0.25])
    assert tagged_keys(np.array([True, False, True, False]), x) is None  # 5e-324 · 2^−997 underflows
    s = split_scores(np.array([True, False, True, False]), x, 1)
    assert s._keys is None and s.positives.tolist() == [5e-324, 0.5]
