import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveJsonChild, spawnJsonChild } from '../harness/json-child.js';
import { formatNumber, median } from '../harness/measure.js';
import type { BenchCheck, BenchSuite, SuiteResult } from '../harness/types.js';

const CHILD_FLAG = '--openapi-load-child';
const MB = 1024 * 1024;
/** Operations spread over this many tags: a one-tag filter keeps operations / TAGS of them. */
const TAGS = 100;

interface ChildReport {
  operations: number;
  documentBytes: number;
  baselineRss: number;
  peakRss: number;
  loadMs: number;
  filteredMs: number;
  operationCount: number;
  toolsAll: number;
  toolsFiltered: number;
}

/** A document of `operations` operations (GET and PUT per path) over shared component schemas. */
function documentText(operations: number): string {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {
    Owner: { type: 'object', properties: { login: { type: 'string' }, team: { type: 'string' } } },
    Page: { type: 'integer', minimum: 1 },
  };
  for (let i = 0; i < operations / 2; i++) {
    const tag = `area${i % TAGS}`;
    schemas[`Item${i}`] = {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', description: `Name of item ${i}` },
        owner: { $ref: '#/components/schemas/Owner' },
        labels: { type: 'array', items: { type: 'string' } },
        kind: { oneOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'integer' }] },
      },
    };
    paths[`/${tag}/items${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        operationId: `getItem${i}`,
        summary: `Read item ${i}`,
        tags: [tag],
        parameters: [
          { name: 'page', in: 'query', schema: { $ref: '#/components/schemas/Page' } },
          { name: 'x-trace', in: 'header', schema: { type: 'string' } },
        ],
      },
      put: {
        operationId: `putItem${i}`,
        summary: `Replace item ${i}`,
        tags: [tag],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/Item${i}` } } },
        },
      },
    };
  }
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Generated', version: '1' },
    servers: [{ url: 'https://api.example.com/v1' }],
    paths,
    components: { schemas },
  });
}

function vmHwm(): number {
  try {
    const found = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return found ? Number(found[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function runChild(operations: number): Promise<ChildReport> {
  const { loadOpenApiTools } = await import('@agent/http-tools');
  const dir = mkdtempSync(join(tmpdir(), 'bench-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    const text = documentText(operations);
    writeFileSync(file, text);
    const documentBytes = Buffer.byteLength(text);
    globalThis.gc?.();
    const baselineRss = process.memoryUsage().rss;
    let peakRss = baselineRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 5);
    let started = performance.now();
    const filtered = await loadOpenApiTools({ name: 'gen', spec: file, filter: { tags: ['area7'] } });
    const filteredMs = performance.now() - started;
    started = performance.now();
    const all = await loadOpenApiTools({ name: 'gen', spec: file });
    const loadMs = performance.now() - started;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss, vmHwm());
    return {
      operations,
      documentBytes,
      baselineRss,
      peakRss,
      loadMs,
      filteredMs,
      operationCount: all.operationCount,
      toolsAll: all.tools.length,
      toolsFiltered: filtered.tools.length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function spawnChild(operations: number): Promise<ChildReport> {
  return spawnJsonChild<ChildReport>(
    fileURLToPath(import.meta.url),
    [CHILD_FLAG, String(operations)],
    'openapi-load',
  );
}

export const openapiLoadSuite: BenchSuite = {
  id: 'openapi-load',
  title: 'HTTP tools: loading an OpenAPI document of thousands of operations',
  description:
    'A generated OpenAPI 3.1 document (GET and PUT per path, path/query/header parameters, a `$ref` body with oneOf and arrays per PUT, shared component schemas) is written to a temp file and loaded by `loadOpenApiTools` twice in a child process: with a one-tag filter (what an agent.json entry with `tags` does) and without a filter (every operation a tool). Reported: the time of each load and the RSS growth (peak, 5 ms sampling and VmHWM, minus the RSS before). Medians of the runs.',
  async run({ quick }): Promise<SuiteResult> {
    const sizes = quick ? [2000] : [2000, 10_000];
    const runs = quick ? 1 : 3;
    const checks: BenchCheck[] = [];
    const rows: { operations: number; runs: ChildReport[] }[] = [];
    for (const operations of sizes) {
      const reports: ChildReport[] = [];
      for (let i = 0; i < runs; i++) reports.push(await spawnChild(operations));
      rows.push({ operations, runs: reports });
      const first = reports[0]!;
      checks.push({
        name: `${operations} operations: every operation is counted and becomes a tool without a filter`,
        ok: reports.every((r) => r.operationCount === operations && r.toolsAll === operations),
        detail: `counted ${first.operationCount}, tools ${first.toolsAll}`,
      });
      checks.push({
        name: `${operations} operations: a one-tag filter keeps ${operations / TAGS} tools`,
        ok: reports.every((r) => r.toolsFiltered === operations / TAGS),
        detail: `kept ${first.toolsFiltered}`,
      });
    }
    const m = (row: (typeof rows)[number], pick: (r: ChildReport) => number) => median(row.runs.map(pick));
    return {
      tables: [
        {
          caption: `Loading the document (${runs} run${runs === 1 ? '' : 's'} per size, medians)`,
          columns: [
            'operations',
            'document (MB)',
            'tools kept by the filter',
            'filtered load (ms)',
            'full load (ms)',
            'RSS growth (MB)',
          ],
          rows: rows.map((row) => [
            row.operations,
            formatNumber(m(row, (r) => r.documentBytes) / MB, 2),
            m(row, (r) => r.toolsFiltered),
            formatNumber(
              m(row, (r) => r.filteredMs),
              0,
            ),
            formatNumber(
              m(row, (r) => r.loadMs),
              0,
            ),
            formatNumber(m(row, (r) => r.peakRss - r.baselineRss) / MB),
          ]),
        },
      ],
      notes: [
        'Each load reads and parses the file, resolves its internal `$ref`s (@apidevtools/json-schema-ref-parser) and walks the operations once; only the operations the filter keeps get their JSON Schemas built.',
        'The full load builds a schema for every operation: the cost an agent.json entry without a filter pays once per runner.',
      ],
      checks,
      raw: rows,
    };
  },
};

serveJsonChild(CHILD_FLAG, runChild);
