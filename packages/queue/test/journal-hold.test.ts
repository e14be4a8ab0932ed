import type { AgentEvent, AgentEventMeta } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { JournalHold } from '../src/journal-hold.js';

type Source = AgentEventMeta['source'];
const meta = (source?: Source, isMaster = true): AgentEventMeta => ({
  isMaster,
  isFinal: false,
  sessionId: 's-1',
  agentPath: 'echo',
  ...(source === undefined ? {} : { source }),
});
const turn = (n: number, attempt = 1): AgentEvent => ({
  type: 'turn_started',
  turn: n,
  attempt,
  isRetry: attempt > 1,
  isFinalTurn: false,
});
const out = (text: string): AgentEvent => ({ type: 'output', text });
const journaled = (n: number): AgentEvent => ({ type: 'answer_journaled', turn: n });
const retracted = (characters: number): AgentEvent => ({
  type: 'output_retracted',
  characters,
  slug: 'invalid_final_report',
  reason: 'the report did not match its schema',
});

/** A hold whose sent events are recorded as short strings (`out:text`, `retract:n`, `thinking:text`, ...). */
function recorded(journaling = true) {
  const sent: string[] = [];
  const hold = new JournalHold((event, m) => {
    const who = m.isMaster ? '' : 'child ';
    if (event.type === 'output')
      sent.push(`${who}out${m.source === 'finalize' ? '(final)' : ''}:${event.text}`);
    else if (event.type === 'thinking' || event.type === 'assistant_text')
      sent.push(`${event.type}:${event.text}`);
    else if (event.type === 'output_retracted') sent.push(`retract:${event.characters}`);
    else if (event.type === 'answer_journaled') sent.push(`journaled:${event.turn}`);
    else if (event.type === 'turn_started') sent.push(`turn:${event.turn}.${event.attempt}`);
    else sent.push(event.type);
  });
  if (journaling) hold.start();
  const feed = (...events: (AgentEvent | [AgentEvent, AgentEventMeta])[]) => {
    for (const item of events) {
      if (Array.isArray(item)) hold.event(item[0], item[1]);
      else hold.event(item, meta('stream'));
    }
  };
  /** The worker died; the next one (a journaling one) announces itself. */
  const move = () => {
    const wasJournaling = hold.moved();
    hold.start();
    return wasJournaling;
  };
  return { hold, sent, feed, move };
}

describe('JournalHold', () => {
  test('a session that does not journal passes every event at once, retractions included (as before)', () => {
    const { hold, sent, feed } = recorded(false);
    feed(turn(1), out('Hel'), out('lo'), retracted(5), turn(1, 2), out('Hi'));
    expect(sent).toEqual(['turn:1.1', 'out:Hel', 'out:lo', 'retract:5', 'turn:1.2', 'out:Hi']);
    expect(hold.moved()).toBe(false);
  });

  test("report text is held until its turn's answer is journaled, then released in order, before the notice", () => {
    const { sent, feed } = recorded();
    feed(turn(1), out('Hel'), { type: 'accounting' } as unknown as AgentEvent, out('lo'));
    expect(sent).toEqual(['turn:1.1', 'accounting']);
    feed(journaled(1));
    expect(sent).toEqual(['turn:1.1', 'accounting', 'out:Hel', 'out:lo', 'journaled:1']);
    // Output of an attempt already journaled goes at once; the next turn is held again.
    feed(out('!'), turn(2), out('Bye'));
    expect(sent.slice(5)).toEqual(['out:!', 'turn:2.1']);
  });

  test('a move drops held text without a retraction; the next worker streams the turn anew', () => {
    const { sent, feed, move } = recorded();
    feed(turn(1), out('first try'));
    expect(move()).toBe(true);
    feed(turn(1), out('second'), journaled(1));
    expect(sent).toEqual(['turn:1.1', 'turn:1.1', 'out:second', 'journaled:1']);
    expect(sent.some((line) => line.startsWith('retract'))).toBe(false);
  });

  test("a rejected attempt's held text is dropped and its retraction not sent (nothing of it was)", () => {
    const { sent, feed } = recorded();
    feed(turn(1), out('bad report'), retracted(10), turn(1, 2), out('good'), journaled(1));
    expect(sent).toEqual(['turn:1.1', 'turn:1.2', 'out:good', 'journaled:1']);
  });

  test('a retraction of released text goes on, counting what the client got', () => {
    const { sent, feed } = recorded();
    feed(
      turn(1),
      out('bad '),
      out('report'),
      journaled(1),
      retracted(10),
      turn(1, 2),
      out('ok'),
      journaled(1),
    );
    expect(sent).toEqual([
      'turn:1.1',
      'out:bad ',
      'out:report',
      'journaled:1',
      'retract:10',
      'turn:1.2',
      'out:ok',
      'journaled:1',
    ]);
  });

  test('a journal replay of a released turn sends only what the client lacks, whatever its chunking', () => {
    const { sent, feed, move } = recorded();
    feed(turn(1), out('Hello '), out('wor'), journaled(1));
    // The worker died after the answer was journaled; live text went out after the release too.
    feed(out('ld'));
    move();
    feed(turn(1), [out('Hello world'), meta('journal')], [out(', again'), meta('journal')]);
    const text = sent.filter((line) => line.startsWith('out:')).map((line) => line.slice(4));
    expect(text.join('')).toBe('Hello world, again');
    expect(text.slice(-1)).toEqual([', again']);
  });

  test('a partial send is completed by the replay: the replayed chunk is cut where the client stopped', () => {
    const { hold, sent, feed } = recorded(false);
    // A session that streamed live on an older worker, then a journaling worker replays the turn.
    feed(turn(1), out('Hello '));
    hold.moved();
    hold.start();
    feed(turn(1), [out('Hello world'), meta('journal')]);
    expect(sent).toEqual(['turn:1.1', 'out:Hello ', 'turn:1.1', 'out:world']);
  });

  test('a journal replay of a turn never released (the worker died before the notice) is sent whole', () => {
    const { sent, feed, move } = recorded();
    feed(turn(1), out('Hello'));
    move();
    feed(turn(1), [out('Hello'), meta('journal')], journaled(1));
    expect(sent).toEqual(['turn:1.1', 'turn:1.1', 'out:Hello', 'journaled:1']);
  });

  test("a replayed rejected attempt: its text is not sent twice, its retraction once (the dead worker's never arrived)", () => {
    const { sent, feed, move } = recorded();
    feed(turn(1), out('bad'), journaled(1));
    move();
    feed(
      turn(1),
      [out('bad'), meta('journal')],
      retracted(3),
      turn(1, 2),
      [out('good'), meta('journal')],
      retracted(4),
    );
    // A retraction already sent is not sent again: the replay's second retraction of attempt 1 would be.
    expect(sent).toEqual([
      'turn:1.1',
      'out:bad',
      'journaled:1',
      'turn:1.1',
      'retract:3',
      'turn:1.2',
      'out:good',
      'retract:4',
    ]);
    move();
    feed(turn(1), [out('bad'), meta('journal')], retracted(3));
    expect(sent.slice(8)).toEqual(['turn:1.1']);
  });

  test('at the result, text still held goes out (journal writes failed), the finalize text last', () => {
    const { hold, sent, feed } = recorded();
    feed(turn(1), out('never journaled'), [out('{"a":1}'), meta('finalize')]);
    expect(sent).toEqual(['turn:1.1']);
    hold.finish();
    expect(sent).toEqual(['turn:1.1', 'out:never journaled', 'out(final):{"a":1}']);
  });

  test('finalize text is held to the result and dropped on a move (the next worker or the result brings it)', () => {
    const { hold, sent, feed, move } = recorded();
    feed(turn(1), journaled(1), [out('{"a":1}'), meta('finalize')]);
    move();
    feed(turn(1), [out('{"a":1}'), meta('finalize')]);
    hold.finish();
    expect(sent.filter((line) => line.startsWith('out'))).toEqual(['out(final):{"a":1}']);
  });

  test('thinking and assistant_text are not held; their journal replays are not sent twice', () => {
    const { sent, feed, move } = recorded();
    const thinking = (text: string): AgentEvent => ({ type: 'thinking', text });
    const note = (text: string): AgentEvent => ({ type: 'assistant_text', text });
    feed(turn(1), thinking('hmm '), note('calling a tool'), out('x'));
    expect(sent).toEqual(['turn:1.1', 'thinking:hmm ', 'assistant_text:calling a tool']);
    move();
    feed(turn(1), [thinking('hmm ok'), meta('journal')], [note('calling a tool'), meta('journal')]);
    expect(sent.slice(3)).toEqual(['turn:1.1', 'thinking:ok']);
  });

  test("a sub-agent's output is never held", () => {
    const { sent, feed } = recorded();
    feed(turn(1), [out('child text'), meta('stream', false)]);
    expect(sent).toEqual(['turn:1.1', 'child out:child text']);
  });
});

describe('JournalHold and guardrails', () => {
  test("a guardrail's retraction drops the held text unsent; guardrail and tool_policy events pass at once", () => {
    const { sent, feed, hold } = recorded();
    feed(
      turn(1),
      {
        type: 'tool_policy',
        verdict: { callId: 'c1', tool: 'http__post', decision: 'ask', rule: 0, ruleName: 'big payments' },
      },
      out('passed text, '),
      {
        type: 'guardrail',
        run: {
          name: 'no-cards',
          on: 'output',
          phase: 'stream',
          outcome: 'block',
          reason: 'rule pii',
          latencyMs: 1,
        },
      },
      { type: 'output_retracted', characters: 13, slug: 'guardrail', reason: 'rule pii' },
    );
    hold.finish();
    // The text was still held (not journaled): it is dropped, and so is its retraction.
    expect(sent).toEqual(['turn:1.1', 'tool_policy', 'guardrail']);
  });

  test("a guardrail's retraction of released text goes on to the client", () => {
    const { sent, feed } = recorded();
    feed(turn(1), journaled(1), out('passed text, '), {
      type: 'output_retracted',
      characters: 13,
      slug: 'guardrail',
      reason: 'rule pii',
    });
    expect(sent).toEqual(['turn:1.1', 'journaled:1', 'out:passed text, ', 'retract:13']);
  });
});
