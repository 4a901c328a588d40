// AuditView: layout, hit-testing, verdict colours, the detail scale, render with a fake model.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  VERDICT_COLOURS,
  cellAt,
  countVerdicts,
  detailDomain,
  gridLayout,
  position,
  verdictColour,
} from "../audit/geometry.js";
import { cellText, drawDetail, drawGrid, readState, render } from "../audit/widget.js";
import { FakeModel, mountWidget } from "./fake_model.js";

const f64 = (values) => new DataView(new Float64Array(values).buffer);
const u8 = (values) => new DataView(new Uint8Array(values).buffer);

function auditState(extra = {}) {
  // 3 groups × 2 metrics (DPPL, DI); the last cell has no row (255).
  return {
    cell: 20,
    selected: -1,
    generation: 2,
    _groups: ["sex: F", "sex: M", "race: a"],
    _metrics: ["DPPL", "DI"],
    _no_bias: [0, 1],
    _margin: [0.1, 0.2],
    _sizes: f64([40, 60, 60, 40, 3, 97]),
    _verdicts: u8([0, 0, 1, 2, 2, 255]),
    _values: f64([0.2, 0.5, 0.01, 0.9, 0.3, NaN]),
    _lower: f64([0.12, 0.3, -0.05, 0.4, -0.4, NaN]),
    _upper: f64([0.3, 0.7, 0.06, Infinity, 0.8, NaN]),
    _summary: { confidence: 0.95, level: 0.99, rows: 5, notes: ["sex & race: no rows for M & c (skipped)"] },
    ...extra,
  };
}

let ctx;
beforeEach(() => {
  ctx = { calls: [] };
  for (const name of ["setTransform", "clearRect", "fillRect", "strokeRect", "beginPath", "moveTo", "lineTo", "stroke", "fillText", "arc", "fill"]) {
    ctx[name] = (...args) => ctx.calls.push([name, ...args]);
  }
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => ctx);
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("geometry", () => {
  it("lays out square cells right of the labels and below the header", () => {
    const L = gridLayout(["sex: F", "race: Asian-Pac-Islander"], ["DPPL", "DI", "RD"], 20);
    expect(L.width).toBe(L.labelWidth + 3 * 20 + 1);
    expect(L.height).toBe(L.headerHeight + 2 * 20 + 1);
    expect(L.labelWidth).toBeGreaterThan(100);
  });

  it("finds the cell under the pointer, row-major, and -1 outside", () => {
    const L = gridLayout(["a", "b"], ["x", "y", "z"], 20);
    expect(cellAt(L, L.labelWidth + 1, L.headerHeight + 1, 2, 3)).toBe(0);
    expect(cellAt(L, L.labelWidth + 45, L.headerHeight + 25, 2, 3)).toBe(5);
    expect(cellAt(L, L.labelWidth - 1, L.headerHeight + 1, 2, 3)).toBe(-1);
    expect(cellAt(L, L.labelWidth + 61, L.headerHeight + 1, 2, 3)).toBe(-1);
    expect(cellAt(L, L.labelWidth + 1, L.headerHeight + 41, 2, 3)).toBe(-1);
  });

  it("colours verdicts and counts them", () => {
    expect([0, 1, 2].map(verdictColour)).toEqual(VERDICT_COLOURS);
    expect(verdictColour(255)).toBe("#ffffff");
    expect(countVerdicts([0, 0, 1, 2, 2, 255])).toEqual({ bias: 2, fair: 1, insufficient: 2, empty: 1 });
  });

  it("scales the detail strip over the band, the value and the finite ends", () => {
    const [lo, hi] = detailDomain(0.12, 0.3, 0.2, 0, 0.1);
    expect(lo).toBeCloseTo(-0.1 - 0.04, 12);
    expect(hi).toBeCloseTo(0.3 + 0.04, 12);
    const [a, b] = detailDomain(0.4, Infinity, 0.9, 1, 0.2);
    expect(a).toBeCloseTo(0.4 - 0.08, 12);
    expect(b).toBeCloseTo(1.2 + 0.08, 12);
    expect(position(Infinity, [0, 1], 10, 110)).toBe(110);
    expect(position(-Infinity, [0, 1], 10, 110)).toBe(10);
    expect(position(0.5, [0, 1], 10, 110)).toBe(60);
  });
});

describe("render", () => {
  it("reads the buffers and refuses inconsistent ones", () => {
    const s = readState(new FakeModel(auditState()));
    expect(s.verdicts.length).toBe(6);
    const broken = readState(new FakeModel(auditState({ _verdicts: u8([0, 1]) })));
    expect(broken.groups).toEqual([]);
    expect(broken.verdicts.length).toBe(0);
  });

  it("describes a cell with its interval and band", () => {
    const s = readState(new FakeModel(auditState()));
    expect(cellText(s, 0)).toBe(
      "sex: F · DPPL = 0.2; 99% simultaneous interval [0.12, 0.3] against the band [-0.1, 0.1] → bias (n = 40, compared with 60)",
    );
    expect(cellText(s, 3)).toContain("[0.4, ∞] against the band [0.8, 1.2] → insufficient evidence");
    expect(cellText(s, 5)).toBe("race: a · DI: no row");
    expect(cellText(s, 9)).toBe("");
  });

  it("draws one filled cell per grid position and the detail of a cell", () => {
    const s = readState(new FakeModel(auditState()));
    const L = gridLayout(s.groups, s.metrics, s.cell);
    const theme = { foreground: "#000", muted: "#666", font: "sans-serif" };
    expect(drawGrid(ctx, s, L, theme)).toBe(6);
    const fills = ctx.calls.filter((c) => c[0] === "fillRect");
    expect(fills).toHaveLength(6);
    expect(fills[0].slice(1)).toEqual([L.labelWidth + 1, L.headerHeight + 1, 18, 18]);
    expect(drawDetail(ctx, s, 0, 400, theme)).toBe(true);
    expect(drawDetail(ctx, s, 5, 400, theme)).toBe(false);
  });

  it("mirrors the state on the root, selects on click and redraws on change", async () => {
    const { model, root } = mountWidget(render, auditState(), ".confusionlab-audit");
    expect(root.dataset).toMatchObject({ groups: "3", metrics: "2", cells: "6", bias: "2", fair: "1", insufficient: "2", generation: "2" });
    expect(root.querySelector(".cl-notes").textContent).toContain("M & c");
    const grid = root.querySelector("canvas.cl-grid");
    const L = gridLayout(["sex: F", "sex: M", "race: a"], ["DPPL", "DI"], 20);
    grid.getBoundingClientRect = () => ({ left: 0, top: 0 });
    grid.dispatchEvent(new MouseEvent("click", { clientX: L.labelWidth + 25, clientY: L.headerHeight + 5 }));
    expect(model.get("selected")).toBe(1);
    expect(model.saved).toBe(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(root.dataset.selected).toBe("1");
    expect(root.querySelector(".cl-hover").textContent).toContain("sex: F · DI");
    model.set("_verdicts", u8([1, 1, 1, 1, 1, 1]));
    await new Promise((r) => setTimeout(r, 0));
    expect(root.dataset.fair).toBe("6");
  });
});
