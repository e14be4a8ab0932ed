// The seam where a tool result is sized before it joins the conversation. The shapes are
// declared once, by `@agent/tool-output` (which implements them); a custom runtime may bring
// its own hook of the same shape.
export type {
  SizingDecision,
  SizingRequest,
  ToolOutputHook,
  ToolOutputHookContext,
  ToolOutputHookFactory,
} from '@agent/tool-output';
