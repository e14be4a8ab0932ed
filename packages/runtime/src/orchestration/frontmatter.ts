import { type FileRef, fileRef, fileRefs } from '../agent-file/file-ref.js';
import { listShorthand } from '../agent-file/list-shorthand.js';
import { type Problem, problem } from '../errors.js';

// The orchestration keys of an agent file: advisors before it, a router's destinations, a
// handoff after it (docs/orchestration.md). Kept apart from the other keys so the feature is
// one folder.

/** Default `advisorTimeout`: how long the advisors of one run may take, in milliseconds. */
export const DEFAULT_ADVISOR_TIMEOUT_MS = 300_000;

/** The orchestration an agent file declares, with the line of every file it names. */
export interface AgentOrchestration {
  /** Agents run in parallel before this one, on the user's prompt. */
  advisors: FileRef[];
  /** Milliseconds each advisor may take before its block says it timed out. */
  advisorTimeout?: number;
  /** Agents this one may hand the request to (`router__handoff-to`). */
  router?: FileRef[];
  /** The agent that runs on this one's answer; its report is the final one. */
  handoff?: FileRef;
}

const agentFileList = (what: string) => ({
  type: 'array',
  minItems: 1,
  items: { type: 'string', minLength: 1, 'x-expects': 'a non-empty string (an agent file path)' },
  'x-expects': what,
});

/** JSON Schemas of the keys, merged into the frontmatter schema. */
export const ORCHESTRATION_PROPERTIES: Record<string, Record<string, unknown>> = {
  advisors: agentFileList('a list of advisor agent file paths (or one string)'),
  advisorTimeout: {
    type: 'integer',
    minimum: 1,
    'x-expects': 'a positive number of milliseconds or a duration such as 30s, 5m',
  },
  router: {
    type: 'object',
    properties: {
      destinations: agentFileList('a non-empty list of agent file paths, or one string'),
    },
    required: ['destinations'],
    additionalProperties: false,
    'x-expects': 'an object { destinations: [agent file paths] }',
  },
  handoff: { type: 'string', minLength: 1, 'x-expects': 'an agent file path' },
};

/** Shorthands: a comma-separated string for `advisors` and `router.destinations`, a list for `router`. */
export function normaliseOrchestration(out: Record<string, unknown>): void {
  if ('advisors' in out) out.advisors = listShorthand(out.advisors);
  const router = out.router;
  if (typeof router === 'string' || Array.isArray(router))
    out.router = { destinations: listShorthand(router) };
  else if (typeof router === 'object' && router !== null && 'destinations' in router) {
    const destinations = (router as Record<string, unknown>).destinations;
    out.router = { ...router, destinations: listShorthand(destinations) };
  }
}

interface ReadContext {
  file: string;
  dir: string;
  lineOf: (...keys: (string | number)[]) => number | undefined;
  problems: Problem[];
}

/** The orchestration of validated frontmatter data; undefined when it names none. */
export function readOrchestration(
  data: Record<string, unknown>,
  ctx: ReadContext,
): AgentOrchestration | undefined {
  const { dir, lineOf } = ctx;
  const advisors = fileRefs((data.advisors as string[] | undefined) ?? [], dir, (index) =>
    lineOf('advisors', index),
  );
  const destinations = (data.router as { destinations: string[] } | undefined)?.destinations;
  const handoff = data.handoff as string | undefined;
  const timeout = data.advisorTimeout as number | undefined;
  if (timeout !== undefined && advisors.length === 0) {
    ctx.problems.push(
      problem(
        'configuration',
        ctx.file,
        lineOf('advisorTimeout'),
        '`advisorTimeout` is set but the file lists no `advisors`; list them or remove the key',
      ),
    );
  }
  if (advisors.length === 0 && destinations === undefined && handoff === undefined) return undefined;
  return {
    advisors,
    ...(timeout === undefined ? {} : { advisorTimeout: timeout }),
    ...(destinations === undefined
      ? {}
      : {
          router: fileRefs(destinations, dir, (index) => lineOf('router', 'destinations', index)),
        }),
    ...(handoff === undefined ? {} : { handoff: fileRef(handoff, dir, lineOf('handoff')) }),
  };
}
