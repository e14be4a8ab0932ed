import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentResult, JsonSchema, OutputFormat, SessionRecord } from '@agent/protocol';
import {
  createAgentRunner,
  type RunOptions,
  RuntimeError,
  readSessionRecord,
  recordFileName,
} from '@agent/runtime';
import { startModelServer } from '@agent/testkit';
import type { ReplayOptions, ReplayResult } from '../types.js';
import { createAnswerSource } from './answer-source.js';
import { compareRecords, countedDivergences } from './compare.js';
import { assertReplayable, recordTapes, rootRenaming } from './record-tapes.js';
import { scopedClients } from './scoped-clients.js';
import { createToolReplay } from './tool-replay.js';

/** Default bound on a whole replay. */
export const DEFAULT_REPLAY_TIMEOUT_MS = 300_000;

/**
 * Runs a recorded session again with the model's answers taken from the record (the testkit
 * model server, strict, behind the providers' official clients: no API key) and the tools
 * answered from the record too unless `liveTools`, then compares the new run's record with the
 * old one under `compare` (default `report`). Throws a `RuntimeError` for a record that cannot
 * be read or replayed (version 1, payloads dropped, no input); a run that fails is a result.
 */
export async function replay(
  record: SessionRecord | string,
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  const started = performance.now();
  const name = typeof record === 'string' ? record : `session ${record.sessionId}`;
  const recorded = typeof record === 'string' ? await readSessionRecord(record) : record;
  assertReplayable(recorded, name, options.agent);
  const input = recorded.input!;
  const agentFile = options.agent ?? input.agentFile!;
  const compare = options.compare ?? 'report';
  const tapes = recordTapes(recorded);
  const answers = createAnswerSource(tapes);
  let roots: { replayed: string; recorded: string } | undefined;
  const label = rootRenaming(() => roots);
  const tools = options.liveTools === true ? undefined : createToolReplay(tapes, label);
  const server = await startModelServer({ handler: answers.answer, strict: true });
  const recordsDir = options.recordsDir ?? (await mkdtemp(join(tmpdir(), 'agent-replay-')));
  try {
    const { clientFactory, modelClient } = scopedClients(server.url, label);
    const runner = await createAgentRunner(agentFile, {
      ...options.resolve,
      clientFactory,
      sessionHooks: { modelClient, ...(tools === undefined ? {} : { toolCall: tools.toolCall }) },
      sessionsDir: recordsDir,
      // A replay asks the recorded answers, never the response cache (it would make no call).
      overrides: { cache: 'off' },
    });
    roots = { replayed: runner.summary.toolName, recorded: recorded.tree.tape!.agentPath };
    let result: AgentResult;
    try {
      result = await runner.run(input.prompt, runOptions(recorded, options));
    } finally {
      await runner.close();
    }
    const replayed = await replayedRecord(recordsDir, result, name);
    const divergences = countedDivergences(
      compare,
      answers.divergences,
      tools?.divergences ?? [],
      compareRecords(recorded, replayed, compare, label),
    );
    return {
      match: divergences.length === 0,
      compare,
      divergences,
      result,
      record: replayed,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    await server.close();
    if (options.recordsDir === undefined) await rm(recordsDir, { recursive: true, force: true });
  }
}

/** The record the replayed run wrote; a run that wrote none (refused before it began) is an error. */
async function replayedRecord(dir: string, result: AgentResult, name: string): Promise<SessionRecord> {
  try {
    return await readSessionRecord(join(dir, recordFileName(result.sessionId)));
  } catch (error) {
    const why = result.success ? '' : `: it ended with ${result.exitCode} (${result.error})`;
    throw new RuntimeError({
      kind: 'configuration',
      message: `${name}: the replayed run left no record to compare${why}`,
      cause: error,
    });
  }
}

/** The run's options as the record had them: its format and schema, its prompt facts, a time bound. */
function runOptions(recorded: SessionRecord, options: ReplayOptions): RunOptions {
  const input = recorded.input!;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_REPLAY_TIMEOUT_MS);
  return {
    signal: options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]),
    promptFacts: input.promptFacts,
    ...(input.format === undefined ? {} : { format: input.format as OutputFormat }),
    ...(input.schema === undefined ? {} : { schema: input.schema as JsonSchema }),
  };
}
