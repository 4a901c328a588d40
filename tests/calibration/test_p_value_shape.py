"""One p-value shape: ``Calibration.p_value()`` and ``CalibrationSet.p_value()`` give the
p-value as a float; ``test()`` gives the Monte Carlo test (p-value, its error, the statistic,
the draws). The old ``p_value().p_value`` / ``.mc_error`` … give the same numbers for one
release with a FutureWarning naming ``test()``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import confusionlab as cl
from confusionlab.calibration import CalibrationTest

RNG = np.random.default_rng(3)
Q = RNG.uniform(size=600)
Y = RNG.uniform(size=600) < Q**1.5
GROUPS = RNG.choice(["F", "M"], size=600)


@pytest.mark.parametrize(
    ("build", "name"),
    [
        (lambda: cl.calibration(Y, Q, bins=5, n_draws=999, random_state=0), "Calibration"),
        (lambda: cl.calibration(Y, Q, bins=5, groups=GROUPS, n_draws=999, random_state=0), "CalibrationSet"),
    ],
)
def test_p_value_is_a_float_and_test_holds_the_details(build, name) -> None:
    cal = build()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = cal.p_value()
        test = cal.test()
        assert isinstance(p, float) and type(p * 1.0) is float and f"{p:.3g}"
        assert isinstance(test, CalibrationTest) and p == test.p_value and test.n_draws == 999
        # the Monte Carlo p-value (1 + hits) / (1 + draws) is a multiple of 1 / 1000
        assert round(p * 1000) == pytest.approx(p * 1000, abs=1e-9)
        again = cal.p_value(n_draws=499, random_state=1)
        assert again == cal.test(n_draws=499, random_state=1).p_value
    for attribute in ("p_value", "mc_error", "statistic", "n_draws"):
        with pytest.warns(FutureWarning, match=rf"{name}\.p_value\(\)\.{attribute} is renamed {name}\.test\(\)"):
            assert getattr(p, attribute) == getattr(test, attribute)
