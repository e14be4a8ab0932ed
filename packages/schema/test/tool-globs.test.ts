import { describe, expect, test } from 'vitest';
import { createToolFilter, toolNameMatcher } from '../src/index.js';

describe('toolNameMatcher', () => {
  test('no globs is no matcher', () => {
    expect(toolNameMatcher(undefined)).toBeUndefined();
    expect(toolNameMatcher([])).toBeUndefined();
  });

  test('`*` matches any run of characters, across `/`, `.` and `__`', () => {
    const match = toolNameMatcher(['mcp__*__delete_*', 'fs/*'])!;
    expect(match('mcp__github__delete_branch')).toBe(true);
    expect(match('mcp__a.b__delete_x')).toBe(true);
    expect(match('fs/a/b')).toBe(true);
    expect(match('mcp__github__create_issue')).toBe(false);
  });

  test('ai-agent: `mcp__*__search` does not match `mcp__github__search_code`', () => {
    expect(toolNameMatcher(['mcp__*__search'])!('mcp__github__search_code')).toBe(false);
    expect(toolNameMatcher(['mcp__*__search_*'])!('mcp__github__search_code')).toBe(true);
  });
});

describe('createToolFilter', () => {
  test('allow and deny at one level: in the allow list and not denied', () => {
    const visible = createToolFilter(['query_*', 'search_*'], ['query_sensitive']);
    expect(visible('query_users')).toBe(true);
    expect(visible('query_sensitive')).toBe(false);
    expect(visible('delete_user')).toBe(false);
  });

  test('no allow list allows everything not denied', () => {
    const visible = createToolFilter(undefined, ['drop']);
    expect(visible('select')).toBe(true);
    expect(visible('drop')).toBe(false);
  });
});
