/**
 * Below this length a list held for the whole session grows by exact copies; from it on, by
 * `push` (half again plus 16 slots), whose copies would cost more than the room they save.
 */
const EXACT_BELOW = 16;

/**
 * `list` with `item` appended: a new array of exactly the new length while the list is short
 * (a push onto a short array reserves room for 17 or more, most of it never used by a session
 * that logs a few lines), the same array pushed onto once it is long. Keep what it returns.
 */
export function appendHeld<T>(list: T[], item: T): T[] {
  if (list.length >= EXACT_BELOW) {
    list.push(item);
    return list;
  }
  return list.concat([item]);
}
