"""The same report from pandas, polars, pyarrow, DuckDB and Dask."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from confusionlab import bias


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    rng = np.random.default_rng(42)
    n = 5000
    sex = rng.choice(["Female", "Male"], n, p=[0.35, 0.65])
    race = rng.choice(["A", "B", "C"], n)
    s = rng.normal(size=n) - 0.5 * (sex == "Female")
    return pd.DataFrame(
        {
            "sex": sex,
            "race": race,
            "age": rng.uniform(17, 90, n).round(2),
            "income": np.where(s > 0.4, ">50K", "<=50K"),
            "pred": np.where(s + rng.normal(scale=0.7, size=n) > 0.4, ">50K", "<=50K"),
            "x0": rng.normal(size=n),
            "x1": rng.normal(size=n),
        }
    )


KW = dict(
    label="income",
    positive_values=[">50K"],
    facet="sex",
    facet_values=["Female"],
    predicted="pred",
    group="race",
    features=["x0", "x1"],
)


def _values(r) -> dict:
    return {k: (m.value, m.error is None) for k, m in r.items()}


def _assert_same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for k in a:
        va, vb = a[k][0], b[k][0]
        assert a[k][1] == b[k][1], k
        if va is not None:
            assert math.isclose(va, vb, rel_tol=1e-12, abs_tol=1e-15), (k, va, vb)


def _engines(df: pd.DataFrame) -> dict:
    import dask.dataframe as dd
    import duckdb
    import polars as pl
    import pyarrow as pa

    con = duckdb.connect()
    return {
        "polars": pl.from_pandas(df),
        "polars-lazy": pl.from_pandas(df).lazy(),
        "pyarrow": pa.Table.from_pandas(df, preserve_index=False),
        "duckdb": con.from_arrow(pa.Table.from_pandas(df, preserve_index=False)),
        "dask": dd.from_pandas(df, npartitions=4),
    }


@pytest.mark.parametrize("engine", ["polars", "polars-lazy", "pyarrow", "duckdb", "dask"])
def test_same_report_on_every_engine(frame, engine):
    ref = bias.report(frame, **KW)
    other = bias.report(_engines(frame)[engine], **KW)
    _assert_same(_values(ref), _values(other))
    assert other.to_clarify_json() == ref.to_clarify_json()
    np.testing.assert_array_equal(other.counts.counts, ref.counts.counts)


@pytest.mark.parametrize("engine", ["polars", "duckdb", "dask"])
def test_numeric_threshold_and_intersectional_facets_on_engines(frame, engine):
    kw = dict(label="income", positive_values=[">50K"], predicted="pred")
    for extra in (dict(facet="age", facet_threshold=60.0), dict(facet=["sex", "race"], facet_values=[("Female", "B")])):
        ref = bias.report(frame, **kw, **extra)
        other = bias.report(_engines(frame)[engine], **kw, **extra)
        assert other.to_clarify_json() == ref.to_clarify_json()


def test_intersectional_facet_is_the_combination(frame):
    r = bias.report(
        frame,
        label="income",
        positive_values=[">50K"],
        facet=["sex", "race"],
        facet_values=[("Female", "B"), ("Male", "C")],
    )
    fem, male = frame.sex == "Female", frame.sex == "Male"
    d = (fem & (frame.race == "B")) | (male & (frame.race == "C"))
    nd, na = int(d.sum()), int((~d).sum())
    assert r["CI"].value == pytest.approx((na - nd) / (na + nd), abs=1e-15)
    pos = frame.income == ">50K"
    assert r["DPL"].value == pytest.approx(pos[~d].mean() - pos[d].mean(), abs=1e-15)


@pytest.mark.parametrize("engine", ["duckdb", "dask", "polars-lazy"])
def test_lazy_engine_returns_only_the_count_table(frame, engine, monkeypatch):
    """Without FT, a lazy frame only ever hands back small count tables, never rows."""
    import dask.dataframe as dd
    import narwhals as nw

    sizes: list[int] = []

    def spy(cls, name):
        original = getattr(cls, name)

        def wrapped(self, *a, **k):
            out = original(self, *a, **k)
            sizes.append(len(out))
            return out

        monkeypatch.setattr(cls, name, wrapped)

    spy(nw.LazyFrame, "collect")
    spy(dd.DataFrame, "compute")  # Dask: per-partition count tables, summed by the caller
    data = _engines(frame)[engine]
    r = bias.report(
        data,
        label="income",
        positive_values=[">50K"],
        facet="sex",
        facet_values=["Female"],
        predicted="pred",
        group="race",
    )
    assert r["DPPL"].value is not None
    # 3 races x 2 facets x 2 labels x 2 predictions = 24 cells at most (per Dask partition)
    per_part = 4 if engine == "dask" else 1
    assert sizes and max(sizes) <= 24 * per_part < len(frame)


# ----------------------------------------------------------------------------- one counting call for report and audit
AUDIT = dict(label="income", positive_values=[">50K"], predicted="pred", facets=["sex", "race"], intersections=True,
             metrics=["DPL", "DPPL", "DI", "AD"], margin=0.05, n_draws=500)  # fmt: skip


@pytest.mark.parametrize("engine", ["polars", "polars-lazy", "pyarrow", "duckdb", "dask"])
def test_same_audit_on_every_engine(frame, engine):
    ref = bias.audit(frame, **AUDIT)
    other = bias.audit(_engines(frame)[engine], **AUDIT)
    pd.testing.assert_frame_equal(other.to_frame(), ref.to_frame(), check_exact=True)
    pd.testing.assert_frame_equal(other.sizes, ref.sizes)
    assert other.notes == ref.notes


def test_a_dask_report_and_a_dask_audit_count_through_the_same_code(frame, monkeypatch):
    from confusionlab._tables import OneOf, Values
    from confusionlab._tables import dask as dask_engine
    from confusionlab._tables import narwhals as narwhals_engine

    requests = []
    original = dask_engine.count_cells
    monkeypatch.setattr(dask_engine, "count_cells", lambda f, req: requests.append(req) or original(f, req))
    monkeypatch.setattr(narwhals_engine, "count_cells", lambda *a: pytest.fail("Dask is counted by its own engine"))
    data = _engines(frame)["dask"]
    bias.report(data, label="income", positive_values=[">50K"], facet="sex", facet_values=["Female"], predicted="pred")
    bias.audit(data, **AUDIT)
    assert len(requests) == 2
    assert requests[0].keys["_f"] == OneOf(("sex",), ("Female",))  # the report: facet d or not …
    assert not any(k.startswith("_k") for k in requests[0].keys)  # … and no facet column's values
    assert "_f" not in requests[1].keys  # the audit: every facet value
    assert [requests[1].keys[k] for k in ("_k0", "_k1")] == [Values("sex"), Values("race")]


def test_more_combinations_than_an_int64_index_holds_are_counted_exactly():
    """Five facet columns of 10,000 values each: 10^20 combinations, counted without a flat index."""
    from confusionlab.bias._request import BiasRequest as CountRequest
    from confusionlab.bias._request import count_cells, facet_key
    from confusionlab.bias.selection import label_selection

    rng = np.random.default_rng(3)
    n = 3000
    df = pd.DataFrame({f"c{i}": rng.integers(0, 10_000, n) for i in range(5)})
    df.loc[: n // 2, ["c0", "c1", "c2", "c3", "c4"]] = [1, 2, 3, 4, 5]  # half the rows in one combination
    df["y"] = rng.integers(0, 2, n)
    req = CountRequest("y", label_selection([1]), None, facets=tuple(f"c{i}" for i in range(5)))
    cells = count_cells(df, req)
    got = {
        (*(cells.keys[facet_key(i)][j] for i in range(5)), cells.keys["_l"][j]): cells.n[j] for j in range(len(cells.n))
    }
    expected = df.groupby(["c0", "c1", "c2", "c3", "c4", "y"]).size()  # pandas' own group-by, independently
    assert got == {tuple(int(v) for v in k): int(m) for k, m in expected.items()}
    assert all(type(v) is int for v in cells.keys[facet_key(0)])  # Python scalars, as on every engine
