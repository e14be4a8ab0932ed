import { FsToolError } from './fs-errors.js';

export type ToolArguments = Record<string, unknown>;

export function optionalString(args: ToolArguments, key: string): string | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new FsToolError(`"${key}" must be a string, got ${typeof value}.`);
  return value;
}

export function requiredString(args: ToolArguments, key: string): string {
  const value = optionalString(args, key);
  if (value === undefined || value === '')
    throw new FsToolError(`"${key}" is required (a non-empty string).`);
  return value;
}

export function integerArg(
  args: ToolArguments,
  key: string,
  options: { min: number; max: number; fallback: number },
): number {
  const value = args[key];
  if (value === undefined || value === null) return options.fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new FsToolError(
      `"${key}" must be an integer between ${options.min} and ${options.max}, got ${JSON.stringify(value)}.`,
    );
  }
  if (value < options.min || value > options.max) {
    throw new FsToolError(`"${key}" must be between ${options.min} and ${options.max}, got ${value}.`);
  }
  return value;
}

export function booleanArg(args: ToolArguments, key: string, fallback: boolean): boolean {
  const value = args[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean')
    throw new FsToolError(`"${key}" must be true or false, got ${JSON.stringify(value)}.`);
  return value;
}
