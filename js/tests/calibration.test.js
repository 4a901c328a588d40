// CalibrationView: geometry, the pure drawing functions with a recording context, and render
// with a fake model (the numbers are arbitrary: the browser never computes a band).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HISTOGRAM_HEIGHT, MARGINS, consistentBins, histogramBox, reliabilityBox, scales } from "../calibration/geometry.js";
import {
  OUTSIDE_COLOUR,
  drawHistogram,
  drawReliability,
  readState,
  reliabilityHeight,
  render,
  titleText,
} from "../calibration/widget.js";
import { PALETTE } from "../shared/palette.js";
import { FakeModel, f32, mountWidget } from "./fake_model.js";

const f64 = (values) => new DataView(new Float64Array(values).buffer);
const THEME = { accent: "#1976d2", muted: "#616161", foreground: "#212121", font: "sans-serif" };

function calState(extra = {}) {
  return {
    confidence: 0.95,
    width: 400,
    generation: 2,
    _x: f64([0.1, 0.5, 0.9]),
    _observed: f64([0.12, 0.7, 0.88]),
    _lower: f64([0.05, 0.4, 0.8]),
    _upper: f64([0.2, 0.6, 0.97]),
    _counts: f64([100, 100, 100]),
    _outside: f32([0, 1, 0]),
    _hist_edges: f64([0, 0.25, 0.5, 0.75, 1]),
    _hist_counts: f64([120, 0, 80, 100]),
    _summary: {
      ece: 0.0733,
      interval: [0.05, 0.11],
      brier: 0.2,
      brier_interval: [0.18, 0.22],
      confidence: 0.95,
      p_value: 0.0004,
      outside: 1,
      note: "Bars: the exact 95% consistency band",
      verdict: "If the forecasts were calibrated, … evidence of miscalibration at the 5% level.",
      error_note: "300 forecasts.",
      error_detail: "Band exact up to 3e-13 in probability",
    },
    ...extra,
  };
}

let ctx;
beforeEach(() => {
  ctx = { calls: [], fills: [] };
  const names = ["setTransform", "clearRect", "fillRect", "strokeRect", "beginPath", "moveTo", "lineTo", "stroke"];
  for (const name of [...names, "fillText", "save", "restore", "translate", "rotate", "setLineDash", "arc"]) {
    ctx[name] = (...args) => ctx.calls.push([name, ...args]);
  }
  ctx.fill = () => ctx.fills.push(ctx.fillStyle);
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => ctx);
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("geometry", () => {
  it("makes a square diagram and a histogram of the same width", () => {
    const box = reliabilityBox(400);
    expect(box.width).toBe(400 - MARGINS.left - MARGINS.right);
    expect(box.height).toBe(box.width);
    expect(histogramBox(400)).toMatchObject({ left: box.left, width: box.width, height: HISTOGRAM_HEIGHT });
    const { x, y } = scales(box);
    expect(x(0)).toBe(box.left);
    expect(x(1)).toBe(box.left + box.width);
    expect(y(0)).toBe(box.top + box.height);
    expect(y(1)).toBe(box.top);
    expect(scales(box, 0).y(0)).toBe(box.top + box.height); // an empty histogram keeps a scale
  });

  it("refuses per-bin buffers of different lengths", () => {
    expect(consistentBins(readState(new FakeModel(calState())))).toBe(true);
    expect(consistentBins(readState(new FakeModel(calState({ _lower: f64([0.1]) }))))).toBe(false);
  });
});

describe("drawing", () => {
  it("draws a band per bin at its mean forecast and the outside bins in the warning colour", () => {
    const state = readState(new FakeModel(calState()));
    const drawn = drawReliability(ctx, state, THEME);
    expect(drawn).toEqual({ points: 3, bands: 3 });
    const { x, y } = scales(reliabilityBox(400));
    const bands = ctx.calls.filter((c) => c[0] === "fillRect");
    expect(bands[1][1]).toBeCloseTo(x(0.5) - 4, 9);
    expect(bands[1][2]).toBeCloseTo(y(0.6), 9);
    expect(bands[1][4]).toBeCloseTo(y(0.4) - y(0.6), 9);
    const arcs = ctx.calls.filter((c) => c[0] === "arc");
    expect(arcs.map((c) => [c[1], c[2]])).toEqual([0.1, 0.5, 0.9].map((v, b) => [x(v), y([0.12, 0.7, 0.88][b])]));
    expect(ctx.fills).toEqual([THEME.accent, OUTSIDE_COLOUR, THEME.accent]);
    expect(OUTSIDE_COLOUR).toBe(PALETTE.theme.warning);
    const texts = ctx.calls.filter((c) => c[0] === "fillText").map((c) => c[1]);
    expect(texts).toContain("mean forecast");
    expect(texts).toContain("observed frequency");
  });

  it("draws nothing but the diagonal for inconsistent buffers", () => {
    const state = readState(new FakeModel(calState({ _outside: f32([0]) })));
    expect(drawReliability(ctx, state, THEME)).toEqual({ points: 0, bands: 0 });
  });

  it("draws one bar per non-empty histogram bin, the tallest reaching the top", () => {
    const state = readState(new FakeModel(calState()));
    expect(drawHistogram(ctx, state, THEME)).toBe(3);
    const box = histogramBox(400);
    const bars = ctx.calls.filter((c) => c[0] === "fillRect");
    expect(bars[0][2]).toBeCloseTo(box.top, 9);
    expect(bars[0][4]).toBeCloseTo(box.height, 9);
    expect(bars[1][4]).toBeCloseTo((box.height * 80) / 120, 9);
    const broken = readState(new FakeModel(calState({ _hist_edges: f64([0, 1]) })));
    expect(drawHistogram(ctx, broken, THEME)).toBe(0);
  });

  it("writes ECE with its interval and the Brier score", () => {
    expect(titleText(calState()._summary)).toBe("ECE 0.0733 (95% interval [0.0500, 0.110]) · Brier score 0.200 [0.180, 0.220]");
    expect(titleText({})).toBe("");
  });
});

describe("render", () => {
  it("mirrors the state in data attributes and redraws on a change", async () => {
    const { model, root, cleanup } = mountWidget(render, calState(), ".confusionlab-calibration");
    expect(root.dataset.bins).toBe("3");
    expect(root.dataset.points).toBe("3");
    expect(root.dataset.bands).toBe("3");
    expect(root.dataset.bars).toBe("3");
    expect(root.dataset.outside).toBe("1");
    expect(root.dataset.pValue).toBe("0.0004");
    expect(root.querySelector(".cl-verdict").textContent).toContain("evidence of miscalibration");
    const error = root.querySelector(".cl-error");
    expect(error.textContent).toBe("300 forecasts."); // how the intervals are computed: in the tooltip only
    expect(error.title).toBe("Band exact up to 3e-13 in probability");
    expect(root.querySelector("canvas.cl-reliability").style.height).toBe(`${reliabilityHeight(400)}px`);
    model.set("_x", f64([0.2, 0.8]));
    model.set("_observed", f64([0.2, 0.8]));
    model.set("_lower", f64([0.1, 0.7]));
    model.set("_upper", f64([0.3, 0.9]));
    model.set("_counts", f64([5, 5]));
    model.set("_outside", f32([0, 0]));
    model.set("generation", 3);
    await Promise.resolve();
    expect(root.dataset.bins).toBe("2");
    expect(root.dataset.points).toBe("2");
    expect(root.dataset.generation).toBe("3");
    const before = model.listenerCount();
    cleanup();
    expect(model.listenerCount()).toBeLessThan(before);
  });
});
