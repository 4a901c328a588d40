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

__all__ = [
    "float_with_moved_attributes",
    "moved_module",
    "moved_names",
    "property_now_method",
    "renamed_arguments",
    "renamed_attribute",
    "renamed_value",
]

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

    With ``call=True`` the new name is a method and reading the old attribute calls it (a
    property renamed into a method: ``p_values`` → ``p_value()``). ``convert`` turns the new
    spelling's answer into the old one's shape (``largest_gap`` → ``difference()``'s members),
    and ``note`` says in the warning where the old answer lies in the new one.

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

    def __init__(
        self, new: str, *, call: bool = False, convert: Callable[[Any], Any] | None = None, note: str = ""
    ) -> None:
        self.new, self.call, self.convert, self.note = new, call, convert, note

    def __set_name__(self, owner: type, name: str) -> None:
        self.old, self.owner = name, owner.__name__
        self.__doc__ = f"Old name of :attr:`{self.new}` (FutureWarning)."

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        note = f" ({self.note})" if self.note else ""
        warnings.warn(
            f"{self.owner}.{self.old} is renamed {self.new}{'()' if self.call else ''}{note}; the old name will "
            "stop working in the next release",
            FutureWarning,
            stacklevel=2,
        )
        value = getattr(obj, self.new)
        value = value() if self.call else value
        return value if self.convert is None else self.convert(value)


def _warn_renamed(old: str, new: str, stacklevel: int = 3) -> None:
    warnings.warn(
        f"{old} is renamed {new}; the old name will stop working in the next release",
        FutureWarning,
        stacklevel=stacklevel,
    )


class _FloatWithMovedAttributes(float):
    """A float whose former attributes still answer for one release, each with a FutureWarning."""

    def __new__(
        cls, value: float, details: Any, names: tuple[str, ...], old: str, new: str
    ) -> _FloatWithMovedAttributes:
        out = super().__new__(cls, value)
        out.__dict__.update(_details=details, _names=names, _old=old, _new=new)
        return out

    def __getattr__(self, name: str) -> Any:
        state = self.__dict__
        if name in state.get("_names", ()):
            _warn_renamed(f"{state['_old']}.{name}", f"{state['_new']}.{name}")
            return getattr(state["_details"], name)
        raise AttributeError(f"'float' object has no attribute {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return float, (float(self),)


def float_with_moved_attributes(value: float, details: Any, names: tuple[str, ...], *, old: str, new: str) -> float:
    """``value`` as a float whose attributes ``names`` still answer, read from ``details`` with a FutureWarning.

    For a method that returned an object holding a number and now returns the number itself:
    ``old`` names the old spelling (``"Calibration.p_value()"``), ``new`` where the attributes
    live now (``"Calibration.test()"``). The float is plain in every other use.

    >>> import warnings
    >>> from types import SimpleNamespace
    >>> details = SimpleNamespace(mc_error=0.01)
    >>> p = float_with_moved_attributes(0.25, details, ("mc_error",), old="T.p_value()", new="T.test()")
    >>> p * 2
    0.5
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     p.mc_error
    0.01
    >>> print(caught[0].message)
    T.p_value().mc_error is renamed T.test().mc_error; the old name will stop working in the next release
    """
    return _FloatWithMovedAttributes(value, details, tuple(names), old, new)


class _Uncalled:
    """What a former property's value shares: calling it is the new spelling (no warning); using
    it uncalled, as the old value, warns."""

    __slots__ = ()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__dict__["_method"](*args, **kwargs)

    def _warn(self) -> None:
        name = self.__dict__["_name"]
        message = self.__dict__.get("_message") or (
            f"{name} is a method now: write {name}(); the value without the call will stop working in the next release"
        )
        warnings.warn(message, FutureWarning, stacklevel=3)


def _warning_twin(base: type, method: str) -> Callable[..., Any]:
    plain = getattr(base, method)

    def twin(self: Any, *args: Any) -> Any:
        self._warn()
        return plain(self, *args)

    twin.__name__ = method
    return twin


_FLOAT_USES = (
    "__abs__ __add__ __bool__ __divmod__ __eq__ __float__ __floordiv__ __format__ __ge__ __gt__ __int__ __le__ "
    "__lt__ __mod__ __mul__ __ne__ __neg__ __pos__ __pow__ __radd__ __rdivmod__ __repr__ __rfloordiv__ __rmod__ "
    "__rmul__ __round__ __rpow__ __rsub__ __rtruediv__ __str__ __sub__ __truediv__ __trunc__"
).split()
_MAPPING_USES = (
    "__contains__ __eq__ __getitem__ __iter__ __len__ __ne__ __or__ __repr__ __reversed__ __str__ copy get items "
    "keys values"
).split()


class _UncalledFloat(_Uncalled, float):
    __hash__ = float.__hash__

    def __reduce__(self) -> tuple[Any, ...]:
        return float, (float.__float__(self),)


class _UncalledMapping(_Uncalled, dict):
    def __reduce__(self) -> tuple[Any, ...]:
        return dict, (dict(dict.items(self)),)


for _use in _FLOAT_USES:
    setattr(_UncalledFloat, _use, _warning_twin(float, _use))
for _use in _MAPPING_USES:
    setattr(_UncalledMapping, _use, _warning_twin(dict, _use))
del _use


class property_now_method:
    """A property that became a method: ``obj.name()`` is the new spelling; ``obj.name`` used as
    the old value (a number or a mapping) still works for one release, with a FutureWarning.

    >>> import warnings
    >>> class Test:
    ...     @property_now_method
    ...     def p_value(self):
    ...         return 0.5
    >>> Test().p_value()
    0.5
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     Test().p_value < 0.6
    True
    >>> print(caught[0].message)
    Test.p_value is a method now: write Test.p_value(); the value without the call will stop working in the next release
    """

    def __init__(self, method: Callable[..., Any]) -> None:
        self.method = method
        functools.update_wrapper(self, method)

    def __set_name__(self, owner: type, name: str) -> None:
        self.qualname = f"{owner.__name__}.{name}"

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self.method
        bound = functools.partial(self.method, obj)
        value = bound()
        shim: Any
        if isinstance(value, Mapping):
            shim = _UncalledMapping(value)
        elif isinstance(value, float):
            shim = _UncalledFloat(value)
        else:
            return bound
        shim.__dict__.update(_method=bound, _name=self.qualname)
        return shim


class attribute_now_mapping_method:
    """An attribute named like a :class:`~collections.abc.Mapping` method (``values``) of a class
    that became a Mapping: calling it is the mapping's method (no warning); using it uncalled, as
    the old mapping, reads the attribute ``new`` with a FutureWarning.

    >>> import warnings
    >>> from collections.abc import Mapping
    >>> class Scores(Mapping):
    ...     def __getitem__(self, key): return {"a": 0.5}[key]
    ...     def __iter__(self): return iter(["a"])
    ...     def __len__(self): return 1
    ...     by_group = {"a": 0.75}
    ...     values = attribute_now_mapping_method("by_group")
    >>> list(Scores().values())
    [0.5]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     Scores().values["a"]
    0.75
    >>> print(caught[0].message)
    Scores.values is renamed by_group (values() is now the mapping's values); the old name will stop working
    in the next release
    """

    def __init__(self, new: str) -> None:
        self.new = new

    def __set_name__(self, owner: type, name: str) -> None:
        self.old, self.qualname = name, f"{owner.__name__}.{name}"
        self.__doc__ = f"Old name of :attr:`{self.new}` (FutureWarning); called, the mapping's ``{name}()``."

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        shim = _UncalledMapping(getattr(obj, self.new))
        message = (
            f"{self.qualname} is renamed {self.new} ({self.old}() is now the mapping's {self.old}); the old name "
            "will stop working in the next release"
        )
        shim.__dict__.update(_method=getattr(Mapping, self.old).__get__(obj), _name=self.qualname, _message=message)
        return shim


def default_changes(qualname: str, argument: str, old: Any, new: Any, *, stacklevel: int = 3) -> None:
    """Warn (FutureWarning) that ``argument`` left out still means ``old`` but will mean ``new`` from
    the next release: called where the omitted argument's answer would differ.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     default_changes("Set.level", "what", "band", "interval")
    >>> print(caught[0].message)
    Set.level() without what= gives what='band'; from the next release it gives what='interval': pass what=
    to keep one answer
    """
    warnings.warn(
        f"{qualname}() without {argument}= gives {argument}={old!r}; from the next release it gives "
        f"{argument}={new!r}: pass {argument}= to keep one answer",
        FutureWarning,
        stacklevel=stacklevel,
    )


def value_now_means(qualname: str, argument: str, value: Any, now: str, before: str, *, stacklevel: int = 3) -> None:
    """Warn (FutureWarning) that ``argument=value`` gives a different answer from this release:
    ``now`` says what it gives, ``before`` the spelling of the former answer. Called only where the
    two answers differ; the warning goes in the next release.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value_now_means("f", "method", "x", "always means x", "method='auto'")
    >>> print(caught[0].message)
    f(method='x') now always means x; method='auto' gives the former answer (this warning goes in the next release)
    """
    warnings.warn(
        f"{qualname}({argument}={value!r}) now {now}; {before} gives the former answer (this warning goes in the "
        "next release)",
        FutureWarning,
        stacklevel=stacklevel,
    )


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
