import { arch, hostname, release, type, userInfo } from 'node:os';
import { DEFAULT_MAX_TURNS, type OutputFormat } from '@agent/protocol';
import { readRegularFile } from '../files/read-regular-file.js';

/** What `${FORMAT}` says for each output format. */
export const FORMAT_DESCRIPTIONS: Record<OutputFormat, string> = {
  json: 'a JSON object matching the schema of the final report',
  markdown: 'GitHub-flavoured Markdown',
  'markdown+mermaid': 'GitHub-flavoured Markdown, with Mermaid diagrams where they help',
  'slack-block-kit': 'Slack Block Kit messages',
  tty: 'plain text for a terminal (ANSI colours allowed)',
  pipe: 'plain text without any formatting, for other programs',
  'sub-agent': 'a complete answer for the agent that called you (it reads it as is)',
  text: 'plain text',
};

export interface PromptVariableContext {
  format: OutputFormat;
  cwd: string;
  now?: Date;
  /** IANA time zone (default `TZ`, else the process's). */
  timeZone?: string;
  /** The session's limits, for `${MAX_TURNS}` and `${MAX_TOOLS}`. */
  maxTurns?: number;
  maxToolCallsPerTurn?: number;
  /** Values of the `PROMPT_FACT_NAMES` in place of the clock's and the machine's (`promptFacts`). */
  facts?: Readonly<Record<string, string>>;
}

/** The variables that describe the clock and the machine: what `promptFacts` may set and a record keeps. */
export const PROMPT_FACT_NAMES = [
  'DATETIME',
  'DATE',
  'TIME',
  'DAY',
  'TIMEZONE',
  'TIMESTAMP',
  'CWD',
  'CD',
  'OS',
  'ARCH',
  'KERNEL',
  'HOSTNAME',
  'USER',
] as const;

/** Every variable a prompt may use, as `${NAME}` or `{{NAME}}`. */
export const PROMPT_VARIABLE_NAMES = ['FORMAT', ...PROMPT_FACT_NAMES, 'MAX_TURNS', 'MAX_TOOLS'] as const;

/** Why `facts` cannot be `promptFacts` (a name that is not a fact, a value not a string); undefined when they can. */
export function promptFactsProblem(facts: unknown): string | undefined {
  if (typeof facts !== 'object' || facts === null || Array.isArray(facts))
    return `promptFacts must be an object of strings keyed by ${PROMPT_FACT_NAMES.join(', ')}`;
  const allowed = new Set<string>(PROMPT_FACT_NAMES);
  for (const [name, value] of Object.entries(facts)) {
    if (!allowed.has(name))
      return `promptFacts: ${JSON.stringify(name)} is not a clock or machine prompt variable (allowed: ${PROMPT_FACT_NAMES.join(', ')})`;
    if (typeof value !== 'string') return `promptFacts.${name} must be a string, not ${typeof value}`;
  }
  return undefined;
}

/** The clock and machine variables among `variables` (what a record keeps as `promptFacts`). */
export function pickPromptFacts(variables: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(PROMPT_FACT_NAMES.map((name) => [name, variables[name] ?? '']));
}

/** `${NAME}`, `$${NAME}` (escaped: stays `${NAME}`) and `{{NAME}}` / `{{ NAME }}`. */
const VARIABLE = /\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The values of the prompt variables for one run. */
export function promptVariables(context: PromptVariableContext): Record<string, string> {
  const now = context.now ?? new Date();
  const timeZone = context.timeZone ?? processTimeZone();
  const { date, time, offset } = localParts(now, timeZone);
  const system = systemFacts();
  return {
    FORMAT: FORMAT_DESCRIPTIONS[context.format],
    DATETIME: `${date}T${time}${offset}`,
    DATE: date,
    TIME: time,
    DAY: new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone }).format(now),
    TIMEZONE: timeZone,
    TIMESTAMP: String(Math.floor(now.getTime() / 1000)),
    CWD: context.cwd,
    CD: context.cwd,
    ...system,
    MAX_TURNS: String(context.maxTurns ?? DEFAULT_MAX_TURNS),
    MAX_TOOLS: context.maxToolCallsPerTurn === undefined ? 'unlimited' : String(context.maxToolCallsPerTurn),
    ...context.facts,
  };
}

/**
 * Fills every variable of `PROMPT_VARIABLE_NAMES`, written `${NAME}` or `{{NAME}}`. Any other
 * is left as written (prompts may show shell snippets; `validate` warns about them); `$${X}`
 * gives `${X}`. `variables` may be a function: called once, at the first variable written.
 */
export function expandPromptVariables(
  text: string,
  variables: Record<string, string> | (() => Record<string, string>),
): string {
  // Given as a function, the values are made only for a text that uses a variable: the clock's
  // time zone costs the process its first Intl call (tens of ms).
  let values = typeof variables === 'function' ? undefined : variables;
  return text.replace(VARIABLE, (match: string, dollar: string | undefined, braces: string | undefined) => {
    if (match.startsWith('$$')) return match.slice(1);
    const name = (dollar ?? braces)!;
    values ??= (variables as () => Record<string, string>)();
    return Object.hasOwn(values, name) ? values[name]! : match;
  });
}

/** The variables in `text` that no run fills in, with their line (`firstLine` is the text's first). */
export function unknownPromptVariables(
  text: string,
  firstLine: number,
): { name: string; written: string; line: number }[] {
  const known = new Set<string>(PROMPT_VARIABLE_NAMES);
  const found: { name: string; written: string; line: number }[] = [];
  for (const match of text.matchAll(VARIABLE)) {
    if (match[0].startsWith('$$')) continue;
    const name = (match[1] ?? match[2])!;
    if (known.has(name)) continue;
    found.push({
      name,
      written: match[0],
      line: firstLine + text.slice(0, match.index).split('\n').length - 1,
    });
  }
  return found;
}

function processTimeZone(): string {
  const tz = process.env.TZ;
  if (tz !== undefined && tz !== '' && isTimeZone(tz)) return tz;
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

let facts: Record<'OS' | 'ARCH' | 'KERNEL' | 'HOSTNAME' | 'USER', string> | undefined;

/** Facts about the machine; read once per process (they do not change while it runs). */
function systemFacts(): Record<'OS' | 'ARCH' | 'KERNEL' | 'HOSTNAME' | 'USER', string> {
  facts ??= {
    OS: `${osName()} (kernel ${release()})`,
    ARCH: arch(),
    KERNEL: `${type()} ${release()}`,
    HOSTNAME: hostname(),
    USER: userName(),
  };
  return facts;
}

/** The distribution's name from `/etc/os-release` (Linux), else the OS type (`Darwin`, `Windows_NT`). */
function osName(): string {
  // Not Linux, or unreadable: the OS type says enough.
  const read = readRegularFile('/etc/os-release', 64 * 1024);
  const pretty = read.ok ? /^PRETTY_NAME=("?)(.*)\1$/m.exec(read.text)?.[2] : undefined;
  return pretty !== undefined && pretty !== '' ? pretty : type();
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}

function localParts(now: Date, timeZone: string): { date: string; time: string; offset: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  }).formatToParts(now);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  const zone = get('timeZoneName').replace('GMT', '');
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    time: `${get('hour')}:${get('minute')}:${get('second')}`,
    offset: zone === '' ? '+00:00' : zone,
  };
}
