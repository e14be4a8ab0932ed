const MAX_LINES = 20;
const MAX_LINE_CHARS = 500;

/** Keeps the last lines a server wrote to stderr, and splits what arrives into lines. */
export class StderrTail {
  private readonly kept: string[] = [];
  private partial = '';

  /** Feeds text; returns the complete lines in it. */
  push(text: string): string[] {
    const pieces = (this.partial + text).split('\n');
    this.partial = (pieces.pop() ?? '').slice(-MAX_LINE_CHARS);
    const lines = pieces
      .map((line) => line.replace(/\r$/, '').slice(0, MAX_LINE_CHARS))
      .filter((line) => line !== '');
    for (const line of lines) {
      this.kept.push(line);
      if (this.kept.length > MAX_LINES) this.kept.shift();
    }
    return lines;
  }

  text(): string {
    return [...this.kept, this.partial].filter((line) => line !== '').join('\n');
  }
}
