"""Explorer latency and bytes per update, measured in JupyterLab + headless Chromium.

For N = 100, 1,000 and 10,000 (p = N/3, observed TPR = TNR = 0.8) this opens an
Explorer in a real JupyterLab page, then makes kernel-side changes through a
kernel client (as a notebook cell or a slider would) and measures, on one clock
(the machine's wall clock, read by Python before sending the change and by the
page when the DOM has been redrawn):

* latency: from sending ``x.set(...)`` to the moment the slice AND the PMF panel
  (and the simplex, when shown, N <= 150) carry the new state in their data
  attributes, i.e. after their synchronous redraw;
* kernel time: the Explorer's own computation (``x.last_seconds``);
* browser draw time: the slice's and the PMF panel's own redraw (``data-draw-ms``);
* bytes: widget-state bytes the kernel sent for the update (JSON + binary
  buffers, counted in the kernel) and websocket bytes the page received.

Two kinds of change alternate: moving the observed point (tp ± 1: PMFs, bubbles and
contours recomputed, lattice unchanged) and moving to the next slice (p ± 1: the
lattice too). Usage::

    .venv/bin/python benchmarks/bench_explorer_browser.py            # 15 changes of each kind
    .venv/bin/python benchmarks/bench_explorer_browser.py --repeat 31 --sizes 100 1000
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
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

SLICE = ".confusionlab-explorer .confusionlab-roc-slice"
PMF = ".confusionlab-explorer .confusionlab-metric-pmf"
SIMPLEX = ".confusionlab-explorer .confusionlab-simplex"

#: Counts the widget-state bytes the kernel sends (JSON + buffers) in ``__cl_bytes``.
KERNEL_SETUP = """
import json as _json
import ipywidgets as _w
__cl_bytes = [0]
_send = _w.Widget._send
def _counting_send(self, msg, buffers=None):
    __cl_bytes[0] += len(_json.dumps(msg, default=str)) + sum(len(memoryview(b).cast("B")) for b in (buffers or []))
    return _send(self, msg, buffers)
_w.Widget._send = _counting_send
"""

#: Installs a watcher resolving when every view shows generation `target`.
WATCH_JS = """
([target, observed, slices, slice, pmf, simplex]) => {
  window.__clDone = window.__clDone || {};
  const s = document.querySelector(slice), p = document.querySelector(pmf);
  const x = document.querySelector(simplex);
  const useSimplex = x && x.offsetParent !== null && observed !== null;
  const ok = () =>
    s.dataset.generation === target && p.dataset.generation === target &&
    (!useSimplex || (x.dataset.observed === observed && x.dataset.slices === slices));
  const done = () => { window.__clDone[target] = performance.timeOrigin + performance.now(); };
  if (ok()) { done(); return; }
  const obs = new MutationObserver(() => { if (ok()) { done(); obs.disconnect(); } });
  for (const node of [s, p, x].filter(Boolean)) obs.observe(node, { attributes: true });
}
"""


def measure(lab: LabSession, N: int, repeat: int, frames: list[int]) -> dict[str, list[float]]:
    p = N // 3
    n = N - p
    tp, tn = round(0.8 * p), round(0.8 * n)
    name = f"bench_{N}.ipynb"
    lab.open_notebook(
        name,
        [f"from confusionlab.widgets.explorer import Explorer\nx = Explorer(N={N}, p={p}, tp={tp}, tn={tn})\nx"],
        wait_for=f'{SLICE}[data-generation="1"]',
        timeout_ms=180_000,
    )
    page = lab.page
    page.wait_for_selector(f'{PMF}[data-generation="1"]', timeout=180_000)
    kernel = lab.kernel(name)
    kernel.execute(KERNEL_SETUP)
    out: dict[str, list[float]] = {k: [] for k in ("tp_ms", "p_ms", "tp_kernel", "p_kernel", "tp_bytes", "p_bytes",
                                                    "tp_ws", "p_ws", "tp_draw", "p_draw")}  # fmt: skip
    generation = kernel.evaluate("x.generation")
    for k in range(2 * repeat):
        kind = "tp" if k % 2 == 0 else "p"
        if kind == "tp":
            tp = tp - 1 if (k // 2) % 2 == 0 else tp + 1
        else:
            p = p + 1 if (k // 2) % 2 == 0 else p - 1
            n = N - p
        generation += 1
        observed = f"{tp},{p - tp},{n - tn},{tn}" if N <= 150 else None
        page.evaluate(WATCH_JS, [str(generation), observed, str(p), SLICE, PMF, SIMPLEX])
        kernel.execute("__cl_bytes[0] = 0")
        frames.clear()
        start = time.time() * 1000
        kernel.execute(f"x.set(p={p}, tp={tp}, tn={tn})")
        page.wait_for_function(f"window.__clDone && window.__clDone['{generation}'] !== undefined", timeout=120_000)
        end = page.evaluate(f"window.__clDone['{generation}']")
        out[f"{kind}_ms"].append(end - start)
        out[f"{kind}_kernel"].append(1000 * kernel.evaluate("x.last_seconds"))
        out[f"{kind}_bytes"].append(kernel.evaluate("__cl_bytes[0]"))
        out[f"{kind}_ws"].append(sum(frames))
        draw = page.evaluate(
            "([a, b]) => [a, b].map((s) => Number(document.querySelector(s).dataset.drawMs))", [SLICE, PMF]
        )
        out[f"{kind}_draw"].append(sum(draw))
        assert kernel.evaluate("x.generation") == generation
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10_000])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    import tempfile

    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    base = Path(tempfile.mkdtemp(prefix="bench_explorer_"))
    servers = ExitStack()
    server = servers.enter_context(running_server(base, "jupyterlab"))
    results = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=os.environ.get("CONFUSIONLAB_CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS
            )
            for N in args.sizes:
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                frames: list[int] = []
                page.on(
                    "websocket",
                    lambda ws, frames=frames: ws.on("framereceived", lambda payload: frames.append(len(payload))),
                )
                lab = LabSession(server=server, page=page)
                try:
                    results[N] = measure(lab, N, args.repeat, frames)
                finally:
                    lab.close()
                    context.close()
            browser.close()
    finally:
        servers.close()

    med = statistics.median
    about = f"{machine(load_before)}, {args.repeat} changes of each kind"
    print(f"# Explorer latency, kernel-side change → redrawn DOM ({about})")
    print()
    print("| N | change | latency median (ms) | min–max (ms) | kernel compute median (ms) "
          "| slice + PMF draw median (ms) | widget bytes / update | websocket bytes / update |")  # fmt: skip
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for N, r in results.items():
        for kind, label in (("tp", "observed point (tp ± 1)"), ("p", "slice (p ± 1)")):
            ms = r[f"{kind}_ms"]
            print(
                f"| {N:,} | {label} | {med(ms):.0f} | {min(ms):.0f}–{max(ms):.0f} | "
                f"{med(r[f'{kind}_kernel']):.0f} | {med(r[f'{kind}_draw']):.0f} | "
                f"{med(r[f'{kind}_bytes']):,.0f} | {med(r[f'{kind}_ws']):,.0f} |"
            )


if __name__ == "__main__":
    main()
