// Session and conversation ids become parts of store keys, queries and file names: one rule.
const STORE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** What a session or conversation id may be. */
export const STORE_ID_ALLOWED =
  '1-128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit';

/** True for a string a session or conversation id can be. */
export function isStoreId(id: unknown): id is string {
  return typeof id === 'string' && STORE_ID.test(id);
}

/** Why `id` cannot name a conversation, saying what is allowed; undefined when it can. */
export function conversationIdProblem(id: unknown): string | undefined {
  if (isStoreId(id)) return undefined;
  const shown =
    typeof id === 'string' && id.length > 140 ? `${id.slice(0, 40)}... (${id.length} characters)` : id;
  return `${JSON.stringify(shown)} is not a conversation id (${STORE_ID_ALLOWED})`;
}
