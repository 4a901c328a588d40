import { describe, expect, it } from "vitest";
import { base64ToDataView, controlText, modelState, readOnlyModel, renderPage } from "../export/embed.js";

const b64 = (bytes) => btoa(String.fromCharCode(...bytes));

describe("offline renderer: pure parts", () => {
  it("decodes base64 buffers into DataViews at their state paths", () => {
    const floats = new Uint8Array(new Float32Array([1.5, -2]).buffer);
    const state = modelState({ state: { a: 1, nested: { x: null } }, buffers: [
      { path: ["_values"], data: b64(floats), encoding: "base64" },
      { path: ["nested", "x"], data: b64([7, 8]), encoding: "base64" },
    ] });
    expect(state.a).toBe(1);
    expect(new Float32Array(state._values.buffer)).toEqual(new Float32Array([1.5, -2]));
    expect(base64ToDataView(b64([7, 8])).getUint8(1)).toBe(8);
    expect(state.nested.x.getUint8(0)).toBe(7);
  });

  it("gives widgets a model whose changes stay local and notify listeners", () => {
    const model = readOnlyModel({ n: 40 });
    const seen = [];
    model.on("change:n", () => seen.push(model.get("n")));
    model.set("n", 41);
    model.save_changes();
    expect(seen).toEqual([41]);
    model.off();
    model.set("n", 42);
    expect(seen).toEqual([41]);
  });

  it("describes controls by label and chosen value", () => {
    expect(controlText({ description: "N", value: 60 })).toBe("N: 60");
    expect(controlText({ description: "metric", index: 1, _options_labels: ["accuracy", "mcc"] })).toBe("metric: mcc");
    expect(controlText({ description: "range", value: [1, 3] })).toBe("range: 1 – 3");
    expect(controlText({ description: "" })).toBe("");
  });
});

describe("offline renderer: a page", () => {
  it("lays out boxes and HTML widgets after their view tags, as text only for controls", async () => {
    const state = {
      version_major: 2,
      version_minor: 0,
      state: {
        box: { model_name: "VBoxModel", model_module: "@jupyter-widgets/controls", state: { children: ["IPY_MODEL_html", "IPY_MODEL_slider"] } },
        html: { model_name: "HTMLModel", model_module: "@jupyter-widgets/controls", state: { value: "<b>hello</b>" } },
        slider: { model_name: "IntSliderModel", model_module: "@jupyter-widgets/controls", state: { description: "N", value: 60 } },
      },
    };
    document.body.innerHTML = `
      <script type="application/vnd.jupyter.widget-state+json">${JSON.stringify(state)}</script>
      <div id="out"><script type="application/vnd.jupyter.widget-view+json">{"model_id": "box", "version_major": 2}</script></div>`;
    expect(await renderPage(document)).toBe(1);
    const view = document.querySelector("#out .confusionlab-static-view");
    expect(view.querySelector("b").textContent).toBe("hello");
    expect(view.querySelector(".confusionlab-static-control").textContent).toBe("N: 60");
    expect(document.body.dataset.confusionlabViews).toBe("1");
  });
});
