// The agent-core session run without an `onEvent` listener, as a library user who only wants the
// result runs it: the default `internalTools` then offers no `agent__task_status` (its progress
// would reach nobody), so its requests are smaller. It surfaces no stream.
import { run } from '@agent/core';
import { coreSessions } from './agent-core.js';
import type { ContenderFactory } from './types.js';

export const createAgentCoreUnwatched: ContenderFactory = (baseURL) =>
  coreSessions(baseURL, (agent, prompt, { onEvent: _unused, ...options }) => run(agent, prompt, options));
