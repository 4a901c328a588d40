"""Pieces the widgets share: the one widget base, count, metric, tolerance and buffer traits.

* :class:`StatefulWidget` — the one update mechanism: validation before mutation,
  rollback of every trait and buffer when a change fails, the batched
  ``update(**traits)``. :class:`BundledWidget` adds the front-end bundle lookup for
  the anywidgets; the ipywidgets views (Explorer, BiasView, StabilityView) mix the
  base in directly.
* traits validated with the rules and messages of :mod:`confusionlab._validation`
  (:class:`Tolerance`, :class:`Confidence`), counts (:class:`Count`,
  :class:`SliceCounts`) and metric names (:class:`MetricName`); a refused value raises
  :class:`InvalidTraitError`, the library's one error for bad arguments that is a
  traitlets ``TraitError`` too;
* :class:`Buffer`: a numpy array shipped to the browser as a little-endian binary
  buffer, its dtype declared once with the trait.
"""

from __future__ import annotations

import contextlib
import math
import operator
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import anywidget
import numpy as np
import traitlets

from .._validation import (
    DEFAULT_TOLERANCE,
    InvalidParameterError,
    TooLargeError,
    check_confidence,
    check_finite_real,
    check_tolerance,
)
from ..metrics import METRICS

T = TypeVar("T")

#: Largest p or n a slice widget accepts (a slice this size is drawn thinned).
MAX_SIDE = 10_000_000

#: Where ``npm run build`` writes the front-end bundles.
STATIC = Path(__file__).resolve().parent.parent / "static"


class InvalidTraitError(InvalidParameterError, traitlets.TraitError):
    """A widget refused a value: :class:`confusionlab.InvalidParameterError` and
    :class:`traitlets.TraitError` at once.

    A widget's traits are its arguments, so a refused value is the library's one error for
    bad arguments. It is a ``TraitError`` too: traitlets puts cross-validated values back
    (``hold_trait_notifications``, which :meth:`StatefulWidget.update` uses) only on a
    ``TraitError``, and code that catches ``TraitError`` keeps working. (traitlets' own
    checks, such as an ``Int``'s bounds or an ``Enum``'s values, still raise a plain
    ``TraitError``.)

    Examples
    --------
    >>> import confusionlab as cl
    >>> w = cl.RocSlice(p=20, n=40)
    >>> try:
    ...     w.tp = 21
    ... except cl.InvalidParameterError as error:
    ...     print(error)
    tp must be between 0 and p=20, got tp=21.
    >>> w.tp
    10
    """


def trait_check(check: Callable[..., T], value: Any, *args: Any, **kwargs: Any) -> T:
    """``check(value, *args, **kwargs)``, a check of :mod:`confusionlab._validation`, whose
    refusal is raised as an :class:`InvalidTraitError` (same message)."""
    try:
        return check(value, *args, **kwargs)
    except InvalidParameterError as error:
        raise InvalidTraitError(str(error)) from None


def too_large(error: Exception, what: str, advice: str) -> TooLargeError:
    """A core refusal of memory (:class:`~confusionlab.TooLargeError`) reworded for a widget.

    The core's advice names the arguments of :func:`~confusionlab.metric_distribution`
    (``future_size``, ``tolerance``); a widget has its own settings: its message keeps
    the core's estimate and gives ``advice`` in the widget's terms.

    >>> str(too_large(TooLargeError("needs 3 GiB; use a smaller future_size"), "N = 10 is too large", "lower N"))
    'needs 3 GiB: N = 10 is too large; lower N'
    """
    message = str(error)
    head = message.rsplit("; ", 1)[0] if "; " in message else message
    return TooLargeError(f"{head}: {what}; {advice}")


class Count(traitlets.Int):
    """A non-negative integer count; accepts numpy integers, rejects bool and floats."""

    info_text = "a non-negative integer"

    def validate(self, obj: Any, value: Any) -> int:
        if not is_int(value) or operator.index(value) < 0:
            raise InvalidTraitError(
                f"The '{self.name}' trait of {type(obj).__name__} must be a non-negative integer, got {value!r}."
            )
        return super().validate(obj, operator.index(value))


class Integer(traitlets.Int):
    """An integer in the trait's bounds; accepts numpy integers, rejects bool and floats.

    >>> class W(traitlets.HasTraits):
    ...     k = Integer(0, min=-1)
    >>> w = W(); w.k = np.int64(3); w.k
    3
    >>> w.k = True
    Traceback (most recent call last):
    ...
    confusionlab.widgets._common.InvalidTraitError: The 'k' trait of W must be an integer, got True.
    """

    info_text = "an integer"

    def validate(self, obj: Any, value: Any) -> int:
        if not is_int(value):
            raise InvalidTraitError(
                f"The '{self.name}' trait of {type(obj).__name__} must be an integer, got {value!r}."
            )
        return super().validate(obj, operator.index(value))


class MetricName(traitlets.Unicode):
    """A metric of :data:`confusionlab.METRICS`; aliases ("tpr", "ba", "f2") are stored by name."""

    def validate(self, obj: Any, value: Any) -> str:
        try:
            return METRICS[value].name
        except (KeyError, ValueError, TypeError):
            raise InvalidTraitError(
                f"{self.name} must be one of {list(METRICS)} (or an alias, or 'f<beta>'), got {self.name}={value!r}."
            ) from None


class SliceCounts(traitlets.HasTraits):
    """The traits ``p, n, tp, tn`` of a slice, validated against each other.

    One count at a time must stay consistent with the others (``tp <= p``,
    ``tn <= n``); change several at once with the widget's ``update(...)``.
    """

    p = Count(20, help="number of positives").tag(sync=True)
    n = Count(40, help="number of negatives").tag(sync=True)
    tp = Count(10, help="observed true positives").tag(sync=True)
    tn = Count(20, help="observed true negatives").tag(sync=True)

    @traitlets.validate("p", "n")
    def _check_side(self, proposal: traitlets.Bunch) -> int:
        name, value = proposal.trait.name, proposal.value
        if not 1 <= value <= MAX_SIDE:
            raise InvalidTraitError(f"{name} must be between 1 and {MAX_SIDE:,}, got {name}={value}.")
        inner = "tp" if name == "p" else "tn"
        if getattr(self, inner) > value:
            raise InvalidTraitError(
                f"{name}={value} is smaller than {inner}={getattr(self, inner)}; change both "
                f"together with update({name}=..., {inner}=...)."
            )
        return value

    @traitlets.validate("tp", "tn")
    def _check_observed(self, proposal: traitlets.Bunch) -> int:
        name = proposal.trait.name
        side = "p" if name == "tp" else "n"
        if proposal.value > getattr(self, side):
            raise InvalidTraitError(
                f"{name} must be between 0 and {side}={getattr(self, side)}, got {name}={proposal.value}."
            )
        return proposal.value


def is_int(value: Any) -> bool:
    """Whether ``value`` is an integer (numpy integers included, bool excluded)."""
    try:
        operator.index(value)
    except TypeError:
        return False
    return not isinstance(value, bool)


def colour_domain(values: np.ndarray, metric_range: tuple[float, float]) -> list[float]:
    """(lo, mid, hi) of the diverging colour scale.

    lo and hi are the extreme finite values; mid is the middle of the metric's range
    when that range is finite (0 for MCC, 0.5 for accuracy), otherwise the median of
    the finite values; mid is kept inside [lo, hi].
    """
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return [0.0, 0.5, 1.0]
    lo, hi = float(finite.min()), float(finite.max())
    r_lo, r_hi = (float(v) for v in metric_range)
    mid = (r_lo + r_hi) / 2 if math.isfinite(r_lo) and math.isfinite(r_hi) else float(np.median(finite))
    return [lo, min(max(mid, lo), hi), hi]


class Buffer(traitlets.Bytes):
    """A numpy array shipped as a contiguous little-endian binary buffer of ``dtype``.

    Assign any array-like (it is converted once, here); bytes are taken as they are
    (their length must be a whole number of items). Read it back with
    :func:`buffer_array`. The dtype is declared with the trait, so no widget packs
    bytes by hand.
    """

    def __init__(self, dtype: str, **kwargs: Any) -> None:
        self.dtype = np.dtype(dtype)
        super().__init__(b"", **kwargs)

    def validate(self, obj: Any, value: Any) -> bytes:
        if isinstance(value, bytes | bytearray | memoryview):
            value = bytes(value)
            if len(value) % self.dtype.itemsize:
                raise InvalidTraitError(
                    f"{self.name} holds {self.dtype} items of {self.dtype.itemsize} bytes; got {len(value)} bytes."
                )
            return value
        return np.ascontiguousarray(value, dtype=self.dtype).tobytes()


def buffer_array(widget: traitlets.HasTraits, name: str) -> np.ndarray:
    """The :class:`Buffer` trait ``name`` of ``widget`` as a read-only numpy array."""
    trait = widget.traits()[name]
    return np.frombuffer(getattr(widget, name), dtype=trait.dtype)


class Tolerance(traitlets.Float):
    """Tail mass each marginal may drop (:func:`confusionlab._validation.check_tolerance`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(DEFAULT_TOLERANCE, **kwargs)

    def validate(self, obj: Any, value: Any) -> float:
        return trait_check(check_tolerance, value, self.name)


def nearest_index(thresholds: np.ndarray, threshold: float) -> int:
    """The index of the value of ascending ``thresholds`` nearest to ``threshold`` (the lower one of two
    equally near): the column a curve view's cursor reads.

    The browser picks the same column (``js/shared/search.js``, ``nearestIndex``).

    >>> nearest_index(np.array([0.0, 0.1, 0.2]), 0.14), nearest_index(np.array([0.0, 0.1, 0.2]), 0.15)
    (1, 1)
    """
    return int(np.argmin(np.abs(thresholds - threshold)))


class FiniteReal(traitlets.Float):
    """A finite real number (:func:`confusionlab._validation.check_finite_real`); the view checks its range."""

    def validate(self, obj: Any, value: Any) -> float:
        return trait_check(check_finite_real, value, self.name)


class Confidence(traitlets.Float):
    """Level of a central interval, in (0, 1) (:func:`confusionlab._validation.check_confidence`)."""

    def validate(self, obj: Any, value: Any) -> float:
        return trait_check(check_confidence, value, self.name)


def observed_defaults(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with ``tp`` and ``tn`` defaulting to half of ``p`` and ``n`` (rounded down)."""
    for inner, side, default in (("tp", "p", 20), ("tn", "n", 40)):
        size = kwargs.get(side, default)
        kwargs.setdefault(inner, size // 2 if is_int(size) else 0)
    return kwargs


# ----------------------------------------------------------------------------- the base
_UNSET = object()


def _same(a: Any, b: Any) -> bool:
    """Whether a trait value is unchanged (identity first; buffers compare by value)."""
    if a is b:
        return True
    if type(a) is not type(b) or isinstance(a, np.ndarray):
        return False
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


class StatefulWidget(traitlets.HasTraits):
    """Validation before mutation, rollback and the batched ``update(**traits)``: the one
    update mechanism of every ConfusionLab widget.

    A widget lists in ``_ALL_PARTS`` the parts of its state that can be recomputed, asks
    for parts with :meth:`_request` from its observers and implements the hook
    ``_refresh(parts)`` (the only place that calls the core). Requests made while the
    widget *holds* (its constructor, :meth:`update`, :meth:`hold`) are collected and
    served once at the end. ``_schedule`` decides when a request is served: at once by
    default; the Explorer defers it to the kernel's event loop.

    Every refresh runs in a :meth:`transaction`: if anything raises — a refused value, a
    core function that fails, an exception in the browser's change — every trait (the
    synced buffers included), the attributes named in ``_EXTRA_STATE`` and anything a
    subclass restores in ``_after_rollback`` return to the last consistent state (the
    state after the last successful change), the browser is sent nothing new (or the
    old value back, when the change came from the browser), and the error is re-raised.

    Mix it in before an ipywidgets class: ``class View(StatefulWidget, widgets.VBox)``;
    anywidget front-ends derive from :class:`BundledWidget`.
    """

    #: Parts of the state a refresh recomputes (``_refresh`` receives a subset).
    _ALL_PARTS: ClassVar[frozenset[str]] = frozenset({"all"})
    #: Trait names ``update`` accepts, in the order it sets them (None: every trait).
    _UPDATE_TRAITS: ClassVar[tuple[str, ...] | None] = None
    #: Plain attributes that belong to the drawn state and roll back with the traits.
    _EXTRA_STATE: ClassVar[tuple[str, ...]] = ()
    #: Traits never snapshotted (plumbing of ipywidgets/anywidget, not state).
    _NOT_STATE: ClassVar[frozenset[str]] = frozenset({"comm", "log", "keys"})

    _holding = 0
    _depth = 0
    _restoring = False
    _pending: frozenset[str] = frozenset()
    _committed: dict[str, Any] | None = None
    _unsent: set[str] = set()  # noqa: RUF012 - replaced, never mutated

    def __init__(self, **kwargs: Any) -> None:
        unknown = sorted(set(kwargs) - set(self.class_trait_names()))
        if unknown:  # traitlets would ignore them (a misspelt trait would silently keep its default)
            raise InvalidParameterError(
                f"{type(self).__name__} got unknown arguments {unknown}; its traits are {sorted(self._public_traits())}"
            )
        self._holding = 1  # compute once, below, not once per trait the constructor sets
        try:
            super().__init__(**kwargs)
            self._setup()
        finally:
            self._holding = 0
            self._pending = frozenset()
        self._committed = None  # nothing consistent yet: a failure here fails the constructor
        self._pending = self._ALL_PARTS
        self._flush()

    @classmethod
    def _public_traits(cls) -> list[str]:
        return [name for name in cls.class_trait_names() if not name.startswith("_") and name not in cls._NOT_STATE]

    # ----------------------------------------------------------------- hooks
    def _setup(self) -> None:
        """Build what the first refresh needs (children views, …); runs while holding."""

    def _refresh(self, parts: set[str]) -> None:  # pragma: no cover - implemented by widgets
        raise NotImplementedError

    def _schedule(self) -> None:
        """Serve the pending request: now (default) or later (the Explorer)."""
        self._flush()

    def _after_rollback(self) -> None:
        """Restore what is not a trait of this widget (e.g. controls) after a rollback."""

    # ----------------------------------------------------------------- requests
    def _request(self, parts: Iterable[str]) -> None:
        """Recompute ``parts`` now, or once when the widget stops holding."""
        if self._restoring:
            return
        self._pending = self._pending | frozenset(parts)
        if not self._holding:
            self._schedule()

    def _flush(self) -> None:
        """Serve the pending request inside a transaction (a failure rolls back)."""
        parts, self._pending = self._pending, frozenset()
        if parts:
            with self.transaction():
                self._refresh(set(parts))
        self._settle()

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        """Compute once, when the outermost ``hold`` ends, whatever changed inside."""
        self._holding += 1
        try:
            yield
        finally:
            self._holding -= 1
        if not self._holding and self._pending:
            self._schedule()

    def update(self, **traits: Any) -> None:
        """Change any set of traits together: validated together, computed once, and
        sent to the browser in one message (so the view never mixes two states).

        Raises
        ------
        confusionlab.InvalidParameterError
            For a name that is not a trait the widget accepts here (it is a
            ``TypeError`` too), or, as an :class:`InvalidTraitError`, when a value is
            invalid or the values are inconsistent. Nothing changes: neither a trait
            nor a buffer drawn in the browser. (A value traitlets itself refuses, out of
            an ``Int``'s bounds, say, raises its plain ``traitlets.TraitError``.)
        Exception
            Whatever the core raised while computing the new state; the widget is
            rolled back to its previous state first.
        """
        allowed = self._UPDATE_TRAITS if self._UPDATE_TRAITS is not None else tuple(self.trait_names())
        unknown = sorted(set(traits) - set(allowed))
        if unknown:
            raise InvalidParameterError(
                f"{type(self).__name__} got unknown traits (state names) {unknown}; expected some of {list(allowed)}"
            )
        order = {name: i for i, name in enumerate(allowed)}
        with self.transaction():
            with self.hold():
                with self.hold_trait_notifications():  # cross-validated together at the end
                    for key in sorted(traits, key=order.__getitem__):
                        setattr(self, key, traits[key])

    # ----------------------------------------------------------------- transactions
    def _snapshot(self) -> dict[str, Any]:
        state = {name: getattr(self, name) for name in self.trait_names() if name not in self._NOT_STATE}
        for name in self._EXTRA_STATE:
            state[name] = getattr(self, name, _UNSET)
        return state

    def _settle(self) -> None:
        """Record the current state as consistent once nothing is held, pending or running."""
        if not (self._holding or self._depth or self._pending or self._restoring):
            self._committed = self._snapshot()
            # Keys of the consistent state still waiting to be sent (an outer hold_sync).
            self._unsent = set(getattr(self, "_states_to_send", ()))

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Run a change; on any exception restore the last consistent state and re-raise.

        Nested transactions (of this widget or, in the Explorer, of its views) each
        restore the state they started from.
        """
        base = self._committed if self._committed is not None else None
        if base is None and self._depth == 0 and not self._holding:
            base = self._snapshot()
        sending = getattr(self, "_states_to_send", None)
        queued = set(sending) if sending is not None else set()
        hold_sync = getattr(self, "hold_sync", contextlib.nullcontext)
        self._depth += 1
        try:
            with hold_sync():
                try:
                    yield
                except BaseException:
                    if base is not None:
                        self._rollback(base, queued)
                    raise
        finally:
            self._depth -= 1
        if self._depth == 0:
            self._settle()

    def _rollback(self, base: dict[str, Any], queued: set[str]) -> None:
        self._restoring = True
        restored: set[str] = set()
        try:
            with self.hold_trait_notifications():
                for name, value in base.items():
                    if name in self._EXTRA_STATE:
                        if value is _UNSET:
                            self.__dict__.pop(name, None)
                        else:
                            setattr(self, name, value)
                    elif not _same(getattr(self, name), value):
                        self.set_trait(name, value)
                        restored.add(name)
            sending = getattr(self, "_states_to_send", None)
            if sending is not None:
                # The browser has the consistent state (every change is sent at the end of
                # a hold_sync): send it nothing new, except what it has not received yet
                # and what it set itself and was refused (a drag), which goes back to it.
                keep = set(getattr(self, "_property_lock", {})) | self._unsent
                result = (queued - restored) | (restored & keep)
                sending.clear()
                sending.update(result)
            self._pending = frozenset()
            self._committed = base
            self._after_rollback()
        finally:
            self._restoring = False

    def notify_change(self, change: Any) -> None:
        # A trait and the buffers computed from it travel in one message; a change that
        # needed no computation (a view option) becomes part of the consistent state.
        with contextlib.ExitStack() as stack:
            if hasattr(self, "hold_sync"):
                stack.enter_context(self.hold_sync())
            super().notify_change(change)
        self._settle()


class BundledWidget(StatefulWidget, anywidget.AnyWidget):
    """An anywidget whose front-end is ``static/<bundle>.js`` (+ ``.css``), built from ``js/``.

    Subclasses name their bundle: ``class RocSlice(BundledWidget, bundle="roc_slice")``.
    The bundle is looked up once, when the class is defined, with instructions to build
    it when it is missing.
    """

    def __init_subclass__(cls, bundle: str | None = None, **kwargs: Any) -> None:
        if bundle is not None:
            esm, css = STATIC / f"{bundle}.js", STATIC / f"{bundle}.css"
            if not esm.is_file():
                raise FileNotFoundError(
                    f"The {cls.__name__} front-end bundle {esm} is missing. In a checkout, build it with "
                    "`make install` (or `npm ci && npm run build`); `pip install` of the repository builds it too."
                )
            cls._esm = esm
            if css.is_file():
                cls._css = css
        super().__init_subclass__(**kwargs)
