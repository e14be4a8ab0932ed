import { describe, expect, it } from 'vitest';
import { stripLeadingThink } from '../src/index.js';

describe('stripLeadingThink', () => {
  it('removes one leading block after optional whitespace and returns both parts', () => {
    expect(stripLeadingThink(' \n\t<think>reasoning</think>\nanswer <think>kept</think>')).toEqual({
      found: true,
      closed: true,
      think: 'reasoning',
      rest: '\nanswer <think>kept</think>',
    });
  });

  it('leaves text without a leading block untouched', () => {
    expect(stripLeadingThink('answer <think>x</think>')).toEqual({
      found: false,
      closed: false,
      think: '',
      rest: 'answer <think>x</think>',
    });
    expect(stripLeadingThink('  <thinking>x</thinking>').found).toBe(false);
  });

  it('treats an unclosed leading block as all reasoning', () => {
    expect(stripLeadingThink('<think>still going <ai-agent-x-FINAL>')).toEqual({
      found: true,
      closed: false,
      think: 'still going <ai-agent-x-FINAL>',
      rest: '',
    });
  });

  it('strips only one block', () => {
    expect(stripLeadingThink('<think>a</think><think>b</think>').rest).toBe('<think>b</think>');
  });
});
