// What a session's record weighs: the gzip file on disk, its JSON, and the part of both the
// tapes take (the JSON of every session node's `tape`; for gzip, what the file loses when the
// same record is compressed without them).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RecordNode, SessionRecord } from '@agent/protocol';
import { median } from '../harness/measure.js';
import { RECORD_SUFFIX } from './sessions.js';

export interface RecordSize {
  /** Record files in the dir, and how many of them were read. */
  files: number;
  records: number;
  /** Medians over the records read. */
  gzipBytes: number;
  jsonBytes: number;
  tapeJsonBytes: number;
  /** The same record gzipped without its tapes. */
  gzipBytesWithoutTapes: number;
  /** Model calls on the root session's tape (the turns), median. */
  modelCalls: number;
  /** Records written without their payloads (over the size bound): none expected. */
  payloadsDropped: number;
}

/** The record's JSON with every tape left out. */
function withoutTapes(node: RecordNode): RecordNode {
  const { tape: _tape, children, ...rest } = node;
  return { ...rest, children: children.map(withoutTapes) };
}

function tapeBytes(node: RecordNode): number {
  const own = node.tape === undefined ? 0 : Buffer.byteLength(JSON.stringify(node.tape));
  return node.children.reduce((sum, child) => sum + tapeBytes(child), own);
}

/** Sizes of (at most `limit`) records of `dir`, as medians. */
export function recordSizes(dir: string, limit: number): RecordSize {
  const files = readdirSync(dir).filter((name) => name.endsWith(RECORD_SUFFIX));
  const rows = files.slice(0, limit).map((name) => {
    const gzipped = readFileSync(join(dir, name));
    const json = gunzipSync(gzipped);
    const record = JSON.parse(json.toString('utf8')) as SessionRecord;
    const bare = JSON.stringify({ ...record, tree: withoutTapes(record.tree) });
    return {
      gzip: gzipped.length,
      json: json.length,
      tape: tapeBytes(record.tree),
      gzipBare: gzipSync(bare).length,
      calls: record.tree.tape?.calls.length ?? 0,
      dropped: record.payloadsDropped !== undefined,
    };
  });
  const med = (pick: (row: (typeof rows)[number]) => number) => median(rows.map(pick));
  return {
    files: files.length,
    records: rows.length,
    gzipBytes: med((row) => row.gzip),
    jsonBytes: med((row) => row.json),
    tapeJsonBytes: med((row) => row.tape),
    gzipBytesWithoutTapes: med((row) => row.gzipBare),
    modelCalls: med((row) => row.calls),
    payloadsDropped: rows.filter((row) => row.dropped).length,
  };
}
