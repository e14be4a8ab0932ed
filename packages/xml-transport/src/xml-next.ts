import { XmlTransportError } from './errors.js';
import { FINAL_REPORT_TOOL, type ForcedFinalReason, type ReportFormat } from './formats.js';
import { finalTagName } from './nonce.js';
import {
  BASE64_RULE,
  FORCED_FINAL_WORDING,
  lastRetryReminder,
  PAYLOAD_PLACEHOLDERS,
  PAYLOAD_RULES,
  STATUS_RULE,
  TOOLS_RULE,
  WRAPPER_INTRO,
} from './xml-next-wording.js';

export interface ForcedFinalTurn {
  reason: ForcedFinalReason;
  /** Native tools the model may still call on this turn; none when empty or absent. */
  allowedTools?: readonly string[];
}

export interface XmlNextOptions {
  /** This session's nonce. */
  nonce: string;
  /** 1-based turn number and the session's turn limit. */
  turn: number;
  maxTurns: number;
  /** 1-based attempt of this turn (default 1) and how many attempts a turn may take. */
  attempt?: number;
  maxAttempts?: number;
  /** How full the context window is, in percent (rounded when shown). */
  contextPercent: number;
  /** The report format the session expects. */
  format: ReportFormat;
  /** JSON Schema of the payload; shown for `json` (and for `slack-block-kit` when given). */
  schema?: unknown;
  /** Set when the session forces this to be its final turn. */
  forcedFinal?: ForcedFinalTurn;
}

function positiveInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new XmlTransportError('invalid_option', `${name} must be an integer >= 1, got ${String(value)}`, {
      field: name,
      value,
      allowed: 'an integer >= 1',
    });
  }
  return value;
}

function schemaText(schema: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(schema);
  } catch (error) {
    throw new XmlTransportError(
      'invalid_option',
      `schema cannot be written as JSON: ${(error as Error).message}`,
      { field: 'schema', value: schema, allowed: 'a JSON-serialisable schema' },
    );
  }
  if (text === undefined)
    throw new XmlTransportError('invalid_option', 'schema cannot be written as JSON', {
      field: 'schema',
      value: schema,
      allowed: 'a JSON-serialisable schema',
    });
  return text;
}

/**
 * The XML-NEXT notice: the ephemeral user message the model gets every turn. It says where
 * the session stands (turn, attempt, context use), how to wrap the final report, what the
 * payload must be, and on a forced final turn why and which tools are left. It is the head
 * and the body, joined by `joinXmlNext`.
 */
export function renderXmlNext(options: XmlNextOptions): string {
  return joinXmlNext(renderXmlNextHead(options), renderXmlNextBody(options));
}

/** The notice from its head and body, for callers that render (and count) them apart. */
export function joinXmlNext(head: string, body: string): string {
  return `${head}\n${body}`;
}

/**
 * The notice's head: turn, attempt and context use, the only line that changes from one
 * request to the next of a session (callers that count the notice keep the body's count).
 */
export function renderXmlNextHead(options: XmlNextOptions): string {
  const turn = positiveInteger('turn', options.turn);
  const maxTurns = positiveInteger('maxTurns', options.maxTurns);
  const attempt = positiveInteger('attempt', options.attempt ?? 1);
  const { contextPercent } = options;
  if (typeof contextPercent !== 'number' || !Number.isFinite(contextPercent) || contextPercent < 0) {
    throw new XmlTransportError(
      'invalid_option',
      `contextPercent must be a number >= 0, got ${String(contextPercent)}`,
      { field: 'contextPercent', value: contextPercent, allowed: 'a number >= 0' },
    );
  }
  let status = `turn ${turn}/${maxTurns}`;
  if (attempt > 1) {
    status +=
      options.maxAttempts === undefined
        ? `, attempt ${attempt}`
        : `, attempt ${attempt}/${positiveInteger('maxAttempts', options.maxAttempts)}`;
  }
  return `# XML-NEXT: ${status}, context window ${Math.round(contextPercent)}% full`;
}

/**
 * The notice's body: the forced-final line, the wrapper, the status and payload rules (with the schema), and
 * the last-attempt reminder. The same for every turn of a session but the final one and the
 * last attempt; its `turn` and `contextPercent` are not read.
 */
export function renderXmlNextBody(options: Omit<XmlNextOptions, 'turn' | 'contextPercent'>): string {
  const tag = finalTagName(options.nonce);
  const attempt = positiveInteger('attempt', options.attempt ?? 1);
  const { format } = options;
  if (!Object.hasOwn(PAYLOAD_RULES, format)) {
    throw new XmlTransportError(
      'invalid_option',
      `unknown format ${JSON.stringify(format)}; expected one of ${Object.keys(PAYLOAD_RULES).join(', ')}`,
      { field: 'format', value: format, allowed: `one of ${Object.keys(PAYLOAD_RULES).join(', ')}` },
    );
  }
  const lines: string[] = [];
  const { forcedFinal } = options;
  if (forcedFinal === undefined) lines.push(TOOLS_RULE);
  else {
    const tools = toolsLeft(forcedFinal);
    lines.push(finalTurnLine(forcedFinal, tools));
    if (tools.length > 0) lines.push(TOOLS_RULE);
  }
  lines.push(
    forcedFinal === undefined ? WRAPPER_INTRO.normal : WRAPPER_INTRO.forced,
    `<${tag} tool="${FINAL_REPORT_TOOL}" status="success" format="${format}">${PAYLOAD_PLACEHOLDERS[format]}</${tag}>`,
  );
  const showSchema = options.schema !== undefined && (format === 'json' || format === 'slack-block-kit');
  const payload = showSchema
    ? `${PAYLOAD_RULES[format]}, matching this JSON Schema: ${schemaText(options.schema)}`
    : PAYLOAD_RULES[format];
  lines.push(`${STATUS_RULE} Payload: ${payload}. ${BASE64_RULE}`);
  if (attempt > 1 && options.maxAttempts !== undefined && attempt >= options.maxAttempts) {
    lines.push(lastRetryReminder(tag));
  }
  return lines.join('\n');
}

/** The native tools a forced final turn still allows (never the final report: it goes in the tag). */
function toolsLeft(forced: ForcedFinalTurn): string[] {
  return (forced.allowedTools ?? []).filter((name) => name !== FINAL_REPORT_TOOL);
}

function finalTurnLine(forced: ForcedFinalTurn, tools: readonly string[]): string {
  const wording = Object.hasOwn(FORCED_FINAL_WORDING, forced.reason)
    ? FORCED_FINAL_WORDING[forced.reason]
    : undefined;
  if (wording === undefined) {
    throw new XmlTransportError(
      'invalid_option',
      `unknown forced final reason ${JSON.stringify(forced.reason)}; expected one of ${Object.keys(FORCED_FINAL_WORDING).join(', ')}`,
      {
        field: 'forcedFinal.reason',
        value: forced.reason,
        allowed: `one of ${Object.keys(FORCED_FINAL_WORDING).join(', ')}`,
      },
    );
  }
  const toolLine =
    tools.length === 0
      ? 'Do not call any tools.'
      : `You may still call only these tools: ${tools.join(', ')}.`;
  return `FINAL TURN: ${wording} ${toolLine}`;
}
