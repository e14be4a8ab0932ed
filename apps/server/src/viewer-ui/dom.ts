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

export function fmtTokens(n: number | undefined): string {
  return n === undefined ? '' : n.toLocaleString('en-US');
}

export function fmtCost(usd: number | undefined): string {
  return usd === undefined ? '' : `$${usd.toFixed(usd > 0 && usd < 0.01 ? 5 : 4)}`;
}

export function fmtMs(ms: number | undefined): string {
  if (ms === undefined) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function fmtTime(epoch: number): string {
  return new Date(epoch).toLocaleTimeString('en-GB');
}
