"""The static export collapses a lesson's appendix: cells tagged ``appendix`` sit in a closed ``<details>``."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from confusionlab.export import to_html

HIDDEN = {"source_hidden": True, "outputs_hidden": True}


def lesson_with_appendix(path: Path) -> Path:
    """A small saved notebook: two lesson cells, then an appendix heading and a check with its output."""
    cells = [
        new_markdown_cell("# 99 — A lesson\n\nThe lesson text."),
        new_code_cell("x = 6 * 7\nx", outputs=[new_output("execute_result", {"text/plain": "42"}, execution_count=1)]),
        new_markdown_cell("## Appendix: checks", metadata={"tags": ["appendix"]}),
        new_code_cell(
            "assert x == 42\n'checked'",
            metadata={"tags": ["appendix"], "jupyter": HIDDEN},
            outputs=[new_output("execute_result", {"text/plain": "'all checks passed'"}, execution_count=2)],
        ),
    ]
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(new_notebook(cells=cells, metadata={"kernelspec": kernelspec}), path)
    return path


class Details(HTMLParser):
    """Records every <details>: its attributes, its summary text and the text inside it; and the text outside."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict] = []
        self.outside: list[str] = []
        self._depth = 0
        self._in_summary = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "details":
            self._depth += 1
            self.found.append({"attrs": dict(attrs), "summary": "", "text": ""})
        elif tag == "summary" and self._depth:
            self._in_summary = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "details":
            self._depth -= 1
        elif tag == "summary":
            self._in_summary = False

    def handle_data(self, data: str) -> None:
        if not self._depth:
            self.outside.append(data)
        elif self._in_summary:
            self.found[-1]["summary"] += data
        else:
            self.found[-1]["text"] += data


def test_appendix_cells_are_exported_inside_one_closed_details(tmp_path: Path) -> None:
    page = to_html(lesson_with_appendix(tmp_path / "lesson.ipynb"), tmp_path / "html", execute=False)
    parser = Details()
    parser.feed(page.read_text(encoding="utf-8"))
    assert len(parser.found) == 1, parser.found
    details = parser.found[0]
    assert "open" not in details["attrs"]  # collapsed until the reader opens it
    assert details["attrs"]["class"] == "confusionlab-appendix"
    assert details["summary"].strip() == "Appendix: checks"
    # present, with its heading, its code and its output
    for text in ("Appendix: checks", "assert", "'all checks passed'"):
        assert text in details["text"], text
    # the lesson itself stays outside, open
    outside = "".join(parser.outside)
    assert "The lesson text." in outside and "42" in outside
    assert "all checks passed" not in outside and "assert" not in outside


def test_a_notebook_without_appendix_has_no_details(tmp_path: Path) -> None:
    path = lesson_with_appendix(tmp_path / "plain.ipynb")
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        cell.metadata.pop("tags", None)
    nbformat.write(nb, path)
    parser = Details()
    parser.feed(to_html(path, tmp_path / "html", execute=False).read_text(encoding="utf-8"))
    assert parser.found == []
    assert "all checks passed" in "".join(parser.outside)


class Links(HTMLParser):
    """Every <a href> of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a" and dict(attrs).get("href"):
            self.hrefs.append(dict(attrs)["href"])


def test_exported_lesson_reaches_the_glossary(tmp_path: Path) -> None:
    """A lesson's ../docs/glossary.md link would break in build/html/; the page links glossary.html beside it."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "glossary.md").write_text(
        "# Notation and glossary\n\n## Counts\n\n| symbol | meaning |\n|---|---|\n| p | positives |\n"
    )
    (tmp_path / "notebooks").mkdir()
    path = lesson_with_appendix(tmp_path / "notebooks" / "lesson.ipynb")
    nb = nbformat.read(path, as_version=4)
    nb.cells[
        0
    ].source += "\n\nNotation: the [glossary](../docs/glossary.md) and its [counts](../docs/glossary.md#counts)."
    nbformat.write(nb, path)
    out = tmp_path / "build" / "html"
    links = Links()
    links.feed(to_html(path, out, execute=False).read_text(encoding="utf-8"))
    assert "../docs/glossary.md" not in links.hrefs
    assert {"glossary.html", "glossary.html#counts"} <= set(links.hrefs)
    glossary = (out / "glossary.html").read_text(encoding="utf-8")
    assert "Notation and glossary" in glossary and "<td>positives</td>" in glossary
    assert 'id="Counts"' in glossary  # the anchor a link can point to
    assert "http" not in glossary  # self-contained, offline


def test_export_without_a_glossary_file_leaves_the_links_alone(tmp_path: Path) -> None:
    path = lesson_with_appendix(tmp_path / "lesson.ipynb")
    nb = nbformat.read(path, as_version=4)
    nb.cells[0].source += "\n\n[glossary](../docs/glossary.md)"
    nbformat.write(nb, path)
    links = Links()
    links.feed(to_html(path, tmp_path / "html", execute=False).read_text(encoding="utf-8"))
    assert "../docs/glossary.md" in links.hrefs and not (tmp_path / "html" / "glossary.html").exists()
