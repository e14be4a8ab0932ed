import { homedir } from 'node:os';
import { join } from 'node:path';
import { SESSIONS_FILE_NAME } from '@agent/cache';
import { isRecord } from '@agent/protocol/util';
import { type Context, checkKeys, fail, type Json, warn } from './ai-agent-context.js';

// The top-level sections of ai-agent's `.ai-agent.json` beside providers, MCP servers and
// queues: those that map onto this runtime's (`cache`, `persistence`, `accounting`), the one
// `agent-server` reads itself (`slack`), and those with no counterpart yet (a warning naming
// the section). docs/migrating-from-ai-agent.md has the table.

/** Sections ai-agent has that this runtime does not act on yet, with what that means. */
const INACTIVE_SECTIONS: Record<string, string> = {
  telemetry: 'no metrics or traces are exported',
  api: 'the REST headend is configured by `agent-server` options',
  restTools:
    'REST tools of an ai-agent file are not translated; define them under `restTools` of agent.json (docs/http-tools.md)',
  openapiSpecs:
    'OpenAPI specs of an ai-agent file are not translated; define them under `openapiSpecs` of agent.json (docs/http-tools.md)',
  logging: 'logging is set by command-line flags',
};

/** Maps the sections in place: `out` is the file being translated into `agent.json`'s shape. */
export function translateSections(out: Json, ctx: Context): void {
  for (const [section, why] of Object.entries(INACTIVE_SECTIONS)) {
    if (!(section in out)) continue;
    warn(ctx, [section], `section \`${section}\` is not active in this runtime yet and is ignored: ${why}`);
    delete out[section];
  }
  // `agent-server` reads it from the file itself (aiAgentConfigSection); an agent run has no use for it.
  delete out.slack;
  if (isRecord(out.cache)) out.cache = cacheSection(out.cache);
  if (isRecord(out.accounting)) checkKeys(out.accounting, ['file'], [], ['accounting'], ctx);
  if ('persistence' in out) {
    persistence(out, ctx);
    delete out.persistence;
  }
}

function cacheSection(value: Json): Json {
  const out: Json = { ...value };
  if (isRecord(out.sqlite)) {
    out.path ??= out.sqlite.path;
    delete out.sqlite;
  }
  if (isRecord(out.redis)) {
    out.url ??= out.redis.url;
    delete out.redis;
  }
  return out;
}

/**
 * `persistence.sessionsDir`: the session store, a SQLite file in that directory (this
 * runtime's own `sessions` wins); `persistence.billingFile`: the billing file
 * (`accounting.file` wins).
 */
function persistence(out: Json, ctx: Context): void {
  const section = out.persistence;
  if (!isRecord(section)) {
    fail(ctx, ['persistence'], '`persistence` must be an object { sessionsDir?, billingFile? }');
    return;
  }
  const value = { ...section };
  checkKeys(value, ['sessionsDir', 'billingFile'], [], ['persistence'], ctx);
  for (const key of ['sessionsDir', 'billingFile'] as const) {
    if (value[key] !== undefined && (typeof value[key] !== 'string' || value[key] === ''))
      fail(ctx, ['persistence', key], `\`persistence.${key}\` must be a path`);
  }
  const { sessionsDir, billingFile } = value;
  if (typeof sessionsDir === 'string' && sessionsDir !== '' && out.sessions === undefined)
    out.sessions = { store: 'sqlite', path: join(withHome(sessionsDir), SESSIONS_FILE_NAME) };
  if (typeof billingFile === 'string' && billingFile !== '') {
    const accounting = isRecord(out.accounting) ? out.accounting : {};
    out.accounting = { ...accounting, file: accounting.file ?? withHome(billingFile) };
  }
}

/** ai-agent's defaults are written `~/.ai-agent/...`: `~` is the home directory. */
function withHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}
