import { describe, expect, it } from 'vitest';
import { markdownToMrkdwn } from '../src/index.js';

describe('markdownToMrkdwn', () => {
  it.each([
    ['bold with asterisks', 'a **bold** word', 'a *bold* word'],
    ['bold with underscores', 'a __bold__ word', 'a *bold* word'],
    ['link', 'see [the docs](https://example.com/a?b=1)', 'see <https://example.com/a?b=1|the docs>'],
    ['link with a title', '[docs](https://x.y "Docs")', '<https://x.y|docs>'],
    ['image link', '![chart](https://x.y/c.png)', '<https://x.y/c.png|chart>'],
    ['heading', '# Weekly report', '*Weekly report*'],
    ['deeper heading with bold inside', '### **Risks** ###', '*Risks*'],
    ['dash bullets', '- one\n- two', '• one\n• two'],
    ['star and plus bullets, nested', '* one\n  + two', '• one\n  • two'],
    ['strikethrough', 'was ~~wrong~~ right', 'was ~wrong~ right'],
    [
      'mixed',
      '## Done\n- **API** ready, see [PR](https://g.h/1)\n- ~~old~~',
      '*Done*\n• *API* ready, see <https://g.h/1|PR>\n• ~old~',
    ],
    ['inline code untouched', 'run `**not bold**` now', 'run `**not bold**` now'],
    [
      'code fence untouched, language dropped',
      '```ts\n# not a heading\n- not a bullet\n```',
      '```\n# not a heading\n- not a bullet\n```',
    ],
    ['mrkdwn stays mrkdwn', '*bold* _it_ ~s~ <https://x|y> • item', '*bold* _it_ ~s~ <https://x|y> • item'],
    ['snake_case is not emphasis', 'call my__var__name', 'call my__var__name'],
    ['hash without space is not a heading', '#channel', '#channel'],
    ['horizontal rule is not a bullet', '---', '---'],
  ])('%s', (_name, markdown, mrkdwn) => {
    expect(markdownToMrkdwn(markdown)).toBe(mrkdwn);
  });
});
