/** Writes Anthropic stream events for thinking and text blocks, opening and closing them in turn. */
export class MessageBlocks {
  private index = -1;
  private open: 'thinking' | 'text' | undefined;

  constructor(private readonly emit: (event: string, data: Record<string, unknown>) => void) {}

  /** True once any text block was written. */
  wroteText = false;

  thinking(text: string): void {
    this.ensure('thinking');
    this.emit('content_block_delta', {
      type: 'content_block_delta',
      index: this.index,
      delta: { type: 'thinking_delta', thinking: text },
    });
  }

  text(text: string): void {
    this.ensure('text');
    this.wroteText = true;
    this.emit('content_block_delta', {
      type: 'content_block_delta',
      index: this.index,
      delta: { type: 'text_delta', text },
    });
  }

  close(): void {
    if (this.open === undefined) return;
    if (this.open === 'thinking') {
      this.emit('content_block_delta', {
        type: 'content_block_delta',
        index: this.index,
        delta: { type: 'signature_delta', signature: '' },
      });
    }
    this.emit('content_block_stop', { type: 'content_block_stop', index: this.index });
    this.open = undefined;
  }

  private ensure(kind: 'thinking' | 'text'): void {
    if (this.open === kind) return;
    this.close();
    this.index += 1;
    this.open = kind;
    const block =
      kind === 'thinking' ? { type: 'thinking', thinking: '', signature: '' } : { type: 'text', text: '' };
    this.emit('content_block_start', {
      type: 'content_block_start',
      index: this.index,
      content_block: block,
    });
  }
}
