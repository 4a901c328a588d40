// The redraw scaffold every widget shares: changes of the model's keys schedule one
// redraw in a microtask (a Python update arrives as several change events, drawn once),
// JupyterLab theme switches (attributes of <body>) redraw with the new colours, and
// dispose() removes every listener.

/** Attributes of <body> JupyterLab changes when it switches theme. */
export const THEME_ATTRIBUTES = ["data-jp-theme-name", "data-jp-theme-light"];

/**
 * Call `draw` once per burst of `change:<key>` events of `model` (in a microtask).
 * @param {object} model anywidget model (on/off)
 * @param {string[]} keys model keys whose change redraws
 * @param {() => void} draw
 * @param {{onTheme?: () => void}} [options] what a theme switch does (default: redraw)
 * @returns {{schedule: () => void, dispose: () => void}}
 */
export function redrawOnChange(model, keys, draw, { onTheme } = {}) {
  let pending = false;
  let disposed = false;
  const schedule = () => {
    if (pending || disposed) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      if (!disposed) draw();
    });
  };
  for (const key of keys) model.on(`change:${key}`, schedule);
  const body = typeof document !== "undefined" ? document.body : null;
  const themeWatch = typeof MutationObserver === "function" && body ? new MutationObserver(onTheme ?? schedule) : null;
  themeWatch?.observe(body, { attributes: true, attributeFilter: THEME_ATTRIBUTES });
  const dispose = () => {
    disposed = true;
    for (const key of keys) model.off(`change:${key}`, schedule);
    themeWatch?.disconnect();
  };
  return { schedule, dispose };
}
