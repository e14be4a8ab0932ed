import { describe, expect, it } from 'vitest';
import { slackLogger } from '../src/slack/slack-logger.js';
import { redactor, resolveSlackSecrets } from '../src/slack/slack-options.js';

describe('Slack secrets', () => {
  it('are redacted from every line the Slack SDKs log, whatever level or shape', () => {
    const secrets = resolveSlackSecrets({
      catalog: { list: () => [], get: () => undefined },
      env: {
        SLACK_BOT_TOKEN: 'xoxb-1-2-abc',
        SLACK_APP_TOKEN: 'xapp-9-8-xyz',
        SLACK_SIGNING_SECRET: 'shh-secret',
      },
    });
    const lines: string[] = [];
    const logger = slackLogger((level, message) => lines.push(`${level}: ${message}`), redactor(secrets));
    logger.error(new Error('request with Bearer xoxb-1-2-abc failed'));
    logger.warn('app token', 'xapp-9-8-xyz', 'and secret shh-secret');
    logger.debug('dropped below the level: xoxb-1-2-abc');
    expect(lines).toEqual([
      'error: request with Bearer [redacted] failed',
      'warn: app token [redacted] and secret [redacted]',
    ]);
  });
});
