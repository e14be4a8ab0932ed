import type { AgentResult, FinalReport } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { REPORT_REFERENCE, resultForJson } from '../../src/output/json-result.js';

const TAG = 'ai-agent-abcd1234-FINAL';

function result(report: FinalReport | undefined, conversation: AgentResult['conversation']): AgentResult {
  return {
    success: report !== undefined,
    exitCode: 'EXIT-FINAL-ANSWER',
    ...(report === undefined ? {} : { finalReport: report }),
    conversation,
    logs: [],
    accounting: [],
    opTree: {
      id: 'op-0',
      kind: 'session',
      label: 'main',
      sessionId: 's',
      startedAt: 0,
      status: 'ok',
      children: [],
      totals: {
        llmCalls: 0,
        toolCalls: 0,
        inputTokens: 0,
        outputTokens: 0,
        cachedTokens: 0,
        costUsd: 0,
        durationMs: 0,
      },
    },
    sessionId: 's',
  };
}

const big = 'row of the report\n'.repeat(10_000);
const report: FinalReport = {
  status: 'success',
  format: 'markdown',
  content: big,
  ts: 1,
  origin: 'declared',
};

describe('resultForJson', () => {
  it('writes the report once: the FINAL tag body in the conversation becomes a reference', () => {
    const answer = `Here it is.\n<${TAG} status="success" format="markdown">${big}</${TAG}>`;
    const input = result(report, [
      { role: 'user', content: 'Go' },
      { role: 'assistant', content: answer },
    ]);
    const json = JSON.stringify(resultForJson(input));
    expect(json.split('row of the report').length - 1).toBe(10_000);
    const printed = JSON.parse(json) as AgentResult;
    expect(printed.finalReport?.content).toBe(big);
    expect(printed.conversation[1]?.content).toBe(
      `Here it is.\n<${TAG} status="success" format="markdown">${REPORT_REFERENCE}</${TAG}>`,
    );
    expect(input.conversation[1]?.content).toBe(answer);
  });

  it('replaces the payload of an agent__final_report call and drops its raw arguments', () => {
    const args = { status: 'success', report_format: 'markdown', report_content: big };
    const input = result(report, [
      { role: 'user', content: 'Go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'r', name: 'agent__final_report', arguments: args, rawArguments: JSON.stringify(args) },
        ],
      },
    ]);
    const json = JSON.stringify(resultForJson(input));
    expect(json.split('row of the report').length - 1).toBe(10_000);
    const printed = JSON.parse(json) as AgentResult;
    const message = printed.conversation[1];
    expect(message?.role === 'assistant' && message.toolCalls?.[0]).toEqual({
      id: 'r',
      name: 'agent__final_report',
      arguments: { status: 'success', report_format: 'markdown', report_content: REPORT_REFERENCE },
    });
  });

  it('leaves results without a report, or with a synthetic one, as they are', () => {
    const none = result(undefined, [{ role: 'assistant', content: 'x' }]);
    expect(resultForJson(none)).toBe(none);
    const synthetic = result({ ...report, synthetic: true, origin: 'synthetic' }, [
      { role: 'assistant', content: big },
    ]);
    expect(resultForJson(synthetic)).toBe(synthetic);
  });
});
