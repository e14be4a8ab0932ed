import { createRequire } from 'node:module';
import { heuristicTokens } from '@agent/protocol/util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createModelClient, type ModelClientConfig } from '../src/index.js';

const require = createRequire(import.meta.url);
const tokenizerLoaded = () => Object.keys(require.cache).some((path) => path.includes('gpt-tokenizer'));

const openai: ModelClientConfig = { type: 'openai', provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'k' };

describe('countTokens', () => {
  it('OpenAI models count with o200k_base, loaded on the first count only', () => {
    const client = createModelClient(openai);
    expect(typeof client.countTokens).toBe('function');
    expect(tokenizerLoaded()).toBe(false);
    expect(client.countTokens?.('hello world')).toBe(2);
    expect(client.countTokens?.('')).toBe(0);
    expect(tokenizerLoaded()).toBe(true);
    // Every OpenAI-family client shares one function, so per-function caches are shared too.
    expect(createModelClient({ ...openai, model: 'o3-mini' }).countTokens).toBe(client.countTokens);
  });

  it('countTokensBound is never below the exact count (o200k tokens are at least one byte each)', () => {
    const client = createModelClient(openai);
    const bound = client.countTokensBound;
    const count = client.countTokens;
    if (bound === undefined || count === undefined) throw new Error('an OpenAI client has both');
    expect(bound('héllo wörld 👋')).toBe(Buffer.byteLength('héllo wörld 👋'));
    const samples = ['', ' ', '\u{10FFFF}', 'a'.repeat(5000), 'word '.repeat(60_000)];
    for (const text of samples) expect(bound(text)).toBeGreaterThanOrEqual(count(text));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => bound(text) >= count(text)),
      { numRuns: 300 },
    );
    expect(createModelClient({ ...openai, tokenizer: 'heuristic' }).countTokensBound).toBeUndefined();
  });

  it('special-token strings in a text (hostile tool output) are counted as plain text, never thrown on', () => {
    const count = createModelClient(openai).countTokens;
    if (count === undefined) throw new Error('an OpenAI client counts');
    for (const special of ['<|endoftext|>', '<|endofprompt|>', '<|im_start|>']) {
      const text = `before ${special} after`;
      expect(() => count(text)).not.toThrow();
      // As many tokens as the same characters broken apart by a space, give or take the split.
      expect(Math.abs(count(text) - count(text.replace('|>', '| >')))).toBeLessThanOrEqual(2);
    }
  });

  it('texts over 256 KiB are counted by the heuristic (exact counts cost too much CPU)', () => {
    const client = createModelClient(openai);
    const huge = 'word '.repeat(60_000);
    expect(client.countTokens?.(huge)).toBe(heuristicTokens(huge));
  });

  it('other models have no countTokens unless the config names the openai tokenizer', () => {
    const claude = createModelClient({
      type: 'anthropic',
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      apiKey: 'k',
    });
    expect(claude.countTokens).toBeUndefined();
    const local: ModelClientConfig = {
      type: 'openai-compatible',
      provider: 'local',
      model: 'qwen3:8b',
      baseURL: 'http://127.0.0.1:9/v1',
    };
    expect(createModelClient(local).countTokens).toBeUndefined();
    expect(createModelClient({ ...local, tokenizer: 'openai' }).countTokens?.('hello world')).toBe(2);
    expect(createModelClient({ ...openai, tokenizer: 'heuristic' }).countTokens).toBeUndefined();
  });

  it('refuses an empty tokenizer name', () => {
    expect(() => createModelClient({ ...openai, tokenizer: '' })).toThrow(
      'createModelClient: tokenizer must be a tokenizer name such as "openai", got ""',
    );
  });
});
