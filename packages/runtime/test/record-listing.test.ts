import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listSessionRecordFiles } from '../src/index.js';

// The record files of a sessions directory, listed (not read) for the viewer: newest first, bounded.

const root = mkdtempSync(join(tmpdir(), 'record-listing-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A file `name` in `dir` written `age` seconds ago. */
function file(dir: string, name: string, age: number, body = 'x'): void {
  const path = join(dir, name);
  writeFileSync(path, body);
  const when = Date.now() / 1000 - age;
  utimesSync(path, when, when);
}

describe('listSessionRecordFiles', () => {
  it('lists the records newest first, at most max, leaving out what is not a record', async () => {
    const dir = join(root, 'mixed');
    mkdirSync(dir);
    file(dir, 'old.json.gz', 300);
    file(dir, 'new.json.gz', 10);
    file(dir, 'middle.json.gz', 100);
    file(dir, '.middle.0f3a.tmp', 5);
    file(dir, 'notes.txt', 1);
    file(dir, '-bad.json.gz', 1);
    mkdirSync(join(dir, 'sub.json.gz'));
    const all = await listSessionRecordFiles(dir);
    expect(all.map((info) => info.sessionId)).toEqual(['new', 'middle', 'old']);
    expect(all[0]).toMatchObject({ path: join(dir, 'new.json.gz'), size: 1 });
    const two = await listSessionRecordFiles(dir, { max: 2 });
    expect(two.map((info) => info.sessionId)).toEqual(['new', 'middle']);
  });

  it('looks at no more than maxScanned entries of a large directory', async () => {
    const dir = join(root, 'large');
    mkdirSync(dir);
    for (let i = 0; i < 50; i++) file(dir, `s${i}.json.gz`, i);
    expect(await listSessionRecordFiles(dir, { max: 100 })).toHaveLength(50);
    expect(await listSessionRecordFiles(dir, { max: 100, maxScanned: 20 })).toHaveLength(20);
  });

  it('has none for a directory that does not exist yet', async () => {
    expect(await listSessionRecordFiles(join(root, 'missing'))).toEqual([]);
  });
});
