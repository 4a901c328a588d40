"""Missing values are never a category: one rule for every engine.

``<NA>`` (pandas nullable Int64/boolean/string), None and NaN in the label,
facet, predicted or group column are refused with the argument, the column and
the count; ``dropna=True`` leaves those rows out. The expected values are hand
computations with fractions on the 7 rows left (4 in facet a = M, 3 in d = F).
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pandas as pd
import pytest

from confusionlab import bias

BASE = {
    "sex": list("MMMMFFFF"),
    "y": [1, 0, 1, 1, 0, 0, 1, 0],
    "p": [1, 0, 1, 0, 0, 0, 1, 0],
    "g": list("abababab"),
}
COLUMN = {"label": "y", "facet": "sex", "predicted": "p", "group": "g"}
KW = dict(label="y", positive_values=[1], facet="sex", facet_values=["F"], predicted="p", group="g")

# After dropping row 7: a = M rows (y 1 0 1 1, p 1 0 1 0), d = F rows 4-6 (y 0 0 1, p 0 0 1).
EXPECTED = {
    "CI": F(4 - 3, 7),
    "DPL": F(3, 4) - F(1, 3),
    "DPPL": F(2, 4) - F(1, 3),
    "RD": F(2, 3) - F(1, 1),  # recall a = 2/3, d = 1/1
    "AD": F(3, 4) - F(3, 3),
    # subgroup a: 4 rows, D = 1/1, A = 1/3; subgroup b: 3 rows, D = 1/2, A = 0
    "CDDL": (4 * (F(1) - F(1, 3)) + 3 * (F(1, 2) - 0)) / 7,
}


def _pandas_nullable(missing: str) -> pd.DataFrame:
    df = pd.DataFrame(BASE).astype({"y": "Int64", "p": "Int64", "sex": "string", "g": "string"})
    df[missing] = df[missing].astype(object).where(df.index != 7, None).astype(df[missing].dtype)
    assert df[missing].isna().sum() == 1
    return df


def _pandas_object(missing: str) -> pd.DataFrame:
    df = pd.DataFrame(BASE).astype(object)
    df.loc[7, missing] = None
    return df


def _pandas_nan(missing: str) -> pd.DataFrame:
    df = pd.DataFrame(BASE)
    if missing in ("y", "p"):
        df[missing] = df[missing].astype(float)
    else:
        df[missing] = df[missing].astype(object)
    df.loc[7, missing] = np.nan
    return df


def _frame(engine: str, missing: str):
    import dask.dataframe as dd
    import duckdb
    import polars as pl
    import pyarrow as pa

    if engine == "pandas-nullable":
        return _pandas_nullable(missing)
    if engine == "pandas-None":
        return _pandas_object(missing)
    if engine == "pandas-NaN":
        return _pandas_nan(missing)
    nullable = _pandas_nullable(missing)
    table = pa.Table.from_pandas(nullable, preserve_index=False)
    assert table.column(missing).null_count == 1
    if engine == "polars":
        return pl.from_arrow(table)
    if engine == "pyarrow":
        return table
    if engine == "duckdb":
        return duckdb.connect().from_arrow(table)
    if engine == "dask":
        return dd.from_pandas(nullable, npartitions=3)
    raise AssertionError(engine)


ENGINES = ["pandas-nullable", "pandas-None", "pandas-NaN", "polars", "pyarrow", "duckdb", "dask"]


@pytest.mark.parametrize("arg", list(COLUMN))
@pytest.mark.parametrize("engine", ENGINES)
def test_missing_value_is_refused_naming_argument_column_and_count(engine, arg):
    data = _frame(engine, COLUMN[arg])
    with pytest.raises(ValueError, match=rf"{arg}: column '{COLUMN[arg]}' has 1 missing value \(") as info:
        bias.report(data, **KW)
    assert "dropna=True" in str(info.value)


@pytest.mark.parametrize("arg", list(COLUMN))
@pytest.mark.parametrize("engine", ENGINES)
def test_dropna_leaves_the_rows_out_on_every_engine(engine, arg):
    r = bias.report(_frame(engine, COLUMN[arg]), **KW, dropna=True)
    assert r.counts.n == 7
    for name, value in EXPECTED.items():
        assert r[name].value == pytest.approx(float(value), abs=1e-15), name


def test_nullable_na_was_a_category_regression():
    """The 8-row example of the bug report: CI was 0.0 (<NA> counted as a label value)."""
    df = _pandas_nullable("y")
    r = bias.pretraining(df, label="y", positive_values=[1], facet="sex", facet_values=["F"], dropna=True)
    assert r["CI"].value == pytest.approx(1 / 7, abs=1e-15)
    assert r.counts.label_values == (0, 1)


@pytest.mark.parametrize("engine", ["pandas-nullable", "polars", "duckdb", "dask"])
def test_facet_threshold_with_nullable_missing_values(engine):
    """Used to crash on pandas nullable Int64 with a facet threshold."""
    df = pd.DataFrame(BASE).assign(age=pd.array([30, 31, 32, 33, 50, 51, 52, None], dtype="Int64"))
    df = df.astype({"y": "Int64", "p": "Int64"})
    kw = dict(label="y", positive_values=[1], facet="age", facet_threshold=40, predicted="p")
    data = _frame_from(engine, df)
    with pytest.raises(ValueError, match=r"facet: column 'age' has 1 missing value \("):
        bias.report(data, **kw)
    r = bias.report(data, **kw, dropna=True)
    assert r["CI"].value == pytest.approx(1 / 7, abs=1e-15)
    assert r["DPPL"].value == pytest.approx(float(EXPECTED["DPPL"]), abs=1e-15)
    assert r.value_or_threshold == "(40, 52]"


def _frame_from(engine: str, df: pd.DataFrame):
    import dask.dataframe as dd
    import duckdb
    import polars as pl
    import pyarrow as pa

    if engine == "pandas-nullable":
        return df
    if engine == "dask":
        return dd.from_pandas(df, npartitions=2)
    table = pa.Table.from_pandas(df, preserve_index=False)
    return pl.from_arrow(table) if engine == "polars" else duckdb.connect().from_arrow(table)


def test_boolean_nullable_label():
    df = pd.DataFrame(BASE)
    df["y"] = pd.array([bool(v) for v in BASE["y"][:7]] + [None], dtype="boolean")
    df["p"] = pd.array([bool(v) for v in BASE["p"]], dtype="boolean")
    kw = dict(label="y", positive_values=[True], facet="sex", facet_values=["F"], predicted="p")
    with pytest.raises(ValueError, match=r"label: column 'y' has 1 missing value \("):
        bias.report(df, **kw)
    r = bias.report(df, **kw, dropna=True)
    assert r["DPL"].value == pytest.approx(float(EXPECTED["DPL"]), abs=1e-15)
    assert r["RD"].value == pytest.approx(float(EXPECTED["RD"]), abs=1e-15)


def test_several_columns_are_all_named_with_their_counts():
    df = _pandas_object("y")
    df.loc[[0, 1], "g"] = None
    with pytest.raises(ValueError, match=r"label: column 'y' has 1 missing value; group: column 'g' has 2 missing"):
        bias.report(df, **KW)
    assert bias.report(df, **KW, dropna=True).counts.n == 5


@pytest.mark.parametrize("engine", ["pandas-nullable", "polars", "duckdb"])
def test_report_each_value_refuses_or_drops_a_missing_facet(engine):
    data = _frame(engine, "sex")
    kw = dict(label="y", positive_values=[1], stage="pre")
    with pytest.raises(ValueError, match=r"facet: column 'sex' has 1 missing value \("):
        bias.report_each_value(data, facet="sex", **kw)
    reps = bias.report_each_value(data, facet="sex", dropna=True, **kw)
    assert list(reps) == ["F", "M"]
    assert reps["F"]["CI"].value == pytest.approx(1 / 7, abs=1e-15)


def test_count_table_dropna():
    from confusionlab.bias.counts import count_table, facet_selection, label_selection

    sel = dict(label="y", labels=label_selection([1]), facet=facet_selection("sex", ["F"]), predicted="p")
    with pytest.raises(ValueError, match=r"predicted: column 'p' has 1 missing value"):
        count_table(_pandas_nullable("p"), **sel)
    t = count_table(_pandas_nullable("p"), **sel, dropna=True)
    assert t.confusion().tolist() == [[2, 1, 0, 1], [1, 0, 0, 2]]  # (tp, fn, fp, tn) of a and d, by hand
    with pytest.raises(TypeError, match=r"dropna must be True or False, got 'yes'"):
        count_table(_pandas_nullable("p"), **sel, dropna="yes")


@pytest.mark.parametrize("engine", ["pandas", "polars", "pyarrow", "duckdb", "dask"])
def test_empty_data_says_it_has_no_rows(engine):
    import dask.dataframe as dd
    import duckdb
    import polars as pl
    import pyarrow as pa

    df = pd.DataFrame(BASE).iloc[:0]
    data = {
        "pandas": lambda: df,
        "polars": lambda: pl.from_pandas(df),
        "pyarrow": lambda: pa.Table.from_pandas(df, preserve_index=False),
        "duckdb": lambda: duckdb.connect().from_arrow(pa.Table.from_pandas(df, preserve_index=False)),
        "dask": lambda: dd.from_pandas(df, npartitions=1),
    }[engine]()
    with pytest.raises(ValueError, match=r"^data has no rows$"):
        bias.report(data, **KW)


def test_all_rows_dropped_says_so():
    df = _pandas_object("y")
    df["y"] = None
    with pytest.raises(ValueError, match=r"data has no rows left after dropna=True left out 8 rows"):
        bias.report(df, **KW, dropna=True)
