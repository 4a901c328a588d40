// Bundle entry of the offline renderer (esbuild --format=iife → static/embed.js).
import { renderPage } from "./embed.js";

if (typeof document !== "undefined" && !window.__confusionlabEmbed) {
  window.__confusionlabEmbed = true;
  const start = () => renderPage(document);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
