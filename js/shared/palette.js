// The library's one colour convention, for the browser: the same values as
// src/confusionlab/palette.py (tests/contract/test_palette.py keeps the two equal, so
// this stays one plain JSON literal). Colours are "#rrggbb" strings.
export const PALETTE = {
  "diverging": ["#b2182b", "#d6604d", "#f4a582", "#fddbc7", "#e0e0e0", "#d1e5f0", "#92c5de", "#4393c3", "#2166ac"],
  "sequential": ["#ffffcc", "#c7e9b4", "#7fcdbb", "#41b6c4", "#1d91c0", "#225ea8", "#0c2c84"],
  "missing": "#888888",
  "neutral": "#404040",
  "models": {
    "binomial": "#e08214",
    "beta-binomial": "#2166ac",
    "dirichlet-multinomial": "#5e3c99",
    "true_value": "#35618f"
  },
  "pair": {"A": "#1b7837", "B": "#762a83"},
  "groups": {"a": "#4393c3", "d": "#d6604d"},
  "verdicts": {"bias": "#c51b7d", "no material bias": "#4d9221", "insufficient evidence": "#d9d9d9"},
  "signs": {"excludes no bias": "#8e0152", "holds no bias": "#969696"},
  "sources": {"test set": "#1976d2", "refit": "#d84315"},
  "contours": ["#e69f00", "#56b4e9", "#009e73", "#cc79a7", "#d55e00", "#0072b2", "#f0e442", "#999999"],
  "theme": {
    "background": "#ffffff",
    "foreground": "#212121",
    "muted": "#616161",
    "grid": "#e0e0e0",
    "accent": "#1976d2",
    "warning": "#c62828",
    "highlight": "#fff3cd"
  }
};
