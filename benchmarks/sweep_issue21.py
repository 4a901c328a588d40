"""Issue 21's one-line reproductions, each in its own capped child process.

Every item runs in a fresh ``python`` child with ``RLIMIT_AS`` = 4 GB and a 120 s wall-clock
timeout (a sweep, not a test: wall-clock is what the issue's reader waits for). The child
reports its outcome — ``answer`` (with a short summary, checked where the issue names the right
answer: a check that fails is ``WRONG``), ``refusal`` (InvalidParameterError, TooLargeError,
TargetUnreachableError, SystemExit 2 of a command line, with the message), ``crash`` (any other
exception, or a signal) — with its time and peak RSS (``ru_maxrss``; for a timeout, ``VmHWM`` read
just before the kill). ``owner`` says who fixes the item (this sweep's engineer fixes "evaluation"
and "core"; "planner" and "bias" belong to other engineers).

Usage::

    PYTHONPATH=src python benchmarks/sweep_issue21.py                # every item, a Markdown table
    PYTHONPATH=src python benchmarks/sweep_issue21.py --only evaluate_all_group --only rank_identical
    PYTHONPATH=src python benchmarks/sweep_issue21.py --list
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import textwrap
import time

CAP_BYTES = 4 * 10**9
TIMEOUT = 120.0

# name → (owner, issue line, code defining run() -> str). Shared helpers are in PRELUDE.
PRELUDE = """
import math, warnings
import numpy as np
import pandas as pd
import confusionlab as cl
from confusionlab import bias
warnings.simplefilter("ignore")

def binary(n, acc=0.85, seed=0, prevalence=0.5):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    p = np.where(rng.random(n) < acc, y, 1 - y)
    return y, p

def check(cond, msg):
    if not cond:
        raise AssertionError(msg)
"""

ITEMS: dict[str, tuple[str, str, str]] = {}


def item(name: str, owner: str, line: str, code: str) -> None:
    ITEMS[name] = (owner, line, textwrap.dedent(code))


# ------------------------------------------------------------------ wrong answers, silently
item(
    "evaluate_all_group",
    "evaluation",
    'evaluate(groups=) with a group named "all"',
    """
def run():
    y, p = binary(200)
    g = np.where(np.arange(200) < 61, "all", "b")
    ev = cl.evaluate(y, p, groups=g)
    whole = ev.sizes()["objects"]
    named = ev.sizes("all")["objects"]
    f = ev.to_frame(metrics=["recall"])
    check(whole == 200, f"sizes() = {whole}")
    check(named == 61, f"sizes('all') = {named}")
    check(sorted(f["objects"].tolist()) == [61, 139, 200], f"to_frame objects {f['objects'].tolist()}")
    return f"groups {ev.groups}; sizes('all') = {named}, whole = {whole}"
""",
)
item(
    "evaluate_1_and_str1",
    "evaluation",
    'evaluate: groups 1 and "1" in one object column',
    """
def run():
    y, p = binary(40)
    g = np.empty(40, dtype=object); g[:] = [1, "1"] * 20
    ev = cl.evaluate(y, p, groups=g)
    check(len(ev.groups) == 3, f"groups {ev.groups} (1 and '1' merged)")
    return f"groups {ev.groups}"
""",
)
item(
    "audit_1_and_str1",
    "bias",
    'bias.audit: groups 1 and "1" (verdict_table/to_html)',
    """
def run():
    y, p = binary(400)
    g = np.empty(400, dtype=object); g[:] = [1, "1"] * 200
    df = pd.DataFrame({"y": y, "p": p, "g": g})
    a = bias.audit(df, label="y", positive_values=[1], predicted="p", facets="g", margin=0.1)
    a.verdict_table(); a.to_html()
    fr = a.to_frame()
    check(not fr[["facet", "group", "metric"]].duplicated().any(), "duplicate (facet, group, metric) rows")
    return f"{len(fr)} rows, groups {sorted(map(repr, set(fr['group'])))}"
""",
)
item(
    "audit_group_of_one",
    "bias",
    "bias.audit on a group of one row: verdicts",
    """
def run():
    y, p = binary(300)
    g = np.where(np.arange(300) == 0, "one", "rest")
    df = pd.DataFrame({"y": y, "p": p, "g": g})
    a = bias.audit(df, label="y", positive_values=[1], predicted="p", facets="g", margin=0.1)
    fr = a.to_frame()
    one = fr[fr["group"] == "one"]
    decided = one[~one["verdict"].astype(str).str.contains("insufficient")]
    check(decided.empty, f"decided verdicts for a group of one: {decided[['metric','verdict']].values.tolist()}")
    return f"{len(one)} rows of the group of one, all 'insufficient evidence'"
""",
)
item(
    "rank_identical",
    "paired",
    "rank_models: two identical classifiers among three, P(best) vs pairwise",
    """
def run():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    a = np.where(rng.random(300) < 0.85, y, 1 - y)
    c = np.where(rng.random(300) < 0.80, y, 1 - y)
    r = cl.rank_models(y, {"a": a, "b": a.copy(), "c": c}, "accuracy")
    # with a = b exactly, P(best) of a (ties split) is implied by P(a > c) of the same model
    pb = r.prob_best["a"] + r.prob_best["b"]
    pw = r.pairwise[0, 2] + 0.5 * (1 - r.pairwise[0, 2] - r.pairwise[2, 0])
    err = 4 * math.sqrt(pw * (1 - pw) / 100_000) + 0.01
    check(abs(pb - pw) < err, f"P(a or b best) = {pb:.4f}, pairwise implies {pw:.4f}")
    return f"P(a or b best) = {pb:.4f}, pairwise implies {pw:.4f}"
""",
)
item(
    "plan_mcc_rare",
    "planner",
    'plan_test_size("mcc", prevalence=1e-4, ...)',
    """
def run():
    plan = cl.plan_test_size("mcc", prevalence=1e-4, tpr=0.8, tnr=0.9, half_width=0.1)
    check(plan.p >= 5, f"N = {plan.N} with {plan.p} positives")
    return f"N = {plan.N}, p = {plan.p}"
""",
)
item(
    "html_dollar_group",
    "evaluation",
    "Evaluation.to_html()/plot() with a group 'income $50K-$75K' or '$\\\\frac{1}{$'",
    r"""
def run():
    import matplotlib; matplotlib.use("Agg")
    y, p = binary(200)
    g = np.where(np.arange(200) % 2 == 0, "income $50K-$75K", "$\\frac{1}{$")
    ev = cl.evaluate(y, p, groups=g)
    page = ev.to_html()
    fig = ev.plot()
    texts = [t.get_text() for ax in fig.axes for t in [ax.title, *ax.get_yticklabels(), *ax.get_xticklabels()]]
    check("income $50K-$75K" in page.replace("&#x27;", "'").replace("&#36;", "$") or "50K" in page, "name lost")
    return f"page {len(page):,} chars; figure texts ok"
""",
)
item(
    "evaluate_scores",
    "evaluation",
    "evaluate on continuous scores (202 'classes')",
    """
def run():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    s = rng.random(200)
    ev = cl.evaluate(y, s)
    return f"answered with {len(ev.classes)} classes (should refuse)"
""",
)

# ------------------------------------------------------------------ crashes
for kind, make in {
    "Int64": 'pd.array([1, 0, None, 1] * 10, dtype="Int64")',
    "boolean": 'pd.array([True, False, None, True] * 10, dtype="boolean")',
    "Categorical": "pd.Categorical([1, 0, np.nan, 1] * 10)",
    "arrow": "__import__('pyarrow').array([1, 0, None, 1] * 10)",
}.items():
    for where in ("evaluate", "from_predictions"):
        call = (
            "cl.evaluate(y, [1, 0, 0, 1] * 10)"
            if where == "evaluate"
            else "cl.ConfusionMatrix.from_predictions(y, [1, 0, 0, 1] * 10, positive=1)"
        )
        item(
            f"{where}_{kind}_missing",
            "evaluation" if where == "evaluate" else "core",
            f"{where} with {kind} labels holding a missing value",
            f"""
def run():
    y = {make}
    r = {call}
    return f"answered {{r!r}} (should refuse the missing value)"
""",
        )
item(
    "evaluate_no_positive",
    "evaluation",
    "evaluate on a test set with no positive",
    """
def run():
    ev = cl.evaluate([0] * 20, [0] * 19 + [1], positive=1, metrics=["specificity", "recall"])
    return f"value {ev.value}"
""",
)
item(
    "evaluate_metrics_str",
    "evaluation",
    'evaluate(metrics="f1") (a string)',
    """
def run():
    y, p = binary(50)
    ev = cl.evaluate(y, p, metrics="f1")
    check(ev.metrics == ["f1"], f"metrics {ev.metrics}")
    return f"metrics {ev.metrics}"
""",
)
for tol in ("1e-308", "1e-320"):
    item(
        f"tolerance_{tol}",
        "core",
        f"metric_distribution(tolerance={tol})",
        f"""
def run():
    d = cl.metric_distribution(cl.ConfusionMatrix(tp=3, fn=2, fp=1, tn=4), "mcc", tolerance={tol})
    check(abs(d.probabilities.sum() + d.pruned_mass - 1) < 1e-9, "mass")
    return f"{{d.values.size}} values, pruned {{d.pruned_mass:.3g}}"
""",
    )
item(
    "tiny_prior_tp_fp_0",
    "core",
    "prior=1e-300 … 1e-17 with tp = fp = 0, tolerance 0",
    """
def run():
    out = []
    for prior in (1e-300, 1e-100, 1e-17):
        for metric in ("precision", "f1", "mcc"):
            d = cl.metric_distribution(cl.ConfusionMatrix(tp=0, fn=5, fp=0, tn=5), metric, prior=prior, tolerance=0)
            check(abs(d.probabilities.sum() + d.pruned_mass + d.undefined_mass - 1) < 1e-9 or
                  abs(d.probabilities.sum() + d.pruned_mass - 1) < 1e-9, f"mass at prior {prior}")
            out.append(d.values.size)
    return f"9 distributions, sizes {out}"
""",
)
item(
    "paired_cells_2_53",
    "paired",
    "compare_paired_cells with cells of 2**53",
    """
def run():
    big = 2**53
    r = cl.compare_paired_cells([[big, 10, 12, big], [big, 7, 9, big]], "accuracy")
    return r.summary()[:100]
""",
)
item(
    "paired_cells_1e8",
    "paired",
    "compare_paired_cells with 1e8 under the default model",
    """
def run():
    r = cl.compare_paired_cells([[10**8, 10, 12, 10**8], [10**8, 7, 9, 10**8]], "accuracy")
    return r.summary()[:100]
""",
)

# ------------------------------------------------------------------ memory blow-ups
item(
    "paired_identical_1e9",
    "paired",
    "compare_paired on two identical classifiers at N = 10⁹",
    """
def run():
    y, p = binary(1000)
    r = cl.compare_paired(y, p, p.copy(), "accuracy", future_size=10**9)
    return r.summary()[:100]
""",
)
item(
    "audit_row_id_facet",
    "bias",
    "bias.audit with a row-id facet (100,000 groups of one)",
    """
def run():
    y, p = binary(100_000)
    df = pd.DataFrame({"y": y, "p": p, "g": np.arange(100_000)})
    a = bias.audit(df, label="y", positive_values=[1], predicted="p", facets="g", margin=0.1)
    return f"{len(a.to_frame())} rows"
""",
)
item(
    "plan_max_size_1e8",
    "planner",
    "plan_test_size(..., max_size=10**8)",
    """
def run():
    plan = cl.plan_test_size("mcc", prevalence=0.25, tpr=0.62, tnr=0.93, half_width=1e-4, max_size=10**8)
    return f"N = {plan.N}"
""",
)
for n in (150_000, 70_000):
    item(
        f"md_mcc_{n}",
        "core",
        f"metric_distribution MCC at p = n = {n:,} (peak ≤ 2 GiB)",
        f"""
def run():
    cm = cl.ConfusionMatrix.from_rates({n}, {n}, 0.8, 0.9)
    d = cl.metric_distribution(cm, "mcc", method="auto")
    return f"{{d.method}}, {{d.values.size:,}} values, interval {{d.interval(0.95)}}"
""",
    )
item(
    "md_mcc_150000_exact",
    "core",
    "metric_distribution MCC at p = n = 1.5·10⁵, method='exact' (default)",
    """
def run():
    cm = cl.ConfusionMatrix.from_rates(150_000, 150_000, 0.8, 0.9)
    d = cl.metric_distribution(cm, "mcc")
    return f"{d.method}, {d.values.size:,} values"
""",
)

# ------------------------------------------------------------------ hangs
for a in ("0.999999", "0.9999"):
    item(
        f"plan_assurance_{a}",
        "planner",
        f"plan_test_size(..., assurance={a})",
        f"""
def run():
    plan = cl.plan_test_size("mcc", prevalence=0.25, tpr=0.62, tnr=0.93, half_width=0.03, assurance={a},
                             target="next_test_set")
    return f"N = {{plan.N}}"
""",
    )
item(
    "plan_group_DI_inf",
    "bias",
    'plan_group_size("DI", size_a=5000, rate_a=1e-4, rate_d=0.25, half_width=5.0)',
    """
def run():
    plan = bias.plan_group_size("DI", size_a=5000, rate_a=1e-4, rate_d=0.25, half_width=5.0)
    return f"{plan!r}"[:100]
""",
)
item(
    "evaluate_200k_10k_groups",
    "evaluation",
    "evaluate 200,000 objects × 20 refits × 10,000 groups (decompose by_group)",
    """
def run():
    rng = np.random.default_rng(0)
    n = 200_000
    y = rng.integers(0, 2, n)
    runs = np.where(rng.random((20, n)) < 0.85, y, 1 - y)
    g = rng.integers(0, 10_000, n)
    ev = cl.evaluate(y, refits=runs, groups=g, metrics="f1")
    d = ev.decompose("f1", by_group=True)
    return f"{len(d)} groups decomposed"
""",
)
item(
    "evaluate_200k_10k_groups_frame",
    "evaluation",
    "… the same, to_frame() of the four default metrics",
    """
def run():
    rng = np.random.default_rng(0)
    n = 200_000
    y = rng.integers(0, 2, n)
    runs = np.where(rng.random((20, n)) < 0.85, y, 1 - y)
    g = rng.integers(0, 10_000, n)
    ev = cl.evaluate(y, refits=runs, groups=g)
    f = ev.to_frame()
    return f"{len(f):,} rows"
""",
)
for label, facet_code in {
    "5000": "{'g': rng.integers(0, 5000, n)}",
    "2000_all": "{'g': rng.integers(0, 2000, n)}",
    "300x300": "{'g': rng.integers(0, 300, n), 'h': rng.integers(0, 300, n)}",
    "2000x2000": "{'g': rng.integers(0, 2000, n), 'h': rng.integers(0, 2000, n)}",
}.items():
    inter = "x" in label
    metrics = "None" if label == "2000_all" else "['DPPL', 'DI']"
    item(
        f"audit_200k_{label}",
        "bias",
        f"bias.audit on 200,000 rows, facet {label}",
        f"""
def run():
    rng = np.random.default_rng(0)
    n = 200_000
    y, p = binary(n)
    df = pd.DataFrame({{'y': y, 'p': p, **{facet_code}}})
    facets = [c for c in df.columns if c in ('g', 'h')]
    a = bias.audit(df, label='y', positive_values=[1], predicted='p', facets=facets, intersections={inter},
                   metrics={metrics}, margin=0.1)
    return f"{{len(a.to_frame()):,}} rows"
""",
    )
item(
    "rank_12",
    "paired",
    "rank_models with 12 classifiers at its default draws",
    """
def run():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    preds = {f"m{i}": np.where(rng.random(300) < 0.8, y, 1 - y) for i in range(12)}
    r = cl.rank_models(y, preds, "accuracy")
    return f"P(best) sums to {sum(r.prob_best.values()):.4f}"
""",
)
for target in ("true_value", "next_test_set"):
    item(
        f"planner_view_{target}",
        "planner",
        f"PlannerView target slider 0.02 → 0.01 ({target})",
        f"""
def run():
    w = cl.PlannerView(metric="mcc", prevalence=0.1, tpr=0.8, tnr=0.9, half_width=0.02, target="{target}")
    w.half_width = 0.01
    return f"N = {{w.plan().get('N')}}"
""",
    )

# ------------------------------------------------------------------ dead ends
for how in ("observed", "future_size"):
    for fn in ("compare_paired", "rank_models"):
        n = 100_000 if how == "observed" else 1000
        fs = ", future_size=100_000" if how == "future_size" else ""
        call = (
            f"cl.compare_paired(y, a, b, 'mcc'{fs})"
            if fn == "compare_paired"
            else f"cl.rank_models(y, {{'a': a, 'b': b}}, 'mcc'{fs})"
        )
        item(
            f"{fn}_mcc_{how}",
            "paired",
            f"{fn} MCC beyond N ≈ 80,000 ({how})",
            f"""
def run():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, {n})
    a = np.where(rng.random({n}) < 0.85, y, 1 - y)
    b = np.where(rng.random({n}) < 0.84, y, 1 - y)
    r = {call}
    return r.summary()[:100]
""",
        )
item(
    "evaluate_1e6_50_refits",
    "evaluation",
    "evaluate 10⁶ objects × 50 refits: table() and decompose()",
    """
def run():
    rng = np.random.default_rng(0)
    n = 10**6
    y = rng.integers(0, 2, n).astype(np.int8)
    runs = np.where(rng.random((50, n), dtype=np.float32) < 0.85, y, 1 - y).astype(np.int8)
    ev = cl.evaluate(y, refits=runs, metrics="f1")
    d = ev.decompose("f1")
    f = ev.to_frame()
    return f"decompose {d}; to_frame {len(f)} rows"
""",
)
item(
    "plan_group_1e9",
    "bias",
    "plan_group_size(size_a=1e9)",
    """
def run():
    plan = bias.plan_group_size("DPPL", size_a=10**9, rate_a=0.3, rate_d=0.2, half_width=0.05)
    return f"{plan!r}"[:100]
""",
)
for case, setup in {
    "invalid_json": "nb = tmp / 'bad.ipynb'; nb.write_text('{not json'); args = [str(nb), '-o', str(tmp / 'out')]",
    "output_is_file": (
        "nb = tmp / 'ok.ipynb'; import nbformat; nbformat.write(nbformat.v4.new_notebook(), nb); "
        "out = tmp / 'out'; out.write_text('x'); args = [str(nb), '-o', str(out), '--no-execute']"
    ),
}.items():
    item(
        f"export_{case}",
        "core",
        f"python -m confusionlab.export ({case.replace('_', ' ')})",
        f"""
def run():
    import subprocess, sys, tempfile, pathlib
    tmp = pathlib.Path(tempfile.mkdtemp())
    {setup}
    r = subprocess.run([sys.executable, "-m", "confusionlab.export", *args], capture_output=True, text=True)
    check("Traceback" not in r.stderr, "traceback: " + r.stderr.strip().splitlines()[-1])
    if r.returncode == 2:
        raise SystemExit("refused: " + r.stderr.strip().splitlines()[-1])
    return f"exit {{r.returncode}}"
""",
    )
item(
    "audit_view_index",
    "bias",
    "AuditView cell index True / out of range / −1",
    """
def run():
    from confusionlab.widgets.audit_view import AuditView
    df = pd.DataFrame({"y": [1, 0] * 30, "p": [1, 0] * 30, "sex": ["F", "M", "M"] * 20})
    view = AuditView(bias.audit(df, label="y", positive_values=[1], predicted="p", facets="sex",
                                metrics=["DPPL", "DI"], margin=0.1))
    out = []
    for index in (True, 10**6, -1):
        try:
            view.cell_row(index); out.append(f"{index!r}: answered")
        except cl.InvalidParameterError:
            out.append(f"{index!r}: refused")
    check(all(o.endswith("refused") for o in out), "; ".join(out))
    return "; ".join(out)
""",
)

# ------------------------------------------------------------------ from the re-run of the first sweep
for metric in ("accuracy", "f1", "mcc"):
    item(
        f"explorer_1e6_{metric}",
        "core",
        f"Explorer at N = 10⁶ ({metric})",
        f"""
def run():
    w = cl.Explorer(N=10**6, p=400_000, tp=320_000, tn=540_000, metric="{metric}", max_slider_n=10**6)
    return f"{{w.metric}} at N = {{w.N:,}}"
""",
    )
item(
    "metric_pmf_1e5_mcc",
    "core",
    "MetricPMF at p = n = 10⁵ with MCC",
    """
def run():
    w = cl.MetricPMF(p=10**5, n=10**5, tp=80_000, tn=90_000, metric="mcc")
    return f"MetricPMF {type(w).__name__} built"
""",
)
item(
    "cddl_per_subgroup",
    "bias",
    "CDDL interval, 5,000 subgroups (≈ 30 ms each before)",
    """
def run():
    rng = np.random.default_rng(0)
    n = 200_000
    df = pd.DataFrame({"y": rng.integers(0, 2, n), "f": rng.integers(0, 2, n), "s": rng.integers(0, 5000, n)})
    r = bias.report(df, label="y", positive_values=[1], facet="f", facet_values=[1], group="s", stage="pre")
    return "report built"
""",
)
item(
    "kl_labels_values_400",
    "bias",
    'kl_labels="values" with 400 label values (≈ 20 ms per value)',
    """
def run():
    rng = np.random.default_rng(0)
    n = 200_000
    df = pd.DataFrame({"y": rng.integers(0, 400, n), "f": rng.integers(0, 2, n)})
    r = bias.report(df, label="y", positive_values=[1], facet="f", facet_values=[1], kl_labels="values",
                    stage="pre")
    return "report built"
""",
)
item(
    "ppf_rule",
    "core",
    "ppf against scipy's rule (smallest x with cdf(x) ≥ q) on 300 distributions",
    """
def run():
    rng = np.random.default_rng(0)
    bad = 0
    for i in range(300):
        tp, fn, fp, tn = (int(v) for v in rng.integers(0, 12, 4))
        d = cl.metric_distribution(cl.ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn), "accuracy")
        k = int(rng.integers(0, d.values.size))
        q = float(d.cdf(d.values[k]))  # q exactly at a cdf step: scipy's rule gives values[k] back
        if d.ppf(q) != d.values[k]:
            bad += 1
    check(bad == 0, f"{bad} of 300 ppf differ from the exact rule")
    return "300 of 300 agree"
""",
)
item(
    "points_strings_none",
    "core",
    "strings and None to cdf/ppf/pmf/sf",
    """
def run():
    d = cl.metric_distribution(cl.ConfusionMatrix(tp=3, fn=1, fp=1, tn=3), "mcc")
    accepted = []
    for m in ("cdf", "ppf", "pmf", "sf"):
        for x in ("0.5", None):
            try:
                getattr(d, m)(x); accepted.append(f"{m}({x!r})")
            except cl.InvalidParameterError:
                pass
    check(not accepted, "accepted: " + ", ".join(accepted))
    return "all 8 refused"
""",
)
item(
    "md_constructor",
    "core",
    "MetricDistribution(unsorted values / negative probabilities)",
    """
def run():
    from confusionlab.distribution import MetricDistribution
    import inspect
    accepted = []
    for values, probs in (([0.5, 0.2], [0.5, 0.5]), ([0.2, 0.5], [1.5, -0.5])):
        try:
            MetricDistribution(np.array(values), np.array(probs), np.ones(2, dtype=np.int64),
                               metric="accuracy", model="beta-binomial")
            accepted.append(str((values, probs)))
        except (cl.InvalidParameterError, TypeError) as e:
            if isinstance(e, TypeError) and not isinstance(e, cl.InvalidParameterError):
                raise
    check(not accepted, "accepted " + "; ".join(accepted))
    return "both refused"
""",
)
item(
    "simplex_points_492",
    "core",
    "simplex_points(492) (advises N <= 492)",
    """
def run():
    pts = cl.simplex_points(492)
    return f"{len(pts.counts):,} points"
""",
)
item(
    "np_int64",
    "core",
    "np.int64 where an int is expected",
    """
def run():
    cm = cl.ConfusionMatrix(tp=np.int64(3), fn=np.int64(1), fp=np.int64(2), tn=np.int64(4))
    d = cl.metric_distribution(cm, "f1", future_size=np.int64(20))
    pts = cl.simplex_points(np.int64(10))
    return f"{cm!r}, {d.values.size} values"
""",
)
item(
    "fbeta_1e300",
    "core",
    "fbeta_metric(1e300)",
    """
def run():
    from confusionlab.metrics import fbeta_metric
    m = fbeta_metric(1e300)
    return f"{m!r}"[:80]
""",
)
item(
    "from_rates_1e9",
    "core",
    "ConfusionMatrix.from_rates with p > 10⁹",
    """
def run():
    cm = cl.ConfusionMatrix.from_rates(3 * 10**9 + 1, 10, 0.5, 0.5)
    return f"{cm!r}"
""",
)
item(
    "twopl_predict_negative",
    "stability",
    "TwoPLFit.predict(n < 0)",
    """
def run():
    from confusionlab import stability as st
    n = np.array([10.0, 20, 40, 80, 160])
    fit = st.fit_2pl(n, 1 / (1 + (55 / n) ** 0.8))
    out = fit.predict(-5)
    return f"predict(-5) = {out!r} (should refuse)"
""",
)
item(
    "grouping_beyond_64_bits",
    "core",
    "exact grouping beyond 64 bits: MCC at p = n = 50,000, rates 0.85 (mirror ties)",
    """
def run():
    cm = cl.ConfusionMatrix.from_rates(50_000, 50_000, 0.85, 0.85)
    d = cl.metric_distribution(cm, "mcc", tolerance=1e-6)
    return f"{d.strategy}: {d.lattice_points:,} points, {d.values.size:,} values"
""",
)
item(
    "paired_cells_2_40",
    "paired",
    "compare_paired_cells with cells of 2**40 (F1)",
    """
def run():
    r = cl.compare_paired_cells([[2**40, 3, 5, 2**40], [2**40, 7, 2, 2**40]], "f1")
    return r.summary()[:100]
""",
)


# ------------------------------------------------------------------ the child
def child(name: str) -> None:
    code = ITEMS[name][2]
    ns: dict = {}
    exec(PRELUDE, ns)
    exec(code, ns)
    from confusionlab import InvalidParameterError, TooLargeError
    from confusionlab.planner import TargetUnreachableError

    start = time.perf_counter()
    try:
        out = ("answer", str(ns["run"]()))
    except AssertionError as exc:
        out = ("WRONG", str(exc))
    except (InvalidParameterError, TooLargeError, TargetUnreachableError) as exc:
        out = ("refusal", f"{type(exc).__name__}: {exc}")
    except SystemExit as exc:
        out = ("refusal", str(exc))
    except BaseException as exc:  # the sweep reports every crash
        out = ("crash", f"{type(exc).__name__}: {exc}")
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print("\n@@RESULT@@" + json.dumps({"outcome": out[0], "message": out[1], "seconds": seconds, "peak": peak}))


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))


def _hwm(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for row in status:
                if row.startswith("VmHWM:"):
                    return int(row.split()[1]) * 1024
    except OSError:
        pass
    return 0


def parent(name: str) -> dict:
    cmd = [sys.executable, os.path.abspath(__file__), "--child", name]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_cap)
    try:
        stdout, stderr = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        peak = _hwm(proc.pid)
        proc.kill()
        proc.communicate()
        return {"outcome": "timeout", "message": f"killed at {TIMEOUT:.0f} s", "seconds": TIMEOUT, "peak": peak}
    wall = time.perf_counter() - start
    marker = stdout.rfind("@@RESULT@@")
    if marker < 0:
        tail = (stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        return {"outcome": "crash", "message": f"child died ({proc.returncode}): {tail}", "seconds": wall, "peak": 0}
    return json.loads(stdout[marker + len("@@RESULT@@") :])


def _short(text: str, n: int = 150) -> str:
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= n else text[: n - 1] + "…"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--child")
    parser.add_argument("--only", action="append")
    parser.add_argument("--owner", action="append")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    names = [n for n in ITEMS if (not args.only or n in args.only) and (not args.owner or ITEMS[n][0] in args.owner)]
    if args.list:
        for n in names:
            print(f"{n:34s} {ITEMS[n][0]:11s} {ITEMS[n][1]}")
        return
    print(f"load average before: {os.getloadavg()}", file=sys.stderr)
    print("| item | owner | reproduction | outcome | s | peak MB | message |")
    print("|---|---|---|---|---:|---:|---|")
    for n in names:
        owner, line, _ = ITEMS[n]
        r = parent(n)
        print(
            f"| {n} | {owner} | {_short(line, 90)} | {r['outcome']} | {r['seconds']:.1f} | "
            f"{r['peak'] / 1e6:.0f} | {_short(r['message'])} |",
            flush=True,
        )
    print(f"load average after: {os.getloadavg()}", file=sys.stderr)


if __name__ == "__main__":
    main()
