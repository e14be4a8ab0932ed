import type { LogEntry, ModelClient, ToolProvider } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { withExecute, withStream } from './wrapping.js';

/** Where trace lines go (the run adds timestamp, agent path and redaction). */
export type TraceSink = (entry: Omit<LogEntry, 'timestamp'>) => void;

const MAX_TRACE_CHARS = 4000;

function clip(text: string): string {
  return text.length > MAX_TRACE_CHARS
    ? `${text.slice(0, MAX_TRACE_CHARS)}... [${text.length} characters]`
    : text;
}

/** A client that logs each request and the answer it got at TRC severity. */
export function traceModelClient(client: ModelClient, sink: TraceSink): ModelClient {
  const remoteIdentifier = `${client.provider}:${client.model}`;
  return withStream(client, async function* traced(request, options) {
    const last = request.messages.at(-1);
    sink({
      severity: 'TRC',
      direction: 'request',
      type: 'llm',
      remoteIdentifier,
      message: clip(
        `${request.messages.length} messages, tools: ${(request.tools ?? []).map((t) => t.name).join(', ') || 'none'}; last ${last?.role ?? 'none'}: ${last?.content ?? ''}`,
      ),
    });
    let text = '';
    const calls: string[] = [];
    let finish = '';
    try {
      for await (const event of client.stream(request, options)) {
        if (event.type === 'text-delta') text += event.text;
        else if (event.type === 'tool-call')
          calls.push(`${event.call.name}(${JSON.stringify(event.call.arguments)})`);
        else if (event.type === 'finish') finish = String(event.stopReason);
        yield event;
      }
    } catch (error) {
      sink({
        severity: 'TRC',
        direction: 'response',
        type: 'llm',
        remoteIdentifier,
        message: `failed: ${errorMessage(error)}`,
      });
      throw error;
    }
    sink({
      severity: 'TRC',
      direction: 'response',
      type: 'llm',
      remoteIdentifier,
      message: clip(`stop ${finish || 'unknown'}; tool calls: ${calls.join(', ') || 'none'}; text: ${text}`),
    });
  });
}

/** A provider that logs each call and its result at TRC severity. */
export function traceToolProvider(provider: ToolProvider, sink: TraceSink): ToolProvider {
  const id = (name: string) => `${provider.kind ?? 'mcp'}:${provider.id}:${name}`;
  return withExecute(provider, async (call, options) => {
    sink({
      severity: 'TRC',
      direction: 'request',
      type: 'tool',
      remoteIdentifier: id(call.name),
      message: clip(`call ${call.callId}: ${JSON.stringify(call.arguments)}`),
    });
    const result = await provider.execute(call, options);
    sink({
      severity: 'TRC',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: id(call.name),
      message: clip(
        result.ok
          ? `call ${call.callId}${result.isError === true ? ' (tool error)' : ''}: ${result.text}`
          : `call ${call.callId} failed (${result.error.kind}): ${result.error.message}`,
      ),
    });
    return result;
  });
}
