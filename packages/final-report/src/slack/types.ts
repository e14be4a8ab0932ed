/** A Block Kit text object. */
export interface SlackText {
  type: 'mrkdwn' | 'plain_text';
  text: string;
  emoji?: boolean;
  verbatim?: boolean;
}

/** A Block Kit block as this package emits it (validated by `slack/schema.ts`). */
export type SlackBlock = { type: string; [key: string]: unknown };

/** One Slack message: its blocks and an optional notification `text`. */
export interface SlackMessage {
  blocks: SlackBlock[];
  text?: string;
}

/** Where a fix happened and the list fixes are reported to. */
export interface RepairLog {
  at: string;
  repairs: string[];
}
