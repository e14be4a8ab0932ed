// Issue 39's acceptance for compaction: a long session with large tool outputs in a small window
// completes with its report when compaction is on, with the tokens sent per request bounded,
// and stops at the forced final turn when it is off. Both sessions run in the same run.
import {
  CONTEXT_WINDOW,
  MAX_OUTPUT_TOKENS,
  runLongSession,
  TOOL_RESPONSE_MAX_BYTES,
} from '../compaction/session.js';
import { sessionChecks, sideBySideTable, tokenSpread } from '../compaction/tables.js';
import type { BenchSuite, SuiteResult } from '../harness/types.js';

const FULL = { reportTurn: 200 };
const QUICK = { reportTurn: 40 };
/** An unmeasured short session first, so neither measured one pays for loading and JIT warm-up. */
const WARM_UP = { compaction: true, reportTurn: 20 };

const NOTES = [
  `The model is the testkit model server over HTTP in strict mode (a request the real API refuses, such as a tool call without its result, is refused with its 400), reached through \`@agent/providers\`' OpenAI client (the official \`openai\` package). It reports as each call's input tokens the real size of the request it received: o200k tokens of every message's text and tool calls, 3 per message, and the tool definitions (the OpenAI cookbook's recipe; the session's context guard counts with the same tokenizer and is corrected by the reported figure). The table's per-request figures are the server's counts of the session's requests; summary calls are counted apart.`,
  `The agent reads a survey with one tool, \`read_page\`, one page per turn (pages of 3, 6, 4, 9, 5 and 14 KB in turn; the 14 KB ones are over the ${TOOL_RESPONSE_MAX_BYTES}-byte tool-output cap and stored behind a handle) and reports on the last turn. Context window ${CONTEXT_WINDOW} tokens (\`contextWindow\`), \`maxOutputTokens: ${MAX_OUTPUT_TOKENS}\`, \`toolResponseMaxBytes: ${TOOL_RESPONSE_MAX_BYTES}\` in both sessions; \`compaction: true\` (the defaults: \`at: 0.8\`, \`keep: 2\`, \`attempts: 2\`, \`tokens: 2048\`) in one. The scripted model writes a summary of about 200 words when asked for one (a call with the core's summary prompt), reports what it read when a final turn is forced on it, and otherwise asks for the page of the turn the XML-NEXT notice names.`,
  'Command: `cd bench && node --import tsx src/run.ts --only compaction` (`pnpm bench --only compaction`); both sessions run one after the other in the same run, after an unmeasured 20-turn warm-up session.',
  'The session without compaction sends fewer tokens in all only because it stops early: per page read it sends more than the session with compaction, summary calls included (the row "input tokens sent per page read").',
  'Wall time and CPU are of the whole process (the session, the OpenAI client and the in-process model server), less the time the server spent counting tokens for its usage figures. A summary call is a model call of its own: its tokens are in the summary rows and in the total, never in the per-request figures.',
];

export const compactionSuite: BenchSuite = {
  id: 'compaction',
  title: 'Compaction: a 200-turn session in a 16K-token window, with and without it',
  description:
    'One session of 200 turns whose tool outputs are several KB each (some over the tool-output cap), in a 16,384-token window, run through `@agent/providers` against the testkit model server over HTTP: with `compaction: true` it completes with its report; without compaction the context guard forces the final turn. Per-request input tokens (max, mean, p95), compactions, summary calls and their tokens, wall time and CPU, side by side. Quick: 40 turns.',
  async run({ quick }): Promise<SuiteResult> {
    const { reportTurn } = quick ? QUICK : FULL;
    await runLongSession(WARM_UP);
    const sessions = [
      await runLongSession({ compaction: true, reportTurn }),
      await runLongSession({ compaction: false, reportTurn }),
    ];
    return {
      tables: [sideBySideTable(sessions, reportTurn)],
      notes: NOTES,
      checks: sessionChecks(sessions, reportTurn),
      raw: {
        reportTurn,
        contextWindow: CONTEXT_WINDOW,
        sessions: sessions.map(({ requestTokens, ...rest }) => ({
          ...rest,
          requestTokens,
          spread: tokenSpread(requestTokens),
        })),
      },
    };
  },
};
