"""Sphinx configuration of the documentation site (``make docs`` builds it into build/docs).

The site is built offline and fetches nothing when it is read: no intersphinx, no CDN, no
executed notebooks (the lessons' executed pages come from ``make html``, see lessons.md).
The API reference lists every name of ``confusionlab.__all__``: this file writes
``api.rst`` from it before autosummary reads the sources, so a new public name appears
without editing the site.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import confusionlab

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


def _lessons_table() -> str:
    """A markdown table of the notebooks: file and the title of its first heading."""
    import json

    rows = ["| notebook | lesson |", "|---|---|"]
    for path in sorted((HERE.parent / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        title = next("".join(c["source"]).strip().splitlines()[0] for c in cells if c["cell_type"] == "markdown")
        rows.append(f"| `notebooks/{path.name}` | {title.lstrip('# ').replace('|', '/')} |")
    return "\n".join(rows)


def _fill_lessons(app: object, docname: str, source: list[str]) -> None:
    if docname == "lessons":
        source[0] = source[0].replace("```{lessons-table}\n```", _lessons_table())


def setup(app: object) -> None:
    app.connect("source-read", _fill_lessons)
