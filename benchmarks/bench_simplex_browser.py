"""Benchmark the ConfusionSimplex widget in a real browser (issue 3, SPEC A6 / D).

Run from the repository root (needs the built bundle and /usr/bin/chromium)::

    .venv/bin/python benchmarks/bench_simplex_browser.py              # N = 100 and 150
    .venv/bin/python benchmarks/bench_simplex_browser.py --no-write   # print only

Measures, in JupyterLab driven by headless Chromium (software WebGL on this machine):

* frames per second while the simplex rotates: for ``--seconds`` the page dispatches one
  pointer drag step per ``requestAnimationFrame`` on the canvas and counts the frames the
  widget rendered (``data-frames``). Two figures: paced by the browser's frames, and
  synchronised (``gl.readPixels`` of one pixel after each frame, which waits until the GPU
  process has really drawn it);
* bytes sent per update, counted on the messages the widget sends (buffers + JSON): the
  points are generated in the browser from (N, stride), so a change sends one uint16 code
  per point and the table of the metric's distinct values (float64);
* latency from a kernel-side change to the updated DOM (kernel compute + message + draw).

JupyterLab is started with the browser-test harness of ``tests/browser/conftest.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT_DIR / "tests" / "browser"))

from conftest import (  # noqa: E402  (the harness lives with the browser tests)
    CHROMIUM_ARGS,
    LabSession,
    running_server,
)

RESULTS = Path(__file__).parent / "out" / "RESULTS_simplex.md"  # git-ignored; benchmarks/RESULTS.md is curated
SELECTOR = ".confusionlab-simplex"

#: Rotates the simplex for `seconds` with one drag step per animation frame and counts
#: the frames the widget rendered. With `sync`, reads one pixel back after each frame.
ROTATE_JS = """
async ([selector, seconds, sync, full]) => {
  const root = document.querySelector(selector);
  if (full) root.dataset.detail = "full";
  else delete root.dataset.detail;
  let pointSum = 0;
  let samples = 0;
  const canvas = root.querySelector("canvas");
  const gl = sync ? canvas.getContext("webgl") : null;
  const box = canvas.getBoundingClientRect();
  let x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  const fire = (type) =>
    canvas.dispatchEvent(new PointerEvent(type, { clientX: x, clientY: y, button: 0, pointerId: 1, bubbles: true }));
  const pixel = new Uint8Array(4);
  const frames0 = Number(root.dataset.frames);
  fire("pointerdown");
  const t0 = performance.now();
  let steps = 0;
  await new Promise((resolve) => {
    const step = () => {
      if (gl) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
      if (steps > 0) {
        pointSum += Number(root.dataset.points);
        samples += 1;
      }
      if (performance.now() - t0 >= seconds * 1000) return resolve();
      x += 4;
      steps += 1;
      fire("pointermove");
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
  const elapsed = (performance.now() - t0) / 1000;
  fire("pointerup");
  const frames = Number(root.dataset.frames) - frames0;
  delete root.dataset.detail;
  return { frames, steps, elapsed, fps: frames / elapsed, points: samples ? pointSum / samples : 0 };
}
"""


def message_bytes(change: str, setup: str) -> dict[str, int]:
    """Bytes of the messages the widget sends for ``change`` (run in this process)."""
    namespace: dict[str, Any] = {}
    exec("from confusionlab.widgets.confusion_simplex import ConfusionSimplex\n" + setup, namespace)
    widget = namespace["w"]
    sent: list[tuple[int, int]] = []

    class Comm:
        kernel = True
        comm_id = "bench"

        def on_msg(self, callback: Any) -> None:
            pass

        def send(self, data: dict[str, Any], buffers: Any = None, **_: Any) -> None:
            sent.append((len(json.dumps(data)), sum(len(b) for b in buffers or [])))

        def close(self, *args: Any, **kwargs: Any) -> None:
            pass

    widget.comm = Comm()
    exec(change, namespace)
    return {
        "messages": len(sent),
        "json": sum(j for j, _ in sent),
        "buffers": sum(b for _, b in sent),
    }


def measure_view(lab: Any, page: Any, drawing: str, args: argparse.Namespace, results: dict[str, Any]) -> None:
    """fps and kernel→DOM latency of one view, its lattice drawn the widget's way or as GL points."""
    name = f"bench_simplex_{drawing}.ipynb"
    lab.open_notebook(
        name,
        [
            "from confusionlab.widgets.confusion_simplex import ConfusionSimplex\n"
            "w = ConfusionSimplex(N=100, metric='mcc', observed=[25, 5, 10, 60])\nw"
        ],
        wait_for=f'{SELECTOR}[data-points="176851"]',
    )
    lattice = page.evaluate("(s) => document.querySelector(s).dataset.drawing", SELECTOR)
    tag = "" if drawing == "default" else f" [baseline: lattice as GL {lattice}]"
    if drawing == "default":
        renderer = page.evaluate("(s) => document.querySelector(s).dataset.renderer", SELECTOR)
        gl_name = page.evaluate(
            """() => { const gl = document.createElement('canvas').getContext('webgl');
               const ext = gl && gl.getExtension('WEBGL_debug_renderer_info');
               if (!gl) return 'none';
               return gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER); }"""
        )
        results["renderer"] = f"{renderer} ({gl_name}), lattice drawn as `{lattice}`"
    kernel = lab.kernel(name)
    print("kernel imports", kernel.evaluate("__import__('confusionlab').__file__"), flush=True)
    if args.latency_only:
        latency(kernel, page, tag, args, results)
        return
    sizes = [(100, [25, 5, 10, 60], 176_851)]
    if drawing == "default":
        sizes.append((150, [40, 8, 15, 87], 585_276))
    for N, observed, points in sizes:
        kernel.execute(f"w.update(N={N}, observed={observed})")
        page.wait_for_selector(f'{SELECTOR}[data-n="{N}"][data-points="{points}"]', timeout=60_000)
        page.evaluate(ROTATE_JS, [SELECTOR, 0.5, False, False])  # warm-up
        for full in (False, True):
            for sync in (False, True):
                runs = [page.evaluate(ROTATE_JS, [SELECTOR, args.seconds, sync, full]) for _ in range(args.repeat)]
                fps = statistics.median(r["fps"] for r in runs)
                drawn = statistics.median(r["points"] for r in runs)
                mode = ("every point" if full else "adaptive detail") + (", synchronised" if sync else "") + tag
                results["fps"].append((N, points, mode, fps, drawn, runs))
                print(f"N={N} {mode}: {fps:.1f} fps, {drawn:,.0f} points/frame  {runs}", flush=True)
    # Kernel change → DOM (compute in the kernel + message + decode + colours + frame).
    latency(kernel, page, tag, args, results)


#: Installed before the page loads: the page's own clock at the first redrawn frame that shows a
#: change (a MutationObserver on ``data-frames``, which the view sets as it draws; the callback runs
#: right after that frame's code), and at the arrival of each websocket message. The latency is read
#: on the page's clock from just before the change is sent, not from Playwright's polling of the DOM,
#: whose detection added 30–40 ms on a 2-core machine (issue 24).
FRAME_CLOCK_JS = """
(() => {
  window.__benchMessages = [];
  window.__benchFrame = null;
  const Native = window.WebSocket;
  function Counted(...args) {
    const ws = new Native(...args);
    ws.addEventListener("message", (e) => {
      const n = e.data.byteLength ?? e.data.size ?? e.data.length ?? 0;
      window.__benchMessages.push([performance.now(), n]);
    });
    return ws;
  }
  Counted.prototype = Native.prototype;
  Object.assign(Counted, Native);
  window.WebSocket = Counted;
  new MutationObserver(() => {
    const want = window.__benchWant;
    if (!want || window.__benchFrame !== null) return;
    const e = document.querySelector(want.selector);
    if (e && Number(e.dataset.frames) > want.before) window.__benchFrame = performance.now();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-frames"] });
})();
"""

#: Metrics never shown at N = 100 before the "first visit" runs (each is computed anew).
FIRST_METRICS = (
    "accuracy",
    "balanced_accuracy",
    "informedness",
    "markedness",
    "jaccard",
    "precision",
    "npv",
    "recall",
    "tnr",
    "cohen_kappa",
    "g_mean",
    "fowlkes_mallows",
)


def latency(kernel: Any, page: Any, tag: str, args: argparse.Namespace, results: dict[str, Any]) -> None:
    """Kernel change → redrawn DOM, with its parts (issue 24).

    Per change: the time on the page's clock (:data:`FRAME_CLOCK_JS`) from just before the code
    is sent to the frame that shows it, and the largest websocket message's arrival on the same
    clock (the kernel's send, the server, the socket); the time at which Playwright's polling of the
    DOM saw that frame, reported apart (its detection is not the widget's latency); the
    kernel's own time for the assignment (compute + serialisation + send: ``py``, wall, and its
    process CPU time, which load distorts less: ``cpu``); the
    browser's ``data-sync-ms`` (decode, colours, GPU buffers) and ``data-frame-ms`` (the
    frame's drawing). The rest is the round trip (execute request/reply, websocket,
    JupyterLab's message handling), measured alone by the slice change, which sends no
    buffer. *toggle* rows alternate two values (the issue's measurement, served from the
    widget's caches after the first two); *first visit* rows show each value once. For a new
    lattice the kernel first announces (N, stride) and the view enumerates and splats it while
    the kernel computes the codes, so the frame only recolours: that work is in the wall time,
    not in the sync and frame columns.
    """
    n = args.repeat * 2
    cases = [
        (
            "metric change at N = 100 (toggle f1 ↔ mcc)",
            [f"w.metric = '{['f1', 'mcc'][i % 2]}'" for i in range(n)],
            ['[data-metric="{}"]'.format(["f1", "mcc"][i % 2]) for i in range(n)],
        ),
        (
            "N 100 ↔ 101 (toggle)",
            [f"w.update(N={100 + (i + 1) % 2}, observed=[25, 5, 10, {60 + (i + 1) % 2}])" for i in range(n)],
            [f'[data-n="{100 + (i + 1) % 2}"]' for i in range(n)],
        ),
        (
            "metric change at N = 100, first visit",
            [f"w.metric = '{m}'" for m in FIRST_METRICS[:n]],
            [f'[data-metric="{m}"]' for m in FIRST_METRICS[:n]],
        ),
        (
            "N change, first visit (N = 102, 103, …)",
            [f"w.update(N={102 + i}, observed=[25, 5, 10, {62 + i}])" for i in range(n)],
            [f'[data-n="{102 + i}"]' for i in range(n)],
        ),
        (
            "slices [] ↔ [30] (no buffer: the round trip and one frame)",
            [f"w.slices = {[[30], []][i % 2]}" for i in range(n)],
            [f'[data-slices="{["30", ""][i % 2]}"]' for i in range(n)],
        ),
    ]
    for label, codes, selectors in cases:
        kernel.execute(
            "w.update(N=100, observed=[25, 5, 10, 60], metric='mcc', slices=[])\n"
            "import time as _bench_time\n_bench_py = []\n_bench_cpu = []"
        )
        page.wait_for_selector(f'{SELECTOR}[data-n="100"][data-metric="mcc"]', timeout=60_000)
        times, polled, arrivals, syncs, draws = [], [], [], [], []
        for code, selector in zip(codes, selectors, strict=True):
            timed = (
                f"_bench_t0, _bench_c0 = _bench_time.perf_counter(), _bench_time.process_time()\n{code}\n"
                "_bench_py.append(_bench_time.perf_counter() - _bench_t0)\n"
                "_bench_cpu.append(_bench_time.process_time() - _bench_c0)"
            )
            sent = page.evaluate(  # the frame counter now, and the change's selector, for FRAME_CLOCK_JS
                "([s, extra]) => { const before = Number(document.querySelector(s).dataset.frames);"
                " window.__benchWant = { selector: s + extra, before }; window.__benchFrame = null;"
                " window.__benchMessages = []; return performance.now(); }",
                [SELECTOR, selector],
            )
            t0 = time.perf_counter()
            kernel.execute(timed)
            page.wait_for_function("() => window.__benchFrame !== null", timeout=60_000)
            polled.append(time.perf_counter() - t0)
            frame_at, messages, d = page.evaluate(
                "(s) => [window.__benchFrame, window.__benchMessages, {...document.querySelector(s).dataset}]",
                SELECTOR,
            )
            times.append((frame_at - sent) / 1000)
            arrivals.append((max(messages, key=lambda m: m[1])[0] - sent) if messages else float("nan"))
            syncs.append(float(d.get("syncMs", "nan")))
            draws.append(float(d.get("frameMs", "nan")))
        py = kernel.evaluate("_bench_py")
        cpu = kernel.evaluate("_bench_cpu")
        parts = {
            "py": statistics.median(py) * 1000,
            "cpu": statistics.median(cpu) * 1000,
            "load": os.getloadavg()[0],
            "sync": statistics.median(syncs),
            "frame": statistics.median(draws),
            "arrival": statistics.median(arrivals),
            "polled": statistics.median(polled) * 1000,
        }
        results["latency"].append((label + tag, statistics.median(times), times, parts))
        print(
            f"{label}{tag}: median {1000 * statistics.median(times):.0f} ms (kernel {parts['py']:.1f} ms, "
            f"kernel CPU {parts['cpu']:.1f} ms, "
            f"largest message in {parts['arrival']:.1f} ms, browser sync {parts['sync']:.1f} ms, "
            f"frame {parts['frame']:.1f} ms; Playwright's polling saw it at {parts['polled']:.0f} ms)  "
            f"{[round(1000 * t) for t in times]}  load {parts['load']:.2f}",
            flush=True,
        )


def measure(args: argparse.Namespace) -> dict[str, Any]:
    import tempfile

    from playwright.sync_api import sync_playwright

    results: dict[str, Any] = {"fps": [], "bytes": [], "latency": []}
    setup = "w = ConfusionSimplex(N=100, metric='mcc', slices=[30], observed=[25, 5, 10, 60])"
    for label, change in [
        ("N 100 → 101 (codes + MCC value table)", "w.update(N=101, observed=[25, 5, 10, 61])"),
        ("metric mcc → f1 (codes + F1 value table)", "w.metric = 'f1'"),
        ("metric mcc → accuracy (codes + accuracy value table)", "w.metric = 'accuracy'"),
        ("slices [30] → [30, 50] (no buffer)", "w.slices = [30, 50]"),
        ("cloud → beta-binomial", "w.cloud = 'beta-binomial'"),
        ("cloud → dirichlet-multinomial", "w.cloud = 'dirichlet-multinomial'"),
    ]:
        results["bytes"].append((label, message_bytes(change, setup)))
        print(label, results["bytes"][-1][1], flush=True)

    base = Path(tempfile.mkdtemp(prefix="bench_simplex_"))
    servers = ExitStack()
    server = servers.enter_context(running_server(base, "jupyterlab"))
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS, headless=True)
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            context.add_init_script(FRAME_CLOCK_JS)
            page = context.new_page()
            page.console_lines = []
            lab = LabSession(server=server, page=page)
            try:
                # The widget's own drawing first; then, as a same-run baseline, the lattice as
                # GL points (the drawing before issue 15; what a GPU gets), chosen before the view starts.
                for drawing in ["default", *(["points"] if args.baseline else [])]:
                    if drawing == "points":
                        context.add_init_script("window.confusionlabSimplexDrawing = 'points';")
                    measure_view(lab, page, drawing, args, results)
            finally:
                lab.close()
                browser.close()
    finally:
        servers.close()
    return results


def write(results: dict[str, Any], command: str) -> None:
    lines = [
        "## ConfusionSimplex in the browser (issues 3 and 15)",
        "",
        f"Renderer: {results.get('renderer', '?')}, headless Chromium (`/usr/bin/chromium`, flags of SPEC D),",
        "JupyterLab, 520 × 520 CSS px canvas, 2-core machine shared with other jobs.",
        "",
        "### Frames per second while rotating (goal ≥ 30 at N = 100)",
        "",
        "| N | points | drawing while rotating | fps (median) | points per frame (median) | runs: frames / s |",
        "|---:|---:|---|---:|---:|---|",
    ]
    for N, points, mode, fps, drawn, runs in results["fps"]:
        detail = ", ".join(f"{r['frames']}/{r['elapsed']:.2f}" for r in runs)
        lines.append(f"| {N} | {points:,} | {mode} | {fps:.1f} | {drawn:,.0f} | {detail} |")
    lines += [
        "",
        "One drag step per `requestAnimationFrame` on the canvas; frames counted by `data-frames`.",
        "*adaptive detail*: the widget's default. After a frame slower than 34 ms it draws a",
        "prefix of the points (surface + coarse interior, surface, coarse surface) until the",
        "view has been still for 250 ms, then every point. *every point*: levels off",
        '(`data-detail="full"`). *synchronised*: plus a one-pixel `gl.readPixels` after every',
        "frame, so a frame counts only once the GPU process has drawn it. The page's",
        "`requestAnimationFrame` runs at 60 Hz: a frame that takes longer than 16.7 ms is shown",
        "every other vsync, so about 30 fps is the cadence just below 60. WebGL here is",
        "software (SwiftShader), so the widget splats the lattice on the CPU into one texture",
        '(`data-drawing="splat"`; GL points with a GPU): SwiftShader spends ~0.4 µs per point primitive.',
        "",
        "### Bytes sent per update (N = 100, 176,851 points; no positions: the browser generates them)",
        "",
        "| update | messages | binary buffers (bytes) | JSON (bytes) |",
        "|---|---:|---:|---:|",
    ]
    for label, b in results["bytes"]:
        lines.append(f"| {label} | {b['messages']} | {b['buffers']:,} | {b['json']:,} |")
    lines += [
        "",
        "### Kernel-side change → redrawn DOM (median)",
        "",
        "| change | median (ms) | kernel (ms) | kernel CPU (ms) | largest message in (ms) | browser sync (ms) "
        "| frame (ms) | seen by polling (ms) | runs (ms) | load |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for label, median, times, parts in results["latency"]:
        lines.append(
            f"| {label} | {1000 * median:.0f} | {parts['py']:.1f} | {parts['cpu']:.1f} | {parts['arrival']:.1f} | "
            f"{parts['sync']:.1f} | {parts['frame']:.1f} | {parts['polled']:.0f} | "
            f"{', '.join(f'{1000 * t:.0f}' for t in times)} | {parts['load']:.2f} |"
        )
    load = " / ".join(f"{v:.2f}" for v in os.getloadavg())
    lines += ["", f"Command: `{command}` (Python {platform.python_version()}); load average at the end {load}."]
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("\n".join(lines) + "\n")
    print(f"wrote {RESULTS}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="rotation time per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement")
    parser.add_argument("--chromium", default=os.environ.get("CONFUSIONLAB_CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--latency-only", action="store_true", help="only kernel change → DOM (no fps)")
    parser.add_argument(
        "--no-baseline", dest="baseline", action="store_false", help="skip the same-run baseline (GL points)"
    )
    args = parser.parse_args()
    results = measure(args)
    if not args.no_write:
        write(results, " ".join(["python benchmarks/bench_simplex_browser.py", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
