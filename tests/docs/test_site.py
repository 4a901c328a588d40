"""The documentation site builds offline with no warning, its internal links resolve and its API
reference lists every public name (what ``make docs`` does, in a temporary folder).

This build reads the lessons' executed pages from an empty folder, so it does not depend on the
notebook tests having run: each lesson's page says how to make it. The site with those pages is
tested after the notebook tests, with the browser tests (tests/browser/test_docs_lessons.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import confusionlab as cl

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _check_links(site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(DOCS / "check_links.py"), str(site)], capture_output=True, text=True, check=False
    )


def test_the_site_builds_offline_without_warnings_and_its_links_resolve(tmp_path: Path) -> None:
    site, no_pages = tmp_path / "site", tmp_path / "no-lesson-pages"
    no_pages.mkdir()
    command = [sys.executable, "-m", "sphinx", "-E", "-b", "html", "-W", "--keep-going", "-q"]
    command += ["-D", f"confusionlab_lesson_pages={no_pages}", str(DOCS), str(site)]
    built = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, built.stderr
    assert built.stderr.strip() == "", built.stderr  # -q: anything printed is a warning
    checked = _check_links(site)
    assert checked.returncode == 0, checked.stderr
    assert re.search(r"\d+ pages, 0 broken internal links", checked.stdout)
    # the API reference: one page per public name, each linked from api.html
    api = (site / "api.html").read_text(encoding="utf-8")
    for name in cl.__all__:
        assert (site / "generated" / f"confusionlab.{name}.html").is_file(), name
        assert f'href="generated/confusionlab.{name}.html' in api, name
    # the peers' pages and the user guide are there
    for page in ("peers/scikit-learn", "peers/dcurves", "peers/fairlearn", "peers/smclarify", "peers/proc"):
        assert (site / f"{page}.html").is_file(), page
    assert (site / "peers" / "krippendorff.html").is_file()
    assert (site / "guide" / "questions.html").is_file()
    # nothing is loaded from elsewhere when a page is read
    for path in site.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"<(?:script|img|iframe)[^>]*\ssrc=\"(?:https?:)?//", text), path
        assert not re.search(r"<link[^>]*\shref=\"(?:https?:)?//", text), path
    # the lessons page lists every notebook and links its page, which says how to make the executed lesson
    lessons = (site / "lessons.html").read_text(encoding="utf-8")
    for notebook in (ROOT / "notebooks").glob("*.ipynb"):
        assert f"notebooks/{notebook.name}" in lessons, notebook.name
        assert f'href="lessons/{notebook.stem}.html"' in lessons, notebook.name
        page = (site / "lessons" / f"{notebook.stem}.html").read_text(encoding="utf-8")
        assert "executed page is not in this build" in page and "<iframe" not in page, notebook.name
    assert not (site / "lessons" / "executed").exists()


def test_the_link_check_finds_a_missing_page_and_a_missing_anchor(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(
        '<a href="a.html#here">ok</a><a href="b.html">no page</a><a href="a.html#gone">no anchor</a>'
        '<a href="https://example.org/">external</a><a href="#top">self</a><p id="top"></p>'
        '<iframe src="c.html"></iframe><a href="a.html#t%C3%A9">encoded id</a><a href="a.html#d%C3%A9">decoded id</a>',
        encoding="utf-8",
    )
    # nbconvert writes ids percent-encoded; a browser finds a fragment as written, then decoded
    (tmp_path / "a.html").write_text('<h1 id="here">A</h1><h2 id="t%C3%A9">T</h2><h2 id="dé">D</h2>', encoding="utf-8")
    checked = _check_links(tmp_path)
    assert checked.returncode == 1
    assert checked.stderr.count("broken link:") == 3
    assert "b.html" in checked.stderr and "'gone'" in checked.stderr and "c.html" in checked.stderr
    assert "1 external links" in checked.stdout
