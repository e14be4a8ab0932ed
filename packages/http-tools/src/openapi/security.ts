import { HttpToolsError } from '../errors.js';
import type { HttpAuth } from '../types.js';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Credentials as configured for a document: the parts the document declares may be left out. */
export type PartialAuth =
  | { type: 'bearer'; token: string }
  | { type: 'apiKey'; value: string; in?: 'header' | 'query'; name?: string }
  | { type: 'basic'; username: string; password: string }
  | { type: 'oauth2'; clientId: string; clientSecret: string; tokenUrl?: string; scopes?: readonly string[] };

function schemes(doc: Node): Node[] {
  const components = isNode(doc.components) ? doc.components : {};
  const all = isNode(components.securitySchemes) ? components.securitySchemes : {};
  return Object.values(all).filter(isNode);
}

/**
 * Completes configured credentials from the document's `securitySchemes`: an API key's `name`
 * and `in`, an OAuth 2 client credentials flow's `tokenUrl` (relative to the base URL) and scopes.
 */
export function documentAuth(
  auth: PartialAuth | undefined,
  doc: Node,
  baseUrl: string,
): HttpAuth | undefined {
  if (auth === undefined) return undefined;
  if (auth.type === 'apiKey') {
    const scheme = schemes(doc).find((s) => s.type === 'apiKey' && (s.in === 'header' || s.in === 'query'));
    const name = auth.name ?? (typeof scheme?.name === 'string' ? scheme.name : undefined);
    const where = auth.in ?? (scheme?.in as 'header' | 'query' | undefined);
    if (name === undefined || where === undefined)
      throw new HttpToolsError(
        'auth apiKey needs `name` and `in` (the document declares no apiKey scheme in a header or query)',
      );
    return { type: 'apiKey', value: auth.value, name, in: where };
  }
  if (auth.type === 'oauth2') {
    let tokenUrl = auth.tokenUrl;
    let scopes = auth.scopes;
    if (tokenUrl === undefined) {
      const flow = schemes(doc)
        .filter((s) => s.type === 'oauth2' && isNode(s.flows))
        .map((s) => (s.flows as Node).clientCredentials)
        .find(isNode);
      if (flow === undefined || typeof flow.tokenUrl !== 'string')
        throw new HttpToolsError(
          'auth oauth2 needs `tokenUrl` (the document declares no OAuth 2 client credentials flow)',
        );
      tokenUrl = new URL(flow.tokenUrl, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).href;
      scopes ??= isNode(flow.scopes) ? Object.keys(flow.scopes) : undefined;
    }
    return {
      type: 'oauth2',
      clientId: auth.clientId,
      clientSecret: auth.clientSecret,
      tokenUrl,
      ...(scopes === undefined ? {} : { scopes }),
    };
  }
  return auth;
}
