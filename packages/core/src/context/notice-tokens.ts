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
 * A body as the parts between its nonces, with its count; `null` when it cannot be made one (its
 * text holds the marker itself, e.g. in a schema): such a body is rendered for each session.
 */
type BodyTemplate = { parts: readonly string[]; rawTokens: number } | null;

/**
 * Body templates shared by every session of the process, per counting function: sessions of one
 * agent send the same body (format, schema, rules) and differ only in their nonce, so the body is
 * rendered and counted once per process, and a session's body is the template's parts joined by
 * its nonce (a few string nodes over the shared parts, not a copy of the text).
 */
const sharedTemplates = new PerCounter(() => new Map<string, BodyTemplate>());

/** A notice body for one session, and its raw token count. */
export interface NoticeBody {
  text: string;
  rawTokens: number;
}

/**
 * Tokens of the XML-NEXT notice, counted by the session's estimator: the final-report schema
 * it carries included. Bodies come from per-process templates (counted with a stand-in nonce);
 * heads, which hold no nonce, are counted once per distinct text by the estimator's caches.
 */
export class NoticeTokens {
  private readonly templates: Map<string, BodyTemplate>;

  constructor(
    private readonly estimator: TokenEstimator,
    private readonly nonce: string,
  ) {
    this.templates = sharedTemplates.for(estimator.countingKey);
  }

  rawHead(head: string): number {
    return this.estimator.rawText(head);
  }

  /**
   * The body `render` makes for this session's nonce. `key` names everything the body depends on
   * but the nonce: bodies of one key differ only in their nonce.
   */
  body(key: string, render: (nonce: string) => string): NoticeBody {
    let template = this.templates.get(key);
    if (template === undefined) {
      template = makeTemplate(render, this.estimator);
      setBounded(this.templates, key, template, MAX_KEPT);
    }
    if (template === null) {
      const text = render(this.nonce);
      return { text, rawTokens: this.estimator.rawText(text.replaceAll(this.nonce, NONCE_STAND_IN)) };
    }
    const { parts } = template;
    let text = parts[0]!;
    for (let i = 1; i < parts.length; i++) text = text + this.nonce + parts[i];
    return { text, rawTokens: template.rawTokens };
  }
}

function makeTemplate(render: (nonce: string) => string, estimator: TokenEstimator): BodyTemplate {
  const parts = render(MARKER).split(MARKER);
  // The marker found only where the nonce goes: rendered with another, the parts must rejoin to it.
  if (parts.join(CHECK_MARKER) !== render(CHECK_MARKER)) return null;
  return { parts, rawTokens: estimator.rawText(parts.join(NONCE_STAND_IN)) };
}
