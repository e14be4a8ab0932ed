import type {
  JsonSchemaAction,
  LengthUnit,
  PiiAction,
  PiiKind,
  RegexAction,
  WordsAction,
} from '@agent/guardrails';
import type { GuardrailPhase, GuardrailStage, JsonSchema } from '@agent/protocol';
import type { FileRef } from '../agent-file/file-ref.js';

/** What every configured guardrail has, whatever its kind (the `Guardrail` fields but `check`). */
export interface GuardrailCommon {
  name: string;
  on: GuardrailStage;
  tools?: string[];
  phases?: GuardrailPhase[];
  parallel?: boolean;
  timeoutMs?: number;
  failOpen?: boolean;
}

/** One `guardrails:` entry, checked: its kind's options and the line it starts at. */
export type GuardrailConfig = GuardrailCommon & { line?: number } & (
    | { kind: 'regex'; pattern: string; flags?: string; action?: RegexAction }
    | {
        kind: 'words';
        blocked?: string[];
        required?: string[];
        caseSensitive?: boolean;
        action?: WordsAction;
      }
    | { kind: 'pii'; detect?: PiiKind[]; action?: PiiAction }
    | { kind: 'max_length'; max: number; unit?: LengthUnit }
    | { kind: 'json_schema'; schema: JsonSchema; action?: JsonSchemaAction }
    | { kind: 'model'; agent: FileRef }
  );
