import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ReplayCache, signatureProblem } from './slack-signature.js';

/** What a slash command asks (Slack's form fields). */
export interface SlashCommand {
  command: string;
  text: string;
  channelId: string;
  channelName: string | undefined;
  userId: string | undefined;
}

/** What the route answers Slack at once: the ephemeral reply to whoever typed the command. */
export interface SlashReply {
  response_type: 'ephemeral' | 'in_channel';
  text: string;
}

/** Reads a slash command's fields; a string says what is missing. */
export function parseSlashCommand(fields: Record<string, unknown>): SlashCommand | string {
  const field = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : undefined);
  const command = field('command');
  const channelId = field('channel_id');
  if (command === undefined || channelId === undefined) return 'a slash command needs command and channel_id';
  return {
    command,
    text: field('text') ?? '',
    channelId,
    channelName: field('channel_name'),
    userId: field('user_id'),
  };
}

export interface CommandRouteOptions {
  signingSecret: string | undefined;
  windowSeconds: number;
  bodyLimitBytes: number;
  handle(command: SlashCommand): SlashReply;
}

/**
 * `POST /slack/commands`: slash commands sent over HTTP. The body is read raw and its HMAC
 * signature (signing secret, `v0:timestamp:body`) checked, with the timestamp within the
 * window, before anything in it is trusted; a request already taken within the window (a
 * replay) is refused. Without a signing secret the route refuses all.
 */
export function installCommandRoute(app: Hono, options: CommandRouteOptions): void {
  const replays = new ReplayCache(options.windowSeconds);
  app.use(
    '/slack/commands',
    bodyLimit({
      maxSize: options.bodyLimitBytes,
      onError: (c) => c.json({ error: `the body is larger than ${options.bodyLimitBytes} bytes` }, 413),
    }),
  );
  app.post('/slack/commands', async (c) => {
    if (options.signingSecret === undefined) {
      return c.json({ error: 'slash commands over HTTP need a signing secret (SLACK_SIGNING_SECRET)' }, 403);
    }
    const raw = await c.req.text();
    const signature = c.req.header('x-slack-signature');
    const timestamp = c.req.header('x-slack-request-timestamp');
    const problem =
      signatureProblem(options.signingSecret, { signature, timestamp }, raw, options.windowSeconds) ??
      replays.take(signature as string, timestamp as string);
    if (problem !== undefined) return c.json({ error: `request refused: ${problem}` }, 401);
    const command = parseSlashCommand(Object.fromEntries(new URLSearchParams(raw)));
    if (typeof command === 'string') return c.json({ error: command }, 400);
    return c.json(options.handle(command));
  });
}
