"""Sphinx configuration of the documentation site (``make docs`` builds it into build/docs).

The site is built offline and fetches nothing when it is read: no intersphinx, no CDN, and no
notebook is executed here. The lessons' executed pages are the static export's (the notebook tests
and ``make html`` write them to build/html, widgets drawing offline from their saved state): each
lesson gets a page ``lessons/<notebook>`` that shows its exported page, copied into the site; a
lesson with no page there, or one older than its notebook, gets a page saying how to make it.
The API reference lists every name of ``confusionlab.__all__``: this file writes
``api.rst`` from it before autosummary reads the sources, so a new public name appears
without editing the site.
"""

from __future__ import annotations

import html
import inspect
import shutil
from pathlib import Path

import confusionlab
from confusionlab.export import GLOSSARY, RENDERER

HERE = Path(__file__).resolve().parent

project = "ConfusionLab"
author = "ConfusionLab developers"
copyright = "ConfusionLab developers"
release = version = confusionlab.__version__

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
# The repository's other documents in docs/ are read on GitHub or in a clone, not on the site.
exclude_patterns = ["ARCHITECTURE.md", "_build"]
templates_path = ["_templates"]

autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"  # numpydoc's Parameters sections carry the types
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False
myst_heading_anchors = 3

html_theme = "pydata_sphinx_theme"
html_title = f"ConfusionLab {release}"
html_static_path: list[str] = []
html_theme_options = {
    # Nothing loaded from elsewhere when a page is read: no icon links, no version switcher, no analytics.
    "icon_links": [],
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
# The light/dark switch starts from the reader's system setting (without it the theme logs an error in
# the browser's console on a first visit, when no choice is stored yet).
html_context = {"default_mode": "auto"}
html_show_sourcelink = False


def _kind(value: object) -> str:
    from confusionlab._result import Result

    if inspect.isclass(value):
        if issubclass(value, BaseException):
            return "Errors"
        if issubclass(value, Result):
            return "Results"
        if any(base.__name__ == "DOMWidget" for base in inspect.getmro(value)):
            return "Views (widgets)"
        return "Other classes"
    if callable(value):
        return "Functions"
    return "Constants"


def _write_api_page() -> None:
    """api.rst: one autosummary table per kind of public name, every name of ``__all__`` once."""
    groups: dict[str, list[str]] = {}
    for name in sorted(confusionlab.__all__, key=str.lower):
        groups.setdefault(_kind(getattr(confusionlab, name)), []).append(name)
    order = ["Functions", "Results", "Views (widgets)", "Other classes", "Errors", "Constants"]
    lines = [
        ".. This page is written by conf.py from confusionlab.__all__; edit conf.py, not this file.",
        "",
        "API reference",
        "=============",
        "",
        "Every public name of ``confusionlab`` (``import confusionlab as cl``), from its docstring.",
        "",
        ".. currentmodule:: confusionlab",
        "",
    ]
    for kind in order:
        if kind not in groups:
            continue
        lines += [kind, "-" * len(kind), "", ".. autosummary::", "   :toctree: generated", ""]
        lines += [f"   {name}" for name in groups[kind]]
        lines.append("")
    text = "\n".join(lines)
    page = HERE / "api.rst"
    if not page.is_file() or page.read_text(encoding="utf-8") != text:
        page.write_text(text, encoding="utf-8")


_write_api_page()


#: Where the lessons' executed pages are read from (``-D confusionlab_lesson_pages=DIR`` overrides).
LESSON_PAGES = HERE.parent / "build" / "html"
#: The lessons' pages in the site (written here from notebooks/, git-ignored) and, below them, the exported pages.
LESSONS_DIR = HERE / "lessons"
EXPORTED = "executed"
_NO_PAGE = "This lesson's executed page is not in this build"
#: The exported pages this build shows, chosen once (when the lessons' pages are written) and copied at the end.
_SHOWN: list[Path] = []


def _lessons() -> list[tuple[Path, str]]:
    """Every notebook of notebooks/ with the title of its first heading, in file order."""
    import json

    found = []
    for path in sorted((HERE.parent / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        title = next("".join(c["source"]).strip().splitlines()[0] for c in cells if c["cell_type"] == "markdown")
        found.append((path, title.lstrip("# ").strip()))
    return found


def _exported_page(notebook: Path, pages: Path) -> Path | None:
    """The notebook's exported page in ``pages``, or None when there is none or it is older than the notebook."""
    page = pages / f"{notebook.stem}.html"
    return page if page.is_file() and page.stat().st_mtime >= notebook.stat().st_mtime else None


def _lesson_source(notebook: Path, title: str, page: Path | None) -> str:
    name = notebook.name
    lines = [f"# {title}", ""]
    if page is None:
        lines += [
            f"{_NO_PAGE}: `make docs` executes the lessons whose page is missing or older than their",
            "notebook before it builds the site (`make test` and `make html` write those pages too).",
            f"The notebook is `notebooks/{name}`; open it in JupyterLab with `make lab`.",
        ]
    else:
        src = f"{EXPORTED}/{notebook.stem}.html"
        lines += [
            f"<p>The lesson <code>notebooks/{name}</code>, executed, its widgets drawn offline from their",
            "saved state: the controls do not run Python here (open the notebook in JupyterLab with",
            f'<code>make lab</code> to change them). <a href="{src}">Open it on its own page</a>.</p>',
            "",
            f'<iframe class="confusionlab-lesson" src="{src}" title="{html.escape(title)}"',
            'style="width: 100%; height: 85vh; border: 1px solid var(--pst-color-border, #ccc);"></iframe>',
        ]
    return "\n".join(lines) + "\n"


def _write_lesson_pages(app: object, config: object) -> None:
    """``lessons/<notebook>.md`` for every notebook (stale ones removed); only changed files are rewritten."""
    pages = Path(config.confusionlab_lesson_pages)
    LESSONS_DIR.mkdir(exist_ok=True)
    _SHOWN.clear()
    wanted = {}
    for notebook, title in _lessons():
        page = _exported_page(notebook, pages)
        if page is not None:
            _SHOWN.append(page)
        wanted[f"{notebook.stem}.md"] = _lesson_source(notebook, title, page)
    for old in LESSONS_DIR.glob("*.md"):
        if old.name not in wanted:
            old.unlink()
    for name, text in wanted.items():
        path = LESSONS_DIR / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def _copy_exported_pages(app: object, exception: Exception | None) -> None:
    """Copy the exported pages shown, their renderer and glossary into ``<site>/lessons/executed/``."""
    if exception is not None or app.builder.format != "html":
        return
    pages = Path(app.config.confusionlab_lesson_pages)
    target = Path(app.outdir) / "lessons" / EXPORTED
    shutil.rmtree(target, ignore_errors=True)
    if not _SHOWN:
        return
    target.mkdir(parents=True)
    for page in _SHOWN:
        shutil.copyfile(page, target / page.name)
    for helper in (RENDERER, GLOSSARY):
        if (pages / helper).is_file():
            shutil.copyfile(pages / helper, target / helper)


def _lessons_table() -> str:
    """A markdown table of the lessons: the title linking the lesson's page, and the notebook."""
    rows = ["| lesson | notebook |", "|---|---|"]
    for path, title in _lessons():
        rows.append(f"| [{title.replace('|', '/')}](lessons/{path.stem}.md) | `notebooks/{path.name}` |")
    return "\n".join(rows)


def _fill_lessons(app: object, docname: str, source: list[str]) -> None:
    if docname == "lessons":
        source[0] = source[0].replace("```{lessons-table}\n```", _lessons_table())


def setup(app: object) -> None:
    app.add_config_value("confusionlab_lesson_pages", str(LESSON_PAGES), "env")
    app.connect("config-inited", _write_lesson_pages)
    app.connect("source-read", _fill_lessons)
    app.connect("build-finished", _copy_exported_pages)
