// The tokens each contender's requests add per turn beyond the user's own content: its table,
// its target (agent-core adds no more than any peer) and the check that every request was read.
import { formatNumber, median } from '../harness/measure.js';
import type { BenchCheck, BenchTable } from '../harness/types.js';
import { CORE_ID, CORE_UNWATCHED_ID, isPeer } from './contenders/index.js';
import type { RequestAdditions } from './request-tokens.js';
import type { TargetOutcome } from './tables.js';

/** One contender's counted session: every request it sent, in order. */
export interface TokenData {
  id: string;
  /** Tool turns of the counted session: it sends turns + 1 requests. */
  turns: number;
  requests: readonly RequestAdditions[];
}

type Field = Exclude<keyof RequestAdditions, 'bodyBytes' | 'internalToolNames'>;

const FIELDS: readonly { field: Field; column: string }[] = [
  { field: 'system', column: 'system additions' },
  { field: 'notice', column: 'notice (user messages beyond the prompt)' },
  { field: 'internalTools', column: 'internal tool schemas' },
  { field: 'toolDefinition', column: "added to the agent's own tool" },
  { field: 'total', column: 'total per turn' },
];

function perTurn(data: TokenData, field: Field | 'bodyBytes'): number {
  return data.requests.length === 0 ? Number.NaN : median(data.requests.map((r) => r[field]));
}

export function tokenTable(data: readonly TokenData[]): BenchTable {
  const turns = data[0]?.turns ?? 0;
  return {
    caption: `Tokens each request adds beyond the user's own content (o200k, as the JSON body carries them; median per request over one session of N=${turns}, ${turns + 1} requests; the same instructions, prompt and tool for every contender)`,
    columns: ['contender', ...FIELDS.map((f) => f.column), 'request body, bytes', 'internal tools offered'],
    rows: data.map((d) => [
      d.id,
      ...FIELDS.map((f) => formatNumber(perTurn(d, f.field), 0)),
      formatNumber(perTurn(d, 'bodyBytes'), 0),
      [...new Set(d.requests.flatMap((r) => r.internalToolNames))].map((n) => `\`${n}\``).join(', ') ||
        'none',
    ]),
  };
}

/** agent-core adds no more tokens per turn than any peer (the raw loop, the floor, is no peer). */
export function tokenTarget(data: readonly TokenData[]): TargetOutcome {
  const core = data.find((d) => d.id === CORE_ID);
  const peers = data.filter((d) => isPeer(d.id));
  const coreTotal = core === undefined ? Number.NaN : perTurn(core, 'total');
  const peerText = peers.map((p) => `${p.id} ${formatNumber(perTurn(p, 'total'), 0)}`).join(', ');
  const unwatched = data.find((d) => d.id === CORE_UNWATCHED_ID);
  const unwatchedText =
    unwatched === undefined ? '' : ` (${CORE_UNWATCHED_ID} ${formatNumber(perTurn(unwatched, 'total'), 0)})`;
  return {
    name: `${CORE_ID} tokens added per turn no more than any peer's`,
    measured: `${CORE_ID} ${formatNumber(coreTotal, 0)}${unwatchedText}; ${peerText}`,
    met: peers.every((p) => coreTotal <= perTurn(p, 'total')),
  };
}

export function tokenChecks(data: readonly TokenData[]): BenchCheck[] {
  return data.map((d) => ({
    name: `${d.id}: every request of the counted session was read (${d.turns + 1})`,
    ok: d.requests.length === d.turns + 1,
    detail: `${d.requests.length} request(s)`,
  }));
}
