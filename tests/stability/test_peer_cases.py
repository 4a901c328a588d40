"""The peer libraries' own test cases, with their expected values.

Data and expected numbers are copied from the peers' test suites (not their code); each
test names its source. Our functions take predictions as refits × objects, so raters /
coders / judges are rows and subjects / units / targets are columns; count tables are
expanded to one row per rating in the tests below.
"""

from __future__ import annotations

import numpy as np
import pytest

from confusionlab import stability as st

nan = np.nan


def ratings_from_table(table):
    """Subjects × categories count table → raters × subjects ratings (category = column index)."""
    table = np.asarray(table, dtype=int)
    cols = [np.repeat(np.arange(table.shape[1]), row) for row in table]
    return np.column_stack(cols)


def ratings_from_value_counts(value_counts, values):
    """Units × values count table → coders × units data, NaN-padded to the largest unit."""
    value_counts = np.asarray(value_counts, dtype=int)
    depth = int(value_counts.sum(axis=1).max())
    out = np.full((depth, value_counts.shape[0]), nan)
    for u, row in enumerate(value_counts):
        col = np.repeat(np.asarray(values, dtype=float), row)
        out[: col.size, u] = col
    return out


# ------------------------------------------------------------------------- krippendorff
# Source: pln-fing-udelar/fast-krippendorff, krippendorff/krippendorff.py, docstring of
# alpha() (the package's test suite is these doctests, run with pytest --doctest-modules).
KRIPP_A = [
    [nan, nan, nan, nan, nan, 3, 4, 1, 2, 1, 1, 3, 3, nan, 3],
    [1, nan, 2, 1, 3, 3, 4, 3, nan, nan, nan, nan, nan, nan, nan],
    [nan, nan, 2, 1, 3, 4, 4, nan, 2, 1, 1, 3, 3, nan, 4],
]
KRIPP_VALUE_COUNTS = [
    [1, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 2, 0, 0],
    [2, 0, 0, 0],
    [0, 0, 2, 0],
    [0, 0, 2, 1],
    [0, 0, 0, 3],
    [1, 0, 1, 0],
    [0, 2, 0, 0],
    [2, 0, 0, 0],
    [2, 0, 0, 0],
    [0, 0, 2, 0],
    [0, 0, 2, 0],
    [0, 0, 0, 0],
    [0, 0, 1, 1],
]
KRIPP_B = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
]
KRIPP_STRINGS = [
    ["very low", "low", "mid", "mid", "low", "very low", "high", "very low", "low", nan, nan, nan],
    ["very low", "low", "mid", "mid", "low", "low", "high", "very low", "low", "very high", nan, "mid"],
    [nan, "mid", "mid", "mid", "low", "mid", "high", "low", "low", "very high", "very low", nan],
    ["very low", "low", "mid", "mid", "low", "high", "high", "very low", "low", "very high", "very low", nan],
]


def test_krippendorff_doctest_nominal_with_missing():
    """krippendorff alpha() docstring: reliability_data with np.nan, nominal → 0.691358."""
    assert round(float(st.krippendorff_alpha(KRIPP_A, "nominal")), 6) == 0.691358


def test_krippendorff_doctest_interval_with_missing():
    """krippendorff alpha() docstring: same data, interval (our "metric") → 0.810845."""
    assert round(float(st.krippendorff_alpha(KRIPP_A, "metric")), 6) == 0.810845


def test_krippendorff_doctest_value_counts():
    """krippendorff alpha() docstring: the value_counts form of the same data → 0.691358.

    The units × values table is expanded to coders × units data (NaN-padded) here.
    """
    data = ratings_from_value_counts(KRIPP_VALUE_COUNTS, [1, 2, 3, 4])
    assert round(float(st.krippendorff_alpha(data, "nominal")), 6) == 0.691358


def test_krippendorff_doctest_ordinal():
    """krippendorff alpha() docstring (example from statisticshowto, p. 8): ordinal → 0.815,
    also with value_domain=[1, 2, 3, 4, 5] (our categories=). The docstring's ratio-level
    value (0.797) has no counterpart here: confusionlab has no ratio scale.
    """
    assert round(float(st.krippendorff_alpha(KRIPP_B, "ordinal")), 3) == 0.815
    assert round(float(st.krippendorff_alpha(KRIPP_B, "ordinal", categories=[1, 2, 3, 4, 5])), 3) == 0.815


def test_krippendorff_doctest_strings_with_nan():
    """krippendorff alpha() docstring: strings with np.nan (numpy stores 'nan'), ordinal with an
    ordered value_domain → 0.815; nominal → 0.743."""
    order = ["very low", "low", "mid", "high", "very high"]
    assert np.asarray(KRIPP_STRINGS).dtype.kind == "U"
    assert round(float(st.krippendorff_alpha(KRIPP_STRINGS, "ordinal", categories=order)), 3) == 0.815
    assert round(float(st.krippendorff_alpha(KRIPP_STRINGS, "nominal")), 3) == 0.743


# ------------------------------------------------------------------------- statsmodels
# Source: statsmodels/statsmodels, statsmodels/stats/tests/test_inter_rater.py
TABLE1 = [  # table0[:, 1:-1]: 10 subjects × 5 categories, 14 raters each (Wikipedia)
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]
DIAGNOSES = [  # Fleiss 1971: 30 subjects × 6 raters
    [4, 4, 4, 4, 4, 4],
    [2, 2, 2, 5, 5, 5],
    [2, 3, 3, 3, 3, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4],
    [1, 1, 3, 3, 3, 3],
    [3, 3, 3, 3, 5, 5],
    [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4],
    [5, 5, 5, 5, 5, 5],
    [1, 4, 4, 4, 4, 4],
    [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3],
    [1, 4, 4, 4, 4, 4],
    [2, 2, 4, 4, 4, 5],
    [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5],
    [1, 1, 1, 1, 1, 2],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 4, 4, 4, 4, 4],
    [2, 2, 4, 5, 5, 5],
    [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5],
    [2, 2, 2, 2, 2, 4],
    [1, 1, 1, 1, 5, 5],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3],
    [5, 5, 5, 5, 5, 5],
]


def test_statsmodels_fleiss_kappa_wikipedia():
    """statsmodels test_fleiss_kappa: the Wikipedia table → κ = 0.210 (3 decimals)."""
    assert float(st.fleiss_kappa(ratings_from_table(TABLE1))) == pytest.approx(0.210, abs=5e-4)


@pytest.mark.parametrize(
    ("table", "want"),
    [([[7, 1], [3, 5]], 0.161905), ([[7, 0], [0, 7]], 1.0), ([[6, 1, 0], [0, 7, 0]], 0.708333)],
)
def test_statsmodels_fleis_randolph_fixed_marginal(table, want):
    """statsmodels test_fleis_randolph: "Fixed Marginal Kappa" (Fleiss) from Randolph's online
    calculator, atol 6e-6. (Its tables with fractional counts, 6.99/0.01, cannot be written as
    predictions, and the free-marginal kappa is not offered here.)"""
    assert float(st.fleiss_kappa(ratings_from_table(table))) == pytest.approx(want, abs=6e-6)


def test_statsmodels_fleis_randolph_all_in_one_category_is_undefined():
    """statsmodels test_fleis_randolph: table [[7, 0], [7, 0]] — every rating in one category.
    Fleiss' κ is 0/0 there (statsmodels returns NaN; its test checks only the uniform method)."""
    with pytest.raises(st.UndefinedError, match="one category"):
        st.fleiss_kappa(ratings_from_table([[7, 0], [7, 0]]), on_undefined="raise")


def test_statsmodels_fleiss_kappa_irr_diagnoses():
    """statsmodels test_fleiss_kappa_irr: R irr::kappam.fleiss(diagnoses) = 0.4302445 (7 decimals)."""
    ratings = np.asarray(DIAGNOSES).T  # raters × subjects
    assert float(st.fleiss_kappa(ratings)) == pytest.approx(0.4302445, abs=5e-8)


# ------------------------------------------------------------------------- pingouin
# Source: raphaelvallat/pingouin, tests/test_reliability.py::test_intraclass_corr, and its
# dataset src/pingouin/datasets/icc.csv. Order of pingouin's table: ICC1, ICC2, ICC3, ICC1k,
# ICC2k, ICC3k, i.e. our forms 1,1 2,1 3,1 1,k 2,k 3,k.
FORMS = ("1,1", "2,1", "3,1", "1,k", "2,k", "3,k")
PSYCH = [  # judges × subjects (Shrout & Fleiss 1979, via R psych)
    [9, 6, 8, 7, 10, 6],
    [2, 1, 4, 1, 5, 2],
    [5, 3, 6, 2, 6, 4],
    [8, 2, 8, 6, 9, 7],
]
WINE = [  # judges A–D × wines 1–8, icc.csv
    [1, 1, 3, 6, 6, 7, 8, 9],
    [2, 3, 8, 4, 5, 5, 7, 9],
    [0, 3, 1, 3, 5, 6, 7, 9],
    [1, 2, 4, 3, 6, 2, 9, 8],
]


def test_pingouin_icc_psych_example():
    """pingouin test_intraclass_corr, psych example: ICCs rounded to 2 decimals."""
    got = [round(float(st.icc(PSYCH, form)), 2) for form in FORMS]
    assert got == [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]


def test_pingouin_icc_wine_dataset():
    """pingouin test_intraclass_corr, second example (real-statistics, icc.csv)."""
    got = [round(float(st.icc(WINE, form)), 2) for form in FORMS]
    assert got == [0.73, 0.73, 0.73, 0.91, 0.91, 0.92]


def test_pingouin_icc_wine_with_missing_value_omitted():
    """pingouin test_intraclass_corr, nan_policy='omit': wine 4's score by judge A set to NaN;
    pingouin drops that wine. Our icc refuses missing values, so the wine is dropped here."""
    data = np.asarray(WINE, dtype=float)
    data[0, 3] = nan
    with pytest.raises(ValueError, match="missing values"):
        st.icc(data)
    kept = data[:, ~np.isnan(data).any(axis=0)]
    got = [round(float(st.icc(kept, form)), 2) for form in FORMS]
    assert got == [0.75, 0.75, 0.75, 0.92, 0.92, 0.92]
