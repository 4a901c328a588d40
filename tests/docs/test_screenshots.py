"""The pictures of the views (``make screenshots``, docs/screenshots.py) are where the README and the
site's landing page show them, one per view the script photographs, and small."""

from __future__ import annotations

import importlib.util
import re
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _shots() -> dict:
    spec = importlib.util.spec_from_file_location("screenshots", DOCS / "screenshots.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("screenshots", module)  # its dataclass looks its module up
    spec.loader.exec_module(module)  # imports neither Playwright nor the package: both wait for main()
    return module.SHOTS


def _png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG's IHDR chunk (the PNG specification, section 11.2.2)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", path
    return struct.unpack(">II", head[16:24])


def test_every_view_photographed_is_on_the_landing_page_and_small() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    shown = re.findall(r"!\[[^\]]*\]\(_static/views/([\w-]+)\.png\)", index)
    assert sorted(shown) == sorted(_shots()), shown
    for name in shown:
        path = DOCS / "_static" / "views" / f"{name}.png"
        width, height = _png_size(path)
        assert 200 <= width <= 1300 and 100 <= height <= 1200, (name, width, height)
        assert path.stat().st_size < 80_000, f"{path.name}: {path.stat().st_size} bytes (optimised: a few tens of KB)"


def test_the_readme_shows_the_explorer_and_rocview_from_relative_paths() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pictures = [p for p in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme) if "://" not in p]  # not the badge
    assert pictures == ["docs/_static/views/explorer.png", "docs/_static/views/roc.png"], pictures
    assert all((ROOT / p).is_file() for p in pictures)
