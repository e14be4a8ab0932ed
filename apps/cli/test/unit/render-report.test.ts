import type { FinalReport } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { renderReport, reportText } from '../../src/output/render-report.js';

const markdown: FinalReport = {
  status: 'success',
  format: 'markdown',
  content: '# Title\n\nSome **bold** text.',
  ts: 1,
};

describe('renderReport', () => {
  it('prints raw Markdown when ANSI is not allowed (piped or NO_COLOR)', async () => {
    expect(await renderReport(markdown, { ansi: false, columns: 80 })).toBe(
      '# Title\n\nSome **bold** text.\n',
    );
  });

  it('renders Markdown for a terminal', async () => {
    const out = await renderReport(markdown, { ansi: true, columns: 80 });
    expect(out).toContain('Title');
    expect(out).not.toContain('**bold**');
    expect(out.endsWith('\n')).toBe(true);
  });

  it('prints JSON reports as pretty JSON text, never rendered', async () => {
    const json: FinalReport = { status: 'success', format: 'json', content_json: { a: 1, b: ['x'] }, ts: 1 };
    expect(reportText(json)).toBe('{\n  "a": 1,\n  "b": [\n    "x"\n  ]\n}');
    expect(await renderReport(json, { ansi: true, columns: 80 })).toBe(`${reportText(json)}\n`);
  });

  it('strips ANSI escapes from text reports when ANSI is not allowed', async () => {
    const tty: FinalReport = { status: 'success', format: 'tty', content: '\x1b[1mbold\x1b[0m plain', ts: 1 };
    expect(await renderReport(tty, { ansi: false, columns: 80 })).toBe('bold plain\n');
    expect(await renderReport(tty, { ansi: true, columns: 80 })).toBe('\x1b[1mbold\x1b[0m plain\n');
  });
});
