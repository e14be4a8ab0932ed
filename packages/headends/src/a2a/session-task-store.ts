import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { AgentCatalog } from '../agent-catalog.js';
import { canSee, sessionOwner } from '../principal.js';
import { findSession } from '../sessions/find-session.js';
import { callState } from './a2a-caller.js';
import { snapshotTask } from './snapshot-task.js';

/** Messages kept in a task's history (progress updates add one each): the newest stay. */
export const MAX_TASK_HISTORY = 100;

interface Entry {
  task: Task;
  owner: string;
}

/**
 * The tasks of one agent: the newest `maxTasks` in memory, each visible to the principal that
 * started it (and operators). A task not in memory is read back from the session store (task
 * id = session id), so `GetTask` and approval follow-ups work after a restart and for tasks
 * another process ran. Another principal's task is answered as unknown.
 */
export class SessionTaskStore implements TaskStore {
  private readonly tasks = new Map<string, Entry>();
  /** Owners of tasks read back from the session store, so an operator's save keeps the starter's. */
  private readonly storedOwners = new Map<string, string>();

  constructor(
    private readonly catalog: AgentCatalog,
    private readonly agentName: string,
    private readonly maxTasks: number,
    /** True for a task this process runs: never evicted (the SDK warns on updates of a task it cannot load). */
    private readonly running: (taskId: string) => boolean,
  ) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const { principal } = callState(context);
    const owner = this.tasks.get(task.id)?.owner ?? this.storedOwners.get(task.id) ?? principal.id;
    this.storedOwners.delete(task.id);
    const kept = { ...task, history: (task.history ?? []).slice(-MAX_TASK_HISTORY) };
    // Re-inserted so the map's order is the order of last use: the oldest go first.
    this.tasks.delete(task.id);
    this.tasks.set(task.id, { task: structuredClone(kept), owner });
    if (this.tasks.size <= this.maxTasks) return;
    for (const id of this.tasks.keys()) {
      if (this.tasks.size <= this.maxTasks) break;
      if (!this.running(id)) this.tasks.delete(id);
    }
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const { principal } = callState(context);
    const entry = this.tasks.get(taskId);
    if (entry !== undefined) return canSee(principal, entry.owner) ? structuredClone(entry.task) : undefined;
    const found = await findSession(this.catalog, taskId, principal);
    if (found.kind !== 'found' || found.agent.info.name !== this.agentName) return undefined;
    const owner = sessionOwner(found.snapshot);
    if (owner !== undefined) {
      this.storedOwners.delete(taskId);
      this.storedOwners.set(taskId, owner);
      if (this.storedOwners.size > this.maxTasks)
        this.storedOwners.delete(this.storedOwners.keys().next().value as string);
    }
    return snapshotTask(found.snapshot);
  }

  /** The caller's tasks in memory, newest first (the session store is not listed). */
  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const { principal } = callState(context);
    const pageSize = params.pageSize ?? 50;
    const visible = [...this.tasks.values()]
      .filter((entry) => canSee(principal, entry.owner))
      .map((entry) => entry.task)
      .filter(
        (task) =>
          params.contextId === '' || params.contextId === undefined || task.contextId === params.contextId,
      )
      .filter((task) => !params.status || task.status?.state === params.status)
      .reverse();
    const start = params.pageToken ? Number.parseInt(params.pageToken, 10) || 0 : 0;
    const tasks = visible.slice(start, start + pageSize).map((task) => structuredClone(task));
    const next = start + pageSize < visible.length ? String(start + pageSize) : '';
    return { tasks, nextPageToken: next, pageSize, totalSize: visible.length };
  }
}
