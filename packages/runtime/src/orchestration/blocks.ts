import type { FinalReport } from '@agent/protocol';

// The text one agent of a chain hands the next (docs/orchestration.md). Block contents are
// kept as they are (models read Markdown and code), except a closing tag of the block's own
// name, which would end it early: `</advisory>` inside an advisor's report becomes `<\/advisory>`.

function guarded(text: string, tag: string): string {
  return text.replace(new RegExp(`</(${tag})(\\s*)>`, 'gi'), '<\\/$1$2>');
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `<advisory source="a.ai">...</advisory>`: one advisor's report (or why there is none). */
export function advisoryBlock(source: string, text: string): string {
  return `<advisory source="${attribute(source)}">\n${guarded(text, 'advisory')}\n</advisory>`;
}

/** The blocks, then the prompt. */
export function withAdvisories(blocks: readonly string[], prompt: string): string {
  return blocks.length === 0 ? prompt : `${blocks.join('\n\n')}\n\n${prompt}`;
}

/** What a handoff agent gets: the user's request and the answer it is to work on. */
export function handoffPrompt(originalRequest: string, response: string): string {
  return (
    `<original_user_request>\n${guarded(originalRequest, 'original_user_request')}\n</original_user_request>\n\n` +
    `<response>\n${guarded(response, 'response')}\n</response>`
  );
}

/** A report as text: its JSON for structured reports, else its content. */
export function reportBody(report: FinalReport): string {
  return report.content_json !== undefined ? JSON.stringify(report.content_json) : (report.content ?? '');
}

/** How an agent file is named in a block: as written, without a leading `./`. */
export function sourceName(spec: string): string {
  return spec.replace(/^(\.\/)+/, '');
}
