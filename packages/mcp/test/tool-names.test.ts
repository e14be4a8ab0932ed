import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exposedToolNames, MAX_TOOL_NAME_LENGTH } from '../src/client/tool-names.js';

const SAFE = /^[A-Za-z_][A-Za-z0-9_-]*$/;

describe('exposed tool names', () => {
  it('prefixes with the server name and keeps safe names as they are', () => {
    const names = exposedToolNames('github', ['create_issue', 'get-me']);
    expect([...names]).toEqual([
      ['create_issue', 'github__create_issue'],
      ['get-me', 'github__get-me'],
    ]);
  });

  it('replaces unsafe characters, and hashes names that then collide', () => {
    const names = exposedToolNames('fs', ['read.file', 'read_file', 'read file']);
    expect(names.get('read_file')).toBe('fs__read_file');
    expect(names.get('read.file')).toMatch(/^fs__read_file_[0-9a-f]{8}$/);
    expect(names.get('read file')).toMatch(/^fs__read_file_[0-9a-f]{8}$/);
    expect(names.get('read.file')).not.toBe(names.get('read file'));
  });

  it('truncates long names to 64 characters with a stable hash suffix', () => {
    const long = `${'very_long_tool_name_'.repeat(5)}end`;
    const name = exposedToolNames('server', [long]).get(long)!;
    expect(name.length).toBe(MAX_TOOL_NAME_LENGTH);
    expect(name).toMatch(/^server__very_long_tool_name_.*_[0-9a-f]{8}$/);
    expect(exposedToolNames('server', [long]).get(long)).toBe(name);
  });

  it('makes a name start with a letter or underscore, and supports bare names', () => {
    expect(exposedToolNames('1password', ['list']).get('list')).toBe('_1password__list');
    expect(exposedToolNames('x', ['Read', 'Grep'], { prefix: false }).get('Read')).toBe('Read');
  });

  it('is safe, unique and independent of the order of the tool list (property)', () => {
    const toolName = fc.string({ minLength: 0, maxLength: 90, unit: 'binary' });
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.uniqueArray(toolName, { maxLength: 12 }),
        (server, tools) => {
          const names = exposedToolNames(server, tools);
          const exposed = [...names.values()];
          expect(new Set(exposed).size).toBe(tools.length);
          for (const name of exposed) {
            expect(name).toMatch(SAFE);
            expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
          }
          const reversed = exposedToolNames(server, [...tools].reverse());
          for (const tool of tools) expect(reversed.get(tool)).toBe(names.get(tool));
        },
      ),
      { numRuns: 500 },
    );
  });
});
