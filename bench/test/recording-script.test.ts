// The recording suite's scripted model reads N pages, one a turn, then reports; its record sizes
// count the tapes apart from the rest of a record.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ConversationMessage, RecordNode, SessionTape } from '@agent/protocol';
import type { RecordedRequest } from '@agent/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { recordSizes } from '../src/recording/record-size.js';
import { answerFor, PAGE_BYTES, pageBody, promptFor, reportFor, TOOL_NAME } from '../src/recording/script.js';

function request(pages: number, read: number): RecordedRequest {
  const messages: ConversationMessage[] = [
    { role: 'system', content: 'You read.' },
    {
      role: 'user',
      content: `${promptFor(pages)}\n# XML-NEXT: reply inside <ai-agent-0a1b2c3d-FINAL tool="agent__final_report">`,
    },
  ];
  for (let page = 1; page <= read; page++) {
    const id = `call_${page}`;
    messages.push(
      { role: 'assistant', content: '', toolCalls: [{ id, name: TOOL_NAME, arguments: { page } }] },
      { role: 'tool', toolCallId: id, toolName: TOOL_NAME, content: pageBody(page) },
    );
  }
  return { api: 'in-process', model: 'm', messages, tools: [], options: {} };
}

describe('the recording suite script', () => {
  it('asks for the next page while pages are left, then reports with the session nonce', () => {
    expect(answerFor(request(5, 0)).toolCalls).toEqual([{ name: TOOL_NAME, arguments: '{"page":1}' }]);
    expect(answerFor(request(5, 4)).toolCalls).toEqual([{ name: TOOL_NAME, arguments: '{"page":5}' }]);
    const report = answerFor(request(5, 5));
    expect(report.toolCalls).toBeUndefined();
    expect(report.text).toContain(reportFor(5));
    expect(report.text).toContain('-FINAL');
  });

  it('serves pages of a few KB, all of the same size', () => {
    expect([1, 2, 6, 20].map((page) => pageBody(page).length)).toEqual(Array(4).fill(PAGE_BYTES));
    expect(pageBody(2)).not.toBe(pageBody(3));
  });

  it('refuses a request without the prompt it plays', () => {
    const bad: RecordedRequest = { ...request(5, 0), messages: [{ role: 'user', content: 'hello' }] };
    expect(() => answerFor(bad)).toThrow(/no "Read N pages" prompt/);
  });
});

describe('recordSizes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-record-size-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts the tapes of every session node, the sub-agents included, apart from the rest', () => {
    const tape = (text: string): SessionTape => ({
      agentPath: 'a',
      ordinal: 0,
      messages: [{ role: 'user', content: text }],
      tools: [],
      calls: [],
      toolCalls: [],
    });
    const node = (id: string, children: RecordNode[], text?: string) =>
      ({
        id,
        kind: 'session',
        children,
        ...(text === undefined ? {} : { tape: tape(text) }),
      }) as unknown as RecordNode;
    const tree = node('root', [node('op', [node('sub', [], 'y'.repeat(3000))])], 'x'.repeat(5000));
    const record = {
      kind: 'agent-session-record',
      version: 2,
      sessionId: 's1',
      tree,
      logs: [],
      accounting: [],
    };
    const json = JSON.stringify(record);
    writeFileSync(join(dir, 's1.json.gz'), gzipSync(json));
    writeFileSync(join(dir, '.s2.tmp'), 'a write in progress is not a record');
    const size = recordSizes(dir, 10);
    expect(size).toMatchObject({
      files: 1,
      records: 1,
      jsonBytes: Buffer.byteLength(json),
      payloadsDropped: 0,
    });
    const tapes =
      JSON.stringify(tape('x'.repeat(5000))).length + JSON.stringify(tape('y'.repeat(3000))).length;
    expect(size.tapeJsonBytes).toBe(tapes);
    expect(size.gzipBytesWithoutTapes).toBeLessThan(size.gzipBytes);
  });
});
