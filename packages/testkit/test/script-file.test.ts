import { AgentError, ConfigError } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { parseScript } from '../src/bin/script-file.js';

describe('agent-testkit-server script files', () => {
  test.each([
    ['{"steps": [', 'script', 's.json: not valid JSON'],
    ['[1]', 'script', 's.json: expected {"steps": [answer, ...]} or {"loop": [answer, ...]}'],
    ['{"step": []}', 'script', 's.json: no "steps" or "loop" array; expected'],
    ['{"steps": [{"text": "a"}, 7]}', 'steps[1]', 's.json: steps[1] is 7, not an answer object'],
    ['{"loop": []}', 'loop', 's.json: "loop" needs at least one answer'],
  ])('%s is a ConfigError (code configuration) naming the field %s', (text, field, message) => {
    let failed: unknown;
    try {
      parseScript(text, 's.json');
    } catch (error) {
      failed = error;
    }
    expect(AgentError.is(failed, 'configuration')).toBe(true);
    expect(failed).toBeInstanceOf(ConfigError);
    expect((failed as ConfigError).field).toBe(field);
    expect((failed as Error).message.startsWith(message)).toBe(true);
  });

  test('a good script parses', () => {
    expect(parseScript('{"loop": [{"text": "hi"}]}', 's.json')).toEqual({ loop: [{ text: 'hi' }] });
  });
});
