// What the providers document about their models, read independently of @agent/providers
// (the testkit plays the API; it must not share the client's tables, or a wrong table would
// pass its own test).

/** The model name without a router's vendor prefix, lower-cased. */
export function modelName(model: unknown): string {
  const text = typeof model === 'string' ? model : '';
  return (text.split('/').pop() ?? text).toLowerCase();
}

/** OpenAI reasoning models: the o-series and the gpt-5 family (not its `-chat` models). */
export function isReasoningModel(model: string): boolean {
  return /^(o\d(?:[-.]|$)|gpt-5(?:\.\d+)?(?:-(?!chat)[\w.-]*)?$|codex-mini)/.test(model);
}

/** Reasoning efforts an OpenAI model accepts, from OpenAI's model pages; undefined when unknown. */
export function acceptedEfforts(model: string): string[] | undefined {
  if (/^gpt-5-pro/.test(model)) return ['high'];
  if (/^gpt-5\.1-codex-max/.test(model)) return ['low', 'medium', 'high', 'xhigh'];
  if (/^gpt-5\.1/.test(model)) return ['none', 'low', 'medium', 'high'];
  if (/^gpt-5\.\d/.test(model)) return ['none', 'low', 'medium', 'high', 'xhigh'];
  if (/^gpt-5/.test(model)) return ['minimal', 'low', 'medium', 'high'];
  if (/^(o\d|codex-mini)/.test(model)) return ['low', 'medium', 'high'];
  return undefined;
}

/**
 * Whether sampling parameters are allowed: always for other models; for reasoning models only
 * at effort `none` (gpt-5.1 and later, where `none` is also the default).
 */
export function samplingAllowed(model: string, effort: unknown): boolean {
  if (!isReasoningModel(model)) return true;
  const efforts = acceptedEfforts(model);
  if (efforts?.[0] !== 'none') return false;
  return effort === undefined || effort === 'none';
}

/** "Supported values are: 'none', 'low', 'medium', and 'high'." as OpenAI words it. */
export function listValues(values: readonly string[]): string {
  const quoted = values.map((value) => `'${value}'`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}

/** Anthropic output limits (max_tokens), longest prefix first. */
const ANTHROPIC_LIMITS: readonly [string, number][] = [
  ['claude-opus-4-5', 64_000],
  ['claude-opus-4-1', 32_000],
  ['claude-opus-4', 32_000],
  ['claude-sonnet-4-5', 64_000],
  ['claude-sonnet-4', 64_000],
  ['claude-haiku-4-5', 64_000],
  ['claude-3-7-sonnet', 64_000],
  ['claude-3-5-sonnet', 8_192],
  ['claude-3-5-haiku', 8_192],
  ['claude-3-haiku', 4_096],
];

export function anthropicOutputLimit(model: string): number | undefined {
  return ANTHROPIC_LIMITS.find(([prefix]) => model.startsWith(prefix))?.[1];
}
