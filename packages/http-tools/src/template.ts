import { HttpToolsError } from './errors.js';

const PLACEHOLDER = /\$\{parameters\.([A-Za-z0-9_$-]+)\}/g;
const WHOLE = /^\$\{parameters\.([A-Za-z0-9_$-]+)\}$/;

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function lookup(args: Record<string, unknown>, name: string, where: string): unknown {
  const value = args[name];
  if (value === undefined || value === null)
    throw new HttpToolsError(`missing argument "${name}" (the ${where} uses \${parameters.${name}})`);
  return value;
}

/** A call's argument that would change which resource the request names (a dot segment in the path). */
export class ArgumentRefused extends HttpToolsError {}

/** `.` and `..` (plain or percent-encoded): the URL parser resolves them, climbing the path. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

function fillPlaceholders(template: string, args: Record<string, unknown>, used: string[]): string {
  return template.replace(PLACEHOLDER, (_match, name: string) => {
    used.push(name);
    const value = lookup(args, name, 'URL');
    const parts = Array.isArray(value) ? value.map(text) : [text(value)];
    return parts.map(encodeURIComponent).join(',');
  });
}

/**
 * Fills a URL template: every argument URL-encoded (arrays joined by commas). A path segment that
 * an argument makes `.` or `..` is refused (`ArgumentRefused`): `/users/${id}/profile` with `..`
 * would be `/profile`. The query and fragment are filled as they are (dots mean nothing there).
 */
export function fillUrl(template: string, args: Record<string, unknown>): string {
  const cut = template.search(/[?#]/);
  const path = cut === -1 ? template : template.slice(0, cut);
  const filled = path.split('/').map((segment) => {
    const used: string[] = [];
    const out = fillPlaceholders(segment, args, used);
    if (used.length > 0 && DOT_SEGMENT.test(out))
      throw new ArgumentRefused(
        `the argument ${used.map((name) => `"${name}"`).join(', ')} makes the path segment ${JSON.stringify(out)}, which would move the request out of the path the tool names: "." and ".." are refused in a path parameter`,
      );
    return out;
  });
  return filled.join('/') + (cut === -1 ? '' : fillPlaceholders(template.slice(cut), args, []));
}

/** Fills a header template; undefined when it names an argument that is not set (not sent). */
export function fillHeader(template: string, args: Record<string, unknown>): string | undefined {
  let unset = false;
  const value = template.replace(PLACEHOLDER, (_match, name: string) => {
    const found = args[name];
    if (found === undefined || found === null) {
      unset = true;
      return '';
    }
    return text(found);
  });
  return unset ? undefined : value;
}

/**
 * Fills a body template: a string that is exactly `${parameters.x}` takes the value as is (an
 * unset one drops the key); other strings are interpolated; objects and arrays are walked.
 */
export function fillBody(template: unknown, args: Record<string, unknown>, depth = 0): unknown {
  if (depth > 64) throw new HttpToolsError('the body template nests deeper than 64 levels');
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template);
    if (whole !== null) return args[whole[1] as string];
    return template.replace(PLACEHOLDER, (_match, name: string) => text(lookup(args, name, 'body')));
  }
  if (Array.isArray(template)) return template.map((item) => fillBody(item, args, depth + 1));
  if (typeof template === 'object' && template !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template)) {
      const filled = fillBody(value, args, depth + 1);
      if (filled !== undefined) out[key] = filled;
    }
    return out;
  }
  return template;
}

/** The host (`host[:port]`) of a URL template, whose scheme and host must be literal. */
export function templateOrigin(template: string): URL {
  const head = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(template)?.[1];
  if (head === undefined || head.includes('${'))
    throw new HttpToolsError(
      `the URL ${JSON.stringify(template)} must start with a literal http(s)://host (no \${...} in the scheme or host)`,
    );
  const url = new URL(head);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new HttpToolsError(`the URL ${JSON.stringify(template)} must be http or https`);
  return url;
}
