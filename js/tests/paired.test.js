// PairedView: view geometry (band, colour scale, bins), buffer reading, render with a fake model.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { bandPolygon, binOf, heatCells, massPosition, sequentialAt, SEQUENTIAL } from "../paired/geometry.js";
import { notesDetails, notesText, probabilityText, readState, render, verdictText } from "../paired/widget.js";
import { FakeModel, f32, mountWidget } from "./fake_model.js";

const f64 = (values) => new DataView(new Float64Array(values).buffer);

/** Shoelace area of a polygon of [x, y] pairs. */
function area(points) {
  let s = 0;
  for (let k = 0; k < points.length; k++) {
    const [x0, y0] = points[k];
    const [x1, y1] = points[(k + 1) % points.length];
    s += x0 * y1 - x1 * y0;
  }
  return Math.abs(s) / 2;
}

describe("band |A − B| ≤ margin", () => {
  it("has the area of the square minus two corner triangles", () => {
    // square side 1, margin 0.2: 1 − (1 − 0.2)² (two triangles of legs 0.8)
    expect(area(bandPolygon(0, 1, 0.2))).toBeCloseTo(1 - 0.8 ** 2, 12);
    expect(area(bandPolygon(0.5, 1, 0.1))).toBeCloseTo(0.25 - 0.4 ** 2, 12);
  });

  it("stays inside the square, covers it when the margin spans it, is empty at 0", () => {
    for (const [a, b] of bandPolygon(0.2, 0.9, 0.3)) {
      expect(a).toBeGreaterThanOrEqual(0.2);
      expect(b).toBeLessThanOrEqual(0.9);
      expect(Math.abs(a - b)).toBeLessThanOrEqual(0.3 + 1e-12);
    }
    expect(area(bandPolygon(0, 1, 5))).toBeCloseTo(1, 12);
    expect(bandPolygon(0, 1, 0)).toEqual([]);
    expect(bandPolygon(1, 1, 0.1)).toEqual([]);
  });
});

describe("colour of a cell", () => {
  it("maps log mass over the decades, blank below and for empty cells", () => {
    expect(massPosition(1, 1, 4)).toBe(1);
    expect(massPosition(1e-2, 1, 4)).toBeCloseTo(0.5, 12);
    expect(massPosition(1e-4, 1, 4)).toBeCloseTo(0, 12);
    expect(massPosition(1e-5, 1, 4)).toBeNull();
    expect(massPosition(0, 1, 4)).toBeNull();
    expect(massPosition(1, 0, 4)).toBeNull();
  });

  it("interpolates the palette between its ends", () => {
    expect(sequentialAt(0)).toEqual(SEQUENTIAL[0]);
    expect(sequentialAt(1)).toEqual(SEQUENTIAL.at(-1));
    expect(sequentialAt(2)).toEqual(SEQUENTIAL.at(-1));
    expect(sequentialAt(0.5)).toEqual(SEQUENTIAL[3]);
  });

  it("lists the coloured cells of a row-major joint", () => {
    const cells = heatCells([0.5, 0, 0.25, 1e-9], 2, 2, 4);
    expect(cells.map((c) => [c.i, c.j])).toEqual([
      [0, 0],
      [1, 0],
    ]);
    expect(heatCells([1, 2, 3], 2, 2)).toEqual([]); // inconsistent shape: nothing drawn
  });

  it("finds the bin of a value", () => {
    const edges = [0, 0.25, 0.5, 0.75, 1];
    expect(binOf(edges, 0)).toBe(0);
    expect(binOf(edges, 0.3)).toBe(1);
    expect(binOf(edges, 1)).toBe(3);
    expect(binOf(edges, 1.01)).toBe(-1);
    expect(binOf([], 0.5)).toBe(-1);
  });
});

function pairedState(extra = {}) {
  // A 3 × 3 joint on [0.7, 1] and a difference of three values (numbers chosen by hand;
  // the JS never computes them).
  return {
    metric: "accuracy", margin: 0.02, confidence: 0.95, bins: 3, width: 240, generation: 4,
    name_a: "logistic", name_b: "tree",
    _metric_label: "Accuracy",
    _edges: f64([0.7, 0.8, 0.9, 1.0]),
    _joint: f32([0.01, 0, 0, 0.2, 0.05, 0, 0.3, 0.4, 0.04]),
    _diff_values: f64([-0.1, 0, 0.1]),
    _diff_probabilities: f32([0.1, 0.09, 0.81]),
    _diff_domain: [-0.2, 0.2],
    _question: "If a new test set of 285 examples were drawn and both scored on it…",
    _summary: {
      prob_greater: 0.81, prob_equal: 0.09, prob_less: 0.1, value: 0.05, value_a: 0.95, value_b: 0.9,
      method: "exact", draws: null, mc_error: 0, pruned_mass: 0, outside_mass: 0, aggregated: false,
      discordant: 26, margin: 0.02, confidence: 0.95, verdict: "A better", prob_equivalent: 0.09,
      interval: [0.01, 0.1],
    },
    ...extra,
  }; // fmt
}

let ctx;
beforeEach(() => {
  ctx = { calls: [] };
  const names = ["setTransform", "clearRect", "fillRect", "strokeRect", "beginPath", "moveTo", "lineTo", "stroke",
    "fillText", "fill", "closePath", "setLineDash", "save", "restore", "translate", "rotate"]; // fmt
  for (const name of names) ctx[name] = (...args) => ctx.calls.push([name, ...args]);
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => ctx);
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

const mount = (state) => mountWidget(render, state, ".confusionlab-paired");

describe("render", () => {
  it("reads the joint and refuses inconsistent buffers", () => {
    const state = readState(new FakeModel(pairedState()));
    expect(state.bins).toBe(3);
    expect(state.joint.length).toBe(9);
    const broken = readState(new FakeModel(pairedState({ _edges: f64([0.7, 0.85, 1]) })));
    expect(broken.bins).toBe(0);
    expect(broken.joint.length).toBe(0);
    const diff = readState(new FakeModel(pairedState({ _diff_probabilities: f32([1]) })));
    expect(diff.diffValues.length).toBe(0);
  });

  it("colours the non-empty cells, draws the diagonal and mirrors the state", () => {
    const { root } = mount(pairedState());
    expect(root.querySelectorAll("canvas")).toHaveLength(2);
    expect(root.dataset.cells).toBe("6"); // 6 non-empty cells, all within 4 decades of the largest
    expect(root.dataset.bins).toBe("3");
    expect(root.dataset.marks).toBe("3");
    expect(root.dataset.verdict).toBe("A better");
    expect(root.dataset.probGreater).toBe("0.81");
    expect(root.dataset.margin).toBe("0.02");
    expect(root.dataset.generation).toBe("4");
    expect(root.dataset.method).toBe("exact");
    // the diagonal runs from (lo, lo) to (hi, hi): a moveTo and lineTo at the square's corners
    const side = 240;
    const moves = ctx.calls.filter((c) => c[0] === "moveTo").map((c) => c.slice(1));
    expect(moves).toContainEqual([48, 10 + side]);
    const lines = ctx.calls.filter((c) => c[0] === "lineTo").map((c) => c.slice(1));
    expect(lines).toContainEqual([48 + side, 10]);
  });

  it("writes the question, the verdict and the three probabilities in words", () => {
    const { root } = mount(pairedState());
    const text = root.textContent;
    expect(root.querySelector(".cl-title").textContent).toContain("new test set of 285 examples");
    expect(root.querySelector(".cl-verdict").textContent).toBe(
      "Verdict: logistic better — margin ±0.02, 95% interval of logistic − tree: [0.01, 0.1]",
    );
    expect(text).toContain("logistic would score higher than tree with probability 0.81");
    expect(text).toContain("the same with probability 0.09, and lower with probability 0.1");
    expect(text).toContain("examples where the two disagree: 26");
  });

  it("names Monte Carlo and its error, pruned and outside mass", () => {
    const s = readState(new FakeModel(pairedState()));
    s.summary = { ...s.summary, method: "monte-carlo", n_draws: 1000, mc_error: 0.012, pruned_mass: 1e-12, outside_mass: 2e-6 };
    expect(probabilityText(s)).toContain("Monte Carlo, standard error 0.012");
    expect(notesText(s)).toContain("Monte Carlo, 1000 draws");
    expect(notesText(s)).not.toContain("pruned"); // the default tolerance's 1e-12: no printed digit shows it
    s.summary.pruned_mass = 2e-6;
    expect(notesText(s)).not.toContain("pruned"); // issue 38: in the tooltip, not the text
    expect(notesDetails(s)).toBe("pruned mass ≤ 2.00e-6");
    expect(notesDetails({ ...s, summary: { ...s.summary, aggregated: true } })).toContain("difference sent in");
    expect(notesText(s)).toContain("mass outside the map 2.00e-6");
    s.summary.verdict = "B better";
    expect(verdictText(s)).toContain("Verdict: tree better");
  });

  it("redraws once per batch of changes, with the new margin", async () => {
    const { model, root } = mount(pairedState());
    const summary = { ...model.get("_summary"), margin: 0.1, verdict: "insufficient evidence" };
    model.set("margin", 0.1);
    model.set("_summary", summary);
    expect(root.dataset.margin).toBe("0.02");
    await new Promise((r) => setTimeout(r, 0));
    expect(root.dataset.margin).toBe("0.1");
    expect(root.dataset.verdict).toBe("insufficient evidence");
  });

  it("names the cell under the pointer on both axes (B runs upwards)", () => {
    const { root } = mount(pairedState());
    const heat = root.querySelector("canvas.cl-heat");
    // A = 0.95 (third bin), B = 0.85 (second bin): 48 + 200 px across, 10 + 240 − 120 px down.
    heat.dispatchEvent(new MouseEvent("pointermove", { clientX: 248, clientY: 130 }));
    expect(root.querySelector(".cl-hover").textContent).toBe("logistic in [0.9, 1), tree in [0.8, 0.9): P = 0.4");
  });

  it("writes labels as text and removes its listeners on cleanup", () => {
    const { root, model, cleanup } = mount(pairedState({ name_a: "<b>x</b>" }));
    expect(root.querySelector("b")).toBeNull();
    expect(root.querySelector(".cl-verdict").textContent).toContain("<b>x</b> better");
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });
});
