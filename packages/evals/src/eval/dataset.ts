import { dirname, extname, resolve } from 'node:path';
import { isOutputFormat, OUTPUT_FORMATS } from '@agent/protocol';
import { errorMessage, isPositiveInteger, isRecord } from '@agent/protocol/util';
import { parseDocument } from 'yaml';
import type { Budgets, EvalCase, EvalCaseSettings } from '../types.js';
import { readBoundedFile } from './bounded-read.js';
import { EvalInputError } from './errors.js';
import { BUDGET_KEYS, readBudgets } from './scorers/budget.js';
import { SpecProblem } from './scorers/spec-fields.js';

/** Largest dataset file read, and most cases in one. */
export const MAX_DATASET_BYTES = 16 * 1024 * 1024;
export const MAX_DATASET_CASES = 10_000;
/** YAML alias expansions allowed (a billion-laughs file stops here). */
const MAX_YAML_ALIASES = 100;

export const CASE_ID = /^[A-Za-z0-9._-]{1,100}$/;
const CASE_KEYS = ['id', 'input', 'expected', 'settings'];
const SETTINGS_KEYS = ['format', 'schema', 'maxTurns', 'budgets', 'scorers'];
const DATASET_KEYS = ['scorers', 'budgets', 'cases'];

/** A scorer spec as written, with its place for errors (`evals.yaml: scorers[1]`). */
export interface PlacedSpec {
  spec: unknown;
  where: string;
}

/** A case with its place (`cases.jsonl:4`) and its own scorer specs placed. */
export interface DatasetCase extends EvalCase {
  where: string;
  placedScorers: PlacedSpec[];
}

export interface Dataset {
  /** The file as given, or `inline`. */
  source: string;
  /** Where relative paths of the dataset (a judge agent) are taken from. */
  baseDir: string;
  cases: DatasetCase[];
  scorers: PlacedSpec[];
  budgets?: Budgets;
}

/**
 * Reads a dataset: `.jsonl` (one case per line: `{id?, input, expected?, settings?}`) or `.yaml`
 * / `.yml` (`{scorers?, budgets?, cases: [...]}`), checking every case before any runs.
 */
export async function loadDataset(path: string): Promise<Dataset> {
  const extension = extname(path).toLowerCase();
  if (!['.jsonl', '.yaml', '.yml'].includes(extension))
    throw new EvalInputError(`dataset ${path}: the file must end in .jsonl, .yaml or .yml`);
  const text = readBoundedFile(path, MAX_DATASET_BYTES, 'dataset');
  const baseDir = dirname(resolve(path));
  if (extension === '.jsonl') return { source: path, baseDir, cases: jsonlCases(path, text), scorers: [] };
  return yamlDataset(path, text, baseDir);
}

/** Cases given in code (`evaluate({ cases: [...] })`), checked like a file's. */
export function inlineDataset(cases: readonly unknown[], baseDir: string): Dataset {
  if (!Array.isArray(cases)) throw new EvalInputError('cases must be a list of cases or a dataset file path');
  return {
    source: 'inline',
    baseDir,
    cases: checkedCases(cases.map((raw, index) => ({ raw, where: `cases[${index}]`, n: index + 1 }))),
    scorers: [],
  };
}

function jsonlCases(file: string, text: string): DatasetCase[] {
  const entries: { raw: unknown; where: string; n: number }[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const where = `${file}:${index + 1}`;
    try {
      entries.push({ raw: JSON.parse(line), where, n: index + 1 });
    } catch (error) {
      throw new EvalInputError(
        `${where}: not JSON (${errorMessage(error)}); each line is one case, a JSON object`,
      );
    }
    if (entries.length > MAX_DATASET_CASES) throw tooMany(file);
  }
  return checkedCases(entries);
}

function yamlDataset(file: string, text: string, baseDir: string): Dataset {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0)
    throw new EvalInputError(`${file}: not valid YAML: ${document.errors[0]!.message}`);
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    throw new EvalInputError(`${file}: ${errorMessage(error)}`);
  }
  const shape = `a mapping with ${DATASET_KEYS.join(', ')} (cases: a list of {id?, input, expected?, settings?})`;
  if (!isRecord(data) || !Array.isArray(data.cases))
    throw new EvalInputError(`${file}: a YAML dataset is ${shape}`);
  const unknown = Object.keys(data).find((key) => !DATASET_KEYS.includes(key));
  if (unknown !== undefined)
    throw new EvalInputError(`${file}: unknown key "${unknown}"; a YAML dataset is ${shape}`);
  if (data.cases.length > MAX_DATASET_CASES) throw tooMany(file);
  if (data.scorers !== undefined && !Array.isArray(data.scorers))
    throw new EvalInputError(`${file}: scorers must be a list of scorer specs`);
  const scorers = ((data.scorers as unknown[] | undefined) ?? []).map((spec, index) => ({
    spec,
    where: `${file}: scorers[${index}]`,
  }));
  const budgets = data.budgets === undefined ? undefined : checkedBudgets(data.budgets, `${file}: budgets`);
  const cases = checkedCases(
    data.cases.map((raw, index) => ({ raw, where: `${file}: cases[${index}]`, n: index + 1 })),
  );
  return { source: file, baseDir, cases, scorers, ...(budgets === undefined ? {} : { budgets }) };
}

function tooMany(file: string): EvalInputError {
  return new EvalInputError(`${file}: more than ${MAX_DATASET_CASES} cases; split the dataset`);
}

/** Every case checked, ids defaulted to `case-<n>` (line or position) and refused when repeated. */
function checkedCases(entries: readonly { raw: unknown; where: string; n: number }[]): DatasetCase[] {
  const seen = new Map<string, string>();
  return entries.map(({ raw, where, n }) => {
    const evalCase = checkedCase(raw, where, n);
    const earlier = seen.get(evalCase.id);
    if (earlier !== undefined)
      throw new EvalInputError(
        `${where}: the id "${evalCase.id}" is taken by ${earlier}; ids must be unique`,
      );
    seen.set(evalCase.id, where);
    return evalCase;
  });
}

function checkedCase(raw: unknown, where: string, n: number): DatasetCase {
  if (!isRecord(raw))
    throw new EvalInputError(`${where}: a case is an object {id?, input, expected?, settings?}`);
  const unknown = Object.keys(raw).find((key) => !CASE_KEYS.includes(key));
  if (unknown !== undefined)
    throw new EvalInputError(`${where}: unknown key "${unknown}"; a case has ${CASE_KEYS.join(', ')}`);
  const id = raw.id ?? `case-${n}`;
  if (typeof id !== 'string' || !CASE_ID.test(id))
    throw new EvalInputError(
      `${where}: id ${JSON.stringify(id)} must be 1-100 letters, digits, ".", "_" or "-"`,
    );
  const { input } = raw;
  if (!(typeof input === 'string' && input.trim() !== '') && !isRecord(input))
    throw new EvalInputError(
      `${where}: input must be a non-empty prompt or a JSON object (for input.format: json)`,
    );
  const placedWhere = `${where} (${id})`;
  const settings = raw.settings === undefined ? undefined : checkedSettings(raw.settings, placedWhere);
  const placedScorers = ((settings?.scorers as unknown[] | undefined) ?? []).map((spec, index) => ({
    spec,
    where: `${placedWhere}: settings.scorers[${index}]`,
  }));
  return {
    id,
    input: input as EvalCase['input'],
    ...(raw.expected === undefined ? {} : { expected: raw.expected }),
    ...(settings === undefined ? {} : { settings }),
    where: placedWhere,
    placedScorers,
  };
}

function checkedSettings(raw: unknown, where: string): EvalCaseSettings {
  const at = `${where}: settings`;
  if (!isRecord(raw)) throw new EvalInputError(`${at} must be an object with ${SETTINGS_KEYS.join(', ')}`);
  const unknown = Object.keys(raw).find((key) => !SETTINGS_KEYS.includes(key));
  if (unknown !== undefined)
    throw new EvalInputError(`${at}: unknown key "${unknown}"; allowed: ${SETTINGS_KEYS.join(', ')}`);
  if (raw.format !== undefined && !isOutputFormat(raw.format))
    throw new EvalInputError(
      `${at}.format ${JSON.stringify(raw.format)}: one of ${OUTPUT_FORMATS.join(', ')}`,
    );
  if (raw.schema !== undefined && !isRecord(raw.schema))
    throw new EvalInputError(`${at}.schema must be a JSON Schema object`);
  if (raw.maxTurns !== undefined && !isPositiveInteger(raw.maxTurns))
    throw new EvalInputError(`${at}.maxTurns must be a positive integer`);
  if (raw.scorers !== undefined && !Array.isArray(raw.scorers))
    throw new EvalInputError(`${at}.scorers must be a list of scorer specs`);
  const budgets = raw.budgets === undefined ? undefined : checkedBudgets(raw.budgets, `${at}.budgets`);
  return { ...(raw as EvalCaseSettings), ...(budgets === undefined ? {} : { budgets }) };
}

/** A budgets object (`costUsd`, `tokens`, `turns`, `latencyMs`, each at least 0). */
export function checkedBudgets(raw: unknown, where: string): Budgets {
  if (!isRecord(raw)) throw new EvalInputError(`${where} must be an object with ${BUDGET_KEYS.join(', ')}`);
  const unknown = Object.keys(raw).find((key) => !(BUDGET_KEYS as readonly string[]).includes(key));
  if (unknown !== undefined)
    throw new EvalInputError(`${where}: unknown key "${unknown}"; allowed: ${BUDGET_KEYS.join(', ')}`);
  try {
    return readBudgets(raw);
  } catch (error) {
    if (error instanceof SpecProblem) throw new EvalInputError(`${where}: ${error.message}`);
    throw error;
  }
}
