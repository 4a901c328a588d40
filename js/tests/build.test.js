// @vitest-environment node
// The build produces exactly what pyproject.toml's ensured-targets names (the packaging
// hook rebuilds when one is missing, and a wheel carries them all).
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";
import { OUTDIR, buildOptions, widgetEntries } from "../bundles.mjs";

function ensuredTargets() {
  const pyproject = readFileSync("pyproject.toml", "utf8");
  const section = pyproject.split("[tool.hatch.build.hooks.jupyter-builder]")[1];
  const list = section.match(/ensured-targets\s*=\s*\[([^\]]*)\]/)[1];
  return [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]).sort();
}

describe("the build", () => {
  it("writes every file pyproject.toml's ensured-targets lists, and no other", async () => {
    const results = await Promise.all(
      buildOptions().map((options) => esbuild.build({ ...options, write: false, metafile: true, logLevel: "silent" })),
    );
    const outputs = results.flatMap((r) => Object.keys(r.metafile.outputs)).sort();
    expect(outputs).toEqual(ensuredTargets());
    expect(outputs.every((path) => relative(OUTDIR, path) === path.split("/").at(-1))).toBe(true);
  }, 30_000);

  it("makes one bundle per widget folder, one chart bundle for BiasView and StabilityView", () => {
    expect(Object.keys(widgetEntries())).toEqual([
      "audit",
      "calibration",
      "chart",
      "confusion_simplex",
      "cost_curve",
      "decision",
      "decision_curve",
      "evaluation",
      "metric_pmf",
      "paired",
      "planner",
      "roc",
      "roc_slice",
    ]);
  });
});
