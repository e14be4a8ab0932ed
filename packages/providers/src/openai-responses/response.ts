import type { ModelStreamEvent } from '@agent/protocol';
import { StreamFailure } from '../errors.js';
import { type ResponsesResponse, ResponsesStreamMapper } from './stream.js';

/**
 * A whole response yields the same events as a stream: each output item is read as its
 * `output_item.done` event, then the response as `response.completed` (or its failure).
 */
export function mapResponsesResponse(
  response: ResponsesResponse,
  configuredModel: string,
  declaredTools: ReadonlySet<string>,
  out: ModelStreamEvent[],
): void {
  if (response.status === 'failed') {
    throw new StreamFailure({
      code: response.error?.code ?? 'response_failed',
      message: response.error?.message ?? 'the response failed',
    });
  }
  const mapper = new ResponsesStreamMapper(configuredModel, declaredTools, false);
  for (const item of response.output ?? []) mapper.handle({ type: 'response.output_item.done', item }, out);
  mapper.handle({ type: 'response.completed', response }, out);
  mapper.finish(out);
}
