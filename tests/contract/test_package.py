"""The package as a user meets it: its public names, its version, its licence and its dependencies."""

from __future__ import annotations

import importlib.metadata
import json
import re
import types
from pathlib import Path

import confusionlab as cl

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest itself depends on tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(cl.__file__).parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_dir_lists_only_public_names_and_subpackages() -> None:
    names = dir(cl)
    assert names == sorted(names)
    assert set(cl.__all__) <= set(names)
    for name in names:
        assert not name.startswith("_"), name
        value = getattr(cl, name)  # every listed name resolves, widgets and subpackages included
        assert name in cl.__all__ or isinstance(value, types.ModuleType), name
    # module-level helpers stay out of sight
    assert not {"Any", "annotations", "import_module"} & set(names)


def test_every_name_in_all_resolves_and_is_listed_once() -> None:
    assert len(cl.__all__) == len(set(cl.__all__))
    for name in cl.__all__:
        value = getattr(cl, name)
        assert not isinstance(value, types.ModuleType), name
    assert cl.InvalidParameterError in (getattr(cl, n) for n in cl.__all__)


def test_subpackages_import_on_first_access() -> None:
    for name in ("bias", "stability", "paired", "palette", "metrics", "models"):
        module = getattr(cl, name)
        assert module.__name__ == f"confusionlab.{name}"
        assert module is importlib.import_module(f"confusionlab.{name}")


def test_unknown_attribute_is_an_attribute_error() -> None:
    try:
        cl.no_such_name  # noqa: B018
    except AttributeError as error:
        assert "no_such_name" in str(error)
    else:  # pragma: no cover
        raise AssertionError("confusionlab.no_such_name resolved")


def test_the_version_is_written_once_and_is_the_installed_one() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project
    assert "version" in project["dynamic"]
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "src/confusionlab/__init__.py"
    source = ROOT / "src" / "confusionlab" / "__init__.py"
    written = re.findall(r'^__version__ = "([^"]+)"$', source.read_text(encoding="utf-8"), flags=re.M)
    assert written == [cl.__version__]
    assert re.fullmatch(r"\d+\.\d+\.\d+(?:(?:a|b|rc)\d+)?(?:\.dev\d+)?", cl.__version__)
    assert importlib.metadata.version("confusionlab") == cl.__version__
    # the front-end's private npm package carries the same number (it is never published on its own)
    assert json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["version"] == cl.__version__


def test_typed_marker_ships_in_the_package() -> None:
    marker = PACKAGE / "py.typed"
    assert marker.is_file()
    assert marker.read_bytes() == b""  # PEP 561: an empty marker means the whole package is typed


def test_licence_covers_the_code_and_the_shipped_data() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "BSD-3-Clause"
    assert "LICENSE" in project["license-files"]
    assert "LICENSE" in PYPROJECT["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("BSD 3-Clause License")
    assert "ConfusionLab developers" in text
    # the UCI Adult files are CC BY 4.0 and must keep their attribution
    assert "CC BY 4.0" in text and "10.24432/C5XW20" in text and "Becker" in text and "Kohavi" in text
    note = (PACKAGE / "data" / "adult" / "README.md").read_text(encoding="utf-8")
    assert "CC BY 4.0" in note and "10.24432/C5XW20" in note


def _import_name(requirement: str) -> str:
    distribution = re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)
    return distribution.lower().replace("-", "_")


def test_every_hard_dependency_is_imported_somewhere() -> None:
    sources = "\n".join(path.read_text(encoding="utf-8") for path in PACKAGE.rglob("*.py"))
    for requirement in PYPROJECT["project"]["dependencies"]:
        name = _import_name(requirement)
        assert re.search(rf"^\s*(?:import|from) {name}\b", sources, flags=re.M), f"{requirement} is never imported"


def test_the_project_documents_are_there() -> None:
    for name in ("README.md", "LICENSE", "CHANGELOG.md", "CONTRIBUTING.md"):
        assert (ROOT / name).is_file(), name
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog
    assert f"## [{cl.__version__}]" in changelog
