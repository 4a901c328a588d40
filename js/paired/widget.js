// PairedView front-end: the joint PMF of (metric A, metric B) as a heat map with the diagonal,
// the PMF of A − B with the margin band, and the verdict in words. Every number arrives from
// Python (confusionlab.paired.compare_paired); this file scales, colours and writes text.
import { decodeFloat32, decodeFloat64 } from "../shared/buffers.js";
import { beginFrame, canvas2d, drawAxes, pixelRatio, segment } from "../shared/canvas.js";
import { cssRGB } from "../shared/colour.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";
import { el, parts } from "../shared/dom.js";
import { PALETTE } from "../shared/palette.js";
import { redrawOnChange } from "../shared/redraw.js";
import { linearScale, niceTicks } from "../shared/scale.js";
import { formatNumber, showsPruned } from "../shared/format.js";
import { stickColumns } from "../metric_pmf/geometry.js";
import { DECADES, DIFF_HEIGHT, DIFF_MARGINS, HEAT_MARGINS, bandPolygon, binOf, heatCells, maxMass, sequentialAt } from "./geometry.js";

/** Colour of the cross on the observed pair (the palette's colour of an observed value). */
export const OBSERVED_COLOUR = PALETTE.neutral;

export const KEYS = [
  "metric",
  "margin",
  "confidence",
  "bins",
  "width",
  "generation",
  "name_a",
  "name_b",
  "_edges",
  "_joint",
  "_diff_values",
  "_diff_probabilities",
  "_diff_domain",
  "_summary",
  "_question",
  "_metric_label",
];

/** Read the model; inconsistent buffers give an empty joint or difference (never a mixed one). */
export function readState(model) {
  const get = (k) => model.get(k);
  const edges = decodeFloat64(get("_edges"));
  const joint = decodeFloat32(get("_joint"));
  const bins = Math.max(0, edges.length - 1);
  const diffValues = decodeFloat64(get("_diff_values"));
  const diffProbs = decodeFloat32(get("_diff_probabilities"));
  const diffOk = diffValues.length === diffProbs.length;
  return {
    metric: get("metric"),
    label: get("_metric_label") || get("metric"),
    margin: get("margin") ?? 0,
    confidence: get("confidence") ?? 0.95,
    width: get("width") || 320,
    generation: get("generation") ?? 0,
    nameA: get("name_a") || "A",
    nameB: get("name_b") || "B",
    question: get("_question") ?? "",
    summary: get("_summary") ?? {},
    edges: joint.length === bins * bins ? edges : new Float64Array(0),
    joint: joint.length === bins * bins ? joint : new Float32Array(0),
    bins: joint.length === bins * bins ? bins : 0,
    diffValues: diffOk ? diffValues : new Float64Array(0),
    diffProbs: diffOk ? diffProbs : new Float32Array(0),
    diffDomain: get("_diff_domain") ?? [-1, 1],
  };
}

const VERDICT_WORDS = {
  "A better": (s) => `${s.nameA} better`,
  "B better": (s) => `${s.nameB} better`,
  "practically equivalent": () => "practically equivalent",
  "insufficient evidence": () => "insufficient evidence",
};

/** The verdict line (text). */
export function verdictText(state) {
  const s = state.summary;
  const words = (VERDICT_WORDS[s.verdict] ?? (() => String(s.verdict ?? "")))(state);
  const pct = Math.round((s.confidence ?? state.confidence) * 1000) / 10;
  const [lo, hi] = s.interval ?? [null, null];
  return (
    `Verdict: ${words} — margin ±${formatNumber(s.margin ?? state.margin)}, ` +
    `${pct}% interval of ${state.nameA} − ${state.nameB}: [${formatNumber(lo)}, ${formatNumber(hi)}]`
  );
}

/** P(A > B), P(A = B), P(A < B) in words (text). */
export function probabilityText(state) {
  const s = state.summary;
  const err = s.mc_error > 0 ? ` (Monte Carlo, standard error ${formatNumber(s.mc_error)})` : "";
  return (
    `${state.nameA} would score higher than ${state.nameB} with probability ${formatNumber(s.prob_greater)}, ` +
    `the same with probability ${formatNumber(s.prob_equal)}, and lower with probability ` +
    `${formatNumber(s.prob_less)}${err}. P(|${state.nameA} − ${state.nameB}| ≤ ${formatNumber(s.margin)}) = ` +
    `${formatNumber(s.prob_equivalent)}.`
  );
}

/** What the numbers rest on (text). */
export function notesText(state) {
  const s = state.summary;
  const parts = [
    `observed ${state.label}: ${state.nameA} ${formatNumber(s.value_a)}, ${state.nameB} ${formatNumber(s.value_b)}`,
    `examples where the two disagree: ${s.discordant ?? "?"}`,
    s.method === "exact" ? "exact" : `Monte Carlo, ${s.n_draws} draws`,
  ];
  if (s.outside_mass > 0) parts.push(`mass outside the map ${formatNumber(s.outside_mass)}`);
  return parts.join(" · ");
}

/** How the numbers were computed and sent (the notes' tooltip, not their text). */
export function notesDetails(state) {
  const s = state.summary;
  const parts = [];
  if (showsPruned(s.pruned_mass)) parts.push(`pruned mass ≤ ${formatNumber(s.pruned_mass)}`);
  if (s.aggregated) parts.push(`difference sent in ${state.diffValues.length} bins`);
  return parts.join(" · ");
}

/** Draw the heat map; returns the number of cells coloured. */
export function drawHeatMap(ctx, state, theme, dpr = 1) {
  const M = HEAT_MARGINS;
  const side = state.width;
  beginFrame(ctx, M.left + side + M.right, M.top + side + M.bottom, dpr);
  const { edges, bins } = state;
  if (bins < 1) return 0;
  const lo = edges[0];
  const hi = edges[bins];
  const x = linearScale(lo, hi, M.left, M.left + side); // A
  const y = linearScale(lo, hi, M.top + side, M.top); // B, upwards
  // Band |A − B| ≤ margin, under the cells.
  const band = bandPolygon(lo, hi, state.summary.margin ?? state.margin);
  if (band.length) {
    ctx.fillStyle = theme.accent;
    ctx.globalAlpha = 0.12;
    ctx.beginPath();
    band.forEach(([a, b], k) => (k ? ctx.lineTo(x(a), y(b)) : ctx.moveTo(x(a), y(b))));
    ctx.closePath();
    ctx.fill();
    ctx.globalAlpha = 1;
  }
  const cells = heatCells(state.joint, bins, bins);
  for (const c of cells) {
    ctx.fillStyle = cssRGB(sequentialAt(c.t));
    const x0 = x(edges[c.i]);
    const x1 = x(edges[c.i + 1]);
    const y0 = y(edges[c.j + 1]);
    const y1 = y(edges[c.j]);
    ctx.fillRect(x0, y0, Math.max(1, x1 - x0), Math.max(1, y1 - y0));
  }
  // Edges of the band, over the cells.
  if (band.length === 6) {
    ctx.strokeStyle = theme.accent;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(x(band[0][0]), y(band[1][1]));
    ctx.lineTo(x(band[2][0]), y(band[2][1]));
    ctx.moveTo(x(band[4][0]), y(band[4][1]));
    ctx.lineTo(x(band[5][0]), y(band[5][1]));
    ctx.stroke();
  }
  // The diagonal A = B.
  segment(ctx, x(lo), y(lo), x(hi), y(hi), { colour: theme.foreground, width: 1.5, dash: [5, 4] });
  // The observed pair: a cross, over a halo of the background so that it shows on dark cells.
  const { value_a: va, value_b: vb } = state.summary;
  if (va >= lo && va <= hi && vb >= lo && vb <= hi) {
    for (const [colour, width] of [
      [theme.background, 4],
      [OBSERVED_COLOUR, 2],
    ]) {
      segment(ctx, x(va) - 5, y(vb), x(va) + 5, y(vb), { colour, width });
      segment(ctx, x(va), y(vb) - 5, x(va), y(vb) + 5, { colour, width });
    }
  }
  // Frame, ticks, labels.
  const ticks = niceTicks(lo, hi, Math.max(2, Math.floor(side / 70)));
  drawAxes(ctx, theme, {
    box: { left: M.left, top: M.top, width: side, height: side },
    x,
    y,
    xTicks: ticks,
    yTicks: ticks,
    xTickY: M.top + side + 3,
    xTitle: `${state.label}, ${state.nameA}`,
    yTitle: `${state.label}, ${state.nameB}`,
  });
  ctx.fillStyle = theme.muted;
  ctx.textAlign = "right";
  ctx.textBaseline = "bottom";
  ctx.fillText(`${state.nameA} higher`, M.left + side - 4, M.top + side - 4);
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.fillText(`${state.nameB} higher`, M.left + 4, M.top + 4);
  return cells.length;
}

/** Draw the PMF of A − B with the margin band and the zero line; returns the sticks drawn. */
export function drawDifference(ctx, state, theme, dpr = 1) {
  const M = DIFF_MARGINS;
  const plotW = state.width;
  beginFrame(ctx, M.left + plotW + M.right, M.top + DIFF_HEIGHT + M.bottom, dpr);
  const [lo, hi] = state.diffDomain;
  if (!(hi > lo)) return 0;
  const x = linearScale(lo, hi, M.left, M.left + plotW);
  const cols = stickColumns(state.diffValues, state.diffProbs, state.diffProbs, lo, hi, plotW);
  const yMax = maxMass(cols.mass) * 1.05 || 1;
  const y = linearScale(0, yMax, M.top + DIFF_HEIGHT, M.top);
  const margin = state.summary.margin ?? state.margin;
  if (margin > 0) {
    ctx.fillStyle = theme.accent;
    ctx.globalAlpha = 0.15;
    const a = x(Math.max(lo, -margin));
    const b = x(Math.min(hi, margin));
    ctx.fillRect(a, M.top, Math.max(1, b - a), DIFF_HEIGHT);
    ctx.globalAlpha = 1;
  }
  let sticks = 0;
  const step = (hi - lo) / cols.mass.length;
  ctx.fillStyle = theme.foreground;
  for (let c = 0; c < cols.mass.length; c++) {
    if (!(cols.values[c] > 0)) continue;
    const v = lo + (c + 0.5) * step;
    const top = y(cols.mass[c]);
    ctx.fillRect(Math.round(x(v)) - 0.5, top, 1.5, M.top + DIFF_HEIGHT - top);
    sticks += 1;
  }
  segment(ctx, x(0), M.top, x(0), M.top + DIFF_HEIGHT, { colour: theme.foreground, dash: [5, 4] });
  drawAxes(ctx, theme, {
    box: { left: M.left, top: M.top, width: plotW, height: DIFF_HEIGHT },
    x,
    y,
    xTicks: niceTicks(lo, hi, Math.max(2, Math.floor(plotW / 70))),
    yTicks: niceTicks(0, yMax, 4),
    xTickY: M.top + DIFF_HEIGHT + 3,
    xTitle: `${state.label}: ${state.nameA} − ${state.nameB}`,
  });
  return sticks;
}

/** anywidget entry point. */
export function render({ model, el: host }) {
  const root = el("div", "confusionlab-paired", host);
  const { title, row } = parts(root, { title: "cl-title", row: "cl-panels" });
  const heatBox = el("div", "cl-panel", row);
  const { heatTitle, heat, legend } = parts(heatBox, {
    heatTitle: "cl-panel-title",
    heat: ["canvas", "cl-canvas cl-heat"],
    legend: "cl-summary",
  });
  heatTitle.textContent = "Joint PMF of the two scores";
  const diffBox = el("div", "cl-panel", row);
  const { diffTitle, diff } = parts(diffBox, { diffTitle: "cl-panel-title", diff: ["canvas", "cl-canvas cl-difference"] });
  const { verdict, words, notes, hover } = parts(root, {
    verdict: "cl-verdict",
    words: "cl-words",
    notes: "cl-summary",
    hover: "cl-hover",
  });
  heat.setAttribute("role", "img");
  diff.setAttribute("role", "img");
  let state = null;

  const draw = () => {
    state = readState(model);
    const theme = resolveTheme(cssVariableReader(root));
    const dpr = pixelRatio();
    const side = state.width;
    const hctx = canvas2d(heat, HEAT_MARGINS.left + side + HEAT_MARGINS.right, HEAT_MARGINS.top + side + HEAT_MARGINS.bottom, dpr);
    const dctx = canvas2d(diff, DIFF_MARGINS.left + side + DIFF_MARGINS.right, DIFF_MARGINS.top + DIFF_HEIGHT + DIFF_MARGINS.bottom, dpr);
    const cells = hctx ? drawHeatMap(hctx, state, theme, dpr) : 0;
    const sticks = dctx ? drawDifference(dctx, state, theme, dpr) : 0;
    legend.style.maxWidth = `${HEAT_MARGINS.left + side + HEAT_MARGINS.right}px`;
    title.textContent = state.question;
    diffTitle.textContent = `PMF of ${state.nameA} − ${state.nameB}, band ±${formatNumber(state.summary.margin ?? state.margin)}`;
    legend.textContent =
      `${state.bins} × ${state.bins} cells; colour: mass per cell on a log scale over ${DECADES} decades ` +
      `(blank below); dashed: ${state.nameA} = ${state.nameB}; cross: observed`;
    verdict.textContent = verdictText(state);
    words.textContent = probabilityText(state);
    notes.textContent = notesText(state);
    notes.title = notesDetails(state);
    heat.setAttribute("aria-label", `Joint PMF of ${state.label} of ${state.nameA} and ${state.nameB}: ${cells} cells`);
    diff.setAttribute("aria-label", `PMF of the ${state.label} difference: ${state.diffValues.length} values`);
    const s = state.summary;
    const d = root.dataset;
    d.metric = String(state.metric);
    d.margin = String(s.margin ?? state.margin);
    d.confidence = String(s.confidence ?? state.confidence);
    d.bins = String(state.bins);
    d.cells = String(cells);
    d.marks = String(sticks);
    d.diffValues = String(state.diffValues.length);
    d.verdict = String(s.verdict ?? "");
    d.method = String(s.method ?? "");
    d.probGreater = String(s.prob_greater ?? "");
    d.probEqual = String(s.prob_equal ?? "");
    d.probLess = String(s.prob_less ?? "");
    d.generation = String(state.generation);
  };

  heat.addEventListener("pointermove", (event) => {
    if (!state || state.bins < 1) return;
    const rect = heat.getBoundingClientRect();
    const M = HEAT_MARGINS;
    const lo = state.edges[0];
    const hi = state.edges[state.bins];
    const a = linearScale(M.left, M.left + state.width, lo, hi)(event.clientX - rect.left);
    const b = linearScale(M.top + state.width, M.top, lo, hi)(event.clientY - rect.top);
    const i = binOf(state.edges, a);
    const j = binOf(state.edges, b);
    if (i < 0 || j < 0) {
      hover.textContent = "";
      return;
    }
    const e = state.edges;
    hover.textContent =
      `${state.nameA} in [${formatNumber(e[i])}, ${formatNumber(e[i + 1])}), ${state.nameB} in ` +
      `[${formatNumber(e[j])}, ${formatNumber(e[j + 1])}): P = ${formatNumber(state.joint[i * state.bins + j])}`;
  });

  const redraw = redrawOnChange(model, KEYS, draw);
  draw();
  return () => redraw.dispose();
}
