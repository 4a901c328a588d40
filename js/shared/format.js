// Number formatting for labels (text only; set with textContent).

/** Format a number for a label: 4 significant digits, exponent when tiny or huge. */
export function formatNumber(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return "undefined";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : "−∞";
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(2);
  return String(Number(v.toPrecision(4)));
}
