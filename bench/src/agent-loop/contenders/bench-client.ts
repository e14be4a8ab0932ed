// The `@agent/providers` client the contenders built on it talk to the server through. Its own
// module, importing only the providers, so the providers-loop process loads no core.
import * as thisProviders from '@agent/providers';
import { MODEL } from '../script.js';

export function benchModelClient(
  baseURL: string,
  providers: Pick<typeof thisProviders, 'createModelClient'> = thisProviders,
): ReturnType<typeof thisProviders.createModelClient> {
  return providers.createModelClient({
    type: 'openai',
    provider: 'openai',
    model: MODEL,
    apiKey: 'bench-key',
    baseURL,
  });
}
