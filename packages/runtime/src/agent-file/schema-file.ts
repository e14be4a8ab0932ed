import { jsonSyntaxError } from '../json-syntax.js';
import { locateSource, sourceData, yamlErrorText } from '../source-locator.js';

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
