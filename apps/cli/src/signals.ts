export type InterruptSignal = 'SIGINT' | 'SIGTERM';

export interface InterruptHandlers {
  /** First Ctrl-C: ask the run to finish gracefully. */
  onStop: () => void;
  /** Second Ctrl-C, or SIGTERM: cancel at once. */
  onAbort: (signal: InterruptSignal) => void;
}

export interface SignalSource {
  on(signal: InterruptSignal, listener: () => void): unknown;
  off(signal: InterruptSignal, listener: () => void): unknown;
}

/**
 * Installs SIGINT/SIGTERM handling for one run: the first SIGINT calls `onStop`, the next
 * one (and any SIGTERM) `onAbort`. Returns a function that removes the handlers.
 */
export function installInterruptHandlers(
  handlers: InterruptHandlers,
  source: SignalSource = process,
): () => void {
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) handlers.onStop();
    else handlers.onAbort('SIGINT');
  };
  const onSigterm = () => handlers.onAbort('SIGTERM');
  source.on('SIGINT', onSigint);
  source.on('SIGTERM', onSigterm);
  return () => {
    source.off('SIGINT', onSigint);
    source.off('SIGTERM', onSigterm);
  };
}
