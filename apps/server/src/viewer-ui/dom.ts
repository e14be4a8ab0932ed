/** Builds elements with text only: nothing here ever parses HTML, so no input can inject markup. */
export type Child = Node | string | number | undefined | null | false;

export function h(tag: string, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name.startsWith('on')) continue;
    element.setAttribute(name, value);
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

export function clear(element: Element): void {
  while (element.firstChild !== null) element.removeChild(element.firstChild);
}

export { fmtCost, fmtDateTime, fmtMs, fmtScore, fmtShare, fmtTime, fmtTokens } from './format.js';

/** A `dl.totals` of name/value pairs, each value marked with `data-<key>="<name>"` for tests and styles. */
export function totalsList(cells: readonly (readonly [string, string])[], key: string): HTMLElement {
  return h(
    'dl',
    { class: 'totals' },
    ...cells.flatMap(([name, value]) => [h('dt', {}, name), h('dd', { [`data-${key}`]: name }, value)]),
  );
}
