// The one delta format, shared with the server (no Node API in it: bundled as is).
import { applyListPatch, applySessionPatch } from '../viewer/view-patch.js';
import { clear, fmtCost, fmtMs, fmtTime, fmtTokens, h, totalsList } from './dom.js';
import { evalRoute, showEvalPage } from './eval-page.js';
import { renderReport } from './report.js';
import { renderTree } from './tree.js';
import type { ListPatch, SessionPatch, SessionView, Summary, Totals } from './types.js';
import { renderWaterfall } from './waterfall.js';

/**
 * The page: the session list (filters by agent and status) and, under `#<id>`, one session;
 * under `#evals` the eval runs and under `#eval:<runId>` one run.
 */
const app = document.getElementById('app') as HTMLElement;
const openPayloads = new Set<string>();
let sessions: Summary[] = [];
let current: SessionView | undefined;
let stream: EventSource | undefined;
const filters = { agent: '', status: '' };

function hash(): string {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return '';
  }
}

function watchedId(): string | undefined {
  const id = hash();
  return /^[\w-]{1,100}$/.test(id) && evalRoute(id) === undefined ? id : undefined;
}

function connect(): void {
  stream?.close();
  stream = undefined;
  current = undefined;
  // The eval pages read their files once: no live stream.
  const route = evalRoute(hash());
  if (route !== undefined) {
    clear(app);
    app.append(header());
    const page = h('div', { class: 'eval-page' });
    app.append(page);
    showEvalPage(route, page);
    return;
  }
  const id = watchedId();
  stream = new EventSource(
    id === undefined ? '/api/stream' : `/api/stream?session=${encodeURIComponent(id)}`,
  );
  // The whole list and session once, then what changed in them.
  const on = <T>(name: string, apply: (data: T) => void) =>
    stream?.addEventListener(name, (event) => {
      apply(JSON.parse((event as MessageEvent<string>).data) as T);
      render();
    });
  on<Summary[]>('list', (list) => {
    sessions = list;
  });
  on<ListPatch>('list-patch', (patch) => {
    sessions = applyListPatch(sessions, patch);
  });
  on<SessionView>('session', (view) => {
    current = view;
  });
  on<SessionPatch>('session-patch', (patch) => {
    if (current !== undefined) current = applySessionPatch(current, patch);
  });
}

function header(): HTMLElement {
  return h(
    'header',
    {},
    h('h1', {}, h('a', { href: '#' }, 'agent-server sessions')),
    h(
      'nav',
      {},
      h('a', { href: '#' }, 'sessions'),
      ' · ',
      h('a', { href: '#evals', class: 'evals-link' }, 'eval runs'),
    ),
  );
}

function render(): void {
  if (evalRoute(hash()) !== undefined) return;
  clear(app);
  app.append(header());
  const id = watchedId();
  if (id === undefined) app.append(renderList());
  else
    app.append(
      current === undefined
        ? h(
            'p',
            { class: 'muted' },
            `Session ${id}: not found (finished sessions are kept for a while only).`,
          )
        : renderSession(current),
    );
}

function select(name: keyof typeof filters, label: string, values: string[]): HTMLElement {
  const element = h(
    'select',
    { name },
    h('option', { value: '' }, `all ${label}`),
    ...values.map((v) => h('option', { value: v }, v)),
  ) as HTMLSelectElement;
  element.value = filters[name];
  element.addEventListener('change', () => {
    filters[name] = element.value;
    render();
  });
  return element;
}

function renderList(): HTMLElement {
  const agents = [...new Set(sessions.map((s) => s.agent))].sort();
  const shown = sessions.filter(
    (s) =>
      (filters.agent === '' || s.agent === filters.agent) &&
      (filters.status === '' || s.status === filters.status),
  );
  const rows = shown.map((s) =>
    h(
      'tr',
      { class: `session-row ${s.status}`, 'data-id': s.id },
      h('td', {}, h('a', { href: `#${s.id}` }, s.agent)),
      h('td', {}, h('span', { class: `badge ${s.status}` }, s.status)),
      h('td', {}, s.headend ?? ''),
      h('td', {}, fmtTime(s.startedAt)),
      h('td', {}, fmtMs(durationOf(s))),
      h('td', { class: 'num' }, String(s.totals.llmCalls)),
      h('td', { class: 'num' }, fmtTokens(s.totals.inputTokens + s.totals.outputTokens)),
      h('td', { class: 'num' }, fmtCost(s.totals.costUsd)),
    ),
  );
  return h(
    'section',
    { class: 'list' },
    h(
      'div',
      { class: 'filters' },
      select('agent', 'agents', agents),
      select('status', 'statuses', ['running', 'ok', 'failed']),
    ),
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['agent', 'status', 'face', 'started', 'duration', 'LLM calls', 'tokens', 'cost'].map((c) =>
            h('th', {}, c),
          ),
        ),
      ),
      h('tbody', {}, ...rows),
    ),
    shown.length === 0 ? h('p', { class: 'muted' }, 'No sessions yet.') : undefined,
  );
}

/** A running session's duration is until now; a finished one's is its own. */
function durationOf(session: Summary): number {
  return session.status === 'running' ? Date.now() - session.startedAt : session.totals.durationMs;
}

function renderTotals(totals: Totals): HTMLElement {
  const cells: [string, string][] = [
    ['LLM calls', String(totals.llmCalls)],
    ['tool calls', String(totals.toolCalls)],
    ['input tokens', fmtTokens(totals.inputTokens)],
    ['output tokens', fmtTokens(totals.outputTokens)],
    ['cached tokens', fmtTokens(totals.cachedTokens)],
    ['cost', fmtCost(totals.costUsd)],
    ['duration', fmtMs(totals.durationMs)],
  ];
  return totalsList(cells, 'total');
}

function renderSession(view: SessionView): HTMLElement {
  return h(
    'section',
    { class: 'session', 'data-status': view.status },
    h('h2', {}, view.agent, ' ', h('span', { class: `badge ${view.status}` }, view.status)),
    h(
      'p',
      { class: 'muted' },
      `session ${view.sessionId ?? '(starting)'} · ${view.headend ?? ''} · started ${fmtTime(view.startedAt)}`,
      view.exitCode === undefined ? undefined : ' · ',
      view.exitCode === undefined ? undefined : h('code', { 'data-exit-code': '' }, view.exitCode),
    ),
    renderTotals({ ...view.totals, durationMs: durationOf(view) }),
    view.error === undefined ? undefined : h('div', { class: 'error' }, view.error),
    view.report === undefined ? undefined : renderReport(view.report),
    h('h3', {}, 'Tree'),
    renderTree(view.tree, openPayloads),
    view.droppedNodes > 0
      ? h('p', { class: 'muted' }, `${view.droppedNodes} more operations not kept.`)
      : undefined,
    h('h3', {}, 'Timeline'),
    renderWaterfall(view.tree, Date.now()),
  );
}

window.addEventListener('hashchange', connect);
render();
connect();
