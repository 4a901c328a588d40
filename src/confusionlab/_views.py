"""Which widget shows which result: the registry behind every ``Result.view()``.

Results do not import widgets. A widget module registers the view of a result class
with :func:`view_for` (a decorator) or :func:`register_view`; :meth:`Result.view
<confusionlab._result.Result.view>` calls :func:`view_of`, which looks the result's class
up along its method resolution order (a subclass's own view first, then its bases'). The
first lookup loads :mod:`confusionlab.widgets`, whose modules register every view of the
library, by name (a plug-in load: the results never name a widget module).

Examples
--------
>>> from confusionlab._result import Result
>>> class _Coin(Result):
...     pass
>>> @view_for(_Coin)
... def coin_view(result, *, side="heads"):
...     return f"a {side} widget"
>>> view_of(_Coin(), side="tails")
'a tails widget'
>>> class _Unseen(Result):
...     pass
>>> view_of(_Unseen())
Traceback (most recent call last):
...
NotImplementedError: no view is registered for _Unseen (nor for any of its base classes); draw it with .plot()
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar

from ._validation import InvalidParameterError

__all__ = ["STATIC_ENV", "WIDGETS", "register_view", "registered_view", "view_for", "view_of"]

#: The package whose modules register the library's views (loaded on the first lookup).
WIDGETS = "confusionlab.widgets"
#: Environment variable set to ``"1"`` in a kernel whose views are built for a static page
#: (:func:`confusionlab.export.to_html` sets it): a view whose slider asks the kernel then carries
#: the linked states the page applies instead.
STATIC_ENV = "CONFUSIONLAB_STATIC_EXPORT"

F = TypeVar("F", bound=Callable[..., Any])

_VIEWS: dict[type, Callable[..., Any]] = {}


def register_view(result_class: type, factory: Callable[..., Any]) -> None:
    """Make ``factory(result, *args, **kwargs)`` the view of ``result_class`` and its subclasses.

    A later registration for the same class replaces the earlier one; a subclass's own
    registration wins over its bases'.
    """
    if not isinstance(result_class, type):
        raise InvalidParameterError(f"result_class must be a class, got {type(result_class).__name__}")
    if not callable(factory):
        raise InvalidParameterError(f"factory must be callable, got {type(factory).__name__}")
    _VIEWS[result_class] = factory


def view_for(result_class: type) -> Callable[[F], F]:
    """Decorator: register the decorated function as the view of ``result_class`` (returned unchanged)."""

    def decorate(factory: F) -> F:
        register_view(result_class, factory)
        return factory

    return decorate


def registered_view(result_class: type) -> Callable[..., Any] | None:
    """The view factory of ``result_class`` (the nearest along its MRO), or None when there is none.

    Loads :data:`WIDGETS` first, so that the library's own views are registered.
    """
    importlib.import_module(WIDGETS)
    for cls in result_class.__mro__:
        factory = _VIEWS.get(cls)
        if factory is not None:
            return factory
    return None


def view_of(result: Any, /, *args: Any, **kwargs: Any) -> Any:
    """The widget of ``result``: its class's registered view called with ``result`` and the arguments.

    Raises
    ------
    NotImplementedError
        When no view is registered for the result's class or any of its bases.
    """
    factory = registered_view(type(result))
    if factory is None:
        raise NotImplementedError(
            f"no view is registered for {type(result).__name__} (nor for any of its base classes); draw it with .plot()"
        )
    return factory(result, *args, **kwargs)
