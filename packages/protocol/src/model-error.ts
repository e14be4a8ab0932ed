import { AgentError } from './agent-error.js';

/** The `code` of every `ModelError` (its `kind` says more). */
export const MODEL_ERROR_CODE = 'model_call_failed';

/** Why a model call failed, as the session needs to know it to decide what to do next. */
export type ModelErrorKind =
  | 'auth'
  | 'quota'
  | 'rate_limit'
  | 'timeout'
  | 'network'
  | 'server'
  | 'bad_request'
  | 'context_length'
  | 'model_not_found'
  | 'content_filter'
  | 'invalid_response'
  | 'aborted';

export const MODEL_ERROR_KINDS: readonly ModelErrorKind[] = [
  'auth',
  'quota',
  'rate_limit',
  'timeout',
  'network',
  'server',
  'bad_request',
  'context_length',
  'model_not_found',
  'content_filter',
  'invalid_response',
  'aborted',
];

const retryableByDefault: Record<ModelErrorKind, boolean> = {
  auth: false,
  quota: false,
  rate_limit: true,
  timeout: true,
  network: true,
  server: true,
  bad_request: false,
  context_length: false,
  model_not_found: false,
  content_filter: false,
  invalid_response: true,
  aborted: false,
};

export interface ModelErrorInit {
  kind: ModelErrorKind;
  message: string;
  retryable?: boolean;
  /** How long the provider asked us to wait before the next call. */
  retryAfterMs?: number;
  /** HTTP status, when there was a response. */
  status?: number;
  /** The provider's own error message (already free of secrets). */
  providerMessage?: string;
  provider?: string;
  model?: string;
  cause?: unknown;
}

/** The one error type every `ModelClient` throws. */
export class ModelError extends AgentError {
  override readonly name: string = 'ModelError';
  readonly kind: ModelErrorKind;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly status?: number;
  readonly providerMessage?: string;
  readonly provider?: string;
  readonly model?: string;

  constructor(init: ModelErrorInit) {
    super(MODEL_ERROR_CODE, init.message, { cause: init.cause });
    this.kind = init.kind;
    this.retryable = init.retryable ?? retryableByDefault[init.kind];
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.status !== undefined) this.status = init.status;
    if (init.providerMessage !== undefined) this.providerMessage = init.providerMessage;
    if (init.provider !== undefined) this.provider = init.provider;
    if (init.model !== undefined) this.model = init.model;
  }
}

/** True for a ModelError, also one created by another copy of this package. */
export function isModelError(value: unknown): value is ModelError {
  return (
    value instanceof ModelError ||
    (AgentError.is(value, MODEL_ERROR_CODE) &&
      MODEL_ERROR_KINDS.includes((value as { kind?: ModelErrorKind }).kind as ModelErrorKind))
  );
}

/** Whether a kind is retried when the error does not say otherwise. */
export function isRetryableKind(kind: ModelErrorKind): boolean {
  return retryableByDefault[kind];
}
