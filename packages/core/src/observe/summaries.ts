import {
  type AccountingEntry,
  isToolCallEntry,
  type LlmAccountingEntry,
  type LogEntry,
  type ToolAccountingEntry,
} from '@agent/protocol';

type LogInput = Omit<LogEntry, 'timestamp'>;

/** The LLM calls' totals, and the FIN line that reports them. */
class LlmTotals {
  calls = 0;
  failed = 0;
  input = 0;
  output = 0;
  cached = 0;
  latency = 0;
  /** Known only when some call's cost was: an unknown cost is not $0. */
  cost: number | undefined;

  add(entry: LlmAccountingEntry): void {
    this.calls++;
    if (entry.status === 'failed') this.failed++;
    this.input += entry.tokens.inputTokens;
    this.output += entry.tokens.outputTokens;
    this.cached += entry.tokens.cachedTokens ?? 0;
    if (entry.costUsd !== undefined) this.cost = (this.cost ?? 0) + entry.costUsd;
    this.latency += entry.latency;
  }

  line(): LogInput {
    const costText = this.cost === undefined ? 'unknown' : `$${this.cost.toFixed(6)}`;
    return {
      severity: 'FIN',
      direction: 'response',
      type: 'llm',
      remoteIdentifier: 'agent:summary',
      message: `LLM: ${this.calls} calls (${this.failed} failed), ${this.input} input tokens (${this.cached} cached), ${this.output} output tokens, cost ${costText}, ${this.latency} ms`,
      details: {
        calls: this.calls,
        failed: this.failed,
        input_tokens: this.input,
        output_tokens: this.output,
        cached_tokens: this.cached,
        latency_ms: this.latency,
        ...(this.cost === undefined ? {} : { cost_usd: this.cost }),
      },
    };
  }
}

/** The tool calls' totals, and the FIN line that reports them. */
class ToolTotals {
  calls = 0;
  failed = 0;
  charsIn = 0;
  charsOut = 0;
  latency = 0;

  add(entry: ToolAccountingEntry): void {
    this.calls++;
    if (entry.status === 'failed') this.failed++;
    this.charsIn += entry.charactersIn;
    this.charsOut += entry.charactersOut;
    this.latency += entry.latency;
  }

  line(): LogInput {
    return {
      severity: 'FIN',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: 'agent:summary',
      message: `tools: ${this.calls} calls (${this.failed} failed), ${this.charsIn} characters in, ${this.charsOut} characters out, ${this.latency} ms`,
      details: {
        calls: this.calls,
        failed: this.failed,
        characters_in: this.charsIn,
        characters_out: this.charsOut,
        latency_ms: this.latency,
      },
    };
  }
}

/**
 * The two FIN lines every run ends with, failures included: LLM totals and tool totals (the
 * committed report is the answer, not a tool call: `isToolCallEntry`).
 */
export function finSummaries(accounting: readonly AccountingEntry[]): LogInput[] {
  const llm = new LlmTotals();
  const tools = new ToolTotals();
  for (const entry of accounting) {
    if (entry.type === 'llm') llm.add(entry);
    else if (isToolCallEntry(entry)) tools.add(entry);
  }
  return [llm.line(), tools.line()];
}
