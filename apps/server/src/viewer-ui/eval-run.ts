import { fmtCost, fmtDateTime, fmtMs, fmtScore, fmtShare, fmtTokens, h, totalsList } from './dom.js';
import type { BaselineComparison, EvalCaseResult, EvalCaseRun, EvalRunFile, ScoreResult } from './types.js';

/** `#eval:<runId>`: one eval run's summary, its diff against a baseline, and its cases. */
export function renderEvalRun(run: EvalRunFile): HTMLElement {
  return h(
    'section',
    { class: 'eval-run', 'data-run': run.runId },
    h(
      'h2',
      {},
      `eval run ${run.runId} `,
      h(
        'span',
        { class: `badge ${run.summary.failed === 0 ? 'ok' : 'failed'}` },
        run.summary.failed === 0 ? 'passed' : 'failed',
      ),
    ),
    h(
      'p',
      { class: 'muted' },
      `${run.agent} · dataset ${run.dataset} · started ${fmtDateTime(run.startedAt)} · ${fmtMs(run.durationMs)} · repeat ${run.repeat} · concurrency ${run.concurrency}`,
    ),
    renderSummary(run),
    run.baseline === undefined ? undefined : renderBaseline(run.baseline),
    h('h3', {}, 'Cases'),
    renderCases(run.cases),
  );
}

function renderSummary(run: EvalRunFile): HTMLElement {
  const { summary } = run;
  const cells: [string, string][] = [
    ['cases', String(summary.cases)],
    ['passed', String(summary.passed)],
    ['failed', String(summary.failed)],
    ['pass^1', fmtShare(summary.passRate)],
    // pass^k only says more than pass^1 with repeats.
    ...(run.repeat > 1 ? ([[`pass^${run.repeat}`, fmtShare(summary.passHatK)]] as [string, string][]) : []),
    ['cost', fmtCost(summary.costUsd)],
    ['input tokens', fmtTokens(summary.inputTokens)],
    ['output tokens', fmtTokens(summary.outputTokens)],
  ];
  return totalsList(cells, 'summary');
}

/** The worst news first: regressions, then what improved, came, went, and stayed. */
const CHANGES = ['regressed', 'improved', 'added', 'removed', 'unchanged'] as const;

function renderBaseline(baseline: BaselineComparison): HTMLElement {
  const scores = new Map(baseline.scores.map((entry) => [entry.id, entry]));
  const rows = CHANGES.flatMap((change) =>
    baseline[change].map((id) => {
      const score = scores.get(id);
      return h(
        'tr',
        { class: `baseline-row ${change}`, 'data-case': id, 'data-change': change },
        h('td', {}, id),
        h('td', {}, h('span', { class: `badge ${change}` }, change)),
        h(
          'td',
          { class: 'num' },
          score === undefined ? '' : `${fmtScore(score.before)} -> ${fmtScore(score.after)}`,
        ),
      );
    }),
  );
  return h(
    'section',
    { class: 'baseline' },
    h('h3', {}, `Against baseline ${baseline.runId}`),
    h(
      'p',
      { class: 'baseline-counts' },
      CHANGES.map((change) => `${baseline[change].length} ${change}`).join(' · '),
    ),
    h(
      'table',
      {},
      h('thead', {}, h('tr', {}, ...['case', 'change', 'mean score'].map((c) => h('th', {}, c)))),
      h('tbody', {}, ...rows),
    ),
  );
}

function renderCases(cases: readonly EvalCaseResult[]): HTMLElement {
  return h(
    'table',
    { class: 'eval-cases' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['case', 'result', 'run', 'scores', 'cost', 'turns', 'time', 'session'].map((c) => h('th', {}, c)),
      ),
    ),
    ...cases.map(renderCase),
  );
}

/** One case: a row per run (repeat), the case's id and verdict spanning them. */
function renderCase(result: EvalCaseResult): HTMLElement {
  const span = String(Math.max(1, result.runs.length));
  const head = [
    h('td', { rowspan: span, class: 'case-id', title: result.input }, result.id),
    h(
      'td',
      { rowspan: span },
      h('span', { class: `badge ${result.passed ? 'ok' : 'failed'}` }, result.passed ? 'pass' : 'fail'),
    ),
  ];
  const rows =
    result.runs.length === 0
      ? [h('tr', {}, ...head, h('td', { colspan: '6', class: 'muted' }, 'no runs'))]
      : result.runs.map((run, index) =>
          h(
            'tr',
            { class: 'case-run', 'data-repeat': String(run.repeat) },
            ...(index === 0 ? head : []),
            ...runCells(run),
          ),
        );
  return h('tbody', { class: 'eval-case', 'data-case': result.id }, ...rows);
}

function runCells(run: EvalCaseRun): HTMLElement[] {
  return [
    h(
      'td',
      {},
      h(
        'span',
        { class: `badge ${run.passed ? 'ok' : 'failed'}`, 'data-run-result': '' },
        `#${run.repeat + 1} ${run.passed ? 'pass' : 'fail'}`,
      ),
    ),
    h(
      'td',
      {},
      run.error === undefined ? undefined : h('div', { class: 'error' }, run.error),
      h('ul', { class: 'scores' }, ...run.scores.map(renderScore)),
    ),
    h('td', { class: 'num' }, fmtCost(run.costUsd)),
    h('td', { class: 'num' }, String(run.turns)),
    h('td', { class: 'num' }, fmtMs(run.durationMs)),
    h(
      'td',
      {},
      run.sessionId === undefined
        ? h('span', { class: 'muted' }, 'no record')
        : h('a', { href: `#${run.sessionId}`, class: 'session-link' }, 'tree'),
    ),
  ];
}

function renderScore(score: ScoreResult): HTMLElement {
  return h(
    'li',
    { class: `score ${score.pass ? 'pass' : 'fail'}`, 'data-scorer': score.scorer },
    h('span', { class: 'scorer' }, score.scorer),
    ' ',
    h('span', { class: 'score-value' }, fmtScore(score.score)),
    score.reason === undefined ? undefined : h('span', { class: 'reason' }, ` ${score.reason}`),
    score.costUsd === undefined
      ? undefined
      : h('span', { class: 'muted' }, ` (judge ${fmtCost(score.costUsd)})`),
  );
}
