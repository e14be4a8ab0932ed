// The one scripted stream both contenders serve: a testkit scripted model streaming the words of
// the answer one per delta, 25 ms apart, wrapped in the FINAL tag the core session parses.
import { finalReport, type ScriptedModel, scriptedModel } from '@agent/testkit';

const TOKENS = 20;
export const TOKEN_DELAY_MS = 25;
const WORDS = Array.from({ length: TOKENS }, (_, i) => `w${i} `);
/** The report the headend's session answers (the text its client must read). */
export const ANSWER = WORDS.join('').trim();
// The FINAL tag's text of the testkit, cut at the payload.
const [OPEN, CLOSE] = String(finalReport('\u0000').text).split('\u0000') as [string, string];
const DELTAS = [OPEN, ...WORDS, CLOSE];
/** What the model streams, verbatim (the text a pass-through proxy's client reads). */
export const RAW_TEXT = DELTAS.join('');
/** The scripted time of one stream: the gaps between its deltas. */
export const SCRIPTED_MS = (DELTAS.length - 1) * TOKEN_DELAY_MS;
export const STREAM_SHAPE = `${DELTAS.length} text deltas ${TOKEN_DELAY_MS} ms apart: ${SCRIPTED_MS} ms scripted`;

/** A fresh scripted model for one request (each request is one model call). */
export function benchModel(): ScriptedModel {
  return scriptedModel([{ text: DELTAS, tokenDelayMs: TOKEN_DELAY_MS }]);
}
