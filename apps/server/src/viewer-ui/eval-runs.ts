import { fmtCost, fmtDateTime, fmtShare, h } from './dom.js';
import type { EvalRunEntry } from './types.js';

/** `#evals`: the eval runs of `--evals <dir>`, newest first, each linking to its page. */
export function renderEvalRuns(runs: readonly EvalRunEntry[], dir: string): HTMLElement {
  const rows = runs.map((run) => {
    const link = h('td', {}, h('a', { href: `#eval:${run.runId}` }, run.runId));
    if ('error' in run)
      return h(
        'tr',
        { class: 'eval-row unreadable', 'data-run': run.runId },
        link,
        h('td', { colspan: '9', class: 'error' }, run.error),
      );
    const { summary, baseline } = run;
    return h(
      'tr',
      { class: `eval-row ${summary.failed === 0 ? 'ok' : 'failed'}`, 'data-run': run.runId },
      link,
      h('td', {}, run.agent),
      h('td', {}, run.dataset),
      h('td', {}, fmtDateTime(run.startedAt)),
      h('td', { class: 'num' }, String(summary.cases)),
      h('td', { class: 'num' }, String(summary.passed)),
      h('td', { class: 'num' }, String(summary.failed)),
      h('td', { class: 'num' }, fmtShare(summary.passRate)),
      h('td', { class: 'num' }, fmtCost(summary.costUsd)),
      h(
        'td',
        { class: baseline !== undefined && baseline.regressed > 0 ? 'regressed' : '' },
        baseline === undefined
          ? ''
          : `vs ${baseline.runId}: ${baseline.regressed} regressed, ${baseline.improved} improved`,
      ),
    );
  });
  return h(
    'section',
    { class: 'eval-runs' },
    h('h2', {}, 'Eval runs'),
    h('p', { class: 'muted' }, `from ${dir}`),
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...[
            'run',
            'agent',
            'dataset',
            'started',
            'cases',
            'passed',
            'failed',
            'pass^1',
            'cost',
            'baseline',
          ].map((c) => h('th', {}, c)),
        ),
      ),
      h('tbody', {}, ...rows),
    ),
    runs.length === 0
      ? h('p', { class: 'muted' }, 'No eval runs yet: run agent eval --out with this directory.')
      : undefined,
  );
}
