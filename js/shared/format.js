// Number formatting for labels (text only; set with textContent).

/**
 * Smallest pruned tail mass a view's caption names. The default tolerance (1e-12 per marginal) drops at
 * most a few 1e-12, which no printed digit can show, so captions name the pruned mass only when a coarser
 * tolerance was asked for; the results keep reporting it (`pruned_mass`) whatever its size.
 */
export const PRUNED_SHOWN = 1e-9;

/** Whether a caption names this pruned mass (more than {@link PRUNED_SHOWN}). */
export function showsPruned(mass) {
  return Number.isFinite(mass) && mass > PRUNED_SHOWN;
}

/** Format a number for a label: 4 significant digits, exponent when tiny or huge. */
export function formatNumber(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return "undefined";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : "−∞";
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(2);
  return String(Number(v.toPrecision(4)));
}
