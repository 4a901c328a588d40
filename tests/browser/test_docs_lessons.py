"""The documentation site with the lessons' executed pages: every lesson of notebooks/ has its page,
linked from the lessons page and the site's navigation, and one lesson draws its widgets in Chromium
from disk with no console error and no request outside the site's folder.

The pages are the ones the notebook tests just wrote (tests/notebooks/test_notebooks.py executes each
lesson once, through the static export, into build/html/); this module runs with the browser tests,
after the others (`make pytest` runs them in a second pytest, tests/browser/conftest.py orders them
last), so the lessons are never executed here. A missing or out-of-date page FAILS the test.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # a Sphinx build of the whole site (≈ 20 s)

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: The lesson drawn in Chromium: the first numbered one (the tour), whatever the numbering.
FIRST = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))[0]
NO_PAGE = "executed page is not in this build"
HOW = "run the notebook tests first (`make test`, or `make html`): they write the lessons' pages to build/html/"

#: Drawn (non-transparent) pixels of each 2-D canvas of the exported views, in the lesson's frame.
PIXELS_JS = """
() => [...document.querySelectorAll('[class*="confusionlab-"] canvas')].map((c) => {
  const ctx = c.getContext('2d');
  if (!ctx) return null;  // a WebGL canvas (the simplex): its context is not 2-D
  const data = ctx.getImageData(0, 0, c.width, c.height).data;
  let drawn = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn += 1;
  return drawn;
}).filter((n) => n !== null)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as ``make docs`` builds it, reading the lessons' pages from build/html/."""
    out = tmp_path_factory.mktemp("site") / "site"
    command = [sys.executable, "-m", "sphinx", "-E", "-b", "html", "-W", "--keep-going", "-q", str(DOCS), str(out)]
    built = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, built.stderr
    assert built.stderr.strip() == "", built.stderr  # -q: anything printed is a warning
    return out


def test_every_lesson_has_its_executed_page_linked_from_the_lessons_page_and_the_navigation(site: Path) -> None:
    assert len(LESSONS) >= 12, [p.name for p in LESSONS]
    missing = [p.name for p in LESSONS if NO_PAGE in (site / "lessons" / f"{p.stem}.html").read_text(encoding="utf-8")]
    assert missing == [], f"no executed page (or one older than its notebook) for {missing}: {HOW}"
    lessons = (site / "lessons.html").read_text(encoding="utf-8")
    nav = lessons[lessons.index('class="bd-docs-nav') :]
    nav = nav[: nav.index("</nav>")]
    table = lessons[lessons.index("<article") : lessons.index("</article>")]
    for notebook in LESSONS:
        page = (site / "lessons" / f"{notebook.stem}.html").read_text(encoding="utf-8")
        exported = site / "lessons" / "executed" / f"{notebook.stem}.html"
        assert exported.is_file(), exported
        assert f'<iframe class="confusionlab-lesson" src="executed/{notebook.stem}.html"' in page, notebook.name
        assert f'href="lessons/{notebook.stem}.html"' in table, notebook.name
        assert f'href="lessons/{notebook.stem}.html"' in nav, notebook.name
    checked = subprocess.run(
        [sys.executable, str(DOCS / "check_links.py"), str(site)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stderr
    for path in (site / "lessons").rglob("*.html"):  # nothing loaded from elsewhere when a lesson is read
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"<(?:script|img|iframe)[^>]*\ssrc=\"(?:https?:)?//", text), path
        assert not re.search(r"<link[^>]*\shref=\"(?:https?:)?//", text), path


def test_a_lesson_page_draws_its_widgets_offline_with_no_console_error(site: Path, browser: Any) -> None:
    page_path = site / "lessons" / f"{FIRST.stem}.html"
    exported = site / "lessons" / "executed" / f"{FIRST.stem}.html"
    assert exported.is_file(), f"{exported.name} is not in the site: {HOW}"
    views = exported.read_text(encoding="utf-8").count('<script type="application/vnd.jupyter.widget-view+json">')
    assert views >= 1, f"{FIRST.name} shows no widget"
    inside = site.resolve().as_uri() + "/"
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    requested: list[str] = []
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("request", lambda request: requested.append(request.url))
        page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
        page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))

        def only_local(route: Any) -> None:
            if route.request.url.startswith((inside, "blob:", "data:")):
                route.continue_()
            else:
                route.abort()

        page.route("**/*", only_local)
        page.goto(page_path.as_uri())
        lesson = page.frame_locator("iframe.confusionlab-lesson")
        lesson.locator(f'body[data-confusionlab-views="{views}"]').wait_for(state="attached", timeout=60_000)
        assert lesson.locator(".confusionlab-static-error").count() == 0
        frame = next(f for f in page.frames if f.url.endswith(f"/executed/{FIRST.stem}.html"))
        pixels = frame.evaluate(PIXELS_JS)
        print(f"{FIRST.name}: {views} views, drawn pixels per 2-D canvas: {pixels}")
        assert pixels and all(drawn > 500 for drawn in pixels), f"a view's canvas is (nearly) empty: {pixels}"
        assert lesson.locator("h1").first.inner_text().startswith(FIRST.name[:2])
    finally:
        context.close()
    outside = [url for url in requested if not url.startswith((inside, "blob:", "data:"))]
    assert outside == [], f"the lesson page requested {outside}"
    assert any(url.endswith(f"/executed/{FIRST.stem}.html") for url in requested), requested
    assert errors == [], errors
