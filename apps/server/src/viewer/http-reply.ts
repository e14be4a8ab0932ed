import type { ServerResponse } from 'node:http';

/** What a route returns once it has answered (so each branch can end with `return send(...)`). */
export type Replied = true;

export function send(response: ServerResponse, status: number, type: string, body: string): Replied {
  response.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
  response.end(body);
  return true;
}

export function json(response: ServerResponse, status: number, body: unknown): Replied {
  return send(response, status, 'application/json', JSON.stringify(body));
}
