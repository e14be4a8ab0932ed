import { TaskState } from '@a2a-js/sdk';
import type { ToolResult } from '@agent/protocol';
import type { CompiledValidator } from '@agent/schema';
import { answerParts, dataOf, partsText, type RemoteAnswer } from './answer.js';

/** The `state` of a result whose remote task waits for input. */
export const INPUT_REQUIRED = 'input-required';

const STATE_NAMES: Partial<Record<TaskState, string>> = {
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_REJECTED]: 'rejected the task',
  [TaskState.TASK_STATE_AUTH_REQUIRED]: 'needs authorization',
  [TaskState.TASK_STATE_CANCELED]: 'canceled the task',
};

/** The tool's result for a remote task that stopped (finished, or waiting for input). */
export function answerResult(agent: string, answer: RemoteAnswer, validate?: CompiledValidator): ToolResult {
  const { state } = answer;
  if (state === TaskState.TASK_STATE_INPUT_REQUIRED) {
    const question = answer.statusText || partsText(answerParts(answer)) || '(no question given)';
    return {
      ok: true,
      text: `The remote agent ${agent} needs more input: ${question}\nAnswer with a next call that passes taskId "${answer.taskId}" and contextId "${answer.contextId}".`,
      structured: { taskId: answer.taskId, contextId: answer.contextId, state: INPUT_REQUIRED },
    };
  }
  const failure = state === undefined ? undefined : STATE_NAMES[state];
  if (failure !== undefined) {
    const why = answer.statusText === '' ? '' : `: ${answer.statusText}`;
    return { ok: false, error: { kind: 'execution', message: `the remote agent ${agent} ${failure}${why}` } };
  }
  if (state !== TaskState.TASK_STATE_COMPLETED) {
    return {
      ok: false,
      error: {
        kind: 'transport',
        message: `the remote agent ${agent} stopped answering before its task finished`,
      },
    };
  }
  const parts = answerParts(answer);
  const text = partsText(parts);
  const data = dataOf(parts);
  if (validate !== undefined) return checkedResult(agent, text, data, validate);
  const withData = data.found ? { structured: data.value } : {};
  return {
    ok: true,
    text: text === '' && data.found ? JSON.stringify(data.value, null, 2) : text,
    ...withData,
  };
}

/** The answer held against the caller's output schema: a data part, else text that parses as JSON. */
function checkedResult(
  agent: string,
  text: string,
  data: { found: boolean; value?: unknown },
  validate: CompiledValidator,
): ToolResult {
  let value = data.value;
  if (!data.found) {
    const parsed = parseJson(text);
    if (!parsed.ok) {
      return {
        ok: true,
        isError: true,
        text: `[the remote agent ${agent} answered without JSON, so its answer does not meet the output schema]\n${text}`,
      };
    }
    value = parsed.value;
  }
  const errors = validate(value);
  const json = JSON.stringify(value, null, 2);
  if (errors.length > 0) {
    const problems = errors.map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`.trim()).join('; ');
    return {
      ok: true,
      isError: true,
      text: `[the remote agent ${agent}'s answer does not meet the output schema: ${problems}]\n${json}`,
    };
  }
  return { ok: true, text: json, structured: value };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  // Agents often fence JSON in markdown.
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text.trim());
  try {
    return { ok: true, value: JSON.parse(fenced?.[1] ?? text) };
  } catch {
    return { ok: false };
  }
}
