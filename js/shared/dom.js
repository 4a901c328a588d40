// DOM helpers shared by the widgets (text only, never HTML).

/** A new `tag` element with `className`, appended to `parent` when given. */
export function el(tag, className, parent) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (parent) parent.appendChild(node);
  return node;
}
