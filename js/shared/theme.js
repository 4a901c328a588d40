// Theme colours from JupyterLab's CSS variables, with the palette's page colours as
// fallbacks outside JupyterLab.
import { PALETTE } from "./palette.js";

/** The CSS variables we read, with light-theme fallbacks (PALETTE.theme). */
export const THEME_VARIABLES = {
  background: ["--jp-layout-color0", PALETTE.theme.background],
  foreground: ["--jp-ui-font-color1", PALETTE.theme.foreground],
  muted: ["--jp-ui-font-color2", PALETTE.theme.muted],
  grid: ["--jp-border-color2", PALETTE.theme.grid],
  accent: ["--jp-brand-color1", PALETTE.theme.accent],
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
