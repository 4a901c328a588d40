"""The static export publishes only the project's glossary: nothing from outside the notebook's folder, no symlink,
and the glossary's raw HTML shown as text."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_markdown_cell, new_notebook

from confusionlab.export import GLOSSARY, to_html

SECRET = "# G\nSECRET <script>alert(1)</script>\n"


def notebook_linking(path: Path, link: str) -> Path:
    """A saved notebook whose one markdown cell links ``link``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(new_notebook(cells=[new_markdown_cell(f"[g]({link})")]), path)
    return path


def published(tmp_path: Path, notebook: Path) -> tuple[str, Path]:
    out = tmp_path / "out"
    return to_html(notebook, out, execute=False).read_text(encoding="utf-8"), out / GLOSSARY


def test_the_issue_reproduction_publishes_nothing_from_a_sibling_folder(tmp_path: Path) -> None:
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "glossary.md").write_text(SECRET, encoding="utf-8")
    page, glossary = published(tmp_path, notebook_linking(tmp_path / "pub" / "nb.ipynb", "../private/glossary.md"))
    assert not glossary.exists()
    assert "SECRET" not in page and "../private/glossary.md" in page  # the link is left as it was


def test_an_absolute_link_is_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "private" / "glossary.md"
    secret.parent.mkdir()
    secret.write_text(SECRET, encoding="utf-8")
    page, glossary = published(tmp_path, notebook_linking(tmp_path / "pub" / "nb.ipynb", secret.as_posix()))
    assert not glossary.exists() and "SECRET" not in page


@pytest.mark.parametrize(
    "link", ["../../private/glossary.md", "sub/../../private/glossary.md", "../docs/../private/glossary.md"]
)
def test_climbing_out_is_not_followed(tmp_path: Path, link: str) -> None:
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "glossary.md").write_text(SECRET, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "pub" / "sub").mkdir(parents=True)
    _, glossary = published(tmp_path, notebook_linking(tmp_path / "pub" / "sub" / "nb.ipynb", link))
    assert not glossary.exists()


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
@pytest.mark.parametrize("where", ["file", "folder", "docs"])
def test_a_symlink_beside_the_notebook_is_not_followed(tmp_path: Path, where: str) -> None:
    secret = tmp_path / "private" / "glossary.md"
    secret.parent.mkdir()
    secret.write_text(SECRET, encoding="utf-8")
    pub = tmp_path / "project" / "notebooks"
    pub.mkdir(parents=True)
    if where == "file":
        (pub / "glossary.md").symlink_to(secret)
        link = "glossary.md"
    elif where == "folder":
        (pub / "terms").symlink_to(secret.parent, target_is_directory=True)
        link = "terms/glossary.md"
    else:  # the lessons' own layout, but its docs/ folder is a link elsewhere
        (tmp_path / "project" / "docs").symlink_to(secret.parent, target_is_directory=True)
        link = "../docs/glossary.md"
    page, glossary = published(tmp_path, notebook_linking(pub / "nb.ipynb", link))
    assert not glossary.exists() and "SECRET" not in page


def test_the_project_glossary_is_published_with_its_html_escaped(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "glossary.md").write_text(
        SECRET + "\n[x](javascript:alert(2))\n\n```mermaid\n<img src=x onerror=alert(3)>\n```\n\n| a |\n|---|\n| p |\n",
        encoding="utf-8",
    )
    page, glossary = published(tmp_path, notebook_linking(tmp_path / "notebooks" / "nb.ipynb", "../docs/glossary.md"))
    assert f"]({GLOSSARY})" not in page and f'href="{GLOSSARY}"' in page
    text = glossary.read_text(encoding="utf-8")
    assert "SECRET &lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<script" not in text and "javascript:" not in text and "<img" not in text
    assert "<td>p</td>" in text  # still markdown, rendered


def test_a_glossary_inside_the_notebook_folder_is_published(tmp_path: Path) -> None:
    (tmp_path / "pub" / "terms").mkdir(parents=True)
    (tmp_path / "pub" / "terms" / "glossary.md").write_text("# Terms\n\nTPR is a rate.\n", encoding="utf-8")
    _, glossary = published(tmp_path, notebook_linking(tmp_path / "pub" / "nb.ipynb", "terms/glossary.md"))
    assert "TPR is a rate." in glossary.read_text(encoding="utf-8")
