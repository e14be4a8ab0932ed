import { createRequire } from 'node:module';
import { ConfigError } from '@agent/protocol';
import type * as AnthropicSdk from '@anthropic-ai/sdk';
import type * as OpenAISdk from 'openai';

// The optional peer dependencies (`openai`, `@anthropic-ai/sdk`, `gpt-tokenizer`): each is loaded
// by the first client that needs it, so a run on OpenAI never loads Anthropic's SDK and an install
// carries only the SDKs its user picked. Loaded as CommonJS (both SDKs ship it): a client is built
// synchronously, and its SDK's error classes are the ones `sdk-errors.ts` classifies.

/** The provider SDKs, by package name. */
export interface SdkModules {
  openai: typeof OpenAISdk;
  '@anthropic-ai/sdk': typeof AnthropicSdk;
}
export type SdkPackage = keyof SdkModules;

let peerRequire: NodeJS.Require = createRequire(import.meta.url);
const loaded: Partial<SdkModules> = {};

/** How peers are resolved and loaded (from this package's place in node_modules). */
export function currentPeerRequire(): NodeJS.Require {
  return peerRequire;
}

/** Resolves and loads peers with `next` (tests: a `createRequire` of a project without them); forgets loaded SDKs. */
export function setPeerRequire(next: NodeJS.Require): NodeJS.Require {
  const previous = peerRequire;
  peerRequire = next;
  for (const name of Object.keys(loaded) as SdkPackage[]) delete loaded[name];
  return previous;
}

/** Whether a module-not-found error is about this very package (not one of its own imports). */
export function isMissingPackage(err: unknown, name: string): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 'MODULE_NOT_FOUND' && err instanceof Error && err.message.includes(`'${name}`);
}

/** The SDK module, loaded on first use; missing, a configuration error naming the package to install. */
export function loadSdk<Name extends SdkPackage>(name: Name, provider: string): SdkModules[Name] {
  const cached = loaded[name];
  if (cached !== undefined) return cached;
  try {
    const module = peerRequire(name) as SdkModules[Name];
    loaded[name] = module;
    return module;
  } catch (err) {
    if (!isMissingPackage(err, name)) throw err;
    throw new ConfigError({
      source: provider,
      field: 'type',
      value: name,
      allowed: 'a provider type whose SDK is installed',
      message: `the ${name} package is not installed: @agent/providers has it as an optional peer dependency, install it beside @agent/providers (npm install ${name})`,
      cause: err,
    });
  }
}

/** The SDKs loaded so far (an SDK error can only come from a loaded one). */
export function loadedSdks(): Readonly<Partial<SdkModules>> {
  return loaded;
}
