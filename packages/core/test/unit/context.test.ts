import type { ConversationMessage } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { ContextGuard } from '../../src/context/context-guard.js';
import { heuristicTokens, isOpenAiFamily, TokenEstimator } from '../../src/context/token-estimator.js';

describe('TokenEstimator', () => {
  test('counts OpenAI-family text with the tokenizer and others with the heuristic', () => {
    const exact = new TokenEstimator(true);
    const rough = new TokenEstimator(false);
    expect(exact.text('hello world')).toBe(2);
    expect(rough.text('hello world')).toBe(heuristicTokens('hello world'));
    expect(heuristicTokens('abcdefgh')).toBe(2);
  });

  test('recognises OpenAI-family model names unless a hint says otherwise', () => {
    expect(isOpenAiFamily('gpt-4o-mini')).toBe(true);
    expect(isOpenAiFamily('o3-mini')).toBe(true);
    expect(isOpenAiFamily('claude-sonnet-4-5')).toBe(false);
    expect(isOpenAiFamily('qwen3', 'openai')).toBe(true);
  });

  test('a message is counted once and the cache follows identity', () => {
    const estimator = new TokenEstimator(false);
    const message: ConversationMessage = { role: 'user', content: 'x'.repeat(400) };
    const first = estimator.message(message);
    expect(first).toBe(104);
    expect(estimator.message(message)).toBe(first);
    expect(estimator.rawMessages([message, message])).toBe(208);
  });

  test('assistant tool calls and reasoning count', () => {
    const estimator = new TokenEstimator(false);
    const plain = estimator.message({ role: 'assistant', content: '' });
    const withCalls = estimator.message({
      role: 'assistant',
      content: '',
      reasoning: [{ text: 'r'.repeat(40) }],
      toolCalls: [{ id: '1', name: 'read', arguments: { path: 'a'.repeat(40) } }],
    });
    expect(withCalls).toBeGreaterThan(plain + 20);
  });

  test('the provider-reported input tokens correct later estimates', () => {
    const estimator = new TokenEstimator(false);
    expect(estimator.text('x'.repeat(400))).toBe(100);
    estimator.observe(200, 100);
    expect(estimator.correctionFactor).toBe(2);
    expect(estimator.text('x'.repeat(400))).toBe(200);
    estimator.observe(0, 100);
    expect(estimator.correctionFactor).toBe(2);
  });

  test('corrections are bounded', () => {
    const estimator = new TokenEstimator(false);
    estimator.observe(1_000_000, 10);
    expect(estimator.correctionFactor).toBe(4);
  });
});

describe('ContextGuard', () => {
  test('the limit is the window less the buffer and the output reserve', () => {
    const guard = new ContextGuard(undefined, 1000);
    const target = {
      client: { provider: 'p', model: 'm', stream: async function* () {} },
      contextWindow: 10_000,
      contextBuffer: 500,
    };
    expect(guard.limitFor(target)).toBe(8500);
    expect(new ContextGuard(4000, 0).limitFor(target)).toBe(3500);
    expect(new ContextGuard(4000, 0).limitFor(undefined)).toBe(3744);
    expect(guard.limitFor(undefined)).toBe(131_072 - 256 - 1000);
  });

  test('projects a new result against what is already used', () => {
    const guard = new ContextGuard(1256, 0);
    guard.addRaw(900);
    expect(guard.project(900, 100, undefined)).toEqual({
      projected: 1000,
      limit: 1000,
      remaining: 100,
      fits: true,
    });
    expect(guard.project(900, 101, undefined).fits).toBe(false);
  });
});
