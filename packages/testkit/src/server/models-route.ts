/** `GET /v1/models`: the OpenAI list shape, or Anthropic's when the client sent `anthropic-version`. */
export function modelsList(ids: readonly string[], anthropic: boolean): Record<string, unknown> {
  if (anthropic) {
    const data = ids.map((id) => ({
      type: 'model',
      id,
      display_name: id,
      created_at: '2025-01-01T00:00:00Z',
    }));
    return { data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
  }
  return {
    object: 'list',
    data: ids.map((id) => ({ id, object: 'model', created: 1735689600, owned_by: 'agent-testkit' })),
  };
}
