// A small canvas chart (points, lines, bars, texts on linear or log axes) for the views
// whose data is small: BiasView (facets in ROC space) and StabilityView (the 2PL curve,
// the per-object histogram), one bundle for both. Canvas, so they also draw in the static export.
// Every number comes from Python; this only scales and draws.
import { decodeFloat64 } from "../shared/buffers.js";
import { beginFrame, canvas2d, drawAxes, pixelRatio } from "../shared/canvas.js";
import { el, parts } from "../shared/dom.js";
import { formatNumber } from "../shared/format.js";
import { redrawOnChange } from "../shared/redraw.js";
import { niceTicks } from "../shared/scale.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";

export const KEYS = ["title", "x_label", "y_label", "x_log", "x_domain", "y_domain", "width", "height", "_series", "_xy", "_texts", "message"];
/** Root class of a chart whose model names none. */
export const DEFAULT_ROOT_CLASS = "confusionlab-plot";
export const MARGINS = { left: 56, right: 14, top: 12, bottom: 44 };

/** Read the model: series with their (x, y) pairs; inconsistent buffers give no series. */
export function readChart(model) {
  const get = (k) => model.get(k);
  const xy = decodeFloat64(get("_xy"));
  const specs = get("_series") ?? [];
  const total = specs.reduce((n, s) => n + (s.count ?? 0), 0);
  const consistent = 2 * total === xy.length;
  const series = consistent
    ? specs.map((s) => ({ ...s, xy: xy.subarray(2 * s.offset, 2 * (s.offset + s.count)) }))
    : [];
  return {
    title: get("title") ?? "",
    xLabel: get("x_label") ?? "",
    yLabel: get("y_label") ?? "",
    xLog: Boolean(get("x_log")),
    xDomain: get("x_domain") ?? [0, 1],
    yDomain: get("y_domain") ?? [0, 1],
    width: get("width") || 420,
    height: get("height") || 360,
    series,
    texts: get("_texts") ?? [],
    message: get("message") ?? "",
    consistent,
  };
}

/** Map data → CSS pixels (log10 on x when asked); non-finite inputs give NaN. */
export function chartScales(chart) {
  const M = MARGINS;
  const tx = chart.xLog ? (v) => (v > 0 ? Math.log10(v) : NaN) : (v) => v;
  const [x0, x1] = chart.xDomain.map(tx);
  const [y0, y1] = chart.yDomain;
  const plotW = chart.width - M.left - M.right;
  const plotH = chart.height - M.top - M.bottom;
  const x = (v) => M.left + ((tx(v) - x0) / (x1 - x0 || 1)) * plotW;
  const y = (v) => M.top + plotH - ((v - y0) / (y1 - y0 || 1)) * plotH;
  return { x, y, plotW, plotH };
}

/** Tick values of the x axis: round numbers, or 1-2-5 × 10^k on a log axis. */
export function xTicks(chart) {
  const [lo, hi] = chart.xDomain;
  if (!chart.xLog) return niceTicks(lo, hi, 5);
  const ticks = [];
  if (!(lo > 0 && hi > lo)) return ticks;
  for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k++) {
    for (const m of [1, 2, 5]) {
      const t = m * 10 ** k;
      if (t >= lo && t <= hi) ticks.push(Number(t.toPrecision(12)));
    }
  }
  return ticks;
}

/** Draw the chart; returns the number of marks (points, line vertices, bars) drawn. */
export function drawChart(ctx, chart, theme, dpr = 1) {
  const M = MARGINS;
  const { x, y, plotW, plotH } = chartScales(chart);
  beginFrame(ctx, chart.width, chart.height, dpr);
  ctx.save();
  ctx.beginPath();
  ctx.rect(M.left, M.top, plotW, plotH);
  ctx.clip();
  let marks = 0;
  for (const s of chart.series) {
    const colour = s.colour ?? theme.accent;
    ctx.globalAlpha = s.alpha ?? 1;
    ctx.fillStyle = colour;
    ctx.strokeStyle = colour;
    ctx.lineWidth = s.width ?? 2;
    ctx.setLineDash(s.dash ? [6, 4] : []);
    const n = s.xy.length / 2;
    if (s.kind === "line") {
      ctx.beginPath();
      let open = false;
      for (let i = 0; i < n; i++) {
        const px = x(s.xy[2 * i]);
        const py = y(s.xy[2 * i + 1]);
        if (!Number.isFinite(px) || !Number.isFinite(py)) {
          open = false;
          continue;
        }
        if (open) ctx.lineTo(px, py);
        else ctx.moveTo(px, py);
        open = true;
        marks += 1;
      }
      ctx.stroke();
    } else if (s.kind === "bars") {
      // Pairs (x0, count) with the bar's right edge at the next x0 (last: s.end).
      const base = y(Math.max(chart.yDomain[0], 0));
      for (let i = 0; i < n; i++) {
        const a = x(s.xy[2 * i]);
        const b = x(i + 1 < n ? s.xy[2 * i + 2] : s.end);
        const top = y(s.xy[2 * i + 1]);
        if (![a, b, top].every(Number.isFinite)) continue;
        ctx.fillRect(a + 0.5, top, Math.max(1, b - a - 1), base - top);
        marks += 1;
      }
    } else {
      const r = s.size ?? 3;
      for (let i = 0; i < n; i++) {
        const px = x(s.xy[2 * i]);
        const py = y(s.xy[2 * i + 1]);
        if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
        ctx.beginPath();
        if (s.marker === "diamond") {
          ctx.moveTo(px, py - r);
          ctx.lineTo(px + r, py);
          ctx.lineTo(px, py + r);
          ctx.lineTo(px - r, py);
          ctx.closePath();
        } else {
          ctx.arc(px, py, r, 0, 2 * Math.PI);
        }
        ctx.fill();
        if (s.stroke) {
          ctx.globalAlpha = 1;
          ctx.setLineDash([]);
          ctx.lineWidth = 1.5;
          ctx.strokeStyle = theme.foreground;
          ctx.stroke();
          ctx.globalAlpha = s.alpha ?? 1;
        }
        marks += 1;
      }
    }
  }
  ctx.globalAlpha = 1;
  ctx.setLineDash([]);
  ctx.fillStyle = theme.foreground;
  ctx.font = `11px ${theme.font}`;
  for (const t of chart.texts) {
    ctx.textAlign = "left";
    ctx.textBaseline = "bottom";
    const px = x(t.x);
    const py = y(t.y);
    if (Number.isFinite(px) && Number.isFinite(py)) ctx.fillText(String(t.text), Math.min(px + 4, M.left + plotW - 4 - ctx.measureText(String(t.text)).width), py - 3);
  }
  ctx.restore();
  drawAxes(ctx, theme, {
    box: { left: M.left, top: M.top, width: plotW, height: plotH },
    x,
    y,
    xTicks: xTicks(chart),
    yTicks: niceTicks(chart.yDomain[0], chart.yDomain[1], 5),
    format: formatNumber,
    titleSize: 11,
    xTitle: chart.xLabel,
    xTitleY: chart.height - 4,
    xTitleBaseline: "bottom",
    yTitle: chart.yLabel,
  });
  return marks;
}

/**
 * anywidget entry point: the root carries `confusionlab-chart` and the class the model
 * names in `_root_class` (BiasView's and StabilityView's charts share this one bundle).
 */
export function render({ model, el: host }) {
  const root = el("div", `confusionlab-chart ${model.get("_root_class") || DEFAULT_ROOT_CLASS}`, host);
  const { title, canvas, legend, message } = parts(root, {
    title: "cl-title",
    canvas: ["canvas", "cl-canvas"],
    legend: "cl-legend",
    message: "cl-message",
  });
  canvas.setAttribute("role", "img");
  const draw = () => {
    const chart = readChart(model);
    const theme = resolveTheme(cssVariableReader(root));
    const ctx = canvas2d(canvas, chart.width, chart.height);
    let marks = 0;
    let error = "";
    if (!ctx) error = "This browser gives no 2-D canvas, so the plot cannot be drawn.";
    else if (!chart.consistent) error = "The plot's data arrived incomplete, so it is not drawn.";
    else marks = drawChart(ctx, chart, theme, pixelRatio());
    title.textContent = chart.title;
    legend.replaceChildren();
    for (const s of chart.series.filter((s) => s.label)) {
      const item = el("span", "cl-legend-item", legend);
      const swatch = el("span", "cl-legend-swatch", item);
      swatch.style.background = s.colour ?? theme.accent;
      el("span", null, item).textContent = s.label;
    }
    // A plot that cannot be drawn says so in the page (never a silently empty canvas).
    message.textContent = error || chart.message;
    message.classList.toggle("cl-error", Boolean(error));
    canvas.setAttribute("aria-label", `${chart.title}: ${marks} marks`);
    const d = root.dataset;
    d.series = String(chart.series.length);
    d.marks = String(marks);
    d.theme = theme.background;
    if (error) d.error = error;
    else delete d.error;
  };
  const redraw = redrawOnChange(model, KEYS, draw);
  draw();
  return () => redraw.dispose();
}
