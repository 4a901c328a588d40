import { describe, expect, it } from "vitest";
import { THEME_VARIABLES, cssVariableReader, resolveTheme } from "../shared/theme.js";

describe("theme", () => {
  it("uses JupyterLab's CSS variables when set", () => {
    const dark = { "--jp-layout-color0": " #111111 ", "--jp-ui-font-color1": "rgba(255,255,255,1)" };
    const theme = resolveTheme((name) => dark[name] ?? "");
    expect(theme.background).toBe("#111111");
    expect(theme.foreground).toBe("rgba(255,255,255,1)");
  });

  it("falls back to light defaults outside JupyterLab", () => {
    const theme = resolveTheme(() => "");
    for (const [key, [, fallback]] of Object.entries(THEME_VARIABLES)) {
      expect(theme[key]).toBe(fallback);
    }
  });

  it("reads variables from an element's computed style", () => {
    const el = document.createElement("div");
    el.style.setProperty("--jp-brand-color1", "#ff0000");
    document.body.appendChild(el);
    expect(resolveTheme(cssVariableReader(el)).accent).toBe("#ff0000");
    el.remove();
  });
});
