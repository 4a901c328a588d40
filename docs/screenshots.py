"""Screenshots of the views for the documentation: ``make screenshots`` (not part of ``make test``).

Each view is built by a short cell (synthetic data, seeded), executed and exported with
:func:`confusionlab.export.to_html` (the static export: the widgets draw offline, as on the site),
opened from disk in headless Chromium driven by Playwright, and photographed as an element; the
picture is reduced to a palette of 128 colours and optimised (Pillow) into
``docs/_static/views/<name>.png``, a few tens of KB each. Nothing is fetched from the network.

Usage::

    .venv/bin/python docs/screenshots.py                 # every view
    .venv/bin/python docs/screenshots.py explorer roc    # some of them

Chromium is ``$CONFUSIONLAB_CHROMIUM`` or ``/usr/bin/chromium``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "_static" / "views"
CHROMIUM = os.environ.get("CONFUSIONLAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
#: Colours kept in each PNG: the views' text, palettes and pale bands survive, the files stay small.
COLOURS = 128
#: Height of the window (the element photographed may be taller: Playwright scrolls it into view).
HEIGHT = 900

SCORES = """
import numpy as np
import confusionlab as cl
rng = np.random.default_rng(1)
y = rng.uniform(size=400) < 0.3
score = rng.normal(loc=1.2 * y)
"""


@dataclass(frozen=True)
class Shot:
    """One view: the cell that builds it, the element photographed, and the element that says it is drawn."""

    code: str
    selector: str
    ready: str
    #: Window width (CSS px): the default holds the Explorer's 990-px row; a view whose text spans the page gets less.
    width: int = 1280


SHOTS = {
    "explorer": Shot(
        "import confusionlab as cl\ncl.Explorer(N=60, p=20, tp=16, tn=32, metric='mcc')",
        ".confusionlab-explorer",
        '.confusionlab-simplex[data-points="39711"]',
    ),
    "metric_pmf": Shot(
        "from confusionlab.widgets.metric_pmf import MetricPMF\nMetricPMF(p=20, n=40, tp=16, tn=32, metric='mcc')",
        ".confusionlab-metric-pmf",
        ".confusionlab-metric-pmf[data-marks]",
    ),
    "roc": Shot(
        SCORES + "cl.RocView(cl.roc_curve(y, score), linked=False)",
        ".confusionlab-roc",
        ".confusionlab-roc[data-band]",
    ),
    "precision_recall": Shot(
        SCORES + "cl.PrecisionRecallView(cl.precision_recall_curve(y, score), linked=False)",
        ".confusionlab-roc",
        ".confusionlab-roc[data-band]",
    ),
    "paired": Shot(
        "from confusionlab.paired import compare_paired_cells\n"
        "from confusionlab.widgets.paired_view import PairedView\n"
        "r = compare_paired_cells([[50, 3, 1, 6], [2, 4, 1, 33]], 'accuracy')\n"
        "PairedView(r, margin=0.02, bins=20, name_a='logistic', name_b='tree')",
        ".confusionlab-paired",
        ".confusionlab-paired[data-bins]",
    ),
    "evaluation": Shot(
        SCORES + "g = rng.choice(['a', 'b'], size=400)\n"
        "ev = cl.evaluate(y.astype(int), (score > 0.6).astype(int), groups=g, metrics=['recall', 'precision'])\n"
        "cl.EvaluationView(ev, metric='recall')",
        ".confusionlab-evaluation",
        ".confusionlab-evaluation[data-generation]",
        width=960,
    ),
    "audit": Shot(
        "import numpy as np, pandas as pd\n"
        "from confusionlab.bias.auditing import audit\n"
        "from confusionlab.widgets.audit_view import AuditView\n"
        "rng = np.random.default_rng(5)\n"
        "n = 3000\n"
        "df = pd.DataFrame({'sex': rng.choice(['F', 'M'], n, p=[0.35, 0.65]), 'age': rng.choice(['<40', '40+'], n)})\n"
        "df['y'] = (rng.random(n) < np.where(df.sex == 'F', 0.25, 0.35)).astype(int)\n"
        "df['p'] = np.where(rng.random(n) < 0.85, df.y, 1 - df.y)\n"
        "a = audit(df, label='y', positive_values=[1], predicted='p', facets=['sex', 'age'],\n"
        "          metrics=['CI', 'DPL', 'DPPL', 'DI', 'RD', 'AD'], margin=0.1, n_draws=500)\n"
        "AuditView(a, selected=1)  # sex: F, DPL: insufficient evidence with plenty of data, and why",
        ".confusionlab-audit",
        ".confusionlab-audit[data-cells]",
        width=760,
    ),
    "calibration": Shot(
        "import numpy as np\nimport confusionlab as cl\nrng = np.random.default_rng(0)\n"
        "q = rng.uniform(size=1000)\n"
        "cl.CalibrationView(cl.calibration(rng.uniform(size=1000) < q ** 1.3, q, bins=10, random_state=0))",
        ".confusionlab-calibration",
        ".confusionlab-calibration[data-bins]",
    ),
    "planner": Shot(
        "from confusionlab.widgets.planner_view import PlannerView\n"
        "PlannerView(metric='recall', prevalence=0.3, tpr=0.8, tnr=0.8, half_width=0.1)",
        ".confusionlab-planner",
        ".confusionlab-planner[data-generation]",
    ),
    "decision": Shot(
        SCORES + "cl.DecisionView(cl.choose_threshold(y, score, cost=(1, 4)), linked=False)",
        ".confusionlab-decision",
        ".confusionlab-decision[data-generation]",
    ),
}


def export_page(name: str, shot: Shot, folder: Path) -> Path:
    """The static HTML page of a one-cell notebook that shows the view."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    from confusionlab.export import to_html

    folder.mkdir(parents=True, exist_ok=True)
    notebook = folder / f"{name}.ipynb"
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(new_notebook(cells=[new_code_cell(shot.code)], metadata={"kernelspec": kernelspec}), notebook)
    return to_html(notebook, folder / "html")


def optimise(raw: Path, target: Path) -> int:
    """``raw`` as a palette PNG of :data:`COLOURS` colours at ``target``; returns its size in bytes."""
    from PIL import Image

    with Image.open(raw) as image:
        small = image.convert("RGB").quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        target.parent.mkdir(parents=True, exist_ok=True)
        small.save(target, optimize=True)
    return target.stat().st_size


def offline(route: object) -> None:
    """Let the page read its own files only: a request to the network is refused."""
    local = route.request.url.startswith(("file:", "blob:", "data:"))
    route.continue_() if local else route.abort()


def take(names: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            for name in names:
                shot = SHOTS[name]
                page_path = export_page(name, shot, Path(tmp) / name)
                context = browser.new_context(viewport={"width": shot.width, "height": HEIGHT}, device_scale_factor=1)
                page = context.new_page()
                page.route("**/*", offline)
                page.goto(page_path.as_uri())
                page.wait_for_selector(shot.ready, timeout=60_000)
                raw = Path(tmp) / f"{name}.png"
                page.locator(shot.selector).first.screenshot(path=str(raw))
                context.close()
                size = optimise(raw, OUT / f"{name}.png")
                print(f"{name}: {OUT / f'{name}.png'} ({size / 1024:.0f} KB)")
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("views", nargs="*", help=f"views to photograph (default: all): {', '.join(SHOTS)}")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.views) - set(SHOTS))
    if unknown:
        parser.error(f"no view named {', '.join(unknown)}; choose among {', '.join(SHOTS)}")
    take(list(args.views) or list(SHOTS))


if __name__ == "__main__":
    sys.exit(main())
