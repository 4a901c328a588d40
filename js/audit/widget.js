// AuditView front-end: the verdict grid (canvas) and one cell's interval against its band.
import { asDataView, decodeFloat64 } from "../shared/buffers.js";
import { beginFrame, canvas2d, listen, pixelRatio, sizeCanvas } from "../shared/canvas.js";
import { el, parts } from "../shared/dom.js";
import { PALETTE } from "../shared/palette.js";
import { formatNumber } from "../shared/format.js";
import { redrawOnChange } from "../shared/redraw.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";
import {
  VERDICTS,
  VERDICT_COLOURS,
  cellAt,
  countVerdicts,
  detailDomain,
  gridLayout,
  insufficientReason,
  position,
  verdictColour,
} from "./geometry.js";

export const KEYS = [
  "cell",
  "selected",
  "generation",
  "_groups",
  "_sizes",
  "_metrics",
  "_no_bias",
  "_margin",
  "_verdicts",
  "_values",
  "_lower",
  "_upper",
  "_summary",
];

/** Height of the detail strip (CSS pixels). */
export const DETAIL_HEIGHT = 64;

function decodeUint8(value) {
  const view = asDataView(value);
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** Read the model; buffers inconsistent with groups × metrics give an empty grid. */
export function readState(model) {
  const get = (k) => model.get(k);
  const groups = get("_groups") ?? [];
  const metrics = get("_metrics") ?? [];
  const verdicts = decodeUint8(get("_verdicts"));
  const values = decodeFloat64(get("_values"));
  const lower = decodeFloat64(get("_lower"));
  const upper = decodeFloat64(get("_upper"));
  const sizes = decodeFloat64(get("_sizes"));
  const n = groups.length * metrics.length;
  const consistent =
    verdicts.length === n && values.length === n && lower.length === n && upper.length === n && sizes.length === 2 * groups.length;
  return {
    groups: consistent ? groups : [],
    metrics: consistent ? metrics : [],
    noBias: get("_no_bias") ?? [],
    margin: get("_margin") ?? [],
    verdicts: consistent ? verdicts : new Uint8Array(0),
    values,
    lower,
    upper,
    sizes,
    cell: get("cell") || 28,
    selected: get("selected") ?? -1,
    generation: get("generation") ?? 0,
    summary: get("_summary") ?? {},
  };
}

/** What one cell says, in words (set with textContent). */
export function cellText(state, index) {
  if (!(index >= 0 && index < state.verdicts.length)) return "";
  const m = state.metrics.length;
  const g = Math.floor(index / m);
  const j = index % m;
  const code = state.verdicts[index];
  const group = state.groups[g];
  const metric = metricName(state, state.metrics[j]);
  if (code === 255) return `${group} · ${metric}: no row`;
  const v0 = state.noBias[j];
  const margin = state.margin[j];
  const pct = formatNumber(100 * (state.summary.level ?? 0.95));
  const n = state.sizes[2 * g];
  const nc = state.sizes[2 * g + 1];
  return (
    `${group} · ${metric} = ${formatNumber(state.values[index])}; ${pct}% simultaneous interval ` +
    `[${formatNumber(state.lower[index])}, ${formatNumber(state.upper[index])}] against the band ` +
    `[${formatNumber(v0 - margin)}, ${formatNumber(v0 + margin)}] → ${VERDICTS[code]} ` +
    `(n = ${n}, compared with ${nc})` +
    (state.summary.favoured?.[index] ? `; ${state.summary.favoured[index]}` : "") +
    (code === 2 ? `. ${insufficientReason(state.lower[index], state.upper[index], v0, margin, n)}` : "")
  );
}

/** A metric's abbreviation with its name in words ("class imbalance (CI)"), as Python sends the names. */
export function metricName(state, abbreviation) {
  const words = state.summary.names?.[abbreviation];
  return words && words !== abbreviation ? `${words} (${abbreviation})` : String(abbreviation);
}

/** The key under the grid: each column's abbreviation in words ("CI: class imbalance · …"). */
export function metricKey(state) {
  return state.metrics
    .filter((m) => state.summary.names?.[m] && state.summary.names[m] !== m)
    .map((m) => `${m}: ${state.summary.names[m]}`)
    .join(" · ");
}

/** The short header (the legend below it counts the verdicts). */
export const titleText = (state) => `Fairness audit: ${state.groups.length} groups × ${state.metrics.length} metrics`;

/** The line under the header: the question, whom each facet is compared with, the intervals' level. */
export function subtitleText(state) {
  const s = state.summary;
  const parts = [];
  if (s.question) parts.push(`Question: ${s.question}.`);
  if ((s.compared ?? []).length) parts.push(`Compared: ${s.compared.join("; ")}.`);
  parts.push(
    `Verdicts on intervals that hold together with probability ${formatNumber(s.confidence)} ` +
      `(each at ${formatNumber(s.level)}, Bonferroni).`,
  );
  return parts.join(" ");
}

/** Draw the grid; returns the number of cells drawn. */
export function drawGrid(ctx, state, layout, theme, dpr = 1, hover = -1) {
  const { labelWidth, headerHeight, cell, width, height } = layout;
  beginFrame(ctx, width, height, dpr);
  ctx.font = `10px ${theme.font}`;
  ctx.fillStyle = theme.foreground;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  state.metrics.forEach((m, j) => ctx.fillText(String(m), labelWidth + (j + 0.5) * cell, headerHeight / 2));
  ctx.textAlign = "right";
  state.groups.forEach((g, i) => ctx.fillText(String(g), labelWidth - 6, headerHeight + (i + 0.5) * cell));
  let drawn = 0;
  const nm = state.metrics.length;
  for (let k = 0; k < state.verdicts.length; k++) {
    const i = Math.floor(k / nm);
    const j = k % nm;
    const x = labelWidth + j * cell;
    const y = headerHeight + i * cell;
    ctx.fillStyle = verdictColour(state.verdicts[k]);
    ctx.fillRect(x + 1, y + 1, cell - 2, cell - 2);
    drawn += 1;
  }
  for (const [k, colour, w] of [
    [hover, theme.muted, 1.5],
    [state.selected, theme.foreground, 2.5],
  ]) {
    if (k >= 0 && k < state.verdicts.length) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = w;
      ctx.strokeRect(labelWidth + (k % nm) * cell + 1, headerHeight + Math.floor(k / nm) * cell + 1, cell - 2, cell - 2);
    }
  }
  return drawn;
}

/** Draw one cell's interval against its band (the detail strip). Returns false when there is none. */
export function drawDetail(ctx, state, index, width, theme, dpr = 1) {
  beginFrame(ctx, width, DETAIL_HEIGHT, dpr);
  if (!(index >= 0 && index < state.verdicts.length) || state.verdicts[index] === 255) return false;
  const j = index % state.metrics.length;
  const v0 = state.noBias[j];
  const margin = state.margin[j];
  const lo = state.lower[index];
  const hi = state.upper[index];
  const value = state.values[index];
  const domain = detailDomain(lo, hi, value, v0, margin);
  const left = 12;
  const right = width - 12;
  const x = (v) => position(v, domain, left, right);
  const mid = 26;
  // the band of immaterial values
  ctx.fillStyle = VERDICT_COLOURS[1];
  ctx.globalAlpha = 0.25;
  ctx.fillRect(x(v0 - margin), 6, Math.max(1, x(v0 + margin) - x(v0 - margin)), 40);
  ctx.globalAlpha = 1;
  ctx.strokeStyle = theme.muted;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(x(v0), 4);
  ctx.lineTo(x(v0), 48);
  ctx.stroke();
  // the simultaneous interval and the value
  if (Number.isFinite(lo) || Number.isFinite(hi)) {
    ctx.strokeStyle = verdictColour(state.verdicts[index]);
    ctx.lineWidth = 4;
    ctx.beginPath();
    ctx.moveTo(x(Number.isNaN(lo) ? domain[0] : lo), mid);
    ctx.lineTo(x(Number.isNaN(hi) ? domain[1] : hi), mid);
    ctx.stroke();
  }
  if (Number.isFinite(value)) {
    ctx.fillStyle = theme.foreground;
    ctx.beginPath();
    ctx.arc(x(value), mid, 4, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.fillStyle = theme.foreground;
  ctx.font = `10px ${theme.font}`;
  ctx.textBaseline = "top";
  ctx.textAlign = "left";
  ctx.fillText(formatNumber(domain[0]), left, 50);
  ctx.textAlign = "right";
  ctx.fillText(formatNumber(domain[1]), right, 50);
  ctx.textAlign = "center";
  ctx.fillText(`no bias ${formatNumber(v0)} ± ${formatNumber(margin)}`, x(v0), 50);
  return true;
}

/** anywidget entry point. */
export function render({ model, el: host }) {
  const root = el("div", "confusionlab-audit", host);
  const { title, subtitle, legend, grid, key, detail, text, notes } = parts(root, {
    title: "cl-title",
    subtitle: "cl-subtitle",
    legend: "cl-legend",
    grid: ["canvas", "cl-grid"],
    key: "cl-key",
    detail: ["canvas", "cl-detail"],
    text: "cl-hover",
    notes: "cl-notes",
  });
  grid.setAttribute("role", "img");
  let state = null;
  let layout = null;
  let hover = -1;

  const paint = () => {
    const theme = resolveTheme(cssVariableReader(root));
    const dpr = pixelRatio();
    const ctx = grid.getContext?.("2d") ?? null;
    const drawn = ctx ? drawGrid(ctx, state, layout, theme, dpr, hover) : 0;
    const shown = hover >= 0 ? hover : state.selected;
    const width = Math.max(360, layout.width);
    const dctx = canvas2d(detail, width, DETAIL_HEIGHT, dpr);
    if (dctx) drawDetail(dctx, state, shown, width, theme, dpr);
    text.textContent = shown >= 0 ? cellText(state, shown) : "Hover over or click a cell to see its interval.";
    root.dataset.selected = String(state.selected);
    return drawn;
  };

  const draw = () => {
    state = readState(model);
    layout = gridLayout(state.groups, state.metrics, state.cell);
    sizeCanvas(grid, layout.width, layout.height);
    if (hover >= state.verdicts.length) hover = -1;
    const drawn = paint();
    const counts = countVerdicts(state.verdicts);
    const s = state.summary;
    title.textContent = titleText(state);
    subtitle.textContent = subtitleText(state);
    key.textContent = metricKey(state);
    legend.replaceChildren();
    VERDICTS.forEach((v, k) => {
      const item = el("span", "cl-legend-item", legend);
      item.style.background = VERDICT_COLOURS[k];
      item.style.color = PALETTE.theme.foreground; // dark text on the light swatches, whatever the theme
      item.textContent = `${v}: ${[counts.bias, counts.fair, counts.insufficient][k]}`;
    });
    notes.textContent = (s.notes ?? []).length ? `Notes: ${(s.notes ?? []).join("; ")}` : "";
    grid.setAttribute(
      "aria-label",
      `verdict grid: ${counts.bias} bias, ${counts.fair} no material bias, ${counts.insufficient} insufficient evidence`,
    );
    Object.assign(root.dataset, {
      groups: String(state.groups.length),
      metrics: String(state.metrics.length),
      cells: String(drawn),
      bias: String(counts.bias),
      fair: String(counts.fair),
      insufficient: String(counts.insufficient),
      generation: String(state.generation),
    });
  };

  const at = (event) => {
    const rect = grid.getBoundingClientRect();
    return cellAt(layout, event.clientX - rect.left, event.clientY - rect.top, state.groups.length, state.metrics.length);
  };
  const onMove = (event) => {
    const k = at(event);
    if (k !== hover) {
      hover = k;
      paint();
    }
  };
  const onLeave = () => {
    hover = -1;
    paint();
  };
  const onClick = (event) => {
    const k = at(event);
    model.set("selected", k === state.selected ? -1 : k);
    model.save_changes();
  };
  const unlisten = listen([
    [grid, "pointermove", onMove],
    [grid, "pointerleave", onLeave],
    [grid, "click", onClick],
  ]);
  const { dispose } = redrawOnChange(model, KEYS, draw);
  draw();
  return () => {
    dispose();
    unlisten();
  };
}
