// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FRONTMATTER_KEYS } from '../src/agent-file/keys.js';
import { parseAgentFile } from '../src/agent-file/parse.js';
import { closestName } from '../src/agent-file/suggest.js';
import { frontmatterProblems } from '../src/agent-file/validate.js';
import { substituteString } from '../src/config/substitute.js';

const name = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,12}$/);
const plain = fc.string({ maxLength: 20 }).filter((s) => !s.includes('$') && !s.includes('}'));

describe('properties', () => {
  test('${NAME} becomes the value, ${NAME:-d} the default only when unset or empty, $${ stays literal', () => {
    fc.assert(
      fc.property(
        name,
        plain,
        plain,
        plain,
        fc.option(plain, { nil: undefined }),
        (variable, before, after, fallback, value) => {
          const lookup = (n: string) => (n === variable ? value : undefined);
          const direct = substituteString(`${before}\${${variable}}${after}`, lookup);
          if (value === undefined) expect(direct.missing).toBe(variable);
          else expect(direct.value).toBe(`${before}${value}${after}`);
          const defaulted = substituteString(`\${${variable}:-${fallback}}`, lookup);
          expect(defaulted.missing).toBeUndefined();
          expect(defaulted.value).toBe(value === undefined || value === '' ? fallback : value);
          expect(substituteString(`$\${${variable}}`, lookup)).toEqual({
            value: `\${${variable}}`,
            used: [],
          });
        },
      ),
    );
  });

  test('text without ${ is never changed', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('${')),
        (text) => {
          expect(substituteString(text, () => 'x').value).toBe(text);
        },
      ),
    );
  });

  test('an unknown key is reported on the line where it is written', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8 }),
        fc.boolean(),
        fc.stringMatching(/^zz[a-z]{1,8}$/),
        (padding, shebang, key) => {
          const lines = [
            ...(shebang ? ['#!/usr/bin/env agent'] : []),
            '---',
            ...Array.from({ length: padding }, (_, i) => (i % 2 === 0 ? '# comment' : '')),
            'models: [local/m]',
            `${key}: 1`,
            '---',
            'body',
          ];
          const parsed = parseAgentFile('/x/a.ai', 'a.ai', lines.join('\n'));
          expect(parsed.problems).toEqual([]);
          const [problem] = frontmatterProblems(parsed.data, 'a.ai', parsed.locator);
          expect(problem?.line).toBe(lines.indexOf(`${key}: 1`) + 1);
          expect(parsed.body).toBe('body');
        },
      ),
    );
  });

  test('a key with one typo is matched back to itself', () => {
    const keys = FRONTMATTER_KEYS.filter((k) => k.length >= 5);
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.nat(), (key, at) => {
        const index = at % key.length;
        const typo = key.slice(0, index) + key.slice(index + 1);
        const best = closestName(typo, FRONTMATTER_KEYS);
        // Dropping a letter may land closer to another key only if that key is as near.
        expect(best === key || (best !== undefined && best.length <= key.length + 1)).toBe(true);
      }),
    );
  });
});
