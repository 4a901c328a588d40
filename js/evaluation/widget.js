// EvaluationView front-end: the question in words, then per group a PMF canvas with the
// refits' means overlaid, the decomposition bar and the verdict; the least stable objects below.
import { decodeFloat32, decodeFloat64 } from "../shared/buffers.js";
import { beginFrame, canvas2d, drawAxes, pixelRatio, segment } from "../shared/canvas.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";
import { el, parts } from "../shared/dom.js";
import { PALETTE } from "../shared/palette.js";
import { redrawOnChange } from "../shared/redraw.js";
import { linearScale, niceTicks } from "../shared/scale.js";
import { formatNumber } from "../shared/format.js";
import { MARGINS, PLOT_HEIGHT, maxMassInside, splitByOffsets, spread, varianceShares } from "./geometry.js";

/** Colour of the refits' means and of their share of the variance. */
export const REFIT_COLOUR = PALETTE.sources.refit;

export const KEYS = [
  "metric",
  "confidence",
  "width",
  "generation",
  "_panels",
  "_offsets",
  "_values",
  "_probabilities",
  "_refit_means",
  "_refit_offsets",
  "_domain",
  "_question",
  "_target",
  "_metric_label",
  "_n_refits",
  "_unstable",
  "_slice_note",
  "selected",
];

/** Read the model into panels of typed arrays (inconsistent buffers give empty panels). */
export function readState(model) {
  const get = (k) => model.get(k);
  const summaries = get("_panels") ?? [];
  const values = splitByOffsets(decodeFloat64(get("_values")), get("_offsets"), summaries.length);
  const probs = splitByOffsets(decodeFloat32(get("_probabilities")), get("_offsets"), summaries.length);
  const means = splitByOffsets(decodeFloat64(get("_refit_means")), get("_refit_offsets"), summaries.length);
  return {
    metric: get("metric"),
    label: get("_metric_label") || get("metric"),
    question: get("_question") || "",
    target: get("_target") || "",
    refits: get("_n_refits") ?? 0,
    width: get("width") || 520,
    generation: get("generation") ?? 0,
    domain: get("_domain") ?? [0, 1],
    unstable: get("_unstable") ?? [],
    selected: get("selected") ?? "",
    sliceNote: get("_slice_note") || "",
    panels: summaries.map((s, k) => ({ ...s, values: values[k], probs: probs[k], means: means[k] })),
  };
}

/** Draw one group's PMF with the refit spread; returns the number of sticks drawn. */
export function drawGroup(ctx, panel, state, theme, yMax, dpr = 1) {
  const W = state.width;
  beginFrame(ctx, W, MARGINS.top + PLOT_HEIGHT + MARGINS.bottom, dpr);
  const [lo, hi] = state.domain;
  const x = linearScale(lo, hi, MARGINS.left, W - MARGINS.right);
  const base = MARGINS.top + PLOT_HEIGHT;
  const y = linearScale(0, yMax || 1, base, MARGINS.top);
  const [a, b] = panel.interval ?? [null, null];
  if (a !== null && b !== null) {
    ctx.fillStyle = theme.accent;
    ctx.globalAlpha = 0.12;
    const xa = x(Math.max(lo, a));
    ctx.fillRect(xa, MARGINS.top, Math.max(1, x(Math.min(hi, b)) - xa), PLOT_HEIGHT);
    ctx.globalAlpha = 1;
  }
  ctx.fillStyle = theme.accent;
  let sticks = 0;
  for (let i = 0; i < panel.values.length; i++) {
    const v = panel.values[i];
    if (!(v >= lo && v <= hi)) continue;
    const top = y(panel.probs[i]);
    ctx.fillRect(Math.round(x(v)) - 0.5, top, 1.5, base - top);
    sticks += 1;
  }
  const s = spread(panel.means);
  if (s) {
    ctx.strokeStyle = REFIT_COLOUR;
    ctx.fillStyle = REFIT_COLOUR;
    ctx.globalAlpha = 0.25;
    ctx.fillRect(x(s.min), MARGINS.top - 6, Math.max(2, x(s.max) - x(s.min)), 5);
    ctx.globalAlpha = 1;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const m of panel.means) {
      ctx.moveTo(Math.round(x(m)) + 0.5, MARGINS.top - 7);
      ctx.lineTo(Math.round(x(m)) + 0.5, MARGINS.top + 4);
    }
    ctx.stroke();
  }
  if (panel.value !== null && panel.value >= lo && panel.value <= hi) {
    segment(ctx, x(panel.value), MARGINS.top, x(panel.value), base, { colour: theme.foreground, width: 2 });
  }
  drawAxes(ctx, theme, {
    box: { left: MARGINS.left, top: MARGINS.top, width: W - MARGINS.left - MARGINS.right, height: PLOT_HEIGHT },
    frame: "base",
    x,
    xTicks: niceTicks(lo, hi, Math.max(2, Math.floor(W / 80))),
  });
  return sticks;
}

/** One line about a group: value, interval, spread parts and the verdict. */
export function groupSummary(panel) {
  const pct = Math.round((panel.confidence ?? 0.95) * 100);
  const [a, b] = panel.interval ?? [null, null];
  let text =
    `${panel.group}: ${formatNumber(panel.value)} · ${pct}% [${formatNumber(a)}, ${formatNumber(b)}] · ` +
    `sd ${formatNumber(panel.total_sd)}`;
  if (panel.positives !== undefined) text += ` · ${panel.positives} pos / ${panel.negatives} neg`;
  if (panel.mc_error > 0) text += ` · Monte Carlo error ${formatNumber(panel.mc_error)}`;
  return text;
}

/**
 * Select a group (a click on its panel): written to the model and sent to Python, which
 * validates it and moves the linked RocSlice views. Returns whether anything changed.
 */
export function selectGroup(model, group) {
  if (typeof group !== "string" || model.get("selected") === group) return false;
  model.set("selected", group);
  model.save_changes();
  return true;
}

/** anywidget entry point. */
export function render({ model, el: host }) {
  const root = el("div", "confusionlab-evaluation", host);
  root.style.setProperty("--cl-refit", REFIT_COLOUR); // evaluation.css colours the refit's share with it
  const { question, note, sliceNote, list, unstable } = parts(root, {
    question: "cl-question",
    note: "cl-note",
    sliceNote: "cl-slice-note",
    list: "cl-groups",
    unstable: "cl-unstable",
  });
  let rows = [];

  const draw = () => {
    const state = readState(model);
    const theme = resolveTheme(cssVariableReader(root));
    const dpr = pixelRatio();
    question.textContent = state.question;
    note.textContent =
      `Sticks: the distribution of ${state.label} (shaded: the central interval; black line: the observed value)` +
      (state.refits ? `; orange ticks: the means of ${state.refits} refits. Bar: share of variance from the test set (blue) and the refit (orange).` : ".");
    while (rows.length > state.panels.length) rows.pop().box.remove();
    while (rows.length < state.panels.length) {
      const box = el("div", "cl-group", list);
      const { title, canvas, bar, verdict } = parts(box, {
        title: "cl-group-title",
        canvas: ["canvas", "cl-canvas"],
        bar: "cl-decomposition",
        verdict: "cl-verdict",
      });
      canvas.setAttribute("role", "img");
      const { test, refit } = parts(bar, { test: "cl-share-test", refit: "cl-share-refit" });
      const row = { box, title, canvas, test, refit, verdict, group: "" };
      box.tabIndex = 0;
      box.setAttribute("role", "button");
      box.addEventListener("click", () => selectGroup(model, row.group));
      box.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          selectGroup(model, row.group);
        }
      });
      rows.push(row);
    }
    const [lo, hi] = state.domain;
    const yMax = Math.max(0, ...state.panels.map((p) => maxMassInside(p.values, p.probs, lo, hi)));
    let marks = 0;
    state.panels.forEach((panel, k) => {
      const row = rows[k];
      row.group = String(panel.group);
      row.box.dataset.group = row.group;
      row.box.classList.toggle("cl-selected", row.group === state.selected);
      row.box.setAttribute("aria-pressed", String(row.group === state.selected));
      const ctx = canvas2d(row.canvas, state.width, MARGINS.top + PLOT_HEIGHT + MARGINS.bottom, dpr);
      row.canvas.setAttribute("aria-label", `distribution of ${state.label} for ${panel.group}`);
      if (ctx) marks += drawGroup(ctx, panel, state, theme, yMax * 1.05, dpr);
      row.title.textContent = groupSummary(panel);
      const shares = varianceShares(panel.test_set_sd, panel.refit_sd);
      row.test.style.width = `${(100 * shares.test).toFixed(1)}%`;
      row.refit.style.width = `${(100 * shares.refit).toFixed(1)}%`;
      row.test.title = `test set: sd ${formatNumber(panel.test_set_sd)}`;
      row.refit.title = `refit: sd ${formatNumber(panel.refit_sd)}`;
      row.verdict.textContent = panel.too_small
        ? "too small to say anything"
        : `${Math.round(100 * shares.test)}% test set · ${Math.round(100 * shares.refit)}% refit`;
      row.verdict.className = panel.too_small ? "cl-verdict cl-small" : "cl-verdict";
    });
    unstable.textContent = state.unstable.length
      ? "Least stable objects across refits (psi): " +
        state.unstable.map((u) => `#${u.index} (${u.group}) ${formatNumber(u.stability)}`).join(", ")
      : "";
    sliceNote.textContent = state.sliceNote;
    const d = root.dataset;
    d.selected = state.selected;
    d.metric = String(state.metric);
    d.target = state.target;
    d.groups = String(state.panels.length);
    d.refits = String(state.refits);
    d.marks = String(marks);
    d.generation = String(state.generation);
  };

  const redraw = redrawOnChange(model, KEYS, draw);
  draw();
  return () => redraw.dispose();
}
