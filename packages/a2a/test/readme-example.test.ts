// Checks the README the way a reader would use it: every ts block typechecks under strict
// TypeScript against the packages its install lines name.
import { expect, it } from 'vitest';
import { checkReadme } from '../../../tooling/vitest/readme-example.js';

it('every ts block of the README typechecks (strict), and its install lines name every package imported', () => {
  expect(checkReadme(new URL('../README.md', import.meta.url))).toEqual([]);
}, 120_000);
