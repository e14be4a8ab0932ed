import { fmtMs, h } from './dom.js';
import type { ViewNode } from './types.js';

/** The same tree as bars on one time axis: where each operation started and how long it took. */
export function renderWaterfall(root: ViewNode, now: number): HTMLElement {
  const rows: { node: ViewNode; depth: number }[] = [];
  const walk = (node: ViewNode, depth: number) => {
    rows.push({ node, depth });
    for (const child of node.children) walk(child, depth + 1);
  };
  walk(root, 0);
  const start = root.startedAt;
  const end = Math.max(root.endedAt ?? now, ...rows.map((row) => row.node.endedAt ?? now));
  const span = Math.max(1, end - start);
  const table = h('div', { class: 'waterfall' });
  for (const { node, depth } of rows) {
    const bar = h('div', { class: `bar ${node.kind} ${node.status}` });
    const from = ((node.startedAt - start) / span) * 100;
    const width = (((node.endedAt ?? now) - node.startedAt) / span) * 100;
    // Set through the CSSOM, which the page's Content-Security-Policy allows (inline styles it does not).
    bar.style.marginLeft = `${Math.max(0, Math.min(100, from))}%`;
    bar.style.width = `${Math.max(0.5, Math.min(100 - from, width))}%`;
    const name = h('div', { class: 'wf-name' }, node.label);
    name.style.paddingLeft = `${depth * 12}px`;
    table.appendChild(
      h(
        'div',
        { class: 'wf-row' },
        name,
        h('div', { class: 'wf-track' }, bar),
        h('div', { class: 'wf-time' }, fmtMs((node.endedAt ?? now) - node.startedAt)),
      ),
    );
  }
  return table;
}
