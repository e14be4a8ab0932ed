// Install size: @agent/core + @agent/providers packed into tarballs (with the workspace packages
// they depend on) and installed with npm into an empty project, beside @openai/agents and
// ai + @ai-sdk/openai installed the same way, at the versions the other suites run. Bytes of
// node_modules and package count; the target is the smallest of the three.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatNumber } from '../harness/measure.js';
import { otherCheckouts } from '../harness/other-checkouts.js';
import type { BenchCheck, BenchSuite, BenchTable, SuiteResult } from '../harness/types.js';
import {
  type Installed,
  installInto,
  packAll,
  readManifest,
  workspaceClosure,
} from '../install-size/install.js';
import { peerChecks, usesOnlyItsPeers } from '../install-size/smoke.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const OURS = ['@agent/core', '@agent/providers'];
const SDK_PEERS = ['openai', '@anthropic-ai/sdk', 'gpt-tokenizer'];

/** The version the bench itself installed (the one the other suites run). */
const versionOf = (name: string) => readManifest(join(REPO, 'bench', 'node_modules', name)).version;

interface Row {
  label: string;
  specs: string[];
  installed?: Installed;
  contender: boolean;
  /** Ours from another checkout (`BENCH_COMPARE`). */
  other?: boolean;
}

const mb = (bytes: number) => formatNumber(bytes / 1_000_000);

async function packOurs(root: string, dest: string): Promise<string[]> {
  return packAll(workspaceClosure(join(root, 'packages'), OURS).values(), dest);
}

/** Ours with openai, with the tokenizer too, and alone; then the two contenders with their peers. */
function installRows(tarballs: string[]): Row[] {
  const openai = `openai@${versionOf('openai')}`;
  const tokenizer = `gpt-tokenizer@${versionOf('gpt-tokenizer')}`;
  return [
    { label: '@agent/core + @agent/providers + openai', specs: [...tarballs, openai], contender: true },
    {
      label: '... + gpt-tokenizer (exact OpenAI token counts)',
      specs: [...tarballs, openai, tokenizer],
      contender: false,
    },
    {
      label: '@agent/core + @agent/providers alone (no SDK: no model calls)',
      specs: tarballs,
      contender: false,
    },
    {
      label: '@openai/agents (+ zod, its peer)',
      specs: [`@openai/agents@${versionOf('@openai/agents')}`, `zod@${versionOf('zod')}`],
      contender: true,
    },
    {
      label: 'ai + @ai-sdk/openai (+ zod, their peer)',
      specs: [
        `ai@${versionOf('ai')}`,
        `@ai-sdk/openai@${versionOf('@ai-sdk/openai')}`,
        `zod@${versionOf('zod')}`,
      ],
      contender: true,
    },
  ];
}

/** Packs ours from each other checkout (`BENCH_COMPARE`) and puts its rows after ours alone. */
async function addOtherCheckouts(rows: Row[], dir: string): Promise<void> {
  for (const [index, other] of otherCheckouts().entries()) {
    const theirs = await packOurs(other.dir, join(dir, `tarballs-other-${index}`));
    rows.splice(3 + index, 0, {
      label: `@agent/core + @agent/providers of ${other.label}`,
      specs: theirs,
      contender: false,
      other: true,
    });
  }
}

async function measure(quick: boolean): Promise<SuiteResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-install-size-'));
  const checks: BenchCheck[] = [];
  const notes: string[] = [];
  try {
    const tarballs = await packOurs(REPO, join(dir, 'tarballs'));
    checks.push({
      name: 'our packages pack',
      ok: tarballs.length > 2,
      detail: `${tarballs.length} tarballs`,
    });
    const providers = readManifest(join(REPO, 'packages', 'providers'));
    checks.push(usesOnlyItsPeers(providers, SDK_PEERS));
    if (quick) {
      notes.push(
        'Quick run: packs our tarballs and checks the manifest; installs nothing (no registry in CI).',
      );
      return { tables: [], notes, checks, raw: { tarballs } };
    }
    const rows = installRows(tarballs);
    await addOtherCheckouts(rows, dir);
    for (const [index, row] of rows.entries())
      row.installed = await installInto(join(dir, `project-${index}`), row.specs);
    checks.push(...(await peerChecks(join(dir, 'project-0'), join(dir, 'project-1'))));
    return report(rows, checks, notes);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What each peer took out, when the first other checkout is one from before the change. */
function moves(rows: Row[]): string[] {
  const before = rows.find((row) => row.other === true);
  if (before === undefined) return [];
  const [withOpenai, withTokenizer] = rows;
  const tokenizer = withTokenizer!.installed!.bytes - withOpenai!.installed!.bytes;
  const rest = before.installed!.bytes - withTokenizer!.installed!.bytes;
  return [
    `What each change moved (${before.label} had both SDKs and the tokenizer as dependencies): gpt-tokenizer as an optional peer, ${mb(tokenizer)} MB; @anthropic-ai/sdk as an optional peer (and what else differs between the two checkouts), ${mb(rest)} MB; ${mb(before.installed!.bytes)} -> ${mb(withOpenai!.installed!.bytes)} MB in all.`,
  ];
}

function report(rows: Row[], checks: BenchCheck[], notes: string[]): SuiteResult {
  const contenders = rows.filter((row) => row.contender);
  const ours = contenders[0]!;
  const smallest = contenders.reduce((a, b) => (b.installed!.bytes < a.installed!.bytes ? b : a));
  const met = smallest === ours;
  const table: BenchTable = {
    caption: 'Installed from packed tarballs / the registry into an empty project with npm',
    columns: ['install', 'node_modules MB (file bytes)', 'MB on disk', 'packages'],
    rows: rows.map((row) => [
      row.label,
      mb(row.installed!.bytes),
      mb(row.installed!.diskBytes),
      row.installed!.packages,
    ]),
  };
  notes.push(
    `Target: ours (with \`openai\`, the one SDK an OpenAI user needs, now an optional peer they install themselves) the smallest of the three: ${met ? 'met' : 'not met'} (${mb(ours.installed!.bytes)} MB against ${contenders
      .filter((row) => row !== ours)
      .map((row) => `${mb(row.installed!.bytes)} MB`)
      .join(' and ')}).`,
    ...moves(rows),
    'The tokenizer stays `gpt-tokenizer`, now an optional peer: it installs every encoding (the row with it shows its weight), but the one lighter package found, `js-tiktoken` (22 MB, also every encoding), loaded its o200k table in 740-1,040 ms against 200-345 ms for gpt-tokenizer (3 runs each, `require` + first count, by hand on this machine), which would cost every cold start that counts. Without it OpenAI models are counted by the heuristic.',
    'Ours: `pnpm pack` of @agent/core, @agent/providers and the workspace packages they depend on; the tarballs and the registry packages installed with `npm install --prefer-offline --no-package-lock` (npm resolves their registry dependencies). Contenders at the versions the other suites run, the same way. MB = 10^6 bytes; "on disk" counts allocated blocks.',
  );
  return {
    tables: [table],
    notes,
    checks,
    raw: {
      rows: rows.map(({ label, specs, installed }) => ({
        label,
        specs: specs.map((spec) => spec.split('/').pop()),
        ...installed,
      })),
      met,
    },
  };
}

export const installSizeSuite: BenchSuite = {
  id: 'install-size',
  title: 'Install size of @agent/core + @agent/providers',
  description:
    'Packed tarballs of @agent/core + @agent/providers (+ openai) installed with npm into an empty project, against @openai/agents and ai + @ai-sdk/openai installed the same way: bytes of node_modules and package count; target: the smallest.',
  run: ({ quick }) => measure(quick),
};
