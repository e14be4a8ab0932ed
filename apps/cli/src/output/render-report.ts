import type { FinalReport, OutputFormat } from '@agent/protocol';
import type { MarkedExtension } from 'marked';

const MARKDOWN_FORMATS: ReadonlySet<OutputFormat> = new Set(['markdown', 'markdown+mermaid']);

/** The report's payload as text: JSON formats pretty-printed, text formats as they are. */
export function reportText(report: FinalReport): string {
  if (report.format === 'json' || report.format === 'slack-block-kit') {
    if (report.content_json !== undefined) return JSON.stringify(report.content_json, null, 2);
  }
  if (report.content !== undefined) return report.content;
  return report.content_json === undefined ? '' : JSON.stringify(report.content_json, null, 2);
}

export interface RenderOptions {
  /** stdout is a terminal and ANSI is allowed: Markdown is rendered for it. */
  ansi: boolean;
  columns: number;
}

/**
 * What goes to stdout for a report, newline-terminated. Markdown is rendered with
 * marked-terminal only when `ansi` is true; otherwise the raw content (for `json` the JSON text).
 */
export async function renderReport(report: FinalReport, options: RenderOptions): Promise<string> {
  const text = reportText(report);
  if (options.ansi && MARKDOWN_FORMATS.has(report.format) && text.trim().length > 0) {
    return ensureNewline(await renderMarkdown(text, options.columns));
  }
  return ensureNewline(stripAnsiUnless(text, options.ansi));
}

/** Markdown rendered for a terminal (marked + marked-terminal, loaded only when needed). */
export async function renderMarkdown(markdown: string, columns: number): Promise<string> {
  const [{ Marked }, { markedTerminal }] = await Promise.all([import('marked'), import('marked-terminal')]);
  // The types of marked-terminal 6 describe a renderer; version 7 returns an extension.
  const extension = markedTerminal({
    width: Math.min(columns, 120),
    reflowText: true,
  }) as unknown as MarkedExtension;
  const marked = new Marked(extension);
  const out = marked.parse(markdown, { async: false });
  return typeof out === 'string' ? out.replace(/\n+$/, '\n') : markdown;
}

function ensureNewline(text: string): string {
  return text.length === 0 || text.endsWith('\n') ? text : `${text}\n`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes is the point.
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Removes ANSI escape sequences when the destination must not get them. */
export function stripAnsiUnless(text: string, ansi: boolean): string {
  return ansi ? text : text.replace(ANSI, '');
}
