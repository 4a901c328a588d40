// Bundles every widget front-end: each folder js/<name>/ with an index.js becomes
// src/confusionlab/static/<name>.js (+ .css), an ES module with every dependency inside;
// js/export/ becomes the IIFE renderer embed.js of the static HTML export.
// Usage: node js/build.mjs [--watch] [--sourcemap=inline]
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import * as esbuild from "esbuild";

const NOT_WIDGETS = new Set(["export", "shared", "tests"]);
const outdir = "src/confusionlab/static";
const args = process.argv.slice(2);
const watch = args.includes("--watch");
const sourcemap = args.find((a) => a.startsWith("--sourcemap="))?.split("=")[1];

const widgets = Object.fromEntries(
  readdirSync("js", { withFileTypes: true })
    .filter((d) => d.isDirectory() && !NOT_WIDGETS.has(d.name) && existsSync(join("js", d.name, "index.js")))
    .map((d) => [d.name, join("js", d.name, "index.js")]),
);
const common = { bundle: true, minify: !sourcemap, sourcemap: sourcemap ?? false, outdir, logLevel: "info" };
const builds = [
  { ...common, entryPoints: widgets, format: "esm" },
  { ...common, entryPoints: { embed: "js/export/index.js" }, format: "iife" },
];
if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
