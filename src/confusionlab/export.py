"""Static HTML of executed notebooks whose widgets render offline.

``nbconvert --to html`` keeps the widgets' state but draws them with a renderer and
require.js fetched from CDNs. :func:`to_html` executes a notebook, renders it with a
template that fetches nothing, and writes ``confusionlab-embed.js`` (the package's own
small renderer, built from ``js/export/``) beside the page: anywidgets are drawn from
the ES module stored in their state, boxes of ipywidgets as containers, other controls
as text. Open the page from disk; nothing is loaded from the internet.

Sliders that ask the kernel in Jupyter (RocView's and PrecisionRecallView's threshold,
DecisionView's p_t) move their linked views in the page too: the kernel runs with
``CONFUSIONLAB_STATIC_EXPORT=1``, so those views precompute the linked states at their
slider's positions and the page carries them. Past a size cap (a few MB per view) an even
spread of positions is saved and the page says that the slider snaps to them.

The glossary stays reachable: a link in a markdown cell to the project's ``glossary.md``
(the lessons' ``../docs/glossary.md``, or a ``glossary.md`` inside the notebook's folder)
is rendered once to ``glossary.html`` beside the pages and the link points there, and every
such page gets a "Glossary" link at its top. No other file is read: a link that leaves the
notebook's folder any other way, is absolute or passes through a symbolic link is left as
it is, and the glossary's raw HTML is shown as text, never run.

Command line::

    python -m confusionlab.export notebooks/*.ipynb --output-dir build/html
"""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from ._deps import require
from ._validation import InvalidParameterError, check_instance, check_int
from ._views import STATIC_ENV

__all__ = ["GLOSSARY", "RENDERER", "to_html"]

_HERE = Path(__file__).resolve().parent
#: File name of the renderer written beside every page.
RENDERER = "confusionlab-embed.js"
#: File name of the glossary page written beside pages that link the glossary.
GLOSSARY = "glossary.html"
_GLOSSARY_LINK = re.compile(r"\]\(([^()\s]*glossary\.md)(#[^()\s]*)?\)")


#: The one link that may leave the notebook's folder: the lessons' layout, ``notebooks/`` beside ``docs/``.
_LESSONS_GLOSSARY = ("..", "docs", "glossary.md")


def _glossary_file(folder: Path, link: str) -> Path | None:
    """The glossary file ``link`` names from ``folder``, or None when it is not one that may be published.

    Publishable: a regular file named ``glossary.md`` inside ``folder``, or the lessons'
    ``../docs/glossary.md``, reached without a symbolic link on the way.
    """
    parts = PurePosixPath(link).parts
    if parts == _LESSONS_GLOSSARY:
        base, parts = folder.resolve().parent, parts[1:]
    elif parts and not PurePosixPath(link).is_absolute() and all(part not in ("..", ".") for part in parts):
        base = folder.resolve()
    else:
        return None
    if parts[-1] != "glossary.md" or any("\\" in part or ":" in part for part in parts):
        return None
    target = base
    for part in parts:
        target = target / part
        if target.is_symlink():
            return None
    return target if target.is_file() else None


def _link_glossary(nb: object, folder: Path) -> Path | None:
    """Point the notebook's links to the project's ``glossary.md`` at :data:`GLOSSARY`; the source file, if any."""
    found = None
    for cell in nb.cells:  # type: ignore[attr-defined]
        if cell.cell_type != "markdown":
            continue

        def swap(match: re.Match) -> str:
            nonlocal found
            target = _glossary_file(folder, match.group(1))
            if target is None:
                return match.group(0)
            found = found or target
            return f"]({GLOSSARY}{match.group(2) or ''})"

        cell.source = _GLOSSARY_LINK.sub(swap, cell.source)
    return found


def _glossary_page(source: Path) -> str:
    """The glossary as a self-contained page (markdown rendered by nbconvert; raw HTML escaped, no scripts)."""
    mistune = require("nbconvert.filters.markdown_mistune", "export", "confusionlab.export")
    IPythonRenderer, MarkdownWithMath = mistune.IPythonRenderer, mistune.MarkdownWithMath

    class Escaped(IPythonRenderer):
        """nbconvert's renderer with raw HTML, mermaid blocks and script URLs shown as text."""

        def block_mermaidjs(self, code: str) -> str:
            return f"<pre><code>{html.escape(code)}</code></pre>\n"

    markdown2html = MarkdownWithMath(renderer=Escaped(escape=True, allow_harmful_protocols=False)).render
    text = source.read_text(encoding="utf-8")
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), "Glossary")
    style = (
        "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}"
        "table{border-collapse:collapse}td,th{border:1px solid #e0e0e0;padding:.25rem .5rem;vertical-align:top}"
    )
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{style}</style></head>\n<body>\n{markdown2html(text)}\n</body></html>\n"
    )


def to_html(notebook: str | Path, output_dir: str | Path, *, execute: bool = True, timeout: int = 600) -> Path:
    """Execute ``notebook`` and write ``<output_dir>/<name>.html`` that renders offline.

    Parameters
    ----------
    notebook : path
        The ``.ipynb`` file; it runs with its own folder as working directory.
    output_dir : path
        Where the page and ``confusionlab-embed.js`` go (created if needed).
    execute : bool, default True
        Run the notebook first (widget state is stored on the way); with False the
        notebook's saved outputs and widget state are used.
    timeout : int
        Seconds allowed per cell.

    Returns
    -------
    Path
        The HTML file. When the notebook links an existing ``glossary.md``, the glossary is
        written beside it as :data:`GLOSSARY` and the links point there.
    """
    notebook = Path(check_instance(notebook, "notebook", (str, os.PathLike), "a path to an .ipynb file"))
    timeout = check_int(timeout, "timeout", minimum=1)
    if notebook.suffix != ".ipynb" or not notebook.is_file():
        raise InvalidParameterError(f"notebook must be an existing .ipynb file, got {str(notebook)!r}")
    out_dir = Path(check_instance(output_dir, "output_dir", (str, os.PathLike), "a path to a folder"))
    if out_dir.exists() and not out_dir.is_dir():
        raise InvalidParameterError(
            f"output_dir must be a folder (or a path to create one), got the file {str(out_dir)!r}"
        )
    renderer = _HERE / "static" / "embed.js"
    if not renderer.is_file():
        raise FileNotFoundError(f"{renderer} is missing; build the front-end with `make install` or `npm run build`")
    nbformat = require("nbformat", "export", "confusionlab.export")
    NotebookClient = require("nbclient", "export", "confusionlab.export").NotebookClient
    HTMLExporter = require("nbconvert", "export", "confusionlab.export").HTMLExporter

    try:
        nb = nbformat.read(notebook, as_version=4)
        nbformat.validate(nb, relax_add_props=True)  # nbformat.read only logs what nbconvert later raises
    except (AttributeError, TypeError):  # JSON of another shape: a list, a string, cells that are a number
        raise InvalidParameterError(
            f"notebook {str(notebook)!r} is not a valid notebook (.ipynb JSON): "
            "its JSON does not have a notebook's shape"
        ) from None
    except (ValueError, nbformat.ValidationError, UnicodeDecodeError) as exc:  # invalid JSON is a ValueError
        where = "".join(f"[{step!r}]" for step in getattr(exc, "absolute_path", ()))
        raise InvalidParameterError(
            f"notebook {str(notebook)!r} is not a valid notebook (.ipynb JSON): "
            f"{where + ' ' if where else ''}{str(exc).splitlines()[0][:200]}"
        ) from None
    glossary = _link_glossary(nb, notebook.parent)
    if execute:
        client = NotebookClient(
            nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(notebook.parent)}}
        )
        client.execute(env={**os.environ, STATIC_ENV: "1"})  # views with sliders carry their linked states
    exporter = HTMLExporter(
        template_name="confusionlab",
        extra_template_basedirs=[str(_HERE / "templates")],
        widget_renderer_url=RENDERER,
    )
    body, _ = exporter.from_notebook_node(nb)
    out_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(renderer, out_dir / RENDERER)
    if glossary is not None:
        (out_dir / GLOSSARY).write_text(_glossary_page(glossary), encoding="utf-8")
        nav = f'<nav class="cl-glossary-link"><a href="{GLOSSARY}">Glossary</a></nav>'
        body = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + nav, body, count=1)
    page = out_dir / f"{notebook.stem}.html"
    page.write_text(body, encoding="utf-8")
    return page


def main(argv: Sequence[str] | None = None) -> None:
    """The command line: one page per notebook; a refused argument exits with status 2 and its message.

    >>> main(["missing.ipynb"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    parser = argparse.ArgumentParser(description="Execute notebooks and write HTML whose widgets render offline.")
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--output-dir", "-o", type=Path, default=Path("build/html"))
    parser.add_argument("--no-execute", action="store_true", help="use the saved outputs")
    args = parser.parse_args(argv)
    for notebook in args.notebooks:
        try:
            page = to_html(notebook, args.output_dir, execute=not args.no_execute)
        except (InvalidParameterError, OSError) as exc:
            parser.error(str(exc))  # the usage and the message on stderr, exit status 2
        print(page)


if __name__ == "__main__":
    main()
