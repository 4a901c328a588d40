"""Old names that still work for one release, with a :class:`FutureWarning` naming the new one.

Arguments are renamed with :func:`renamed_arguments` (a decorator), values such as old
model names with :func:`renamed_value`. Both warn once per call, name the function, the
old name and the new one, and refuse a call that gives both the old and the new name. Names
moved to another module keep their old path with :func:`moved_names`.

Examples
--------
>>> import warnings
>>> @renamed_arguments(n_samples="n_draws")
... def draw(*, n_draws=10):
...     return n_draws
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     draw(n_samples=5)
5
>>> print(caught[0].message)
draw(n_samples=...) is renamed n_draws=...; the old name will stop working in the next release
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Collection, Mapping
from types import ModuleType
from typing import Any, TypeVar

from ._validation import InvalidParameterError

__all__ = ["moved_module", "moved_names", "renamed_arguments", "renamed_attribute", "renamed_value"]

F = TypeVar("F", bound=Callable[..., Any])


def renamed_arguments(**old_to_new: str) -> Callable[[F], F]:
    """Accept each old keyword ``old`` as ``new`` (with a FutureWarning); refuse both at once."""

    def decorate(func: F) -> F:
        qualname = func.__qualname__.replace(".__init__", "")

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise InvalidParameterError(
                            f"{qualname}() got both {old}= (the old name) and {new}=; pass only {new}="
                        )
                    warnings.warn(
                        f"{qualname}({old}=...) is renamed {new}=...; "
                        "the old name will stop working in the next release",
                        FutureWarning,
                        stacklevel=2,
                    )
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


def renamed_value(value: Any, name: str, old_to_new: Mapping[str, str], *, stacklevel: int = 3) -> Any:
    """Map an old value of argument ``name`` (such as a model's old name) to its new one, with a FutureWarning.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     renamed_value("multinomial", "model", {"multinomial": "paired-binomial"})
    'paired-binomial'
    >>> renamed_value("paired-binomial", "model", {"multinomial": "paired-binomial"})
    'paired-binomial'
    """
    if isinstance(value, str):
        key = value.strip().lower().replace("_", "-")
        for old, new in old_to_new.items():
            if key == old.lower().replace("_", "-"):
                warnings.warn(
                    f"{name}={value!r} is renamed {name}={new!r}; the old name will stop working in the next release",
                    FutureWarning,
                    stacklevel=stacklevel,
                )
                return new
    return value


def moved_module(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn (FutureWarning) that module ``old`` moved to ``new``: called by the old module's shim
    when it is imported, so the warning points at the importer.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     moved_module("confusionlab.old", "confusionlab.new")
    >>> print(caught[0].message)
    confusionlab.old is moved to confusionlab.new; the old module will stop working in the next release
    """
    warnings.warn(
        f"{old} is moved to {new}; the old module will stop working in the next release",
        FutureWarning,
        stacklevel=stacklevel,
    )


class renamed_attribute:
    """An attribute's old name: reading it gives the new one's value with a FutureWarning.

    >>> import warnings
    >>> class Plan:
    ...     half_width = 0.05
    ...     target = renamed_attribute("half_width")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     Plan().target
    0.05
    >>> print(caught[0].message)
    Plan.target is renamed half_width; the old name will stop working in the next release
    """

    def __init__(self, new: str) -> None:
        self.new = new

    def __set_name__(self, owner: type, name: str) -> None:
        self.old, self.owner = name, owner.__name__
        self.__doc__ = f"Old name of :attr:`{self.new}` (FutureWarning)."

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        warnings.warn(
            f"{self.owner}.{self.old} is renamed {self.new}; the old name will stop working in the next release",
            FutureWarning,
            stacklevel=2,
        )
        return getattr(obj, self.new)


def moved_names(old: str, new: ModuleType, names: Collection[str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for the module ``old``: each of ``names`` is read from ``new``, with a FutureWarning.

    >>> import math, warnings
    >>> __getattr__ = moved_names("confusionlab.old", math, ["pi"])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     __getattr__("pi")
    3.141592653589793
    >>> print(caught[0].message)
    confusionlab.old.pi has moved to math.pi; the old path will stop working in the next release
    """

    def __getattr__(name: str) -> Any:
        if name in names:
            warnings.warn(
                f"{old}.{name} has moved to {new.__name__}.{name}; the old path will stop working in the next release",
                FutureWarning,
                stacklevel=2,
            )
            return getattr(new, name)
        raise AttributeError(f"module {old!r} has no attribute {name!r}")

    return __getattr__
