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
      /**
       * The text the tool returned when it succeeded, for faces that show a call's result (the
       * UI stream's tool part). Cut at `TOOL_FINISHED_OUTPUT_MAX_CHARS` characters (an ellipsis
       * ends a cut one); what the model got may differ (an oversized result becomes a handle).
       */
      output?: string;
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

/** Longest tool result text a `tool_finished` event carries: events stay small. */
export const TOOL_FINISHED_OUTPUT_MAX_CHARS = 16_384;
