import { PerCounter, setBounded } from './per-counter.js';
import type { TokenEstimator } from './token-estimator.js';

/** Body templates kept per counting function (an agent has a few: normal, final, last attempt). */
const MAX_KEPT = 64;

/** What the nonce is replaced by before a body is counted: the same shape, so the count stays honest. */
const NONCE_STAND_IN = '00000000';
/** Nonces a template is rendered with, to find where the session's nonce goes (valid nonce characters). */
const MARKER = 'x7Qz9KpWv2nonce_marker_a';
const CHECK_MARKER = 'x7Qz9KpWv2nonce_marker_b';

/**
 * A body as the parts between its nonces, and its text with a stand-in nonce, counted when first
 * needed (a small first request settles its fit with the bound and loads no tokenizer).
 */
interface BodyCounts {
  readonly standIn: string;
  rawTokens?: number;
  bound?: number;
}

interface BodyTemplate extends BodyCounts {
  readonly parts: readonly string[];
}

/**
 * Body templates shared by every session of the process, per counting function: sessions of one
 * agent send the same body (format, schema, rules) and differ only in their nonce, so the body is
 * rendered and counted once per process, and a session's body is the template's parts joined by
 * its nonce (a few string nodes over the shared parts, not a copy of the text). `null`: the body
 * cannot be made a template (its text holds the marker itself, e.g. in a schema) and is rendered
 * for each session.
 */
const sharedTemplates = new PerCounter(() => new Map<string, BodyTemplate | null>());

/** A notice body for one session, and where its counts are kept. */
export interface NoticeBody {
  readonly text: string;
  readonly counts: BodyCounts;
}

/**
 * Tokens of the XML-NEXT notice, counted by the session's estimator: the final-report schema
 * it carries included. Bodies come from per-process templates (counted with a stand-in nonce);
 * heads, which hold no nonce, are counted once per distinct text by the estimator's caches.
 */
export class NoticeTokens {
  private readonly templates: Map<string, BodyTemplate | null>;

  constructor(
    private readonly estimator: TokenEstimator,
    private readonly nonce: string,
  ) {
    this.templates = sharedTemplates.for(estimator.countingKey);
  }

  rawHead(head: string): number {
    return this.estimator.rawText(head);
  }

  /** Never below `rawHead(head)`. */
  rawHeadBound(head: string): number {
    return this.estimator.rawTextBound(head);
  }

  /**
   * The body `render` makes for this session's nonce. `key` names everything the body depends on
   * but the nonce: bodies of one key differ only in their nonce.
   */
  body(key: string, render: (nonce: string) => string): NoticeBody {
    let template = this.templates.get(key);
    if (template === undefined) {
      template = makeTemplate(render);
      setBounded(this.templates, key, template, MAX_KEPT);
    }
    if (template === null) {
      const text = render(this.nonce);
      return { text, counts: { standIn: text.replaceAll(this.nonce, NONCE_STAND_IN) } };
    }
    const { parts } = template;
    let text = parts[0]!;
    for (let i = 1; i < parts.length; i++) text = text + this.nonce + parts[i];
    return { text, counts: template };
  }

  rawBody(body: NoticeBody): number {
    const { counts } = body;
    counts.rawTokens ??= this.estimator.rawText(counts.standIn);
    return counts.rawTokens;
  }

  /** Never below `rawBody(body)`: its count when this process has it, else the estimator's bound. */
  rawBodyBound(body: NoticeBody): number {
    const { counts } = body;
    if (counts.rawTokens !== undefined) return counts.rawTokens;
    counts.bound ??= this.estimator.rawTextBound(counts.standIn);
    return counts.bound;
  }
}

function makeTemplate(render: (nonce: string) => string): BodyTemplate | null {
  const parts = render(MARKER).split(MARKER);
  // The marker found only where the nonce goes: rendered with another, the parts must rejoin to it.
  if (parts.join(CHECK_MARKER) !== render(CHECK_MARKER)) return null;
  return { parts, standIn: parts.join(NONCE_STAND_IN) };
}
