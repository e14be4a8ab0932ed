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
      type: 'tool_started';
      agentPath: string;
      tool: string;
      callId: string;
      message?: string;
      /** The call's parsed arguments (`{}` when they could not be parsed), for faces that show them. */
      arguments?: Record<string, unknown>;
    }
  | {
      type: 'tool_finished';
      agentPath: string;
      tool: string;
      callId: string;
      message?: string;
      /**
       * The structured content the tool answered beside its text (`ToolResult.structured`): a
       * sub-agent's JSON report (seed 004's `structured_output`), a `tool()`'s object result.
       */
      structuredOutput?: unknown;
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
