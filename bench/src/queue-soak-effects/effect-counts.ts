// What the counting API's log says about the soak's tool calls: which logical calls (ops) ran
// more than once, whether each repeat carried the first request's idempotency key, and which
// repeats ran although the call's outcome was journaled (seen by the journal probe) or had at
// least been answered (inferred: the journal is written as the answer arrives).
import type { EffectRequest } from './effects-api.js';

export interface EffectCounts {
  /** Ops requested at least once. */
  ops: number;
  requests: number;
  /** Ops requested more than once, and the requests beyond the first. */
  repeatedOps: number;
  extraRequests: number;
  /** Ops whose side effect was applied more than once (this API applies every request). */
  duplicatedEffects: number;
  /** Repeated ops: every request carried the first one's key / some request had no key / a key changed. */
  repeatsSameKey: number;
  repeatsKeyMissing: number;
  repeatsKeyChanged: number;
  /** Ops an API honouring the key would still apply more than once (missing or changed keys). */
  duplicatesAtIdempotentApi: number;
  /** Repeated ops whose later requests came from a new model attempt (the model was asked again). */
  repeatsFromNewAnswer: number;
  /** Ops requested again after an earlier request of theirs was answered. */
  rerunAfterAnswered: number;
  /** Ops requested again after the journal probe had found their outcome journaled. */
  rerunAfterJournaled: number;
  /** Ops the probe found journaled at some kill. */
  journaledOps: number;
}

function byOp(requests: readonly EffectRequest[]): Map<string, EffectRequest[]> {
  const ops = new Map<string, EffectRequest[]>();
  for (const request of requests) ops.set(request.op, [...(ops.get(request.op) ?? []), request]);
  for (const list of ops.values()) list.sort((a, b) => a.receivedAt - b.receivedAt);
  return ops;
}

type KeyVerdict = 'same' | 'missing' | 'changed';

function keyVerdict(list: readonly EffectRequest[]): KeyVerdict {
  if (list.some((r) => r.key === undefined || r.key === '')) return 'missing';
  return list.every((r) => r.key === list[0]?.key) ? 'same' : 'changed';
}

function rerunAfter(
  list: readonly EffectRequest[],
  at: (request: EffectRequest) => number | undefined,
): boolean {
  return list.some((later, i) =>
    list.slice(0, i).some((earlier) => {
      const mark = at(earlier);
      return mark !== undefined && mark <= later.receivedAt;
    }),
  );
}

export function countEffects(
  requests: readonly EffectRequest[],
  applied: ReadonlyMap<string, number>,
  journaledAt: ReadonlyMap<string, number>,
): EffectCounts {
  const counts: EffectCounts = {
    ops: 0,
    requests: requests.length,
    repeatedOps: 0,
    extraRequests: 0,
    duplicatedEffects: [...applied.values()].filter((n) => n > 1).length,
    repeatsSameKey: 0,
    repeatsKeyMissing: 0,
    repeatsKeyChanged: 0,
    duplicatesAtIdempotentApi: 0,
    repeatsFromNewAnswer: 0,
    rerunAfterAnswered: 0,
    rerunAfterJournaled: 0,
    journaledOps: journaledAt.size,
  };
  for (const [op, list] of byOp(requests)) {
    counts.ops += 1;
    if (list.length < 2) continue;
    counts.repeatedOps += 1;
    counts.extraRequests += list.length - 1;
    const verdict = keyVerdict(list);
    if (verdict === 'same') counts.repeatsSameKey += 1;
    else {
      counts.duplicatesAtIdempotentApi += 1;
      if (verdict === 'missing') counts.repeatsKeyMissing += 1;
      else counts.repeatsKeyChanged += 1;
    }
    if (list.some((r) => r.attempt !== list[0]?.attempt)) counts.repeatsFromNewAnswer += 1;
    if (rerunAfter(list, (r) => r.answeredAt)) counts.rerunAfterAnswered += 1;
    const journaled = journaledAt.get(op);
    if (journaled !== undefined && list.some((r) => r.receivedAt >= journaled))
      counts.rerunAfterJournaled += 1;
  }
  return counts;
}
