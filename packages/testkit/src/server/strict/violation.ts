// The error bodies real servers send for an invalid request, as users have reported them
// (docs/testkit.md quotes each message). Every rule returns one of these.

/** A request the API would refuse: the status and JSON body it answers with. */
export interface StrictViolation {
  status: number;
  body: Record<string, unknown>;
  /** The message alone, for `RecordedRequest.rejected`. */
  message: string;
}

/** OpenAI (Chat Completions and Responses), and DeepSeek, which copies its shape. */
export function openAIRejection(
  message: string,
  param: string | null,
  code: string | null,
  type = 'invalid_request_error',
): StrictViolation {
  return { status: 400, body: { error: { message, type, param, code } }, message };
}

/** Anthropic Messages: `{ type: 'error', error: { type, message } }` (the request id is added on the way out). */
export function anthropicRejection(message: string): StrictViolation {
  return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } }, message };
}

/** Mistral's own errors: `{ object: 'error', message, type, param, code }`. */
export function mistralRejection(message: string, type: string, code: string): StrictViolation {
  return { status: 400, body: { object: 'error', message, type, param: null, code }, message };
}

/** Mistral refusing a field it does not know (a pydantic `extra_forbidden`), HTTP 422. */
export function mistralExtraForbidden(field: string, input: unknown): StrictViolation {
  const detail = [
    { type: 'extra_forbidden', loc: ['body', field], msg: 'Extra inputs are not permitted', input },
  ];
  return {
    status: 422,
    body: { object: 'error', message: { detail }, type: 'invalid_request_error', param: null, code: null },
    message: `${field}: Extra inputs are not permitted`,
  };
}

/** OpenRouter passing on an upstream 400: its own message, the upstream one in `metadata.raw`. */
export function openRouterRejection(raw: string, providerName: string): StrictViolation {
  return {
    status: 400,
    body: {
      error: {
        message: 'Provider returned error',
        code: 400,
        metadata: { raw, provider_name: providerName },
      },
    },
    message: raw,
  };
}
