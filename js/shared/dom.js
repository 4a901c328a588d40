// DOM helpers shared by the widgets (text only, never HTML).

/** A new `tag` element with `className`, appended to `parent` when given. */
export function el(tag, className, parent) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * Children of `parent` by name, created in order: `{name: className}` for a div,
 * `{name: [tag, className]}` for another element.
 * @param {HTMLElement} parent
 * @param {Record<string, string|[string, string]>} spec
 * @returns {Record<string, HTMLElement>}
 */
export function parts(parent, spec) {
  const out = {};
  for (const [name, what] of Object.entries(spec)) {
    const [tag, className] = Array.isArray(what) ? what : ["div", what];
    out[name] = el(tag, className, parent);
  }
  return out;
}
