import type { AgentEvent, AgentEventMeta } from '@agent/protocol';
import { logfmtLine } from './logfmt.js';

/** Longest piece of said text held before it is printed without waiting for its line's end. */
const MAX_PENDING_CHARS = 4_000;

/**
 * `--verbose`: what the model says outside its report (`assistant_text`) as logfmt lines on
 * stderr, `type=assistant_text agent=<path> msg="..."`, one per line of its text. Deltas are
 * held until their line ends (or grows long) so a streamed sentence is one line, not dozens.
 * Stdout is untouched: it carries the report only.
 */
export class AssistantTextLog {
  private readonly pending = new Map<string, string>();

  constructor(private readonly print: (line: string) => void) {}

  onEvent(event: AgentEvent, meta: AgentEventMeta): void {
    if (event.type === 'assistant_text') {
      this.take(meta.agentPath, event.text);
      return;
    }
    // Whatever the session does next (a tool, a turn, the report) ends what it was saying.
    if (event.type !== 'log' && event.type !== 'accounting' && event.type !== 'thinking')
      this.flush(meta.agentPath);
  }

  /** Prints what is still held, for every agent (at the end of the run). */
  close(): void {
    for (const agentPath of [...this.pending.keys()]) this.flush(agentPath);
  }

  private take(agentPath: string, text: string): void {
    const lines = `${this.pending.get(agentPath) ?? ''}${text}`.split('\n');
    let rest = lines.pop() ?? '';
    for (const line of lines) this.printLine(agentPath, line);
    if (rest.length > MAX_PENDING_CHARS) {
      this.printLine(agentPath, rest);
      rest = '';
    }
    if (rest === '') this.pending.delete(agentPath);
    else this.pending.set(agentPath, rest);
  }

  private flush(agentPath: string): void {
    const rest = this.pending.get(agentPath);
    this.pending.delete(agentPath);
    if (rest !== undefined) this.printLine(agentPath, rest);
  }

  private printLine(agentPath: string, line: string): void {
    if (line.trim() === '') return;
    this.print(
      logfmtLine([
        ['type', 'assistant_text'],
        ['agent', agentPath],
        ['msg', line],
      ]),
    );
  }
}
