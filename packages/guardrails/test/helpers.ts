import type { Guardrail, GuardrailSubject, GuardrailVerdict } from '@agent/protocol';

/** Runs a guardrail's check as the session would, on one subject. */
export async function verdictOf(guard: Guardrail, subject: GuardrailSubject): Promise<GuardrailVerdict> {
  return guard.check(subject, {
    signal: new AbortController().signal,
    sessionId: 'session-1',
    agentPath: 'agents/support.ai',
    turn: 1,
  });
}

export const prompt = (text: string): GuardrailSubject => ({ phase: 'prompt', text, history: [] });

export const stream = (text: string): GuardrailSubject => ({ phase: 'stream', text, overlap: 0 });

export const report = (text: string): GuardrailSubject => ({
  phase: 'report',
  text,
  report: { status: 'success', format: 'markdown', content: text, ts: 0 },
});

export const jsonReport = (value: Record<string, unknown>): GuardrailSubject => ({
  phase: 'report',
  text: JSON.stringify(value),
  report: { status: 'success', format: 'json', content_json: value, ts: 0 },
});

export const args = (tool: string, value: Record<string, unknown>): GuardrailSubject => ({
  phase: 'arguments',
  callId: 'call-1',
  tool,
  arguments: value,
  text: JSON.stringify(value),
});

export const result = (tool: string, text: string): GuardrailSubject => ({
  phase: 'result',
  callId: 'call-1',
  tool,
  arguments: {},
  text,
});

/** The ConfigError a factory throws for `options` (fails the test when it does not throw). */
export function configErrorOf(build: () => unknown): { message: string; field: string; allowed: string } {
  try {
    build();
  } catch (error) {
    return error as { message: string; field: string; allowed: string };
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}
