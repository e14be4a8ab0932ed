import { heuristicTokens } from '@agent/protocol/util';
import { currentPeerRequire } from './peers.js';

type CountTokens = (text: string) => number;

/** Texts above this size are counted by the heuristic even for OpenAI models: exact counts cost too much CPU. */
const EXACT_COUNT_MAX_CHARS = 262_144;

/** Model names of the OpenAI family, which the o200k_base encoding counts exactly. */
const OPENAI_MODEL = /^(gpt-|o\d|chatgpt|text-)/i;

const O200K_MODULE = 'gpt-tokenizer/cjs/encoding/o200k_base';

let o200k: CountTokens | undefined;
/** Per peer resolver (tests swap it): whether it finds the tokenizer. */
const installed = new WeakMap<NodeJS.Require, boolean>();

/**
 * Whether `gpt-tokenizer` (an optional peer: 52 MB installed) is there. Without it OpenAI models
 * get no exact counter and callers fall back to their heuristic.
 */
function tokenizerInstalled(): boolean {
  const require = currentPeerRequire();
  let found = installed.get(require);
  if (found === undefined) {
    try {
      require.resolve(O200K_MODULE);
      found = true;
    } catch {
      found = false;
    }
    installed.set(require, found);
  }
  return found;
}

/**
 * Special-token strings (`<|endoftext|>`) in a text are counted as the plain text they are: the
 * API reads them so in a message, and gpt-tokenizer would otherwise throw on them (hostile tool
 * output or prompts must not break the count).
 */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Loaded on first use: the BPE tables cost ~200 ms and several MB, paid only by processes that count. */
function loadO200k(): CountTokens {
  if (o200k === undefined) {
    const module = currentPeerRequire()(O200K_MODULE) as {
      countTokens: (text: string, options: typeof AS_PLAIN_TEXT) => number;
    };
    o200k = (text) => module.countTokens(text, AS_PLAIN_TEXT);
  }
  return o200k;
}

/**
 * Tokens of a text as OpenAI models count them (o200k_base). One function for every client, so
 * callers that cache counts per counting function share them across clients and sessions.
 */
export function countOpenAiTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > EXACT_COUNT_MAX_CHARS) return heuristicTokens(text);
  return loadO200k()(text);
}

/**
 * An upper bound on `countOpenAiTokens(text)` that loads nothing: its UTF-8 bytes. o200k_base is
 * a byte-level BPE, so every token covers at least one byte of the text; the heuristic used above
 * `EXACT_COUNT_MAX_CHARS` counts a token per 4 characters, also below the bytes.
 */
export function openAiTokensBound(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The exact counter for a model, if the providers have one: `tokenizer: 'openai'` asks for the
 * OpenAI tokenizer, any other value for none; without it the model name decides. None either when
 * `gpt-tokenizer` is not installed.
 */
export function tokenCounterFor(model: string, tokenizer: string | undefined): CountTokens | undefined {
  const openAi = tokenizer === undefined ? OPENAI_MODEL.test(model) : tokenizer === 'openai';
  return openAi && tokenizerInstalled() ? countOpenAiTokens : undefined;
}
