import type { CompiledValidator, ErrorObject } from '@agent/schema';
import { parseJsonLenient } from './json-lenient.js';
import { getAt, setAt } from './json-pointer.js';

export const MAX_REPAIR_ROUNDS = 5;

export interface NestedRepairResult {
  /** The value after repairs (a copy when anything was repaired; the input is never mutated). */
  value: unknown;
  /** Errors left after the last round; empty when the value is valid. */
  errors: readonly ErrorObject[];
  /** One line per repair, e.g. `parsed stringified JSON at /items/0`. */
  repairs: string[];
}

/**
 * Validates, and where the schema wants an object or array but finds a string holding
 * one (`"items": "[1, 2]"`), parses the string in place and validates again, for at most
 * `maxRounds` rounds.
 */
export function validateWithNestedRepair(
  input: unknown,
  validate: CompiledValidator,
  maxRounds = MAX_REPAIR_ROUNDS,
): NestedRepairResult {
  let value = input;
  let copied = false;
  const repairs: string[] = [];
  let errors = validate(value);
  for (let round = 0; round < maxRounds && errors.length > 0; round++) {
    let fixed = 0;
    const done = new Set<string>();
    for (const error of errors) {
      const path = error.instancePath;
      if (error.keyword !== 'type' || done.has(path)) continue;
      const wanted = expectedContainers(error.params as Record<string, unknown>);
      const current = getAt(value, path);
      if (wanted.length === 0 || typeof current !== 'string') continue;
      const parsed = parseJsonLenient(current, { unwrapStringified: true });
      if (!parsed.ok || !wanted.includes(containerKind(parsed.value))) continue;
      if (!copied) {
        value = copyJson(value);
        copied = true;
      }
      value = setAt(value, path, parsed.value);
      done.add(path);
      repairs.push(`parsed stringified JSON at ${path === '' ? '/' : path}`);
      fixed++;
    }
    if (fixed === 0) break;
    errors = validate(value);
  }
  return { value, errors, repairs };
}

function expectedContainers(params: Record<string, unknown>): string[] {
  const raw = params.type;
  const types = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(',') : [];
  return types.map((t) => t.trim()).filter((t) => t === 'object' || t === 'array');
}

function containerKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' && value !== null ? 'object' : 'other';
}

function copyJson(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return JSON.parse(JSON.stringify(value)) as unknown;
  }
}
