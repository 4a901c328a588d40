// Bundles every widget front-end (the list is js/bundles.mjs) into src/confusionlab/static/
// and removes what an earlier build left there that this one no longer makes (a bundle
// renamed or merged), so that no stale bundle ships in a wheel.
// Usage: node js/build.mjs [--watch] [--sourcemap=inline]
import { readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import * as esbuild from "esbuild";
import { OUTDIR, buildOptions } from "./bundles.mjs";

const args = process.argv.slice(2);
const watch = args.includes("--watch");
const sourcemap = args.find((a) => a.startsWith("--sourcemap="))?.split("=")[1];
const builds = buildOptions({ sourcemap });

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  const results = await Promise.all(builds.map((options) => esbuild.build({ ...options, metafile: true })));
  const made = new Set(results.flatMap((r) => Object.keys(r.metafile.outputs)).map((path) => relative(OUTDIR, path)));
  for (const name of readdirSync(OUTDIR)) {
    if (/\.(js|css|map)$/.test(name) && !made.has(name)) {
      rmSync(join(OUTDIR, name));
      console.log(`  removed the stale ${join(OUTDIR, name)}`);
    }
  }
}
