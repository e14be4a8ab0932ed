import type { FinalReport, FinalReportOrigin } from '@agent/protocol';
import type { Wrapper } from './layer1-wrapper.js';

/**
 * Layer 3: the clean `FinalReport`, with its `origin`. Status, format and metadata come only from the
 * wrapper; content and content_json only from Layer 2, so a payload field named
 * `status` stays inside `content_json` and never becomes the report status.
 */
export function buildReport(
  wrapper: Wrapper,
  content: { content?: string; contentJson?: Record<string, unknown> },
  ts: number,
  origin: FinalReportOrigin,
): FinalReport {
  const report: FinalReport = { status: wrapper.status, format: wrapper.format, ts, origin };
  if (content.content !== undefined) report.content = content.content;
  if (content.contentJson !== undefined) report.content_json = content.contentJson;
  if (wrapper.metadata !== undefined) report.metadata = wrapper.metadata;
  return report;
}
