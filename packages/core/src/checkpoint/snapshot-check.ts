import { ConfigError, SESSION_SNAPSHOT_VERSION, type SessionSnapshot } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import { migrateSnapshot } from './migrations/index.js';

const STATUSES = ['running', 'awaiting_approval', 'finished'];

/** One rule of the envelope: the field a problem names, the test, what is allowed, the message. */
interface EnvelopeRule {
  field: string;
  holds: (snapshot: Record<string, unknown>) => boolean;
  allowed: string;
  message: string;
  /** Whether the problem quotes the field's value (not for lists and objects). */
  quotes?: boolean;
}

const isCount = (value: unknown, from: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= from;

const ENVELOPE: readonly EnvelopeRule[] = [
  ...(['sessionId', 'agent', 'settingsHash', 'nonce'] as const).map((key) => ({
    field: key,
    holds: (s: Record<string, unknown>) => typeof s[key] === 'string' && (s[key] as string).length > 0,
    allowed: 'a non-empty string',
    message: `the snapshot's ${key} is missing`,
    quotes: true,
  })),
  {
    field: 'status',
    holds: (s) => STATUSES.includes(s.status as string),
    allowed: STATUSES.join(', '),
    message: `the snapshot's status is not one of ${STATUSES.join(', ')}`,
    quotes: true,
  },
  {
    field: 'turn',
    holds: (s) => isCount(s.turn, 0),
    allowed: 'an integer from 0',
    message: "the snapshot's turn is not a count of turns",
    quotes: true,
  },
  {
    field: 'conversation',
    holds: (s) => Array.isArray(s.conversation) && s.conversation.every(isRecord),
    allowed: 'an array of messages',
    message: "the snapshot's conversation is not a list of messages",
  },
  {
    field: 'loop',
    holds: (s) => isRecord(s.loop) && isRecord(s.opTree) && Array.isArray(s.accounting),
    allowed: 'loop, opTree and accounting objects',
    message: 'the snapshot is missing its loop state, op tree or accounting',
  },
  {
    field: 'droppedTargets',
    holds: (s) => Array.isArray(s.droppedTargets) && typeof s.tokenCorrection === 'number',
    allowed: 'droppedTargets and tokenCorrection',
    message: 'the snapshot is missing its fallback state',
  },
  {
    field: 'pending',
    holds: (s) =>
      s.status !== 'awaiting_approval' || (Array.isArray(s.turnCalls) && Array.isArray(s.pending)),
    allowed: 'turnCalls and pending lists',
    message: 'the snapshot awaits approval but lists no pending calls',
  },
];

function fail(field: string, got: unknown, allowed: string, message: string): never {
  const name = field === '' ? 'resumeFrom' : `resumeFrom.${field}`;
  throw new ConfigError({ field: name, value: got, allowed, message: `${name}: ${message}` });
}

/**
 * Checks that `value` is a snapshot this release can resume (any version up to
 * `SESSION_SNAPSHOT_VERSION`) and returns it migrated to this release's version (a copy when
 * it was older); throws a `ConfigError` naming what is wrong.
 * It checks the envelope, not every message: a snapshot is data this library wrote.
 */
export function checkSnapshot(value: unknown): SessionSnapshot {
  if (!isRecord(value)) return fail('', value, 'a session snapshot object', 'not a session snapshot');
  const version = value.version;
  if (!isCount(version, 1)) return fail('version', version, 'an integer from 1', 'no valid snapshot version');
  if ((version as number) > SESSION_SNAPSHOT_VERSION) {
    fail(
      'version',
      version,
      `at most ${SESSION_SNAPSHOT_VERSION}`,
      `the snapshot is version ${version}, newer than this release reads (up to ${SESSION_SNAPSHOT_VERSION}): resume it with a newer @agent/core`,
    );
  }
  for (const rule of ENVELOPE) {
    if (!rule.holds(value))
      fail(rule.field, rule.quotes ? value[rule.field] : undefined, rule.allowed, rule.message);
  }
  const migrated = migrateSnapshot(value);
  // After migration every pending call names the hash its decision is bound to.
  if (!(migrated.pending ?? []).every((call) => isRecord(call) && typeof call.argumentsHash === 'string')) {
    fail('pending', undefined, 'pending calls with argumentsHash', 'a pending call has no argumentsHash');
  }
  return migrated;
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
