// The JSON the viewer's endpoints answer: the server's own view model (types only: nothing of
// the server is bundled into the page).
export type {
  BaselineComparison,
  EvalCaseResult,
  EvalCaseRun,
  EvalRunFile,
  EvalSummary,
  FinalReport as Report,
  OpTotals as Totals,
  ScoreResult,
} from '@agent/protocol';
export type { EvalRunEntry } from '../viewer/eval-listing.js';
export type { SessionSummary as Summary, SessionView, ViewNode } from '../viewer/view-model.js';
export type { ListPatch, SessionPatch } from '../viewer/view-patch.js';
