import type { Guardrail } from '@agent/protocol';
import { detectingCheck } from './detect.js';
import { type BuiltinOptions, build, checkBase, configError, oneOf, resolvePhases } from './options.js';
import { findPii, PII_KINDS, type PiiKind } from './pii/detectors.js';
import { countKinds } from './spans.js';

export type PiiAction = 'redact' | 'block';

export const PII_ACTIONS: readonly PiiAction[] = ['redact', 'block'];

export interface PiiGuardrailOptions extends BuiltinOptions {
  /** What to look for (default all): `email`, `phone`, `card` (Luhn-checked), `iban` (mod-97), `api_key`. */
  detect?: readonly PiiKind[];
  /** `redact`: each find becomes `[REDACTED:<kind>]` (a rewrite); `block`: a trip. */
  action: PiiAction;
}

/**
 * A guardrail that finds personal data and secrets: e-mail addresses, phone numbers (E.164
 * and common national formats, never a bare run of digits), card numbers that pass the Luhn
 * check, IBANs that pass mod-97, and API-key shapes (OpenAI, Anthropic, AWS, GitHub, Slack,
 * Stripe, Google, JWTs, `Bearer` tokens). On tool arguments and JSON reports it reads every
 * string and number value. Linear in the text; reasons count kinds, never show a value.
 */
export function piiGuardrail(options: PiiGuardrailOptions): Guardrail {
  const name = checkBase('pii', options);
  const action = oneOf(name, 'action', options.action, PII_ACTIONS);
  const kinds = detectKinds(name, options.detect);
  const phases = resolvePhases(name, options, ['prompt', 'stream', 'report', 'arguments', 'result']);
  const check = detectingCheck(
    action,
    (text, limit) => findPii(text, kinds, limit),
    (found) => `found ${countKinds(found)}`,
  );
  return build(name, options, phases, check);
}

function detectKinds(name: string, detect: unknown): readonly PiiKind[] {
  if (detect === undefined) return PII_KINDS;
  const allowed = `a non-empty list of ${PII_KINDS.join(', ')}`;
  if (!Array.isArray(detect) || detect.length === 0)
    throw configError(name, { field: 'detect', value: detect, allowed });
  const bad = detect.find((kind) => !PII_KINDS.includes(kind));
  if (bad !== undefined) throw configError(name, { field: 'detect', value: bad, allowed });
  return [...new Set(detect as PiiKind[])];
}
