import type { ExpectedOutput, OutputFormat } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { extractWrapper, type Wrapper } from './layer1-wrapper.js';
import { processJsonFormat } from './layer2-json.js';
import { processSlackFormat } from './layer2-slack.js';
import { processTextFormat } from './layer2-text.js';
import { buildReport } from './layer3-report.js';
import type { FinalReportInput, FormatResult, ProcessOptions, ProcessResult } from './types.js';

/**
 * Turns what the model sent as its final report (the XML final tag or a native
 * `agent__final_report` call) into a clean `FinalReport`, in three layers:
 * 1. wrapper fields and the raw payload (`layer1-wrapper.ts`),
 * 2. format-specific parsing, repair and validation (`layer2-*.ts`),
 * 3. the report itself (`layer3-report.ts`).
 * Never throws: a report that cannot be used comes back as `{ ok: false, slug, reason, diagnostics }`.
 */
export function processFinalReport(
  input: FinalReportInput,
  expected: ExpectedOutput,
  options: ProcessOptions = {},
): ProcessResult {
  let wrapper: Wrapper | undefined;
  try {
    const extracted = extractWrapper(input, expected, { adopted: options.origin === 'adopted-text' });
    if (!extracted.ok) return { ...extracted, warnings: [] };
    wrapper = extracted;
    const result = processFormat(wrapper, expected, options);
    const ts = (options.now ?? Date.now)();
    if (!result.ok) {
      const { parsed, ...failure } = result;
      if (parsed === undefined) return { ...failure, warnings: wrapper.warnings };
      const report = buildReport(wrapper, parsed, ts, options.origin ?? 'declared');
      report.validationErrors = parsed.errors;
      return { ...failure, warnings: wrapper.warnings, parsed: report };
    }
    return {
      ok: true,
      report: buildReport(wrapper, result, ts, options.origin ?? 'declared'),
      warnings: [...wrapper.warnings, ...result.warnings],
      repairs: result.repairs,
    };
  } catch (error) {
    const message = errorMessage(error);
    return {
      ok: false,
      slug: 'final_report_internal_error',
      reason: `the final report could not be processed: ${message}`,
      diagnostics: [],
      warnings: wrapper?.warnings ?? [],
    };
  }
}

function processFormat(wrapper: Wrapper, expected: ExpectedOutput, options: ProcessOptions): FormatResult {
  const format: OutputFormat = wrapper.format;
  switch (format) {
    case 'json':
      return processJsonFormat(wrapper.payload, expected.schema, options);
    case 'slack-block-kit':
      return processSlackFormat(wrapper.payload, options);
    default:
      return processTextFormat(wrapper.payload, format, options);
  }
}
