import type { ConversationMessage } from '@agent/protocol';
import { heuristicTokens } from '@agent/protocol/util';
import { renderXmlNextBody } from '@agent/xml-transport';
import { describe, expect, test } from 'vitest';
import { ContextGuard } from '../../src/context/context-guard.js';
import { NoticeTokens } from '../../src/context/notice-tokens.js';
import { TokenEstimator } from '../../src/context/token-estimator.js';
import { TurnNotices } from '../../src/loop/turn-notice.js';

describe('TokenEstimator', () => {
  test("counts with the client's countTokens when it has one, else with the heuristic", () => {
    const counted: string[] = [];
    const client = {
      words: 0,
      countTokens(text: string): number {
        counted.push(text);
        this.words = text.split(' ').length;
        return this.words;
      },
    };
    const exact = new TokenEstimator(client);
    const rough = new TokenEstimator();
    expect(exact.text('hello big world')).toBe(3);
    expect(counted).toEqual(['hello big world']);
    expect(client.words).toBe(3); // called as a method of its client
    expect(rough.text('hello big world')).toBe(heuristicTokens('hello big world'));
    expect(new TokenEstimator({}).text('abcdefgh')).toBe(2);
  });

  test('tool definitions are counted once per counting function, across estimators', () => {
    let calls = 0;
    const countTokens = (text: string) => {
      calls += 1;
      return text.length;
    };
    const definition = { name: 'read', description: 'reads', inputSchema: { type: 'object' } };
    const first = new TokenEstimator({ countTokens }).rawTools([definition]);
    expect(new TokenEstimator({ countTokens }).rawTools([definition])).toBe(first);
    expect(calls).toBe(1);
    expect(new TokenEstimator().rawTools([definition])).toBe(heuristicTokens('readreads{"type":"object"}'));
  });

  test('a text is counted once however many checks it passes (a tool result: sized, admitted, stored)', () => {
    const counted: string[] = [];
    const estimator = new TokenEstimator({
      countTokens: (text: string) => {
        counted.push(text);
        return text.length;
      },
    });
    const result = `result ${'r'.repeat(500)}`;
    expect(estimator.text(result)).toBe(507);
    expect(estimator.text(result)).toBe(507);
    expect(estimator.rawMessages([{ role: 'tool', toolCallId: 'c1', toolName: 't', content: result }])).toBe(
      511,
    );
    expect(counted).toEqual([result]);
  });

  test('the XML-NEXT body is counted once per process, and so is each distinct head', () => {
    const counted: string[] = [];
    const countTokens = (text: string) => {
      counted.push(text);
      return text.length;
    };
    const input = (nonce: string, turn: number) => ({
      nonce,
      turn,
      maxTurns: 10,
      attempt: 1,
      maxAttempts: 3,
      contextPercent: turn,
      expected: { format: 'json' as const, schema: { type: 'object', required: ['answer'] } },
      forcedFinal: undefined,
      allowedTools: [],
    });
    const sessionA = new TurnNotices(new NoticeTokens(new TokenEstimator({ countTokens }), 'aaaaaaaa'));
    const first = sessionA.render(input('aaaaaaaa', 1));
    expect(first.text).toContain('ai-agent-aaaaaaaa-FINAL');
    expect(first.rawTokens).toBe(first.text.length - 1); // head + body, the line break between not counted
    expect(sessionA.render(input('aaaaaaaa', 1))).toBe(first);
    expect(sessionA.render(input('aaaaaaaa', 2)).rawTokens).toBeGreaterThan(0);
    const sessionB = new TurnNotices(new NoticeTokens(new TokenEstimator({ countTokens }), 'bbbbbbbb'));
    const other = sessionB.render(input('bbbbbbbb', 1));
    expect(other.text).toContain('ai-agent-bbbbbbbb-FINAL');
    expect(other.rawTokens).toBe(first.rawTokens);
    const bodies = counted.filter((text) => text.includes('exactly one final report'));
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).not.toContain('aaaaaaaa');
    expect(counted.filter((text) => text.startsWith('# XML-NEXT'))).toHaveLength(2); // A turn 1 and A turn 2; B's turn 1 head is A's, counted once per process
  });

  test("a session's notice body is exactly the one rendered for its nonce, also when the schema holds the template's marker", () => {
    const countTokens = (text: string) => text.length;
    const render = (nonce: string, schema: Record<string, unknown>) =>
      new TurnNotices(new NoticeTokens(new TokenEstimator({ countTokens }), nonce)).render({
        nonce,
        turn: 1,
        maxTurns: 10,
        attempt: 1,
        maxAttempts: 3,
        contextPercent: 0,
        expected: { format: 'json', schema },
        forcedFinal: undefined,
        allowedTools: [],
      });
    for (const schema of [
      { type: 'object', description: 'plain' },
      { type: 'object', description: 'holds x7Qz9KpWv2nonce_marker_a and 00000000' },
    ]) {
      for (const nonce of ['cafe0001', 'cafe0002']) {
        const notice = render(nonce, schema);
        const body = renderXmlNextBody({
          nonce,
          maxTurns: 10,
          attempt: 1,
          maxAttempts: 3,
          format: 'json',
          schema,
        });
        expect(notice.text.endsWith(`\n${body}`)).toBe(true);
        expect(notice.text.split(`ai-agent-${nonce}-FINAL`)).toHaveLength(3);
        expect(notice.text).toContain(JSON.stringify(schema));
      }
    }
  });

  test('bounds are tried only until the tokenizer has counted in the process; then counts are exact at once', () => {
    const countTokens = (text: string) => text.length;
    const countTokensBound = (text: string) => text.length * 4;
    const first = new TokenEstimator({ countTokens, countTokensBound });
    expect(first.boundsHelp).toBe(true);
    expect(first.rawTextBound('hello world')).toBe(44);
    expect(first.boundsHelp).toBe(true); // a bound loads nothing
    expect(first.rawText('hello world')).toBe(11);
    expect(first.boundsHelp).toBe(false);
    // Another session of the same tokenizer: it is loaded for it too.
    expect(new TokenEstimator({ countTokens, countTokensBound }).boundsHelp).toBe(false);
    // A client without a bound, or the heuristic, never tries one.
    expect(new TokenEstimator({ countTokens: (text: string) => text.length }).boundsHelp).toBe(false);
    expect(new TokenEstimator().boundsHelp).toBe(false);
  });

  test('a message is counted once and the cache follows identity', () => {
    const estimator = new TokenEstimator();
    const message: ConversationMessage = { role: 'user', content: 'x'.repeat(400) };
    const first = estimator.message(message);
    expect(first).toBe(104);
    expect(estimator.message(message)).toBe(first);
    expect(estimator.rawMessages([message, message])).toBe(208);
  });

  test('assistant tool calls and reasoning count', () => {
    const estimator = new TokenEstimator();
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
    const estimator = new TokenEstimator();
    expect(estimator.text('x'.repeat(400))).toBe(100);
    estimator.observe(200, 100);
    expect(estimator.correctionFactor).toBe(2);
    expect(estimator.text('x'.repeat(400))).toBe(200);
    estimator.observe(0, 100);
    expect(estimator.correctionFactor).toBe(2);
  });

  test('corrections are bounded', () => {
    const estimator = new TokenEstimator();
    estimator.observe(1_000_000, 10);
    expect(estimator.correctionFactor).toBe(4);
  });
});

/** A guard whose messages count as many tokens as their text has characters. */
const byLength = (messages: readonly ConversationMessage[]) =>
  messages.reduce((sum, message) => sum + message.content.length, 0);

describe('ContextGuard', () => {
  test('the limit is the window less the buffer and the output reserve', () => {
    const guard = new ContextGuard(undefined, 1000, byLength);
    const target = {
      client: { provider: 'p', model: 'm', stream: async function* () {} },
      contextWindow: 10_000,
      contextBuffer: 500,
    };
    expect(guard.limitFor(target)).toBe(8500);
    expect(new ContextGuard(4000, 0, byLength).limitFor(target)).toBe(3500);
    expect(new ContextGuard(4000, 0, byLength).limitFor(undefined)).toBe(3744);
    expect(guard.limitFor(undefined)).toBe(131_072 - 256 - 1000);
  });

  test('projects a new result against what is already used', () => {
    const guard = new ContextGuard(1256, 0, byLength);
    guard.add({ role: 'user', content: 'x'.repeat(900) });
    expect(guard.rawConversationTokens).toBe(900);
    expect(guard.project(900, 100, undefined)).toEqual({
      projected: 1000,
      limit: 1000,
      remaining: 100,
      fits: true,
    });
    expect(guard.project(900, 101, undefined).fits).toBe(false);
  });

  test('counts a message when the total is first read, once', () => {
    let counted = 0;
    const guard = new ContextGuard(undefined, 0, (messages) => {
      counted += messages.length;
      return byLength(messages);
    });
    guard.add({ role: 'user', content: 'abc' });
    guard.add({ role: 'assistant', content: 'de' });
    expect(counted).toBe(0);
    expect(guard.rawConversationTokens).toBe(5);
    expect(guard.rawConversationTokens).toBe(5);
    guard.add({ role: 'user', content: 'f' });
    expect(guard.rawConversationTokens).toBe(6);
    expect(counted).toBe(3);
  });
});
