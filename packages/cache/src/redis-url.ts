import { REDACTED } from '@agent/protocol';

/** The parts of a `redis://` / `rediss://` URL that are secret (user name and password), for redactors. */
export function redisUrlSecrets(url: string): string[] {
  const parsed = parse(url);
  if (parsed === undefined) return [];
  return [parsed.password, decode(parsed.password)].filter((part) => part.length > 0);
}

/** The URL with its password replaced by `[redacted]` (a URL that does not parse is hidden whole). */
export function redactRedisUrl(url: string): string {
  const parsed = parse(url);
  if (parsed === undefined) return REDACTED;
  if (parsed.password === '') return url;
  // Replaced in the text as written, so the rest reads as the user wrote it.
  const at = url.indexOf(`:${parsed.password}@`);
  if (at === -1) return REDACTED;
  return `${url.slice(0, at)}:${REDACTED}@${url.slice(at + parsed.password.length + 2)}`;
}

/** Every secret of `url` in `text` replaced by `[redacted]` (messages of the client may quote them). */
export function redactRedisText(text: string, url: string): string {
  let out = text.split(url).join(redactRedisUrl(url));
  for (const secret of redisUrlSecrets(url).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** True for a `redis://` or `rediss://` URL with a host. */
export function isRedisUrl(url: string): boolean {
  const parsed = parse(url);
  return parsed !== undefined && /^rediss?:$/.test(parsed.protocol) && parsed.hostname !== '';
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
