import { compactionLine } from './compaction-line.js';
import { fmtCost, fmtMs, fmtTokens, h } from './dom.js';
import type { ViewNode } from './types.js';

/** Folded text of an argument or result longer than this is shown behind a <details>. */
const SHORT = 200;

/** The session's tree: turns, LLM calls, tool calls, sub-agents nested under their call. */
export function renderTree(node: ViewNode, open: Set<string>): HTMLElement {
  const facts = h('span', { class: 'facts' });
  if (node.kind === 'llm') {
    facts.append(
      ...[
        node.model,
        node.inputTokens === undefined ? undefined : `${fmtTokens(node.inputTokens)} in`,
        node.outputTokens === undefined ? undefined : `${fmtTokens(node.outputTokens)} out`,
        node.cachedTokens ? `${fmtTokens(node.cachedTokens)} cached` : undefined,
        node.costUsd === undefined ? undefined : fmtCost(node.costUsd),
        fmtMs(node.latencyMs) || undefined,
      ]
        .filter((part): part is string => part !== undefined && part !== '')
        .map((part) => h('span', {}, part)),
    );
  } else if (node.endedAt !== undefined) {
    facts.append(h('span', {}, fmtMs(node.endedAt - node.startedAt)));
  }
  const head = h(
    'div',
    { class: 'node-head' },
    h('span', { class: `kind ${node.kind}` }, node.kind === 'session' ? 'agent' : node.kind),
    h('span', { class: 'label' }, node.label),
    h('span', { class: `badge ${node.status}` }, node.status),
    facts,
  );
  const body = h('div', { class: 'node-body' });
  if (node.guardrail !== undefined) body.appendChild(verdictLine(node.guardrail));
  if (node.policy !== undefined) body.appendChild(policyLine(node.policy));
  if (node.compaction !== undefined) {
    body.appendChild(
      h(
        'div',
        { class: 'payload compaction', 'data-outcome': node.compaction.outcome },
        h('span', { class: 'muted' }, 'compaction: '),
        h('code', {}, compactionLine(node.compaction)),
      ),
    );
    if (node.compaction.summary !== undefined)
      body.appendChild(payload('summary', node.compaction.summary, `${node.id}:s`, open));
  }
  if (node.error !== undefined) body.appendChild(h('div', { class: 'error' }, node.error));
  if (node.arguments !== undefined)
    body.appendChild(payload('arguments', node.arguments, `${node.id}:a`, open));
  if (node.result !== undefined) body.appendChild(payload('result', node.result, `${node.id}:r`, open));
  const children = h('div', { class: 'children' });
  for (const child of node.children) children.appendChild(renderTree(child, open));
  return h(
    'div',
    { class: `node ${node.kind}`, 'data-kind': node.kind, 'data-status': node.status },
    head,
    body,
    children,
  );
}

/** A guardrail run's verdict: outcome, where it ran (the call it checked) and why. */
function verdictLine(run: NonNullable<ViewNode['guardrail']>): HTMLElement {
  const where =
    run.callId === undefined
      ? `${run.on} ${run.phase}`
      : `${run.on} ${run.phase} of ${run.tool ?? 'call'} ${run.callId}`;
  const open = run.failedOpen === true ? ' (failed open)' : '';
  return h(
    'div',
    { class: 'payload verdict', 'data-outcome': run.outcome },
    h('span', { class: 'muted' }, `verdict (${where}): `),
    h('code', {}, `${run.outcome}${open}${run.reason === undefined ? '' : `: ${run.reason}`}`),
  );
}

/** A tool call's policy decision and the rule that made it. */
function policyLine(policy: NonNullable<ViewNode['policy']>): HTMLElement {
  return h(
    'div',
    { class: 'payload policy', 'data-decision': policy.decision },
    h('span', { class: 'muted' }, 'policy: '),
    h(
      'code',
      {},
      `${policy.decision} by ${policy.ruleName}${policy.reason === undefined ? '' : `: ${policy.reason}`}`,
    ),
  );
}

/** A payload: short ones shown, long ones folded behind a summary (open ones stay open on updates). */
function payload(name: string, text: string, key: string, open: Set<string>): HTMLElement {
  if (text.length <= SHORT && !text.includes('\n'))
    return h('div', { class: 'payload' }, h('span', { class: 'muted' }, `${name}: `), h('code', {}, text));
  const details = h(
    'details',
    { class: 'payload' },
    h('summary', {}, `${name} (${text.length} characters)`),
    h('pre', {}, text),
  );
  if (open.has(key)) details.setAttribute('open', '');
  details.addEventListener('toggle', () => {
    if ((details as HTMLDetailsElement).open) open.add(key);
    else open.delete(key);
  });
  return details;
}
