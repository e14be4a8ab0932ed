import { createInterface } from 'node:readline/promises';
import type { ApprovalDecision } from '@agent/protocol';
import type { RunAgentFileOptions } from '@agent/runtime';

type Approver = NonNullable<RunAgentFileOptions['approver']>;

/** Longest argument text shown in the question (the whole call is in --verbose logs). */
const MAX_SHOWN_ARGUMENTS = 500;

/**
 * Asks on the terminal, one call at a time: the tool, its arguments, `[y/N]`; a no asks for a
 * reason (Enter for none). `pause` and `resume` hide the status line while the question is up.
 */
export function terminalApprover(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  around: { pause: () => void; resume: () => void },
): Approver {
  let queue: Promise<unknown> = Promise.resolve();
  return (request, { signal }) => {
    const asked = queue.then(async (): Promise<ApprovalDecision> => {
      around.pause();
      const lines = createInterface({ input, output, terminal: true });
      try {
        let args = JSON.stringify(request.arguments);
        if (args.length > MAX_SHOWN_ARGUMENTS) args = `${args.slice(0, MAX_SHOWN_ARGUMENTS)}…`;
        const answer = await lines.question(`agent: allow ${request.tool} ${args}? [y/N] `, { signal });
        if (/^y(es)?$/i.test(answer.trim())) return { approved: true };
        const reason = (
          await lines.question('agent: reason for the model (Enter for none): ', { signal })
        ).trim();
        return reason === ''
          ? { approved: false, reason: 'denied at the terminal' }
          : { approved: false, reason };
      } catch (error) {
        // The session stopped waiting (`--approval-timeout`, or cancelled): it denies the call.
        if (signal.aborted) output.write(`\n${abandoned(request.tool, signal.reason)}\n`);
        throw error;
      } finally {
        lines.close();
        around.resume();
      }
    });
    queue = asked.catch(() => undefined);
    return asked;
  };
}

/** The line shown when a question is no longer waited for. */
function abandoned(tool: string, reason: unknown): string {
  const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
  return timedOut
    ? `agent: no answer in time: ${tool} is denied (--approval-timeout)`
    : `agent: the session stopped waiting: ${tool} is denied`;
}
