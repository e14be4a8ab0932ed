import type { OutputFormat } from '@agent/protocol';

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
  /** IANA time zone (default the process's). */
  timeZone?: string;
}

/** The values of the prompt variables for one run. */
export function promptVariables(context: PromptVariableContext): Record<string, string> {
  const now = context.now ?? new Date();
  const timeZone = context.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const { date, time, offset } = localParts(now, timeZone);
  return {
    FORMAT: FORMAT_DESCRIPTIONS[context.format],
    DATETIME: `${date}T${time}${offset}`,
    DATE: date,
    TIME: time,
    DAY: new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone }).format(now),
    TIMEZONE: timeZone,
    CWD: context.cwd,
  };
}

/**
 * Fills `${FORMAT}`, `${DATETIME}`, `${DATE}`, `${TIME}`, `${DAY}`, `${TIMEZONE}` and `${CWD}`.
 * Any other `${...}` is left as written (prompts may show shell snippets); `$${X}` gives `${X}`.
 */
export function expandPromptVariables(text: string, variables: Record<string, string>): string {
  return text.replace(/\$?\$\{([A-Z_]+)\}/g, (match: string, name: string) => {
    if (match.startsWith('$$')) return match.slice(1);
    return Object.hasOwn(variables, name) ? variables[name]! : match;
  });
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
