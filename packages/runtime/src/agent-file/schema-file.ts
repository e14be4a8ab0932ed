import type { JsonSchema } from '@agent/protocol';
import { type Problem, problem } from '../errors.js';
import { jsonSyntaxError } from '../files/json-syntax.js';
import { locateSource, sourceData, yamlErrorText } from '../files/source-locator.js';
import type { ReferenceScope } from './reference-scope.js';
import { readReferencedFile } from './referenced-file.js';

export type SchemaText = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Parses the text of a `schemaRef` file. A failure says what is wrong and where (`JSON:
 * expected `,` at line 3, column 9`), never quoting the text: the file may hold anything.
 */
export function parseSchemaText(text: string, syntax: 'json' | 'yaml'): SchemaText {
  if (syntax === 'json') {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      const error = jsonSyntaxError(text);
      return {
        ok: false,
        message:
          error === undefined
            ? 'JSON'
            : `JSON: ${error.message} at line ${error.line}, column ${error.column}`,
      };
    }
  }
  const locator = locateSource(text);
  const first = locator.document.errors[0];
  if (first !== undefined) {
    return { ok: false, message: `YAML: ${yamlErrorText(first)} at line ${locator.lineAt(first.pos[0])}` };
  }
  const data = sourceData(locator);
  return data.ok ? data : { ok: false, message: `YAML: ${data.message} (line ${data.line})` };
}

/**
 * A JSON Schema file an agent file names (`output.schemaRef`, a `json_schema` guardrail's
 * `schemaRef`): read inside the scope, parsed as JSON or YAML (by its extension), an object.
 * Problems are located at `line` of `file`; undefined when there was one.
 */
export function readSchemaFile(
  path: string,
  ref: string,
  at: { file: string; line: number | undefined; scope: ReferenceScope; problems: Problem[] },
): JsonSchema | undefined {
  const { file, line, problems } = at;
  const text = readReferencedFile(path, 'schema file', ref, { file, line }, at.scope, problems);
  if (text === undefined) return undefined;
  const parsed = parseSchemaText(text, /\.ya?ml$/i.test(path) ? 'yaml' : 'json');
  if (!parsed.ok) {
    problems.push(
      problem('configuration', file, line, `schema file \`${ref}\` is not valid ${parsed.message}`),
    );
    return undefined;
  }
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(
      problem('configuration', file, line, `schema file \`${ref}\` must hold a JSON Schema object`),
    );
    return undefined;
  }
  return value as JsonSchema;
}
