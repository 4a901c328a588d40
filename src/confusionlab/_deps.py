"""Optional dependencies: imported where they are used, and missed with an error that says what to install.

``pip install confusionlab`` brings numpy, scipy and the widget stack only. Frames (pandas),
pictures (matplotlib), the bias audit and the stability refits (scikit-learn), the static
export (nbconvert) come with the extras of ``pyproject.toml``;
:func:`require` imports one of them, or raises a :class:`ModuleNotFoundError` that names the
extra to install, e.g. ``pip install "confusionlab[notebooks]"``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: The distribution pip installs for an import name (where the two differ).
_DISTRIBUTIONS = {"sklearn": "scikit-learn"}


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module``, or say which extra of confusionlab brings it.

    Parameters
    ----------
    module : str
        The dotted module to import (``"pandas"``, ``"matplotlib.figure"``).
    extra : str
        The extra of confusionlab that installs it (``"notebooks"``, ``"bias"``, ``"export"``).
    purpose : str
        What needs it, as the user called it (``"to_frame()"``, ``"plot()"``).

    Returns
    -------
    types.ModuleType
        The imported module.

    Raises
    ------
    ModuleNotFoundError
        When ``module`` (or the package it belongs to) is not installed; the message names
        ``purpose``, the extra and the package. Any other import error propagates unchanged.

    Examples
    --------
    >>> require("json", "notebooks", "to_frame()").__name__
    'json'
    >>> require("no_such_module_here", "notebooks", "to_frame()")
    Traceback (most recent call last):
    ...
    ModuleNotFoundError: to_frame() needs no_such_module_here, ...: pip install "confusionlab[notebooks]" ...
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        top = module.split(".")[0]
        if error.name is None or error.name.split(".")[0] != top:
            raise  # the module is there but one of *its* dependencies is not: pip's own message says which
        package = _DISTRIBUTIONS.get(top, top)
        message = (
            f"{purpose} needs {top}, which is not installed: "
            f'pip install "confusionlab[{extra}]" (or pip install {package})'
        )
        raise ModuleNotFoundError(message, name=module) from None
