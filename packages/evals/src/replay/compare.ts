import { isDeepStrictEqual } from 'node:util';
import type { SessionRecord, SessionTape, TapeToolCall } from '@agent/protocol';
import type { CompareMode, Divergence, SessionLabel } from '../types.js';
import { renderReport, renderRequest, tapeNonce } from './normalise.js';
import { recordTapes, type SessionLabeler, sessionLabel } from './record-tapes.js';
import { diffStat, unifiedDiff } from './request-diff.js';

/** The divergence kinds each mode counts (each mode includes the ones before it). */
const COUNTED: Record<CompareMode, ReadonlySet<Divergence['kind']>> = {
  report: new Set(['outcome', 'report', 'exhausted']),
  calls: new Set(['outcome', 'report', 'exhausted', 'session', 'call']),
  requests: new Set(['outcome', 'report', 'exhausted', 'session', 'call', 'request']),
};

/**
 * How a replayed run's record differs from the recorded one under `mode`: `report` compares the
 * exit marker and the report (nonce normalised); `calls` adds the sessions run and each
 * session's tool calls (name and arguments); `requests` adds every model request, the first
 * differing one of each session as a unified diff. `replayedLabel` names the replayed sessions
 * as the record's (another agent file).
 */
export function compareRecords(
  recorded: SessionRecord,
  replayed: SessionRecord,
  mode: CompareMode,
  replayedLabel: SessionLabeler = sessionLabel,
): Divergence[] {
  const divergences = compareOutcome(recorded, replayed);
  if (mode === 'report') return divergences;
  const before = recordTapes(recorded);
  const after = recordTapes(replayed, replayedLabel);
  for (const [label, tape] of before) {
    const other = after.get(label);
    if (other === undefined) {
      divergences.push({
        kind: 'session',
        session: label,
        message: `${label}: the replay did not run this session`,
      });
      continue;
    }
    divergences.push(...compareToolCalls(label, tape.toolCalls, other.toolCalls));
    if (mode === 'requests') divergences.push(...compareRequests(label, tape, other));
  }
  for (const label of after.keys()) {
    if (!before.has(label))
      divergences.push({
        kind: 'session',
        session: label,
        message: `${label}: the replay ran a session the record does not have`,
      });
  }
  return divergences;
}

/**
 * The divergences `mode` counts, each once (the tool hook, the answer source and the record
 * comparison can see the same one).
 */
export function countedDivergences(mode: CompareMode, ...lists: (readonly Divergence[])[]): Divergence[] {
  const seen = new Set<string>();
  const kept: Divergence[] = [];
  for (const divergence of lists.flat()) {
    if (!COUNTED[mode].has(divergence.kind)) continue;
    const key = divergenceKey(divergence);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(divergence);
  }
  return kept;
}

function divergenceKey(divergence: Divergence): string {
  switch (divergence.kind) {
    case 'call':
      return `call ${divergence.session} ${divergence.index}`;
    case 'request':
    case 'exhausted':
      return `${divergence.kind} ${divergence.session} ${divergence.call}`;
    case 'session':
      return `session ${divergence.session}`;
    default:
      return divergence.kind;
  }
}

function compareOutcome(recorded: SessionRecord, replayed: SessionRecord): Divergence[] {
  const divergences: Divergence[] = [];
  if (recorded.exitCode !== replayed.exitCode)
    divergences.push({
      kind: 'outcome',
      expected: recorded.exitCode,
      actual: replayed.exitCode,
      message: `the replay ended with ${replayed.exitCode}, the record with ${recorded.exitCode}`,
    });
  const expected = renderReport(recorded.finalReport, rootNonce(recorded));
  const actual = renderReport(replayed.finalReport, rootNonce(replayed));
  if (expected !== actual) {
    const diff = unifiedDiff(expected, actual, 'report');
    divergences.push({ kind: 'report', diff, message: `the report differs (${diffStat(diff)})` });
  }
  return divergences;
}

function rootNonce(record: SessionRecord): string | undefined {
  return record.tree.tape === undefined ? undefined : tapeNonce(record.tree.tape);
}

function compareToolCalls(
  label: SessionLabel,
  recorded: readonly TapeToolCall[],
  replayed: readonly TapeToolCall[],
): Divergence[] {
  const divergences: Divergence[] = [];
  for (let index = 0; index < Math.max(recorded.length, replayed.length); index++) {
    const expected = shownCall(recorded[index]);
    const actual = shownCall(replayed[index]);
    if (isDeepStrictEqual(expected, actual)) continue;
    divergences.push({
      kind: 'call',
      session: label,
      index,
      ...(expected === undefined ? {} : { expected }),
      ...(actual === undefined ? {} : { actual }),
      message: `${label}: tool call ${index + 1}: recorded ${describeCall(expected)}, replayed ${describeCall(actual)}`,
    });
  }
  return divergences;
}

function shownCall(call: TapeToolCall | undefined) {
  return call === undefined ? undefined : { name: call.name, arguments: call.arguments };
}

const MAX_SHOWN_ARGUMENTS = 120;

function describeCall(call: { name: string; arguments: Record<string, unknown> } | undefined): string {
  if (call === undefined) return 'none';
  const args = JSON.stringify(call.arguments);
  const shown = args.length > MAX_SHOWN_ARGUMENTS ? `${args.slice(0, MAX_SHOWN_ARGUMENTS)}...` : args;
  return `${call.name} ${shown}`;
}

/** The first request of the session that differs, as a diff; how many later ones differ too. */
function compareRequests(label: SessionLabel, recorded: SessionTape, replayed: SessionTape): Divergence[] {
  const differing: { call: number; expected: string; actual: string }[] = [];
  for (let call = 0; call < Math.max(recorded.calls.length, replayed.calls.length); call++) {
    const before = recorded.calls[call];
    const after = replayed.calls[call];
    const expected = before === undefined ? '' : renderRequest(recorded, before);
    const actual = after === undefined ? '' : renderRequest(replayed, after);
    if (expected !== actual) differing.push({ call, expected, actual });
  }
  const first = differing[0];
  if (first === undefined) return [];
  const diff = unifiedDiff(first.expected, first.actual, `${label} request ${first.call + 1}`);
  const later = differing.length - 1;
  const more = later === 0 ? '' : `; ${later} later request${later === 1 ? ' differs' : 's differ'} too`;
  return [
    {
      kind: 'request',
      session: label,
      call: first.call,
      diff,
      message: `${label}: model request ${first.call + 1} differs from the record (${diffStat(diff)})${more}`,
    },
  ];
}
