import {
  DEFAULT_HEALTH_PROBE_INTERVAL_MS,
  DEFAULT_HEALTH_PROBE_TIMEOUT_MS,
  type McpServerCommonConfig,
} from './config.js';
import type { McpConnection } from './connection.js';

/**
 * Runs a server's `healthProbe` every `healthProbeIntervalMs` once it has connected: one probe
 * at a time, on an unref'd timer (it never keeps the process alive), stopped by `stop()`.
 */
export class HealthMonitor {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;

  constructor(
    private readonly connection: McpConnection,
    private readonly config: McpServerCommonConfig,
  ) {}

  /** Starts the probes (again a no-op while they run). */
  start(): void {
    if (this.stopped || this.timer !== undefined || this.config.healthProbe === undefined) return;
    this.schedule();
  }

  /** Runs one probe now; what it found. */
  check(): Promise<'healthy' | 'restarted' | 'down'> {
    const kind = this.config.healthProbe ?? 'listTools';
    const probe = this.connection.probe(
      kind,
      this.config.healthProbeTimeoutMs ?? DEFAULT_HEALTH_PROBE_TIMEOUT_MS,
    );
    this.running = probe;
    return probe;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private schedule(): void {
    const interval = this.config.healthProbeIntervalMs ?? DEFAULT_HEALTH_PROBE_INTERVAL_MS;
    this.timer = setTimeout(() => {
      void this.check().finally(() => {
        this.timer = undefined;
        if (!this.stopped) this.schedule();
      });
    }, interval);
    this.timer.unref();
  }
}
