import type { ModelClient } from '@agent/protocol';
import { createModelClient } from '@agent/providers';
import type { ModelServer } from '@agent/testkit';

/** An OpenAI Chat Completions client of the scripted model server (`gpt-4.1-mini`, a test key). */
export function openaiModelOn(server: ModelServer): ModelClient {
  return createModelClient({
    type: 'openai',
    provider: 'openai',
    model: 'gpt-4.1-mini',
    apiKey: 'sk-test-secret-key',
    baseURL: `${server.url}/v1`,
  });
}
