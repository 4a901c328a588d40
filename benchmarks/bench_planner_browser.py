"""PlannerView redraw latency after a slider change, measured in JupyterLab + headless Chromium.

For plans of about N = 1,000, 3,000 and 10,000 (MCC, TPR 0.8, TNR 0.9 at the prevalence
that puts the plan there) this opens a PlannerView in a real JupyterLab page, then makes
kernel-side changes through a kernel client (as a slider's ``change`` would: one trait
set, the kernel re-plans, the view redraws) and measures, on one clock (the machine's
wall clock, read by Python before sending the change and by the page when the DOM
carries the new ``data-generation``):

* latency: from sending ``view.<trait> = …`` to the redrawn view;
* kernel time: the view's own re-plan (``view.last_seconds``).

Three kinds of change, 15 of each (``--repeat``), in three blocks (in this order):

* target, new value: ``half_width`` walks up by 0.0002 per change, every value new, so
  the re-plan must evaluate new sizes (the hard case);
* target, slider back and forth: ``half_width`` alternates between two slider positions
  (step 0.005): the view keeps the exact half-widths it evaluated (by counts), so a
  return needs no new distribution;
* prevalence, new value: walks up by 0.0005 per change (new counts, new distributions).

Goal: ≤ 100 ms for plans up to N = 10,000. Usage::

    .venv/bin/python benchmarks/bench_planner_browser.py            # 15 changes of each kind
    .venv/bin/python benchmarks/bench_planner_browser.py --repeat 31
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "browser"))

from _machine import machine  # noqa: E402
from conftest import (  # noqa: E402  (the browser-test harness, reused)
    CHROMIUM_ARGS,
    LabSession,
    running_server,
)

ROOT = ".confusionlab-planner"
#: (label, prevalence, target): MCC plans near N = 1,000, 3,000 and 10,000 at TPR 0.8, TNR 0.9.
CASES = [("~1,000", 0.3, 0.069), ("~3,000", 0.2, 0.045), ("~10,000", 0.1, 0.0295)]

#: Installs a watcher resolving when the view shows generation `target`.
WATCH_JS = """
([target, root]) => {
  window.__clDone = window.__clDone || {};
  const r = document.querySelector(root);
  const ok = () => r.dataset.generation === target;
  const done = () => { window.__clDone[target] = performance.timeOrigin + performance.now(); };
  if (ok()) { done(); return; }
  const obs = new MutationObserver(() => { if (ok()) { done(); obs.disconnect(); } });
  obs.observe(r, { attributes: true });
}
"""


def measure(lab: LabSession, prevalence: float, target: float, repeat: int) -> dict[str, list[float]]:
    name = f"bench_planner_{prevalence}.ipynb"
    lab.open_notebook(
        name,
        [
            "from confusionlab.widgets.planner_view import PlannerView\n"
            f"view = PlannerView(metric='mcc', prevalence={prevalence}, tpr=0.8, tnr=0.9, half_width={target},\n"
            "                   target='next_test_set')\n"
            "view"
        ],
        wait_for=f"{ROOT}[data-n]:not([data-n=''])",
        timeout_ms=180_000,
    )
    page = lab.page
    kernel = lab.kernel(name)
    kinds = ("walk", "toggle", "prev")
    out: dict[str, list[float]] = {f"{k}_{x}": [] for k in kinds for x in ("ms", "kernel", "N")}
    walk, prev = target, prevalence
    for k in range(3 * repeat):
        kind = ("toggle", "walk", "prev")[k // repeat]
        if kind == "walk":
            walk = round(walk + 0.0002, 6)
            code = f"view.half_width = {walk}"
        elif kind == "toggle":
            code = f"view.half_width = {round(target + 0.005 * (k % 2 == 0), 6)}"
        else:
            prev = round(prev + 0.0005, 6)
            code = f"view.prevalence = {prev}"
        if k in (repeat, 2 * repeat):  # each block starts from the first plan (untimed)
            kernel.execute(f"view.half_width = {target}")
            page.wait_for_selector(f"{ROOT}[data-generation='{kernel.evaluate('view.generation')}']")
        generation = kernel.evaluate("view.generation") + 1
        page.evaluate(WATCH_JS, [str(generation), ROOT])
        start = time.time() * 1000
        kernel.execute(code)
        page.wait_for_function(f"window.__clDone && window.__clDone['{generation}'] !== undefined", timeout=120_000)
        end = page.evaluate(f"window.__clDone['{generation}']")
        out[f"{kind}_ms"].append(end - start)
        out[f"{kind}_kernel"].append(1000 * kernel.evaluate("view.last_seconds"))
        out[f"{kind}_N"].append(kernel.evaluate("view.plan()['N']"))
        assert kernel.evaluate("view.generation") == generation
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    base = Path(tempfile.mkdtemp(prefix="bench_planner_"))
    servers = ExitStack()
    server = servers.enter_context(running_server(base, "jupyterlab"))
    results = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=os.environ.get("CONFUSIONLAB_CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS
            )
            for label, prevalence, target in CASES:
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                lab = LabSession(server=server, page=context.new_page())
                try:
                    results[label] = measure(lab, prevalence, target, args.repeat)
                finally:
                    lab.close()
                    context.close()
            browser.close()
    finally:
        servers.close()

    med = statistics.median
    about = f"{machine(load_before)}, {args.repeat} changes of each kind"
    print(f"# PlannerView latency, kernel-side change → redrawn view ({about})")
    print()
    print("| plan | N planned | change | latency median (ms) | min–max (ms) | kernel re-plan median (ms) |")
    print("|---|---:|---|---:|---:|---:|")
    what = {"walk": "target, new value (+0.0002)", "toggle": "target, slider back and forth (±0.005)",
            "prev": "prevalence, new value (+0.0005)"}  # fmt: skip
    for label, r in results.items():
        for kind in ("walk", "toggle", "prev"):
            ms, ns = r[f"{kind}_ms"], r[f"{kind}_N"]
            print(
                f"| {label} | {min(ns):,}–{max(ns):,} | {what[kind]} | {med(ms):.0f} | {min(ms):.0f}–{max(ms):.0f} "
                f"| {med(r[f'{kind}_kernel']):.0f} |"
            )
    worst = max(med(r[f"{kind}_ms"]) for r in results.values() for kind in ("walk", "toggle", "prev"))
    print(f"\nworst median {worst:.0f} ms (goal <= 100 ms)")


if __name__ == "__main__":
    main()
