import type { JsonSchema } from './json-schema.js';

/** The formats a caller can ask the final report in. */
export type OutputFormat =
  | 'json'
  | 'markdown'
  | 'markdown+mermaid'
  | 'slack-block-kit'
  | 'tty'
  | 'pipe'
  | 'sub-agent'
  | 'text';

export const OUTPUT_FORMATS: readonly OutputFormat[] = [
  'json',
  'markdown',
  'markdown+mermaid',
  'slack-block-kit',
  'tty',
  'pipe',
  'sub-agent',
  'text',
];

/** Formats whose payload is text used as is (no JSON parsing). */
export const TEXT_OUTPUT_FORMATS: readonly OutputFormat[] = [
  'markdown',
  'markdown+mermaid',
  'tty',
  'pipe',
  'text',
];

export function isOutputFormat(value: unknown): value is OutputFormat {
  return typeof value === 'string' && (OUTPUT_FORMATS as readonly string[]).includes(value);
}

/** The caller's output contract: a format, and for `json` an optional schema. */
export interface ExpectedOutput {
  format: OutputFormat;
  schema?: JsonSchema;
  /**
   * Take a declared report without a `status` as `success` instead of rejecting it (default
   * false). For extraction children whose prompt asks for the wrapper without a status (seed
   * 001); an unknown status is still rejected.
   */
  statusOptional?: boolean;
}
