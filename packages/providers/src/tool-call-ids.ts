import { createHash, randomBytes } from 'node:crypto';
import type { ToolIdFormat } from './model-traits.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function base62(bytes: Uint8Array, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += ALPHANUMERIC[(bytes[i % bytes.length] ?? 0) % 62];
  return out;
}

/**
 * An id for a tool call the server sent without one. Random, so calls of different turns never
 * share an id (a history with duplicates is rejected by Anthropic after a fallback).
 */
export function newToolCallId(): string {
  return `call_${base62(randomBytes(24), 24)}`;
}

/** Letters and digits derived from an id: the same id always gives the same result. */
function digest(id: string, occurrence: number, length: number): string {
  const hash = createHash('sha256').update(`${id}\u0000${occurrence}`).digest();
  return base62(hash, length);
}

/** OpenAI rejects tool-call ids longer than 40 characters. */
const OPENAI_MAX_ID = 40;
const ANTHROPIC_ID = /^[A-Za-z0-9_-]+$/;
const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;

/** The id an API accepts for `id`; `occurrence` > 0 asks for another one (a duplicate in the history). */
function conform(id: string, format: ToolIdFormat, occurrence: number): string {
  switch (format) {
    case 'mistral':
      return occurrence === 0 && MISTRAL_ID.test(id) ? id : digest(id, occurrence, 9);
    case 'anthropic': {
      if (occurrence === 0 && ANTHROPIC_ID.test(id)) return id;
      const readable = id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
      return `${readable}_${digest(id, occurrence, 8)}`;
    }
    case 'openai':
      if (occurrence === 0 && id !== '' && id.length <= OPENAI_MAX_ID) return id;
      return `call_${digest(id, occurrence, 24)}`;
    case 'any':
      return occurrence === 0 && id !== '' ? id : `call_${digest(id, occurrence, 24)}`;
  }
}

/**
 * Tool-call ids of one request, rewritten for the API that receives it: ids the API accepts
 * stay as they are; others (another provider's format) get a derived id; a repeated id (a
 * server that reuses ids across turns) gets a new one from its second occurrence on. The
 * mapping depends only on the conversation up to that call, so it is the same in every turn.
 */
export class ToolIdMapper {
  private readonly latest = new Map<string, string>();
  private readonly used = new Set<string>();
  /** What each `call` changed, in order, so `rollback` can take the last ones back. */
  private readonly changes: { id: string; mapped: string; previous: string | undefined }[] = [];

  constructor(private readonly format: ToolIdFormat) {}

  /** The id for a call of an assistant message, in conversation order. */
  call(id: string): string {
    let mapped = conform(id, this.format, 0);
    for (let occurrence = 1; this.used.has(mapped); occurrence++)
      mapped = conform(id, this.format, occurrence);
    this.changes.push({ id, mapped, previous: this.latest.get(id) });
    this.used.add(mapped);
    this.latest.set(id, mapped);
    return mapped;
  }

  /** The id for a tool result: the one its call got (the latest call with that id). */
  result(id: string): string {
    return this.latest.get(id) ?? conform(id, this.format, 0);
  }

  /** How many calls were mapped so far: a point `rollback` can return to. */
  get mark(): number {
    return this.changes.length;
  }

  /** Forgets the calls mapped after `mark`, as if only the messages before it had been seen. */
  rollback(mark: number): void {
    while (this.changes.length > mark) {
      const change = this.changes.pop()!;
      this.used.delete(change.mapped);
      if (change.previous === undefined) this.latest.delete(change.id);
      else this.latest.set(change.id, change.previous);
    }
  }
}
