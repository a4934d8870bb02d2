type Child = Node | string | undefined | false;

/** Builds one DOM element: attributes as strings (`hidden`, `disabled` as booleans), children appended. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string | boolean | undefined>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) node.setAttribute(name, '');
    else if (typeof value === 'string') node.setAttribute(name, value);
  }
  for (const child of children) {
    if (child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/** The element with this id, which index.html guarantees; a missing one is a build mistake. */
export function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`index.html has no #${id}`);
  return node as T;
}
