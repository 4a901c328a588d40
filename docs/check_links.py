"""Check the built site's internal links, offline: every relative href/src names a file of the site,
and every #fragment an id in that file (the lessons' exported pages included). External links are
listed by count, never fetched.

Usage: ``python docs/check_links.py build/docs`` (exit status 1 and one line per broken link).
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if value is None:
                continue
            if key in ("id", "name"):
                self.ids.add(value)
            elif (key == "href" and tag in ("a", "link")) or (key == "src" and tag in ("img", "script", "iframe")):
                self.links.append(value)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _pages(site: Path) -> list[Path]:
    """The site's pages (``_static`` holds the theme's template fragments, not pages)."""
    return [path for path in site.rglob("*.html") if "_static" not in path.relative_to(site).parts]


def broken_links(site: Path) -> tuple[list[str], int]:
    """``(broken, external)``: one line per broken internal link, and the number of external links."""
    pages = {path.resolve(): _parse(path) for path in _pages(site)}
    broken, external = [], 0
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                external += parts.scheme in ("http", "https") or link.startswith("//")
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            where = f"{path.relative_to(site.resolve())}: {link}"
            if not target.is_file():
                broken.append(f"{where} (no file {target.name})")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _parse(target).ids
                # as browsers look a fragment up: as written, then percent-decoded (nbconvert's ids are encoded)
                if parts.fragment not in ids and unquote(parts.fragment) not in ids:
                    broken.append(f"{where} (no id {parts.fragment!r})")
    return broken, external


def main(argv: list[str]) -> int:
    site = Path(argv[1] if len(argv) > 1 else "build/docs")
    if not (site / "index.html").is_file():
        print(f"check_links: no site at {site} (build it with `make docs`)", file=sys.stderr)
        return 1
    broken, external = broken_links(site)
    for line in broken:
        print(f"broken link: {line}", file=sys.stderr)
    pages = len(_pages(site))
    print(f"check_links: {pages} pages, {len(broken)} broken internal links, {external} external links (not fetched)")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
