/** The calls started in one synchronous pass, and their one timer. */
export interface TimeoutGroup {
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Each call's expiry, in start order; one that already settled ignores it. */
  readonly expiries: (() => void)[];
  /** Calls of the group not done yet. */
  open: number;
}

/**
 * Tool-call timeouts, one Node timer per group of calls started together instead of one per
 * call: a Timeout object and its list insertion cost more than the rest of an in-process call.
 * The calls of a turn start in one synchronous pass (the model's calls in its order, and those
 * a batch runs), and Node dates every timer made in one pass from the same loop time, so their
 * own timers would all fire together: the group's fires then, expiring each call still open,
 * and is cleared as soon as the last call is done. A call made in a later pass starts a group
 * of its own.
 */
export class CallTimeouts {
  private group: TimeoutGroup | undefined;

  constructor(readonly timeoutMs: number) {}

  /**
   * Starts timing a call: `expire` runs when `timeoutMs` have passed, unless the call told
   * `finished` first (once: the call keeps track; an expiry after it settled must do nothing).
   */
  start(expire: () => void): TimeoutGroup {
    let group = this.group;
    if (group === undefined) {
      group = { timer: undefined, expiries: [], open: 0 };
      group.timer = setTimeout(expireGroup, this.timeoutMs, group);
      this.group = group;
      // The group takes calls until this pass ends.
      queueMicrotask(this.closeGroup);
    }
    group.expiries.push(expire);
    group.open++;
    return group;
  }

  /** A call of `group` is done: the timer goes with the last one. */
  finished(group: TimeoutGroup): void {
    group.open--;
    if (group.open > 0) return;
    clearTimeout(group.timer);
    group.timer = undefined;
    if (this.group === group) this.group = undefined;
  }

  private readonly closeGroup = (): void => {
    this.group = undefined;
  };
}

function expireGroup(group: TimeoutGroup): void {
  group.timer = undefined;
  for (const expire of group.expiries) expire();
}
