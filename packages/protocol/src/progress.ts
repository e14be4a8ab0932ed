/** Progress the agent or its tools report while a session runs. */
export type ProgressEvent =
  | {
      type: 'agent_update';
      agentPath: string;
      /** What the model says it is doing (from `agent__task_status`). */
      message: string;
      status?: 'in-progress' | 'completed' | 'blocked';
      done?: string;
      pending?: string;
      now?: string;
    }
  | { type: 'agent_started' | 'agent_finished'; agentPath: string; message?: string }
  | {
      type: 'tool_started' | 'tool_finished';
      agentPath: string;
      tool: string;
      callId: string;
      message?: string;
    }
  | {
      type: 'tool_progress';
      agentPath: string;
      tool: string;
      callId: string;
      progress: number;
      total?: number;
      message?: string;
    };
