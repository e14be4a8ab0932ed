import { clear, h } from './dom.js';
import { renderEvalRun } from './eval-run.js';
import { renderEvalRuns } from './eval-runs.js';
import type { EvalRunEntry, EvalRunFile } from './types.js';

/** The eval pages' hash forms: `#evals` (the runs) and `#eval:<runId>` (one run). */
export type EvalRoute = { page: 'evals' } | { page: 'eval'; runId: string };

/** Same form as the server's run ids (`EVAL_RUN_ID`): never `.` or `..`. */
const RUN_ID = /^eval:((?!\.+$)[\w.-]{1,100})$/;

export function evalRoute(hash: string): EvalRoute | undefined {
  if (hash === 'evals') return { page: 'evals' };
  const runId = RUN_ID.exec(hash)?.[1];
  return runId === undefined ? undefined : { page: 'eval', runId };
}

/** Bumped at each page shown: an answer for a page left meanwhile is dropped. */
let shown = 0;

/** Fills `target` with an eval page: a loading line, then the runs or the run (or why not). */
export function showEvalPage(route: EvalRoute, target: HTMLElement): void {
  const mine = ++shown;
  const url = route.page === 'evals' ? '/api/evals' : `/api/evals/${encodeURIComponent(route.runId)}`;
  target.append(h('p', { class: 'muted' }, 'Loading…'));
  void fetch(url, { headers: { accept: 'application/json' } })
    .then(async (response) => {
      const body = (await response.json()) as { error?: string };
      if (!response.ok) throw new Error(body.error ?? `${url}: HTTP ${response.status}`);
      return body;
    })
    .then(
      (body) => {
        if (mine !== shown) return;
        clear(target);
        target.append(
          route.page === 'evals'
            ? renderEvalRuns((body as { runs: EvalRunEntry[] }).runs, (body as { dir: string }).dir)
            : renderEvalRun(body as EvalRunFile),
        );
      },
      (error: unknown) => {
        if (mine !== shown) return;
        clear(target);
        target.append(
          h('div', { class: 'error eval-error' }, error instanceof Error ? error.message : String(error)),
        );
      },
    );
}
