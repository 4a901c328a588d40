// Every colour of the JavaScript comes from js/shared/palette.js (whose values
// tests/contract/test_palette.py keeps equal to confusionlab.palette).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EMPTY_COLOUR, VERDICTS, VERDICT_COLOURS } from "../audit/geometry.js";
import { REFIT_COLOUR } from "../evaluation/widget.js";
import { SEQUENTIAL } from "../paired/geometry.js";
import { OBSERVED_COLOUR } from "../paired/widget.js";
import { UNREACHED_COLOUR } from "../planner/widget.js";
import { CONTOUR_COLOURS } from "../roc_slice/widget.js";
import { DIVERGING, MISSING, hexRGB } from "../shared/colour.js";
import { PALETTE } from "../shared/palette.js";
import { THEME_VARIABLES, resolveTheme } from "../shared/theme.js";

const JS = "js"; // npm test runs from the repository root

/** Source files under js/ (tests and the palette itself aside). */
function sources(ending) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== "tests") walk(path);
      else if (entry.isFile() && entry.name.endsWith(ending) && path !== join(JS, "shared", "palette.js")) out.push(path);
    }
  };
  walk(JS);
  return out;
}

describe("the palette module", () => {
  it("is one JSON literal, as the Python contract test reads it", () => {
    const text = readFileSync(join(JS, "shared", "palette.js"), "utf8");
    const literal = text.match(/^export const PALETTE = (\{[\s\S]*\});\n$/m)[1];
    expect(JSON.parse(literal)).toEqual(PALETTE);
  });

  it("gives the colour scales as [r, g, b] of its hex values", () => {
    expect(hexRGB("#b2182b")).toEqual([178, 24, 43]);
    expect(DIVERGING).toEqual(PALETTE.diverging.map(hexRGB));
    expect(DIVERGING[0]).toEqual([178, 24, 43]);
    expect(DIVERGING[8]).toEqual([33, 102, 172]);
    expect(MISSING).toEqual([136, 136, 136]);
    expect(SEQUENTIAL).toEqual(PALETTE.sequential.map(hexRGB));
    expect(SEQUENTIAL[0]).toEqual([255, 255, 204]);
  });

  it("is where each view takes its role colours", () => {
    expect(VERDICT_COLOURS).toEqual(VERDICTS.map((v) => PALETTE.verdicts[v]));
    expect(VERDICT_COLOURS).toEqual(["#c51b7d", "#4d9221", "#d9d9d9"]);
    expect(EMPTY_COLOUR).toBe(PALETTE.theme.background);
    expect(CONTOUR_COLOURS).toEqual(PALETTE.contours);
    expect(REFIT_COLOUR).toBe(PALETTE.sources.refit);
    expect(UNREACHED_COLOUR).toBe(PALETTE.theme.warning);
    expect(OBSERVED_COLOUR).toBe(PALETTE.neutral);
  });

  it("gives the theme's fallbacks outside JupyterLab", () => {
    const theme = resolveTheme(() => "");
    for (const key of ["background", "foreground", "muted", "grid", "accent"]) expect(theme[key]).toBe(PALETTE.theme[key]);
  });
});

describe("no colour outside the palette", () => {
  it("has no hex colour literal in the JavaScript", () => {
    const found = sources(".js").flatMap((path) =>
      [...readFileSync(path, "utf8").matchAll(/["'`]#[0-9a-fA-F]{3,8}\b/g)].map((m) => `${path}: ${m[0]}`),
    );
    expect(found).toEqual([]);
  });

  it("has hex colours in the CSS only as fallbacks of JupyterLab's variables, the palette's for the theme", () => {
    const byVariable = Object.fromEntries(Object.entries(THEME_VARIABLES).map(([key, [name]]) => [name, PALETTE.theme[key]]));
    const problems = [];
    for (const path of sources(".css")) {
      const text = readFileSync(path, "utf8");
      const bare = text.replace(/var\(--jp-[\w-]+,\s*#[0-9a-fA-F]{3,8}\)/g, "");
      if (/#[0-9a-fA-F]{3,8}\b/.test(bare)) problems.push(`${path}: a colour outside var(--jp-…, fallback)`);
      for (const [, name, fallback] of text.matchAll(/var\((--jp-[\w-]+),\s*(#[0-9a-fA-F]{3,8})\)/g)) {
        if (name in byVariable && byVariable[name] !== fallback.toLowerCase()) problems.push(`${path}: ${name} ${fallback}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
