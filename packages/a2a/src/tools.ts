import type { JsonSchema, ToolDefinition } from '@agent/protocol';
import { toolNameMatcher } from '@agent/schema';
import { A2aError } from './errors.js';
import type { A2aCardSummary } from './types.js';

/** Longest tool name every supported provider accepts. */
const MAX_TOOL_NAME_LENGTH = 64;
/** A card is outside input: the most skills it may turn into tools, and the text each may bring. */
export const MAX_A2A_SKILLS = 1_000;
const MAX_TEXT_CHARS = 2_000;
/** The one tool of an agent whose card lists no skills. */
export const ASK_TOOL = 'ask';

/** A tool of the remote agent: its definition and the skill it asks for (none for `ask`). */
export interface SkillTool {
  definition: ToolDefinition;
  skillId: string | undefined;
}

/** The input of every A2A tool; `taskId`/`contextId` continue a task that asked for input. */
export const A2A_TOOL_INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    prompt: {
      type: 'string',
      description:
        'The task, with everything the remote agent needs to know: it sees nothing of your conversation.',
    },
    reason: {
      type: 'string',
      description: 'Why you are calling it, in one short line (shown as progress).',
    },
    output_schema: {
      type: 'object',
      description:
        'Optional JSON Schema for the answer. When given, the remote agent is asked for JSON that matches it, and you receive that JSON (or what was wrong with it).',
    },
    taskId: {
      type: 'string',
      description:
        'To answer a remote task that asked for input: its taskId from the earlier result (with its contextId).',
    },
    contextId: {
      type: 'string',
      description: 'The contextId from the earlier result, with taskId; or to keep a conversation going.',
    },
  },
  required: ['prompt'],
  additionalProperties: false,
};

/** The tools of one agent: one per skill its globs allow, or `<name>__ask` for a card without skills. */
export function skillTools(name: string, card: A2aCardSummary, skillGlobs?: readonly string[]): SkillTool[] {
  const about = [card.name, card.description]
    .filter((s) => s !== '')
    .join(': ')
    .slice(0, MAX_TEXT_CHARS);
  if (card.skills.length === 0) {
    return [tool(name, ASK_TOOL, undefined, `Asks the remote A2A agent ${about}`)];
  }
  const allowed = toolNameMatcher(skillGlobs);
  const chosen = card.skills.filter((skill) => allowed === undefined || allowed(skill.id));
  if (chosen.length > MAX_A2A_SKILLS)
    throw new A2aError(
      `A2A agent ${name} offers ${chosen.length} skills; at most ${MAX_A2A_SKILLS} become tools: choose some with \`skills\` globs`,
    );
  const tools = chosen.map((skill) => {
    const what = (skill.description || skill.name).slice(0, MAX_TEXT_CHARS);
    return tool(
      name,
      safeName(skill.id),
      skill.id,
      `${what}\n(Skill "${skill.name.slice(0, 200)}" of the remote A2A agent ${about})`,
    );
  });
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.definition.name))
      throw new A2aError(`two skills of A2A agent ${name} map to the same tool name ${t.definition.name}`);
    seen.add(t.definition.name);
  }
  return tools;
}

function tool(name: string, suffix: string, skillId: string | undefined, description: string): SkillTool {
  const toolName = `${name}__${suffix}`;
  if (toolName.length > MAX_TOOL_NAME_LENGTH)
    throw new A2aError(
      `the tool name ${toolName} is longer than ${MAX_TOOL_NAME_LENGTH} characters: use a shorter entry name for this A2A agent`,
    );
  return { definition: { name: toolName, description, inputSchema: A2A_TOOL_INPUT_SCHEMA }, skillId };
}

/** A skill id as a tool-name part: letters, digits, `_` and `-`. */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_');
}
