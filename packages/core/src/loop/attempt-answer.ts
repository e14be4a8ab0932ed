import type {
  ExpectedOutput,
  ModelStreamEvent,
  ReasoningPart,
  StopReason,
  TokenUsage,
  ToolCall,
} from '@agent/protocol';
import { TextAccumulator } from '@agent/xml-transport';
import type { StreamGuard } from '../guardrails/stream-guard.js';
import type { SessionRecorder } from '../observe/recorder.js';
import { type SlotOutcome, SlotReader } from './slot-reader.js';

/**
 * What one streamed answer collects, event by event: the text through the FINAL-slot reader (a
 * text-format report's content goes out as `output` events while it arrives, the rest as
 * `assistant_text`), reasoning (as
 * `thinking` events), tool calls, usage and how the answer stopped.
 */
export class AttemptAnswer {
  readonly reader: SlotReader;
  readonly reasoning: ReasoningPart[] = [];
  readonly toolCalls: ToolCall[] = [];
  usage: TokenUsage | undefined;
  stopReason: StopReason | undefined;
  rawStopReason: string | undefined;
  actualProvider: string | undefined;
  actualModel: string | undefined;
  // Reasoning may stream in millions of small deltas: accumulated, not concatenated (`+=` builds
  // a rope of one node per delta before it is flattened). Made with the first reasoning delta:
  // most answers have none.
  private reasoningText: TextAccumulator | undefined;

  constructor(
    nonce: string,
    private readonly recorder: SessionRecorder,
    expected: ExpectedOutput,
    /** Says a provider's notice in the attempt's log. */
    private readonly notices: { logNotice(message: string): void },
    /** The text may become the report (a final turn): outside text is held, not streamed. */
    holdOutside: boolean,
    /** Set when the session has stream guardrails. */
    readonly guard?: StreamGuard,
  ) {
    this.reader = new SlotReader(nonce, recorder, expected, holdOutside, guard);
  }

  /** Takes one stream event (an arrow property: the drain calls it for every event). */
  readonly take = (event: ModelStreamEvent): void => {
    switch (event.type) {
      case 'text-delta':
        this.reader.push(event.text);
        break;
      case 'reasoning-delta':
        if (event.text.length > 0) {
          this.reasoningText ??= new TextAccumulator();
          this.reasoningText.add(event.text);
          this.recorder.emit({ type: 'thinking', text: event.text }, 'stream');
        }
        if (
          event.signature !== undefined ||
          event.redactedData !== undefined ||
          event.providerData !== undefined
        ) {
          this.reasoning.push(closeReasoning(this.reasoningText?.toString() ?? '', event));
          this.reasoningText = undefined;
        }
        break;
      case 'tool-call':
        this.toolCalls.push(
          this.toolCalls.length === 0 ? event.call : distinctId(this.toolCalls, event.call),
        );
        break;
      case 'usage':
        this.usage = event.usage;
        break;
      case 'notice':
        this.notices.logNotice(event.message);
        break;
      case 'finish':
        this.stopReason = event.stopReason;
        this.rawStopReason = event.rawStopReason;
        this.actualProvider = event.actualProvider;
        this.actualModel = event.actualModel;
        break;
    }
  };

  /** Ends the answer: the slot's outcome and all the thinking, reasoning parts then `<think>` text. */
  end(): { slot: SlotOutcome; thinking: string } {
    const reasoningText = this.reasoningText;
    if (reasoningText !== undefined && reasoningText.length > 0)
      this.reasoning.push({ text: reasoningText.toString() });
    const slot = this.reader.end();
    const { reasoning } = this;
    const thinking =
      reasoning.length === 0
        ? slot.thinkText
        : reasoning.length === 1 && slot.thinkText.length === 0
          ? reasoning[0]!.text
          : reasoning.map((part) => part.text).join('') + slot.thinkText;
    return { slot, thinking };
  }
}

function closeReasoning(
  text: string,
  event: { signature?: string; redactedData?: string; providerData?: Record<string, unknown> },
): ReasoningPart {
  const part: ReasoningPart = { text };
  if (event.signature !== undefined) part.signature = event.signature;
  if (event.redactedData !== undefined) part.redactedData = event.redactedData;
  if (event.providerData !== undefined) part.providerData = event.providerData;
  return part;
}

/**
 * The call, renamed `<id>-2`, `<id>-3`, ... when an earlier call of the same answer has its id (a
 * server that numbers calls per answer and repeats one): each call's result, journal entry and
 * idempotency key must name that call alone.
 */
function distinctId(earlier: readonly ToolCall[], call: ToolCall): ToolCall {
  const taken = (id: string) => earlier.some((other) => other.id === id);
  if (!taken(call.id)) return call;
  let n = 2;
  while (taken(`${call.id}-${n}`)) n++;
  return { ...call, id: `${call.id}-${n}` };
}
