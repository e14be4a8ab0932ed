import { describe, expect, test } from 'vitest';
import { skipUnless } from '../../../tooling/vitest/skip.js';
import { readRegularFile } from '../src/files/read-regular-file.js';

describe('readRegularFile', () => {
  test(
    'stops at the cap even when the file holds more than its size said',
    skipUnless(process.platform === 'linux', 'reads /proc/self/status, which only Linux has'),
    () => {
      // /proc files are regular files whose stat size is 0, like a file that grows after fstat.
      expect(readRegularFile('/proc/self/status', 64)).toEqual({
        ok: false,
        reason: 'refused',
        detail: 'it is larger than the limit of 64 bytes (found while reading it)',
      });
      const whole = readRegularFile('/proc/self/status');
      expect(whole.ok && whole.text.startsWith('Name:')).toBe(true);
    },
  );
});
