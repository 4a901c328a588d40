"""Benchmark confusionlab.bias against smclarify 0.5 and a numpy bincount floor.

Usage (smclarify lives in its own venv, see tools/smclarify_reference/generate.py)::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_bias.py \\
        --rows 1e6 1e7 --ft-rows 1e5 1e6 \\
        --smclarify-python /work/smclarify-venv/bin/python [--dask-rows 1e8]

For every size it generates the same data (int8 codes: facet 0..2 with d = 1,
binary label and prediction, 5 subgroups; 3 float features for FT), writes it
to ``benchmarks/out/`` as .npz for smclarify, and prints, from the same run:

* ours: ``bias.report`` without FT on a pandas DataFrame (median of 3), also
  polars and DuckDB inputs, and the report plus all 20 intervals;
* the floor: one ``np.bincount`` over (group × facet × label × prediction);
* smclarify: ``bias_report`` pre-training + post-training without FT, timed
  inside its own process (pandas read excluded);
* FT alone, ours vs smclarify;
* optionally a Dask LocalCluster run on lazily generated chunks, with time and
  the peak RSS of the client process and of the largest worker.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "out"
KW = dict(label="label", positive_values=[1], facet="facet", facet_values=[1], predicted="pred", group="group")

SMCLARIFY_CODE = r"""
import json, sys, time, logging
logging.disable(logging.CRITICAL)
import numpy as np
import pandas as pd
from smclarify.bias.report import FacetColumn, LabelColumn, StageType, bias_report
path, which = sys.argv[1], sys.argv[2]
with np.load(path) as z:
    df = pd.DataFrame({k: z[k] for k in z.files})
group = df.pop("group")
out = {}
if which == "report":
    df = df[["facet", "label", "pred"]]
    t = time.perf_counter()
    bias_report(df, FacetColumn("facet", [1]), LabelColumn("label", df["label"], [1]),
                StageType.PRE_TRAINING, group_variable=group)
    out["pre"] = time.perf_counter() - t
    post = ["AD", "CDDPL", "DAR", "DCA", "DCR", "DI", "DPPL", "DRR", "GE", "RD", "SD", "TE"]
    t = time.perf_counter()
    bias_report(df, FacetColumn("facet", [1]), LabelColumn("label", df["label"], [1]),
                StageType.POST_TRAINING, LabelColumn("pred", df["pred"]), metrics=post,
                group_variable=group)
    out["post"] = time.perf_counter() - t
else:
    t = time.perf_counter()
    r = bias_report(df, FacetColumn("facet", [1]), LabelColumn("label", df["label"], [1]),
                    StageType.POST_TRAINING, LabelColumn("pred", df["pred"]), metrics=["FT"])
    out["ft"] = time.perf_counter() - t
    out["ft_value"] = r[0]["metrics"][0]["value"]
print(json.dumps(out))
"""


def generate(n: int, seed: int = 0):
    import pandas as pd

    rng = np.random.default_rng(seed)
    facet = rng.integers(0, 3, n, dtype=np.int8)
    group = rng.integers(0, 5, n, dtype=np.int8)
    x = rng.normal(size=(n, 3))
    score = x[:, 0] - 0.4 * (facet == 1) + 0.1 * group
    label = (score + rng.normal(size=n) > 0.3).astype(np.int8)
    pred = (score > 0.3).astype(np.int8)
    return pd.DataFrame(
        {"facet": facet, "label": label, "pred": pred, "group": group, "x0": x[:, 0], "x1": x[:, 1], "x2": x[:, 2]}
    )


def timed(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def floor(df) -> float:
    g, f, y, p = (df[c].to_numpy() for c in ("group", "facet", "label", "pred"))

    def run():
        np.bincount(((g.astype(np.intp) * 2 + (f == 1)) * 2 + y) * 2 + p, minlength=40)

    return timed(run)


def smclarify(python: str, path: Path, which: str) -> dict:
    res = subprocess.run([python, "-c", SMCLARIFY_CODE, str(path), which], capture_output=True, text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def bench_report(n: int, python: str | None) -> dict:
    import duckdb
    import polars as pl

    from confusionlab import bias

    df = generate(n)
    res: dict = {"rows": n}
    res["ours_pandas"] = timed(lambda: bias.report(df, **KW))
    pdf = pl.from_pandas(df[["facet", "label", "pred", "group"]])
    res["ours_polars"] = timed(lambda: bias.report(pdf, **KW))
    con = duckdb.connect()
    rel = con.from_arrow(pdf.to_arrow())
    res["ours_duckdb"] = timed(lambda: bias.report(rel, **KW))

    def with_intervals():
        r = bias.report(df, **KW)
        for m in r.values():
            m.interval(0.95)

    res["ours_pandas_with_intervals"] = timed(with_intervals, repeat=1)
    res["floor_bincount"] = floor(df)
    if python:
        OUT.mkdir(exist_ok=True)
        path = OUT / f"bias_{n}.npz"
        np.savez(path, **{c: df[c].to_numpy() for c in ("facet", "label", "pred", "group")})
        s = smclarify(python, path, "report")
        res["smclarify_pre"], res["smclarify_post_no_ft"] = s["pre"], s["post"]
    return res


def bench_ft(n: int, python: str | None) -> dict:
    import sklearn.neighbors  # noqa: F401  (import time is not FT time)

    from confusionlab.bias.prediction_metrics import flip_test

    df = generate(n)
    x = df[["x0", "x1", "x2"]].to_numpy()
    d = (df["facet"] == 1).to_numpy()
    p = df["pred"].to_numpy().astype(bool)
    t = time.perf_counter()
    value = flip_test(x[~d], p[~d], x[d], p[d])
    res = {"rows": n, "ours_ft": time.perf_counter() - t, "ours_ft_value": value}
    if python:
        OUT.mkdir(exist_ok=True)
        path = OUT / f"bias_ft_{n}.npz"
        np.savez(path, **{c: df[c].to_numpy() for c in df.columns})
        s = smclarify(python, path, "ft")
        res["smclarify_ft"], res["smclarify_ft_value"] = s["ft"], s["ft_value"]
    return res


def _dask_chunk(i: int, rows: int):
    """One lazily generated partition (only the four count columns)."""
    import pandas as pd

    rng = np.random.default_rng(1000 + i)
    facet = rng.integers(0, 3, rows, dtype=np.int8)
    group = rng.integers(0, 5, rows, dtype=np.int8)
    score = rng.normal(size=rows).astype(np.float32) - 0.4 * (facet == 1) + 0.1 * group
    label = (score + rng.normal(size=rows).astype(np.float32) > 0.3).astype(np.int8)
    pred = (score > 0.3).astype(np.int8)
    return pd.DataFrame({"facet": facet, "label": label, "pred": pred, "group": group})


def bench_dask(n: int, chunk: int = 2_000_000) -> dict:
    import dask.dataframe as dd
    from dask.distributed import Client, LocalCluster

    from confusionlab import bias

    parts = [chunk] * (n // chunk) + ([n % chunk] if n % chunk else [])
    meta = _dask_chunk(0, 1).iloc[:0]
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, memory_limit="6GiB", dashboard_address=None) as cluster,
        Client(cluster),
    ):
        ddf = dd.from_map(_dask_chunk, range(len(parts)), parts, meta=meta)
        t = time.perf_counter()
        r = bias.report(ddf, **KW)
        elapsed = time.perf_counter() - t
        t = time.perf_counter()
        for m in r.values():
            m.interval(0.95)
        intervals = time.perf_counter() - t
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "rows": n,
        "partitions": len(parts),
        "seconds": elapsed,
        "intervals_seconds": intervals,
        "n_counted": int(r.counts.n),
        "peak_rss_client_mib": own,
        "peak_rss_largest_worker_mib": children,
        "DPPL": r["DPPL"].value,
        "DPPL_95": r["DPPL"].interval(0.95),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", nargs="*", type=float, default=[1e6])
    ap.add_argument("--ft-rows", nargs="*", type=float, default=[1e5])
    ap.add_argument("--dask-rows", type=float, default=0)
    ap.add_argument("--smclarify-python", default=None)
    a = ap.parse_args()
    for n in a.rows:
        r = bench_report(int(n), a.smclarify_python)
        line = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items()}
        print("report", json.dumps(line), flush=True)
        if "smclarify_pre" in r:
            sm = r["smclarify_pre"] + r["smclarify_post_no_ft"]
            print(
                f"  rows={int(n):.0e}: smclarify/ours = {sm / r['ours_pandas']:.1f}x, "
                f"ours/floor = {r['ours_pandas'] / r['floor_bincount']:.2f}x",
                flush=True,
            )
    for n in a.ft_rows:
        r = bench_ft(int(n), a.smclarify_python)
        print("ft", json.dumps(r), flush=True)
        if "smclarify_ft" in r:
            ratio = r["smclarify_ft"] / r["ours_ft"]
            print(f"  rows={int(n):.0e}: smclarify FT/ours = {ratio:.1f}x", flush=True)
    if a.dask_rows:
        print("dask", json.dumps(bench_dask(int(a.dask_rows))), flush=True)


if __name__ == "__main__":
    sys.exit(main())
