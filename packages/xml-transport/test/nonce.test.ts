import { describe, expect, it } from 'vitest';
import { assertNonce, createNonce, finalTagName, XmlTransportError } from '../src/index.js';

describe('nonce', () => {
  it('is 8 lowercase hex characters and differs between sessions', () => {
    // Several times the random pool's size: nonces stay distinct across its refills.
    const nonces = Array.from({ length: 600 }, () => createNonce());
    for (const nonce of nonces) expect(nonce).toMatch(/^[0-9a-f]{8}$/);
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it('names the final tag', () => {
    expect(finalTagName('1a2b3c4d')).toBe('ai-agent-1a2b3c4d-FINAL');
  });

  it('rejects a nonce that cannot live in a tag name, saying what is allowed', () => {
    for (const bad of ['', 'has space', 'a>b', 'x'.repeat(65), 42]) {
      expect(() => assertNonce(bad)).toThrow(XmlTransportError);
    }
    expect(() => finalTagName('a<b')).toThrow(/A-Z a-z 0-9 _ -/);
  });
});

describe('XmlTransportError', () => {
  it('carries the project error brand and a code, without importing @agent/protocol', () => {
    let thrown: unknown;
    try {
      assertNonce('a b');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(XmlTransportError);
    // The check `AgentError.is` makes: the registered brand symbol and a string code.
    expect((thrown as Record<symbol, unknown>)[Symbol.for('@agent/error')]).toBe(true);
    expect((thrown as XmlTransportError).code).toBe('invalid_nonce');
    expect(Object.getOwnPropertySymbols(thrown)).toEqual([]);
  });
});
