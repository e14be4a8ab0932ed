import type { AccountingEntry, LogEntry } from '@agent/protocol';

type LogInput = Omit<LogEntry, 'timestamp'>;

/** The two FIN lines every run ends with, failures included: LLM totals and tool totals. */
export function finSummaries(accounting: readonly AccountingEntry[]): LogInput[] {
  let llmCalls = 0;
  let llmFailed = 0;
  let input = 0;
  let output = 0;
  let cached = 0;
  let cost = 0;
  let costKnown = false;
  let llmLatency = 0;
  let toolCalls = 0;
  let toolFailed = 0;
  let charsIn = 0;
  let charsOut = 0;
  let toolLatency = 0;
  for (const entry of accounting) {
    if (entry.type === 'llm') {
      llmCalls++;
      if (entry.status === 'failed') llmFailed++;
      input += entry.tokens.inputTokens;
      output += entry.tokens.outputTokens;
      cached += entry.tokens.cachedTokens ?? 0;
      if (entry.costUsd !== undefined) {
        cost += entry.costUsd;
        costKnown = true;
      }
      llmLatency += entry.latency;
    } else {
      toolCalls++;
      if (entry.status === 'failed') toolFailed++;
      charsIn += entry.charactersIn;
      charsOut += entry.charactersOut;
      toolLatency += entry.latency;
    }
  }
  const costText = costKnown ? `$${cost.toFixed(6)}` : 'unknown';
  return [
    {
      severity: 'FIN',
      direction: 'response',
      type: 'llm',
      remoteIdentifier: 'agent:summary',
      message: `LLM: ${llmCalls} calls (${llmFailed} failed), ${input} input tokens (${cached} cached), ${output} output tokens, cost ${costText}, ${llmLatency} ms`,
      details: {
        calls: llmCalls,
        failed: llmFailed,
        input_tokens: input,
        output_tokens: output,
        cached_tokens: cached,
        latency_ms: llmLatency,
        ...(costKnown ? { cost_usd: cost } : {}),
      },
    },
    {
      severity: 'FIN',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: 'agent:summary',
      message: `tools: ${toolCalls} calls (${toolFailed} failed), ${charsIn} characters in, ${charsOut} characters out, ${toolLatency} ms`,
      details: {
        calls: toolCalls,
        failed: toolFailed,
        characters_in: charsIn,
        characters_out: charsOut,
        latency_ms: toolLatency,
      },
    },
  ];
}
