// AuditView: layout, hit-testing, verdict colours, the detail scale, render with a fake model.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  VERDICT_COLOURS,
  cellAt,
  countVerdicts,
  detailDomain,
  gridLayout,
  insufficientReason,
  position,
  verdictColour,
} from "../audit/geometry.js";
import {
  cellText,
  drawDetail,
  drawGrid,
  metricKey,
  metricName,
  readState,
  render,
  subtitleText,
  titleText,
} from "../audit/widget.js";
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
    // [-0.1, 0.3] padded by 10 % is [-0.14, 0.34]; an eighth of it, 0.06, rounds up to a step of 0.1
    expect(detailDomain(0.12, 0.3, 0.2, 0, 0.1)).toEqual([-0.2, 0.4]);
    // [0.4, 1.2] padded is [0.32, 1.28]; an eighth, 0.12, rounds up to 0.2: ends 0.2 and 1.4
    expect(detailDomain(0.4, Infinity, 0.9, 1, 0.2)).toEqual([0.2, 1.4]);
    // issue 38: ends such as 0.10316 and 0.12524 ([0.105, 0.1234] padded by 0.00184) become round
    // numbers: an eighth of the range, 0.00276, rounds up to a step of 0.005
    expect(detailDomain(0.1062, 0.1234, 0.115, 0.11, 0.005)).toEqual([0.1, 0.13]);
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
    expect(cellText(s, 3)).toContain("why: the interval straddles both edges of the band (0.8 and 1.2)");
    expect(cellText(s, 5)).toBe("race: a · DI: no row");
    expect(cellText(s, 9)).toBe("");
  });

  it("spells out each abbreviation: CI is class imbalance, never a confidence interval (issue 38)", () => {
    const names = { CI: "class imbalance", DPPL: "difference in positive proportions in predicted labels" };
    const s = readState(new FakeModel(auditState({ _metrics: ["CI", "DPPL"], _summary: { ...auditState()._summary, names } })));
    expect(metricName(s, "CI")).toBe("class imbalance (CI)");
    expect(metricName(s, "XX")).toBe("XX");
    expect(metricKey(s)).toBe("CI: class imbalance · DPPL: difference in positive proportions in predicted labels");
    expect(cellText(s, 0)).toMatch(/^sex: F · class imbalance \(CI\) = 0.2; /);
    const { root } = mountWidget(render, auditState({ _metrics: ["CI", "DPPL"], _summary: { ...auditState()._summary, names } }), ".confusionlab-audit");
    expect(root.querySelector(".cl-key").textContent).toContain("CI: class imbalance");
  });

  it("keeps the header short and says the question and the level on the line below", () => {
    const summary = { ...auditState()._summary, question: "the true disparity", compared: ["sex: against the rest"] };
    const s = readState(new FakeModel(auditState({ _summary: summary })));
    expect(titleText(s)).toBe("Fairness audit: 3 groups × 2 metrics");
    expect(subtitleText(s)).toBe(
      "Question: the true disparity. Compared: sex: against the rest. " +
        "Verdicts on intervals that hold together with probability 0.95 (each at 0.99, Bonferroni).",
    );
    const { root } = mountWidget(render, auditState({ _summary: summary }), ".confusionlab-audit");
    expect(root.querySelector(".cl-title").textContent).toBe("Fairness audit: 3 groups × 2 metrics");
  });

  it("says why a cell is insufficient evidence, from its numbers (issue 38)", () => {
    // plenty of data: an interval of width 0.04 inside a band of width 0.2 but across its edge 0.1
    expect(insufficientReason(0.08, 0.12, 0, 0.1, 20000)).toBe(
      "why: the interval straddles the band's edge at 0.1, so it is neither wholly inside nor wholly outside; " +
        "the interval is narrower than the band (0.04 against 0.2), so the data are plentiful: the disparity " +
        "lies close to the margin itself, and more rows may not settle it",
    );
    // few rows: width 1.2 against 0.2, across both edges
    expect(insufficientReason(-0.4, 0.8, 0, 0.1, 3)).toBe(
      "why: the interval straddles both edges of the band (-0.1 and 0.1), so it is neither wholly inside nor " +
        "wholly outside; the interval is wider than the band (1.2 against 0.2): more rows would narrow it",
    );
    // touching the edge from outside counts as straddling (the band is closed), as in verdict_of
    expect(insufficientReason(-0.3, -0.1, 0, 0.1, 50)).toContain("the band's edge at -0.1");
    // wholly outside yet insufficient: the verdict was withdrawn for a group too small to contradict it
    expect(insufficientReason(0.3, 0.5, 0, 0.1, 1)).toContain("a group of 1 rows would give a value on that side");
    expect(insufficientReason(NaN, NaN, 0, 0.1, 1)).toBe("no interval could be computed for this cell");
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
