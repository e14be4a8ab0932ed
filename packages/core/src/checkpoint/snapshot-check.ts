import { ConfigError, SESSION_SNAPSHOT_VERSION, type SessionSnapshot } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';

const STATUSES = ['running', 'awaiting_approval', 'finished'];

/**
 * Checks that `value` is a snapshot this release can resume (any version up to
 * `SESSION_SNAPSHOT_VERSION`) and returns it; throws a `ConfigError` naming what is wrong.
 * It checks the envelope, not every message: a snapshot is data this library wrote.
 */
export function checkSnapshot(value: unknown): SessionSnapshot {
  const fail = (field: string, got: unknown, allowed: string, message: string): never => {
    const name = field === '' ? 'resumeFrom' : `resumeFrom.${field}`;
    throw new ConfigError({ field: name, value: got, allowed, message: `${name}: ${message}` });
  };
  if (!isRecord(value)) return fail('', value, 'a session snapshot object', 'not a session snapshot');
  const version = value.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return fail('version', version, 'an integer from 1', 'no valid snapshot version');
  }
  if (version > SESSION_SNAPSHOT_VERSION) {
    fail(
      'version',
      version,
      `at most ${SESSION_SNAPSHOT_VERSION}`,
      `the snapshot is version ${version}, newer than this release reads (up to ${SESSION_SNAPSHOT_VERSION}): resume it with a newer @agent/core`,
    );
  }
  const strings = ['sessionId', 'agent', 'settingsHash', 'nonce'] as const;
  for (const key of strings) {
    if (typeof value[key] !== 'string' || (value[key] as string).length === 0) {
      fail(key, value[key], 'a non-empty string', `the snapshot's ${key} is missing`);
    }
  }
  if (!STATUSES.includes(value.status as string)) {
    fail(
      'status',
      value.status,
      STATUSES.join(', '),
      `the snapshot's status is not one of ${STATUSES.join(', ')}`,
    );
  }
  if (typeof value.turn !== 'number' || !Number.isInteger(value.turn) || value.turn < 0) {
    fail('turn', value.turn, 'an integer from 0', "the snapshot's turn is not a count of turns");
  }
  if (!Array.isArray(value.conversation) || !value.conversation.every(isRecord)) {
    fail(
      'conversation',
      undefined,
      'an array of messages',
      "the snapshot's conversation is not a list of messages",
    );
  }
  if (!isRecord(value.loop) || !isRecord(value.opTree) || !Array.isArray(value.accounting)) {
    fail(
      'loop',
      undefined,
      'loop, opTree and accounting objects',
      'the snapshot is missing its loop state, op tree or accounting',
    );
  }
  if (!Array.isArray(value.droppedTargets) || typeof value.tokenCorrection !== 'number') {
    fail(
      'droppedTargets',
      undefined,
      'droppedTargets and tokenCorrection',
      'the snapshot is missing its fallback state',
    );
  }
  if (
    value.status === 'awaiting_approval' &&
    (!Array.isArray(value.turnCalls) || !Array.isArray(value.pending))
  ) {
    fail(
      'pending',
      undefined,
      'turnCalls and pending lists',
      'the snapshot awaits approval but lists no pending calls',
    );
  }
  return value as unknown as SessionSnapshot;
}

/** A checked snapshot that can still run (a finished session has nothing left to do). */
export function resumableSnapshot(value: unknown): SessionSnapshot {
  const snapshot = checkSnapshot(value);
  if (snapshot.status === 'finished') {
    throw new ConfigError({
      field: 'resumeFrom.status',
      value: snapshot.status,
      allowed: 'running or awaiting_approval',
      message: `resumeFrom: session ${snapshot.sessionId} already finished (${snapshot.exitCode ?? 'no exit code'}); there is nothing to resume`,
    });
  }
  return snapshot;
}
