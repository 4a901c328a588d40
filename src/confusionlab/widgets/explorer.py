"""`Explorer`: the confusion simplex, a ROC slice and metric PMFs, linked.

One ipywidgets layout holding sliders for N, p, TP and TN, a metric and a model
menu, an "animate class balance" player, and three views of one state:

* :class:`~confusionlab.widgets.confusion_simplex.ConfusionSimplex` (3-D, up to
  ``simplex_max_n``), with the slice p highlighted and the observed matrix marked;
* :class:`~confusionlab.widgets.roc_slice.RocSlice`, with the model's joint PMF as
  bubbles and a draggable observed point;
* :class:`~confusionlab.widgets.metric_pmf.MetricPMF`, binomial and beta-binomial
  PMFs of the metric side by side.

State and scheduling
--------------------
The state is six plain traitlets (``N, p, tp, tn, model, metric``). Any change
(from code, a slider, a drag in the slice or the player) only *requests* a
computation: the request bumps a counter and, if none is pending, schedules one
flush on the kernel's event loop (``loop.call_soon``), which runs when the kernel
has finished the message or cell in hand (:class:`~confusionlab.widgets._common.StatefulWidget`,
the one update mechanism of every widget, with the event loop as scheduler). The
flush reads the *latest* state,
gives it the next ``generation`` number and sets each view's state atomically
(one ``update`` per view: validated together, one message per
view, stamped with the generation). The flush waits until no change has arrived
for ``quiet`` seconds (4 ms), so messages that queued up while the kernel was busy
(a dragged slider) are all read before it computes. So a burst of changes costs
one computation for the final state, at most one flush is ever pending (no queue
of stale work),
and every view shows one whole state, the same generation once all messages
have arrived (``data-generation`` on the slice and the PMF panel). Outside a
running event loop (a plain script) each change computes at once; group changes
with :meth:`set` or ``with explorer.hold():``.

A flush that fails (any exception of the core) changes nothing: the views, their
buffers and generations, the state, the sliders and :attr:`generation` return to the
last state shown; the status line says what could not be shown, and the error is
re-raised.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
import traitlets

from .._validation import InvalidParameterError, TooLargeError, check_finite_real, check_int
from ..metrics import METRICS
from ._common import Integer, InvalidTraitError, MetricName, StatefulWidget, too_large
from .confusion_simplex import MAX_N as SIMPLEX_MAX_N
from .confusion_simplex import ConfusionSimplex
from .metric_pmf import MetricPMF
from .roc_slice import SLICE_MODELS, RocSlice

__all__ = ["Explorer"]

#: Largest N the Explorer accepts (its sliders stop at ``max_slider_n``).
MAX_N = 1_000_000

#: Lattice points the Explorer's slice draws one by one: about two per pixel of its
#: 270 × 270 plot; a larger slice is thinned (the slice says so), which keeps a new
#: slice at N = 1,000 to ~0.2 MB instead of ~0.9 MB.
SLICE_MAX_POINTS = 130_000

#: Sizes (CSS pixels) of the views, chosen for a 1,440 × 900 screen: with JupyterLab's
#: file browser open the notebook's output is about 1,008 px wide, and the slice, its two
#: PMF panels and the simplex fit side by side on the first screen (a 990-px row); on a
#: narrower page the simplex goes below them.
SLICE_SIZE = 270
PMF_PANEL_WIDTH = 200
SIMPLEX_SIZE = 220
SLIDER_WIDTH = 300
#: Width the slice's marginal PMF strip adds to its canvas (js/roc_slice: STRIP + STRIP_GAP).
SLICE_STRIP = 52

#: Explorer-scoped CSS: each PMF panel's text wraps at the panel's width (two panels
#: side by side), the player's label sits beside its buttons.
EXPLORER_CSS = f"""<style>
.confusionlab-explorer .confusionlab-metric-pmf .cl-summary,
.confusionlab-explorer .confusionlab-metric-pmf .cl-hover {{ max-width: {PMF_PANEL_WIDTH}px; }}
.confusionlab-explorer .confusionlab-player-label {{ line-height: 1.25; }}
</style>"""

#: Distinct values sent per PMF panel before aggregating into bins (a 142-pixel plot
#: merges sticks per pixel anyway); mean, sd and interval stay exact.
PMF_MAX_VALUES = 4_000

#: Metrics offered in the menu (any registry name may be set from code).
MENU_METRICS = ("mcc", "balanced_accuracy", "accuracy", "f1", "informedness", "cohen_kappa", "g_mean", "jaccard")


def call_soon(callback: Callable[[], None]) -> None:
    """Run ``callback`` on the next turn of the running event loop (the kernel's),
    or now when no loop runs (a plain script)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        callback()
    else:
        loop.call_soon(callback)


class Explorer(StatefulWidget, widgets.VBox):
    """Linked views of one confusion matrix: 3-D simplex, ROC slice and metric PMFs.

    Parameters
    ----------
    N, p, tp, tn : int
        Examples, positives, observed true positives and true negatives; the
        default is the paper's example N = 60, p = 20, TP = 16, TN = 32.
    model : {"none", "binomial", "beta-binomial"}
        Model drawn over the slice (bubbles) and as the simplex's cloud
        (beta-binomial only).
    metric : str
        Metric colouring the views and whose PMFs are shown.
    simplex_max_n : int
        Largest N for which the 3-D simplex is shown (default 150: every matrix
        drawn; 0 to 300, the simplex's own largest N; 0 never shows it); above it the
        simplex is hidden and the Explorer says why.
    max_slider_n : int
        Upper end of the N slider (default 500, so that one step is visible;
        code may set N up to 1,000,000 and the slider grows to it).
    scheduler : callable, optional
        ``scheduler(callback)`` runs ``callback`` later; default :func:`call_soon`
        (the kernel's event loop). Tests pass their own (then ``quiet`` is not used).
    quiet : float
        Seconds without a new change before the pending flush computes (default
        0.004, with the default scheduler only). Messages that queued up while the
        kernel was computing (a dragged slider, a drag in the slice) are read back
        to back, well within this window, so they all land before one computation.

    Attributes
    ----------
    slice, pmf, simplex : widgets
        The three views.
    sliders, metric_menu, model_menu, player : widgets
        The controls of the state; ``player`` animates the class balance.
    contour_menu, pmf_mode : widgets
        View options: contours of further metrics on the slice, PMF sticks or histogram.
    generation : int
        Number of the state the views were last given.
    computations : int
        Number of flushes that computed a state.
    last_seconds : float
        Kernel time of the last computation.

    Examples
    --------
    >>> from confusionlab.widgets.explorer import Explorer
    >>> x = Explorer()
    >>> x.N = 61          # in a plain script the views update at once
    >>> x.slice.n, x.pmf.n, x.generation
    (41, 41, 2)
    >>> x.set(p=30, tp=24, tn=24)
    >>> x.slice.p, x.slice.generation == x.pmf.generation == x.generation
    (30, True)
    """

    N = Integer(60, help="number of examples")
    p = Integer(20, help="number of positives")
    tp = Integer(16, help="observed true positives")
    tn = Integer(32, help="observed true negatives")
    model = traitlets.Enum(SLICE_MODELS, "beta-binomial", help="model over the slice")
    metric = MetricName("mcc", help="key of confusionlab.METRICS")
    generation = Integer(0, help="state number the views show")
    computations = Integer(0, help="number of computations run")

    STATE = ("N", "p", "tp", "tn", "model", "metric")
    _UPDATE_TRAITS = STATE
    #: The state last shown belongs to the consistent state.
    _EXTRA_STATE = ("_shown",)

    def __init__(
        self,
        N: int = 60,
        p: int = 20,
        tp: int = 16,
        tn: int = 32,
        *,
        model: str = "beta-binomial",
        metric: str = "mcc",
        simplex_max_n: int = 150,
        max_slider_n: int = 500,
        scheduler: Callable[[Callable[[], None]], None] | None = None,
        quiet: float = 0.004,
        **kwargs: Any,
    ) -> None:
        self.simplex_max_n = check_int(simplex_max_n, "simplex_max_n", minimum=0, maximum=SIMPLEX_MAX_N)
        max_slider_n = check_int(max_slider_n, "max_slider_n", minimum=2, maximum=MAX_N)
        quiet = check_finite_real(quiet, "quiet")
        if quiet < 0:
            raise InvalidParameterError(f"quiet must be a number of seconds >= 0, got quiet={quiet!r}")
        if scheduler is not None and not callable(scheduler):
            raise InvalidParameterError(f"scheduler must be a callable scheduler(callback), got {scheduler!r:.80}")
        self._scheduler = scheduler or call_soon
        self._quiet = quiet if scheduler is None else 0.0
        self._last_request = 0.0
        self._scheduled = False
        self._applying = False
        self._shown: dict[str, Any] | None = None
        self._anim_rates: tuple[float, float] | None = None
        self.last_seconds = 0.0
        self._max_slider_n = max_slider_n
        # The base sets the state, builds the views (_setup) and computes once: the
        # views start on generation 1, whatever the scheduler.
        super().__init__(N=N, p=p, tp=tp, tn=tn, model=model, metric=metric, **kwargs)

    # ---------------------------------------------------------------- validation
    @traitlets.validate("N")
    def _check_n(self, proposal: traitlets.Bunch) -> int:
        if not 2 <= proposal.value <= MAX_N:
            raise InvalidTraitError(f"N must be between 2 and {MAX_N:,}, got N={proposal.value}.")
        return proposal.value

    @traitlets.validate("p")
    def _check_p(self, proposal: traitlets.Bunch) -> int:
        if not 1 <= proposal.value <= self.N - 1:
            raise InvalidTraitError(f"p must be between 1 and N - 1 = {self.N - 1}, got p={proposal.value}.")
        return proposal.value

    @traitlets.validate("tp")
    def _check_tp(self, proposal: traitlets.Bunch) -> int:
        if not 0 <= proposal.value <= self.p:
            raise InvalidTraitError(f"tp must be between 0 and p = {self.p}, got tp={proposal.value}.")
        return proposal.value

    @traitlets.validate("tn")
    def _check_tn(self, proposal: traitlets.Bunch) -> int:
        n = self.N - self.p
        if not 0 <= proposal.value <= n:
            raise InvalidTraitError(f"tn must be between 0 and n = N - p = {n}, got tn={proposal.value}.")
        return proposal.value

    # ---------------------------------------------------------------- public API
    @property
    def state(self) -> dict[str, Any]:
        """The current state ``{N, p, tp, tn, model, metric}`` (not necessarily drawn yet)."""
        return {key: getattr(self, key) for key in self.STATE}

    @property
    def shown(self) -> dict[str, Any] | None:
        """The state the views were last given (generation :attr:`generation`)."""
        return None if self._shown is None else dict(self._shown)

    def set(self, **state: Any) -> None:
        """Change several of ``N, p, tp, tn, model, metric`` at once (validated together).

        Raises
        ------
        confusionlab.InvalidParameterError
            For a name that is not part of the state, or values that are invalid or
            inconsistent; nothing changes.
        """
        self.update(**state)

    def flush(self) -> None:
        """Compute the pending state now (normally the event loop does it)."""
        self._flush()

    def animate(self, playing: bool = True) -> None:
        """Start (or stop) the class-balance animation: p sweeps over the slices at
        fixed N, keeping the observed TPR and TNR (the paper's animations)."""
        self.player.playing = bool(playing)

    # ---------------------------------------------------------------- scheduling
    @traitlets.observe("N", "p", "tp", "tn", "model", "metric")
    def _on_state(self, change: traitlets.Bunch) -> None:
        if self._restoring:
            return
        if change.name == "N":  # keep p, tp, tn inside the new sizes
            with self.hold():
                self.p = min(self.p, self.N - 1)
                self.tn = min(self.tn, self.N - self.p)
        elif change.name == "p":
            with self.hold():
                self.tp = min(self.tp, self.p)
                self.tn = min(self.tn, self.N - self.p)
        self._request(self._ALL_PARTS)

    def _schedule(self) -> None:
        """One flush on the event loop, however many changes arrive before it runs."""
        self._last_request = time.monotonic()
        if self._scheduled:
            return
        self._scheduled = True
        self._scheduler(self._flush_when_quiet)

    def _flush_when_quiet(self) -> None:
        """Flush once no change has arrived for ``quiet`` seconds (one pending call at most)."""
        wait = self._last_request + self._quiet - time.monotonic()
        if self._quiet > 0 and wait > 0 and self._scheduled:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop (a plain script): nothing can arrive meanwhile
                pass
            else:
                loop.call_later(wait, self._flush_when_quiet)
                return
        self._flush()

    def _flush(self) -> None:
        self._scheduled = False
        self._pending = self._pending or self._ALL_PARTS  # an explicit flush() reads the state too
        super()._flush()

    def _refresh(self, parts: set[str]) -> None:
        state = self.state
        if state == self._shown:
            return
        start = time.perf_counter()
        self._applying = True
        try:
            # One transaction over the three views: if one fails, all return to the
            # state shown (buffers and generation), and so does the Explorer (the base).
            with contextlib.ExitStack() as views:
                for view in self.views:
                    views.enter_context(view.transaction())
                self._apply(state, self.generation + 1)
                self._shown = state
                self.generation += 1
        except TooLargeError as error:  # the core's advice names arguments the Explorer does not have
            refusal = too_large(
                error,
                f"the Explorer cannot show N = {state['N']:,} with {state['metric']} within the memory limit",
                "lower N, choose a metric that needs less (accuracy, the rates), or raise the limit "
                "(confusionlab.set_memory_limit)",
            )
            self._status.value = f"could not show N = {state['N']}, p = {state['p']}: {refusal}"
            raise refusal from None
        except Exception as error:  # on the event loop nobody would see it: say it in the app
            self._status.value = f"could not show N = {state['N']}, p = {state['p']}: {error}"
            raise
        finally:
            self._applying = False
        self.computations += 1
        self.last_seconds = time.perf_counter() - start
        self._status.value = self._status_text()
        self._status.tooltip = self._status_details()

    def _after_rollback(self) -> None:
        """Put the controls back on the state shown (a slider moved to a failing value)."""
        if self._shown is None or not hasattr(self, "sliders"):
            return
        applying, self._applying = self._applying, True
        try:
            self._sync_controls(self._shown)
            self._show_simplex(self._shown["N"])
        finally:
            self._applying = applying

    @property
    def views(self) -> tuple[Any, ...]:
        """The three views: simplex, slice, PMF panels."""
        return (self.simplex, self.slice, self.pmf)

    def _show_simplex(self, N: int) -> bool:
        show = N <= self.simplex_max_n
        self.simplex.layout.display = None if show else "none"
        m = self.simplex_max_n
        self._simplex_note.value = (
            ""
            if show
            else f"The 3-D simplex is shown up to N = {m} ({(m + 1) * (m + 2) * (m + 3) // 6:,} matrices); "
            f"N = {N:,} shows the slice and the PMFs."
        )
        return show

    def _apply(self, s: dict[str, Any], generation: int) -> None:
        N, p, tp, tn = s["N"], s["p"], s["tp"], s["tn"]
        n = N - p
        self.slice.update(p=p, n=n, tp=tp, tn=tn, metric=s["metric"], model=s["model"], generation=generation)
        self.pmf.update(p=p, n=n, tp=tp, tn=tn, metric=s["metric"], generation=generation)
        if self._show_simplex(N):
            self.simplex.update(
                N=N,
                metric=s["metric"],
                slices=[p],
                observed=[tp, p - tp, n - tn, tn],
                cloud="beta-binomial" if s["model"] == "beta-binomial" else "none",
            )
        self._sync_controls(s)  # after the views, so their messages leave first

    def _status_text(self) -> str:
        """The state shown, in words (the status line)."""
        s = self._shown or self.state
        fn, fp = s["p"] - s["tp"], s["N"] - s["p"] - s["tn"]
        return (
            f"N = {s['N']}, p = {s['p']}, n = {s['N'] - s['p']}, "
            f"TP = {s['tp']}, FN = {fn}, FP = {fp}, TN = {s['tn']} · {s['model']} · {METRICS[s['metric']].label}"
        )

    def _status_details(self) -> str:
        """How the state was computed (the status line's tooltip): its generation and the kernel's time."""
        return f"generation {self.generation}, computed in {1000 * self.last_seconds:.0f} ms"

    # ---------------------------------------------------------------- the layout
    def _setup(self) -> None:
        self._build(self._max_slider_n)
        self.add_class("confusionlab-explorer")

    def _build(self, max_slider_n: int) -> None:
        s = self.state
        style = {"description_width": "36px"}
        # Every control keeps its natural width (flex: none): a shrunk column would hide
        # the slider read-outs and clip the player's label behind its neighbour.
        fixed = {"flex": "0 0 auto"}
        slider_layout = widgets.Layout(width=f"{SLIDER_WIDTH}px", **fixed)
        top = max(max_slider_n, s["N"])
        self.sliders = {
            "N": widgets.IntSlider(s["N"], min=2, max=top, description="N", style=style, layout=slider_layout),
            "p": widgets.IntSlider(s["p"], min=1, max=s["N"] - 1, description="p", style=style, layout=slider_layout),
            "tp": widgets.IntSlider(s["tp"], min=0, max=s["p"], description="TP", style=style, layout=slider_layout),
            "tn": widgets.IntSlider(
                s["tn"], min=0, max=s["N"] - s["p"], description="TN", style=style, layout=slider_layout
            ),
        }
        names = list(dict.fromkeys([s["metric"], *MENU_METRICS]))
        menu_style = {"description_width": "64px"}
        menu_layout = widgets.Layout(width="300px", **fixed)
        self.metric_menu = widgets.Dropdown(
            options=[(METRICS[m].label, m) for m in names], value=s["metric"], description="metric",
            style=menu_style, layout=menu_layout,
        )  # fmt: skip
        self.model_menu = widgets.Dropdown(
            options=list(SLICE_MODELS), value=s["model"], description="model", style=menu_style, layout=menu_layout
        )
        self.player = widgets.Play(
            value=s["p"], min=1, max=s["N"] - 1, step=max(1, (s["N"] - 2) // 40), interval=300,
            show_repeat=True, layout=widgets.Layout(**fixed),
        )  # fmt: skip
        # An HTML label wraps instead of being cut off (a Label is one ellipsised line).
        player_label = widgets.HTML(
            "animate class balance<br><small>p sweeps, TPR and TNR kept</small>",
            layout=widgets.Layout(**fixed),
        )
        player_label.add_class("confusionlab-player-label")
        # View options (not part of the state): extra contour metrics, PMF histogram mode.
        self.contour_menu = widgets.SelectMultiple(
            options=[(METRICS[m].label, m) for m in MENU_METRICS], value=(), rows=3, description="contours",
            style=menu_style, layout=widgets.Layout(width="300px", **fixed),
        )  # fmt: skip
        self.pmf_mode = widgets.ToggleButtons(
            options=[("PMF", "pmf"), ("histogram", "histogram")], value="pmf", layout=widgets.Layout(**fixed)
        )
        self.pmf_mode.style.button_width = "90px"
        for key, slider in self.sliders.items():
            slider.observe(self._from_control(key), "value")
        self.metric_menu.observe(self._from_control("metric"), "value")
        self.model_menu.observe(self._from_control("model"), "value")
        self.player.observe(self._on_player, "value")
        self.player.observe(self._on_playing, "playing")

        self.slice = RocSlice(
            p=s["p"], n=s["N"] - s["p"], tp=s["tp"], tn=s["tn"], metric=s["metric"], model=s["model"],
            size=SLICE_SIZE, max_points=SLICE_MAX_POINTS,
        )  # fmt: skip
        self.slice.observe(self._from_slice, ["tp", "tn"])
        self.contour_menu.observe(self._on_contours, "value")
        self.pmf = MetricPMF(
            p=s["p"], n=s["N"] - s["p"], tp=s["tp"], tn=s["tn"], metric=s["metric"], width=PMF_PANEL_WIDTH,
            max_values=PMF_MAX_VALUES,
        )  # fmt: skip
        widgets.link((self.pmf_mode, "value"), (self.pmf, "mode"))
        self.simplex = ConfusionSimplex(
            N=max(1, min(s["N"], self.simplex_max_n)), metric=s["metric"], size=SIMPLEX_SIZE,
            slices=[s["p"]] if s["N"] <= self.simplex_max_n else [],
        )  # fmt: skip
        # Each view's box is as wide as its canvases (+ the 6-px padding on each side): its
        # title and status lines wrap inside instead of stretching it across the row.
        self.slice.layout.width = f"{SLICE_SIZE + SLICE_STRIP + 12}px"
        self.pmf.layout.width = f"{2 * PMF_PANEL_WIDTH + 12 + 12}px"  # two panels, a 12-px gap
        self.simplex.layout.width = f"{SIMPLEX_SIZE + 12}px"
        self._simplex_note = widgets.HTML("", layout=widgets.Layout(max_width=f"{SIMPLEX_SIZE + 12}px"))
        self._status = widgets.Label("", layout=widgets.Layout(width="auto", max_width="100%"))
        self._status.add_class("confusionlab-explorer-status")
        # The title shares the menus' column: no row of its own, so the views start higher.
        title = widgets.HTML(
            "<b>ConfusionLab Explorer</b>",
            layout=widgets.Layout(width="300px", **fixed),
        )
        column = widgets.Layout(flex="0 0 auto", margin="0 12px 0 0")
        controls = widgets.HBox(
            [
                widgets.VBox(list(self.sliders.values()), layout=column),
                widgets.VBox([title, self.metric_menu, self.model_menu, self.pmf_mode], layout=column),
                widgets.VBox(
                    [
                        widgets.HBox([self.player, player_label], layout=widgets.Layout(align_items="center", **fixed)),
                        self.contour_menu,
                    ],
                    layout=column,
                ),
            ],
            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"),
        )
        controls.add_class("confusionlab-explorer-controls")
        # The slice and the PMF it explains side by side (they wrap only on a narrow
        # page), then the simplex: beside them on a wide page, below them otherwise.
        pair = widgets.HBox(
            [self.slice, self.pmf],
            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start", flex="0 1 auto", overflow="visible"),
        )
        pair.add_class("confusionlab-explorer-pair")
        simplex_box = widgets.VBox(
            [self.simplex, self._simplex_note], layout=widgets.Layout(flex="0 1 auto", overflow="visible")
        )
        views = widgets.HBox(
            [pair, simplex_box],
            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start", overflow="visible"),
        )
        views.add_class("confusionlab-explorer-views")
        style = widgets.HTML(EXPLORER_CSS, layout=widgets.Layout(display="none"))
        self.children = [style, controls, views, self._status]

    def _sync_controls(self, s: dict[str, Any]) -> None:
        """Put the controls on the state (ranges first, so no value is clamped)."""
        sl = self.sliders
        sl["N"].max = max(sl["N"].max, s["N"])
        sl["N"].value = s["N"]
        sl["p"].max = s["N"] - 1
        sl["p"].value = s["p"]
        sl["tp"].max = s["p"]
        sl["tp"].value = s["tp"]
        sl["tn"].max = s["N"] - s["p"]
        sl["tn"].value = s["tn"]
        if s["metric"] not in [value for _, value in self.metric_menu.options]:
            self.metric_menu.options = [*self.metric_menu.options, (METRICS[s["metric"]].label, s["metric"])]
        self.metric_menu.value = s["metric"]
        self.model_menu.value = s["model"]
        self.player.max = s["N"] - 1
        self.player.step = max(1, (s["N"] - 2) // 40)
        if self.player.value != s["p"]:
            self.player.value = s["p"]

    # ---------------------------------------------------------------- control events
    def _from_control(self, key: str) -> Callable[[traitlets.Bunch], None]:
        def handler(change: traitlets.Bunch) -> None:
            if self._applying or change.new is None:
                return
            try:
                setattr(self, key, change.new)
            except traitlets.TraitError:
                pass  # a slider briefly outside the range being moved; the flush resets it

        return handler

    def _from_slice(self, change: traitlets.Bunch) -> None:
        """The observed point moved in the browser (click, drag, arrow keys)."""
        if self._applying:
            return
        self.set(tp=self.slice.tp, tn=self.slice.tn)

    def _on_contours(self, change: traitlets.Bunch) -> None:
        """Contours of further metrics on the slice (a view option: no new generation)."""
        self.slice.contour_metrics = list(change.new)

    def _on_playing(self, change: traitlets.Bunch) -> None:
        if change.new:
            self._anim_rates = (self.tp / self.p, self.tn / (self.N - self.p))

    def _on_player(self, change: traitlets.Bunch) -> None:
        if self._applying or change.new == self.p:
            return
        p = min(max(1, int(change.new)), self.N - 1)
        tpr, tnr = self._anim_rates or (self.tp / self.p, self.tn / (self.N - self.p))
        self.set(p=p, tp=min(p, round(tpr * p)), tn=min(self.N - p, round(tnr * (self.N - p))))
