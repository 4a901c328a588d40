// Theme colours from JupyterLab's CSS variables, with fallbacks outside JupyterLab.

/** The CSS variables we read, with light-theme fallbacks. */
export const THEME_VARIABLES = {
  background: ["--jp-layout-color0", "#ffffff"],
  foreground: ["--jp-ui-font-color1", "#212121"],
  muted: ["--jp-ui-font-color2", "#616161"],
  grid: ["--jp-border-color2", "#e0e0e0"],
  accent: ["--jp-brand-color1", "#1976d2"],
  font: ["--jp-ui-font-family", "system-ui, sans-serif"],
};

/**
 * Resolve theme colours.
 * @param {(name: string) => string} getVariable returns the raw value of a CSS variable ("" if unset)
 * @returns {Record<string, string>}
 */
export function resolveTheme(getVariable) {
  const theme = {};
  for (const [key, [name, fallback]] of Object.entries(THEME_VARIABLES)) {
    const value = (getVariable(name) || "").trim();
    theme[key] = value || fallback;
  }
  return theme;
}

/** getVariable for an element, through getComputedStyle. */
export function cssVariableReader(el) {
  const style = typeof getComputedStyle === "function" ? getComputedStyle(el) : null;
  return (name) => (style ? style.getPropertyValue(name) : "");
}
