import { formatNumber } from '../harness/measure.js';
import type { BenchTable } from '../harness/types.js';
import { CORE_ID, CORE_UNWATCHED_ID, RAW_LOOP_ID, RAW_LOOP_XML_ID } from './contenders/index.js';
import type { Figures } from './figures.js';
import type { ReportInput } from './tables.js';

/**
 * Where agent-core's CPU per turn above the raw loop goes, from contenders of the same run (medians,
 * us per turn): the protocol's bytes (the XML-NEXT notice sent and the FINAL tag streamed back, by
 * the raw loop that carries them), the runtime's own work (the same requests through agent-core,
 * run without a listener), and the progress tool a watched run is offered.
 */
export function decompositionTable(input: ReportInput): BenchTable | undefined {
  const { figures, turns } = input;
  const at = (id: string, n: number) =>
    figures.find((f: Figures) => f.id === id)?.cpuPerTurnMs.get(n)?.median;
  const ids = [RAW_LOOP_ID, RAW_LOOP_XML_ID, CORE_UNWATCHED_ID, CORE_ID];
  if (!ids.every((id) => figures.some((f) => f.id === id))) return undefined;
  const us = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? 'n/a' : formatNumber((a - b) * 1000, 0);
  return {
    caption:
      "agent-core's CPU per turn above the raw loop, split by contenders of this run (differences of medians, us per turn; noisy: a part can come out negative)",
    columns: [
      'N',
      'raw-loop, us',
      'protocol: raw-loop-xml - raw-loop (the notice sent, the FINAL tag streamed back)',
      'runtime: agent-core-unwatched - raw-loop-xml (the same requests through the core)',
      'progress tool: agent-core - agent-core-unwatched (agent__task_status offered to a watched run)',
      'agent-core - raw-loop',
    ],
    rows: turns.map((n) => {
      const [raw, xml, unwatched, core] = ids.map((id) => at(id, n));
      return [
        n,
        raw === undefined ? 'n/a' : formatNumber(raw * 1000, 0),
        us(xml, raw),
        us(unwatched, xml),
        us(core, unwatched),
        us(core, raw),
      ];
    }),
  };
}
