import { expect, test } from 'vitest';
import { casePassHatK } from '../src/eval/pass-hat-k.js';
import { passHatK } from '../src/index.js';

test('pass^k per case is C(c,k)/C(n,k)', () => {
  expect(casePassHatK(3, 3, 3)).toBe(1);
  expect(casePassHatK(2, 3, 3)).toBe(0);
  expect(casePassHatK(2, 3, 1)).toBeCloseTo(2 / 3, 12);
  // C(4,2)/C(5,2) = 6/10
  expect(casePassHatK(4, 5, 2)).toBeCloseTo(0.6, 12);
  // C(8,3)/C(10,3) = 56/120
  expect(casePassHatK(8, 10, 3)).toBeCloseTo(56 / 120, 12);
  expect(() => casePassHatK(1, 2, 3)).toThrow('k must be 1..2');
});

test('pass^k of a run is the mean over cases', () => {
  expect(
    passHatK(
      [
        { passed: 3, runs: 3 },
        { passed: 2, runs: 3 },
      ],
      3,
    ),
  ).toBe(0.5);
  expect(passHatK([], 1)).toBe(0);
});
