import { expect, it } from 'vitest';
import { A2aError } from '../src/errors.js';
import { MAX_A2A_SKILLS, skillTools } from '../src/tools.js';
import type { A2aCardSummary } from '../src/types.js';

function card(skills: number, description = 'Answers questions'): A2aCardSummary {
  return {
    name: 'desk',
    description: 'The help desk',
    url: 'http://127.0.0.1:1/a2a',
    protocolVersion: '1.0',
    streaming: false,
    skills: Array.from({ length: skills }, (_, i) => ({ id: `s${i}`, name: `Skill ${i}`, description })),
  };
}

it('a card with more skills than become tools is refused, saying how to choose some', () => {
  expect(() => skillTools('desk', card(MAX_A2A_SKILLS + 1))).toThrow(A2aError);
  expect(() => skillTools('desk', card(MAX_A2A_SKILLS + 1))).toThrow(
    /1001 skills; at most 1000 .* `skills` globs/,
  );
  // The globs choose fewer: then it is fine.
  expect(skillTools('desk', card(MAX_A2A_SKILLS + 1), ['s1', 's2'])).toHaveLength(2);
});

it("a skill's description is cut, so a card cannot fill every request with its text", () => {
  const [tool] = skillTools('desk', card(1, 'x'.repeat(100_000)));
  expect(tool!.definition.name).toBe('desk__s0');
  expect(tool!.definition.description.length).toBeLessThan(4_500);
  expect(tool!.definition.description).toContain(
    'Skill "Skill 0" of the remote A2A agent desk: The help desk',
  );
});
