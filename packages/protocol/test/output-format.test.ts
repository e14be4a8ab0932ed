import { expect, test } from 'vitest';
import { isOutputFormat, OUTPUT_FORMATS, TEXT_OUTPUT_FORMATS } from '../src/index.js';

test('the eight output formats are recognised and nothing else is', () => {
  expect(OUTPUT_FORMATS).toHaveLength(8);
  for (const format of OUTPUT_FORMATS) expect(isOutputFormat(format)).toBe(true);
  for (const bad of ['JSON', 'md', '', 'html', 42, undefined]) expect(isOutputFormat(bad)).toBe(false);
  expect(TEXT_OUTPUT_FORMATS.every((f) => OUTPUT_FORMATS.includes(f))).toBe(true);
  expect(TEXT_OUTPUT_FORMATS).not.toContain('json');
  expect(TEXT_OUTPUT_FORMATS).not.toContain('sub-agent');
});
