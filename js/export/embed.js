// Offline renderer for widgets in exported HTML (no CDN, no JupyterLab).
//
// nbconvert embeds the widget state (application/vnd.jupyter.widget-state+json) and one
// view reference per output (application/vnd.jupyter.widget-view+json). This script,
// loaded from a local file next to the page, draws them: anywidgets by importing the
// ES module stored in their own state (`_esm`) with a read-only model, ipywidgets boxes
// as flex containers, and other controls as a short text of their value. One model per widget
// id, shared by every view of it and reachable through `model.widget_manager.get_model(id)`,
// so a view can move the views linked to it (their states precomputed: js/shared/static.js);
// every model says `offline: true` (no kernel answers here).

/** Decode base64 into a DataView (what ipywidgets hands to widgets for bytes). */
export function base64ToDataView(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new DataView(bytes.buffer);
}

/** A model's state with its binary buffers put back at their paths. */
export function modelState(entry) {
  const state = structuredClone(entry.state ?? {});
  for (const buffer of entry.buffers ?? []) {
    let target = state;
    const path = buffer.path;
    for (const key of path.slice(0, -1)) target = target[key];
    target[path[path.length - 1]] = base64ToDataView(buffer.data);
  }
  return state;
}

/**
 * The small model API a widget's render() uses; changes stay local (nothing to sync with).
 * `manager` resolves other models by id (`widget_manager.get_model`, as in Jupyter).
 */
export function readOnlyModel(state, manager = null) {
  const values = { ...state };
  const listeners = new Map();
  return {
    offline: true,
    widget_manager: {
      get_model: async (id) => {
        const model = manager?.(id);
        if (!model) throw new Error(`no widget ${id} in this page`);
        return model;
      },
    },
    get: (key) => values[key],
    set: (key, value) => {
      values[key] = value;
      for (const callback of listeners.get(`change:${key}`) ?? []) callback();
    },
    on: (event, callback) => listeners.set(event, [...(listeners.get(event) ?? []), callback]),
    off: (event, callback) => {
      if (!event) listeners.clear();
      else listeners.set(event, (listeners.get(event) ?? []).filter((c) => callback && c !== callback));
    },
    save_changes: () => {},
    send: () => {},
  };
}

const BOXES = new Set(["VBoxModel", "HBoxModel", "BoxModel", "GridBoxModel"]);

/** Text shown for a control that is not drawn interactively (slider, dropdown…). */
export function controlText(state) {
  const label = state.description ? `${state.description}: ` : "";
  const options = state._options_labels;
  const chosen = Array.isArray(options) && Number.isInteger(state.index) ? options[state.index] : undefined;
  const value = chosen ?? (Array.isArray(state.value) ? state.value.join(" – ") : state.value);
  return value === undefined || value === null ? label.trim() : `${label}${value}`;
}

/** CSS of an ipywidgets Layout model that the static page honours (sizes, flex, display). */
export const LAYOUT_PROPERTIES = {
  width: "width",
  height: "height",
  max_width: "maxWidth",
  min_width: "minWidth",
  flex: "flex",
  flex_flow: "flexFlow",
  align_items: "alignItems",
  margin: "margin",
  display: "display",
};

/** Apply a widget's Layout (by its IPY_MODEL_ reference) to the element that holds it. */
export function applyLayout(models, state, el) {
  const ref = typeof state.layout === "string" ? state.layout.replace(/^IPY_MODEL_/, "") : null;
  const layout = ref && models[ref] ? models[ref].state ?? {} : {};
  for (const [key, css] of Object.entries(LAYOUT_PROPERTIES)) {
    if (layout[key] !== null && layout[key] !== undefined && layout[key] !== "") el.style[css] = layout[key];
  }
  for (const name of state._dom_classes ?? []) el.classList.add(name);
}

/** One shared model per widget id of the page's state (created when first asked for). */
export function modelRegistry(models) {
  const made = new Map();
  const get = (id) => {
    if (!models[id]) return null;
    if (!made.has(id)) made.set(id, readOnlyModel(modelState(models[id]), get));
    return made.get(id);
  };
  return get;
}

async function renderModel(models, id, el, registry) {
  const entry = models[id];
  if (!entry) return;
  const state = modelState(entry);
  applyLayout(models, state, el);
  if (entry.model_module === "anywidget") {
    if (state._css) {
      const style = document.createElement("style");
      style.textContent = state._css;
      document.head.appendChild(style);
    }
    const url = URL.createObjectURL(new Blob([state._esm], { type: "text/javascript" }));
    const module = await import(/* webpackIgnore: true */ url);
    const widget = module.default ?? module;
    const view = document.createElement("div");
    el.appendChild(view);
    await widget.render({ model: registry(id), el: view });
    return;
  }
  if (BOXES.has(entry.model_name)) {
    const box = document.createElement("div");
    box.style.display = "flex";
    box.style.flexDirection = entry.model_name === "HBoxModel" ? "row" : "column";
    box.style.flexWrap = "wrap";
    box.style.gap = "6px";
    box.style.alignItems = "flex-start";
    el.appendChild(box);
    for (const child of state.children ?? []) {
      const slot = document.createElement("div");
      box.appendChild(slot);
      await renderModel(models, String(child).replace(/^IPY_MODEL_/, ""), slot, registry);
    }
    return;
  }
  if (entry.model_name === "HTMLModel" || entry.model_name === "HTMLMathModel") {
    const div = document.createElement("div");
    div.innerHTML = state.value ?? ""; // the notebook's own HTML output, as Jupyter shows it
    el.appendChild(div);
    return;
  }
  if (entry.model_module !== "@jupyter-widgets/controls" && entry.model_module !== "@jupyter-widgets/output") {
    const note = document.createElement("div");
    note.className = "confusionlab-static-error";
    note.textContent = `A ${entry.model_name} (${entry.model_module}) cannot be drawn in this static page; open the notebook in Jupyter to see it.`;
    el.appendChild(note);
    return;
  }
  if (entry.model_name.endsWith("Model") && entry.model_module === "@jupyter-widgets/controls") {
    const span = document.createElement("div");
    span.className = "confusionlab-static-control";
    span.textContent = controlText(state);
    if (span.textContent) el.appendChild(span);
  }
}

/** Draw every widget view of the page. */
export async function renderPage(doc = document) {
  const stateTag = doc.querySelector('script[type="application/vnd.jupyter.widget-state+json"]');
  if (!stateTag) return 0;
  const models = JSON.parse(stateTag.textContent).state ?? {};
  const registry = modelRegistry(models);
  let drawn = 0;
  for (const tag of doc.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')) {
    const { model_id: id } = JSON.parse(tag.textContent);
    const el = doc.createElement("div");
    el.className = "confusionlab-static-view";
    tag.parentNode.insertBefore(el, tag.nextSibling);
    try {
      await renderModel(models, id, el, registry);
      drawn += 1;
    } catch (error) {
      // Said in the page, never a silently missing plot.
      el.textContent = `This widget could not be drawn offline: ${error}`;
      el.classList.add("confusionlab-static-error");
    }
  }
  doc.body.dataset.confusionlabViews = String(drawn);
  return drawn;
}
