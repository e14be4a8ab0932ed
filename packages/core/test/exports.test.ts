import type * as core from '@agent/core';
import type * as protocol from '@agent/protocol';
import { finalReport, scriptedModel } from '@agent/testkit';
import { expect, expectTypeOf, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/core exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/core')).sort()).toEqual([
    'AIAgent',
    'argumentsHash',
    'compactionProblems',
    'createAgentSession',
    'defineAgent',
    'guardrail',
    'resume',
    'run',
    'runAgent',
    'tool',
    'toolPolicyProblems',
    'toolSearchProblems',
  ]);
});

// Seed 002's library-API names (src/seed-aliases.ts): each is the project's own type or function.
test("seed 002's names are the project's types and functions under the seed's names", async () => {
  expectTypeOf<core.AIAgentSessionConfig>().toEqualTypeOf<core.AgentSessionConfig>();
  expectTypeOf<core.AIAgentSession>().toEqualTypeOf<core.AgentSession>();
  expectTypeOf<core.AIAgentResult>().toEqualTypeOf<protocol.AgentResult>();
  expectTypeOf<core.AIAgentEvent>().toEqualTypeOf<protocol.AgentEvent>();
  expectTypeOf<core.AIAgentEventMeta>().toEqualTypeOf<protocol.AgentEventMeta>();
  expectTypeOf<core.AIAgentEventCallbacks>().toEqualTypeOf<protocol.AgentEventCallbacks>();
  expectTypeOf<core.FinalReportPayload>().toEqualTypeOf<protocol.FinalReport>();
  expectTypeOf<core.ConversationMessage>().toEqualTypeOf<protocol.ConversationMessage>();
  expectTypeOf<core.LogEntry>().toEqualTypeOf<protocol.LogEntry>();
  expectTypeOf<core.AccountingEntry>().toEqualTypeOf<protocol.AccountingEntry>();
  expectTypeOf<core.ProgressEvent>().toEqualTypeOf<protocol.ProgressEvent>();
  expectTypeOf<core.SessionNode>().toEqualTypeOf<protocol.SessionNode>();

  const { AIAgent } = await import('@agent/core');
  expect(Object.keys(AIAgent).sort()).toEqual(['create', 'run']);
  expect(Object.isFrozen(AIAgent)).toBe(true);
  // create() is createAgentSession(), run(session) is session.run().
  const session = AIAgent.create({ model: scriptedModel([finalReport('hello')]), prompt: 'Say hello.' });
  expect(Object.keys(session).sort()).toEqual(['run', 'sessionId', 'stop']);
  const result = await AIAgent.run(session);
  expect(result).toMatchObject({ success: true, finalReport: { content: 'hello' } });
  expect(await session.run()).toBe(result);
});
