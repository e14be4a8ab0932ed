import { describe, expect, it } from 'vitest';
import { convertCallToolResult } from '../src/client/result-conversion.js';

describe('convertCallToolResult', () => {
  it('joins text blocks and keeps images as parts with a marker in the text', () => {
    const result = convertCallToolResult({
      content: [
        { type: 'text', text: 'before' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'text', text: 'after' },
      ],
    });
    expect(result).toEqual({
      ok: true,
      text: 'before\n[image image/png, 8 bytes, attached]\nafter',
      parts: [{ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }],
    });
  });

  it('inlines text resources, describes blobs and audio, lists resource links', () => {
    const result = convertCallToolResult({
      content: [
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'file body' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/zip', blob: 'AAAA' } },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAAAA==' },
        { type: 'resource_link', uri: 'demo://x', name: 'x', mimeType: 'text/plain', description: 'a link' },
      ],
    });
    expect(result.ok && result.text).toBe(
      [
        '[resource file:///a.txt (text/plain)]',
        'file body',
        '[binary resource file:///b.bin (application/zip), 3 bytes, not shown]',
        '[audio audio/wav, 4 bytes, not shown]',
        '[resource link x demo://x (text/plain; a link)]',
      ].join('\n'),
    );
  });

  it('keeps an image resource as an image part', () => {
    const result = convertCallToolResult({
      content: [{ type: 'resource', resource: { uri: 'x://i', mimeType: 'image/jpeg', blob: '/9j/' } }],
    });
    expect(result.ok && result.parts).toEqual([{ type: 'image', mimeType: 'image/jpeg', data: '/9j/' }]);
  });

  it('passes structured content through and uses it as text when there is none', () => {
    expect(convertCallToolResult({ content: [], structuredContent: { n: 1 } })).toEqual({
      ok: true,
      text: '{"n":1}',
      structured: { n: 1 },
    });
  });

  it('keeps isError as a domain error with its text', () => {
    expect(
      convertCallToolResult({ content: [{ type: 'text', text: 'no such repo' }], isError: true }),
    ).toEqual({
      ok: true,
      text: 'no such repo',
      isError: true,
    });
  });

  it('accepts the old toolResult shape', () => {
    expect(convertCallToolResult({ toolResult: { answer: 42 } })).toEqual({
      ok: true,
      text: '{"answer":42}',
    });
  });
});
