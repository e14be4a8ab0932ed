import { expect, test } from 'vitest';
import { snapshotKeySettings } from '../../src/index.js';
import { agentFile, isolated, tempTree } from '../helpers/temp-tree.js';

// Issue 37: an app that opens the fleet's session store itself (agent-server --queue) takes the
// snapshot keys of agent.json's `sessions`, and names the file (never the key) in messages.
const KEY = 'config-key-0123456789abcdef0123456789abcdef';
const OLD = 'config-old-0123456789abcdef0123456789abcdef';

test('the keys of the sessions section, with the file they came from; nothing when none is set', () => {
  const root = tempTree({
    'agent.json': { sessions: { snapshotKey: KEY, previousSnapshotKeys: [OLD] } },
    'a.ai': agentFile('models: [local/m]'),
  });
  const settings = snapshotKeySettings({ ...isolated(root), agentFile: 'a.ai' });
  expect(settings).toEqual({
    snapshotKey: KEY,
    previousSnapshotKeys: [OLD],
    source: 'sessions.snapshotKey of agent.json',
  });

  const without = tempTree({
    'agent.json': { sessions: { ttl: '1d' } },
    'a.ai': agentFile('models: [local/m]'),
  });
  expect(snapshotKeySettings({ ...isolated(without), agentFile: 'a.ai' })).toBeUndefined();
});
