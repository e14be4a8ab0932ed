// Issue 42's prompt-caching target: a 10-turn session with tools played by the testkit model
// server over HTTP for agent-core (OpenAI Chat and Anthropic Messages), `@openai/agents` and the
// AI SDK; from every request body it received, the share of the input the provider can serve
// from its cache (bench/src/prompt-cache/shares.ts defines it).
import { type ModelServer, startModelServer } from '@agent/testkit';
import type { BenchSuite, SuiteResult } from '../harness/types.js';
import { PROMPT_CACHE_CONTENDERS, type PromptCacheContender } from '../prompt-cache/contenders.js';
import { noticeTokensOf } from '../prompt-cache/notice.js';
import { answerFor, FINAL_ANSWER, MODEL_ANTHROPIC, MODEL_OPENAI } from '../prompt-cache/script.js';
import { anthropicShares, LOOK_BACK_BLOCKS, openaiShares } from '../prompt-cache/shares.js';
import {
  checksOf,
  type PlayedSession,
  perTurnTable,
  summaryTable,
  TARGET_SHARE,
  targetsOf,
} from '../prompt-cache/tables.js';

const FULL_TURNS = 10;
const QUICK_TURNS = 3;

const NOTES = (turns: number) => [
  `The session: ${turns} model calls; on each of the first ${turns - 1} the scripted model calls one of three tools (read_file, grep, run_tests, in turn), whose result is 300-560 o200k tokens of what such a tool prints (numbered source lines, grep matches, test output); the last call reports. The agent's instructions are a maintainer's rules (about 360 tokens), the same text for every contender. Each contender plays the session against its own testkit model server (strict mode) over loopback HTTP; the server keeps every request body.`,
  'OpenAI-style share (automatic caching serves the longest prefix seen before): a Chat Completions body is read as the API reads it: each tool definition, then `response_format` if any, then each message, as the JSON the client sent (its key order), joined by newlines. Cacheable = the longest common prefix, in characters, with any earlier request of the session; share = o200k tokens of that prefix / o200k tokens of the whole. OpenAI serves cached prefixes only from 1,024 tokens on, in 128-token steps: not applied here, the share is what a byte-stable prefix makes possible.',
  `Anthropic share: the body's blocks in cache order (tools, system blocks, each message's content blocks), each without its \`cache_control\`. A request writes the prefix up to each of its marked blocks; a later request reads, at each of its own marks, the longest written prefix ending there or up to ${LOOK_BACK_BLOCKS} blocks before (the API's look-back). Share = o200k tokens of the longest read / of the whole body (Anthropic publishes no tokenizer; both counts are o200k). Minimum cacheable lengths (1,024 or 2,048 tokens by model) are not applied.`,
  `Target: every call from 2 to ${turns} (the smallest share) at least ${TARGET_SHARE * 100}% (\`lowerBoundVerdict\`). agent-core runs with an \`onEvent\` listener (so it offers \`agent__task_status\`), models ${MODEL_OPENAI} and ${MODEL_ANTHROPIC}.`,
  'Command: `cd bench && node --import tsx src/run.ts --only prompt-cache` (`pnpm bench --only prompt-cache`; build the packages first).',
];

async function play(contender: PromptCacheContender, turns: number): Promise<PlayedSession> {
  const server: ModelServer = await startModelServer({
    strict: true,
    handler: (request) => answerFor(request, turns),
    models: [MODEL_OPENAI, MODEL_ANTHROPIC],
  });
  let finalText = '';
  let error: string | undefined;
  try {
    finalText = await contender.play(server, turns);
  } catch (caught) {
    error = (caught as Error).message;
  } finally {
    await server.close();
  }
  const bodies = server.requests.map((request) => (request.body ?? {}) as Record<string, unknown>);
  const shares = contender.cache === 'openai' ? openaiShares(bodies) : anthropicShares(bodies);
  const session: PlayedSession = {
    contender,
    finalText,
    requests: bodies.length,
    shares,
    noticeTokens: noticeTokensOf(bodies.at(-1)),
  };
  if (error !== undefined) session.error = error;
  return session;
}

export const promptCacheSuite: BenchSuite = {
  id: 'prompt-cache',
  title: 'Prompt caching: the share of each request a provider can serve from its cache',
  description:
    'A 10-turn session with tools (one tool call per turn, a realistic result, then the report) played by the testkit model server over HTTP for agent-core over OpenAI Chat and over Anthropic Messages, `@openai/agents` and the AI SDK; from each request body from the second on, the o200k tokens the provider can serve from its prompt cache (OpenAI: the longest prefix shared with an earlier request; Anthropic: the longest prefix read at a `cache_control` mark from an earlier write) over the input tokens. Quick: 3 turns.',
  async run({ quick }): Promise<SuiteResult> {
    const turns = quick ? QUICK_TURNS : FULL_TURNS;
    const sessions: PlayedSession[] = [];
    for (const contender of PROMPT_CACHE_CONTENDERS) sessions.push(await play(contender, turns));
    return {
      tables: [summaryTable(sessions), perTurnTable(sessions)],
      targets: targetsOf(sessions),
      notes: NOTES(turns),
      checks: checksOf(sessions, turns, FINAL_ANSWER),
      raw: {
        turns,
        sessions: sessions.map(({ contender, ...rest }) => ({ contender: contender.id, ...rest })),
      },
    };
  },
};
