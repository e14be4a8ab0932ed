import {
  FINAL_REPORT_STATUSES,
  FINAL_REPORT_TOOL,
  type JsonSchema,
  type OutputFormat,
  type ToolDefinition,
} from '@agent/protocol';

const FORMAT_HINTS: Readonly<Record<OutputFormat, string>> = {
  json: 'a JSON object in content_json, matching its schema',
  markdown: 'Markdown text in report_content',
  'markdown+mermaid': 'Markdown text in report_content; diagrams as ```mermaid fenced blocks',
  'slack-block-kit': 'Slack Block Kit messages in messages: an array of { "blocks": [...] } (mrkdwn text)',
  tty: 'terminal text in report_content (ANSI colours allowed)',
  pipe: 'plain text in report_content, for piping to other programs',
  'sub-agent': 'the answer for the calling agent in report_content, passed on as is',
  text: 'plain text in report_content',
};

/**
 * The input schema of `agent__final_report` for one format. Always `report_format` (a
 * `const` of the format), `status` and optional `metadata`; then `content_json` for
 * `json` (the caller's schema, or `{ type: 'object' }`), `messages` for
 * `slack-block-kit`, and `report_content` + `encoding` for every other format.
 * The caller's `$schema` is dropped and its `$defs` / `definitions` are moved to the
 * root, so its `#/$defs/...` references still resolve.
 */
export function finalReportToolSchema(format: OutputFormat, schema?: JsonSchema): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    report_format: { type: 'string', const: format, description: `Output format; must be "${format}"` },
    status: {
      type: 'string',
      enum: [...FINAL_REPORT_STATUSES],
      description:
        'success: task done; partial: done in part; failure: could not be done (explain why in the content)',
    },
  };
  const root: JsonSchema = { type: 'object' };
  const required = ['report_format', 'status'];
  if (format === 'json') {
    const { payload, hoisted } = embedUserSchema(schema);
    properties.content_json = {
      ...payload,
      description: describe(payload, 'The structured answer (validated against the schema)'),
    };
    Object.assign(root, hoisted);
    required.push('content_json');
  } else if (format === 'slack-block-kit') {
    properties.messages = {
      type: 'array',
      minItems: 1,
      description:
        'Slack messages, each { "blocks": [...] } with section, header, context or divider blocks; mrkdwn text',
      items: { type: 'object', properties: { blocks: { type: 'array', items: { type: 'object' } } } },
    };
    required.push('messages');
  } else {
    properties.report_content = { type: 'string', description: 'The final answer' };
    properties.encoding = {
      type: 'string',
      enum: ['raw', 'base64'],
      description: 'Use base64 when the content has heavy markdown or many newlines; otherwise raw',
    };
    required.push('report_content', 'encoding');
  }
  properties.metadata = { type: 'object', description: 'Optional metadata about the answer' };
  return { ...root, properties, required };
}

/** `agent__final_report` as a protocol `ToolDefinition` for one format. */
export function finalReportToolDefinition(format: OutputFormat, schema?: JsonSchema): ToolDefinition {
  return {
    name: FINAL_REPORT_TOOL,
    description:
      `Deliver your final answer and end the session. Call it exactly once, when the work is done. ` +
      `The answer is ${FORMAT_HINTS[format] ?? 'text in report_content'}.`,
    inputSchema: finalReportToolSchema(format, schema),
  };
}

function embedUserSchema(schema: JsonSchema | undefined): { payload: JsonSchema; hoisted: JsonSchema } {
  if (schema === undefined) return { payload: { type: 'object' }, hoisted: {} };
  const { $schema: _ignored, $defs, definitions, ...payload } = schema;
  const hoisted: JsonSchema = {};
  if ($defs !== undefined) hoisted.$defs = $defs;
  if (definitions !== undefined) hoisted.definitions = definitions;
  return { payload, hoisted };
}

function describe(schema: JsonSchema, fallback: string): string {
  return typeof schema.description === 'string' ? schema.description : fallback;
}
