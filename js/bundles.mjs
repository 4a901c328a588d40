// What the front-end build produces, in one place (js/build.mjs builds it; the test
// js/tests/build.test.js checks that pyproject.toml's ensured-targets name every output).
//
// Each folder js/<name>/ with an index.js becomes src/confusionlab/static/<name>.js (+ .css),
// an ES module with every dependency inside; js/export/ becomes the IIFE renderer embed.js
// of the static HTML export.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Folders of js/ that are not widgets. */
export const NOT_WIDGETS = new Set(["export", "shared", "tests"]);
/** Where the bundles go (the Python package reads them from there). */
export const OUTDIR = "src/confusionlab/static";

/** The widget bundles: {name: entry point}, one per folder js/<name>/index.js. */
export function widgetEntries(root = "js") {
  return Object.fromEntries(
    readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !NOT_WIDGETS.has(d.name) && existsSync(join(root, d.name, "index.js")))
      .map((d) => [d.name, join(root, d.name, "index.js")])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** esbuild options of the two builds (the widgets' ES modules, the export's IIFE). */
export function buildOptions({ sourcemap } = {}) {
  const common = { bundle: true, minify: !sourcemap, sourcemap: sourcemap ?? false, outdir: OUTDIR, logLevel: "info" };
  return [
    { ...common, entryPoints: widgetEntries(), format: "esm" },
    { ...common, entryPoints: { embed: "js/export/index.js" }, format: "iife" },
  ];
}
