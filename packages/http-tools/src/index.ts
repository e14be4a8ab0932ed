// `@agent/http-tools`: HTTP APIs as tools: REST endpoint definitions and OpenAPI documents.
export { HttpToolsError } from './errors.js';
export { DEFAULT_IDEMPOTENCY_HEADER, isHttpHeaderName } from './idempotency-header.js';
export {
  loadOpenApiTools,
  type OpenApiFilter,
  type OpenApiTools,
  type OpenApiToolsOptions,
} from './openapi/load.js';
export { createHttpToolProvider, HttpToolProvider } from './rest-provider.js';
export {
  type CallQueues,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  HTTP_METHODS,
  type HttpApiOptions,
  type HttpAuth,
  type HttpMethod,
  RESPONSE_MODES,
  type ResponseMode,
  type RestToolDefinition,
} from './types.js';
