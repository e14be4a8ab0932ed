import { ConfigError } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import type { ScriptedAnswer } from '../steps.js';

/** A server script: steps answered once each in order, or answers cycled forever. */
export type ServerScript = { steps: ScriptedAnswer[] } | { loop: ScriptedAnswer[] };

/** Parses and checks a script file's JSON; the error says what is wrong and what is allowed. */
export function parseScript(text: string, file: string): ServerScript {
  const allowed = 'expected {"steps": [answer, ...]} or {"loop": [answer, ...]} (see docs/testkit.md)';
  const problem = (field: string, value: unknown, message: string) =>
    new ConfigError({ field, value, allowed, source: file, message });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw problem('script', text.slice(0, 80), `not valid JSON (${(error as Error).message})`);
  }
  if (!isRecord(value)) throw problem('script', value, allowed);
  const key = Array.isArray(value.steps) ? 'steps' : Array.isArray(value.loop) ? 'loop' : undefined;
  if (key === undefined) throw problem('script', value, `no "steps" or "loop" array; ${allowed}`);
  const answers = value[key] as unknown[];
  const bad = answers.findIndex((answer) => !isRecord(answer));
  if (bad !== -1) {
    const field = `${key}[${bad}]`;
    throw problem(field, answers[bad], `${field} is ${JSON.stringify(answers[bad])}, not an answer object`);
  }
  if (key === 'loop' && answers.length === 0)
    throw problem('loop', answers, '"loop" needs at least one answer');
  return key === 'steps' ? { steps: answers as ScriptedAnswer[] } : { loop: answers as ScriptedAnswer[] };
}

/** A handler that cycles through the answers forever. */
export function loopHandler(answers: readonly ScriptedAnswer[]): () => ScriptedAnswer {
  let next = 0;
  return () => {
    const answer = answers[next % answers.length] as ScriptedAnswer;
    next += 1;
    return answer;
  };
}
