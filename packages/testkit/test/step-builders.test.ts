import { expect, test } from 'vitest';
import { finalReport, scriptedModel, streamedFinalReport, text, toolCall, toolCalls } from '../src/index.js';

const notice =
  'Turn 1 of 10. Wrap the report in <ai-agent-0badc0de-FINAL format="json">...</ai-agent-0badc0de-FINAL>.';

async function answer(model: ReturnType<typeof scriptedModel>) {
  let said = '';
  const calls: { name: string; arguments: unknown }[] = [];
  for await (const event of model.stream({ messages: [{ role: 'user', content: notice }] })) {
    if (event.type === 'text-delta') said += event.text;
    if (event.type === 'tool-call') calls.push({ name: event.call.name, arguments: event.call.arguments });
  }
  return { said, calls };
}

test('finalReport writes the FINAL tag with the session nonce: an object as json, text as markdown', async () => {
  const model = scriptedModel([
    finalReport({ city: 'Paris', celsius: 18 }),
    finalReport('It is *warm*.'),
    finalReport('Could not tell.', { format: 'text', status: 'failure' }),
  ]);
  expect((await answer(model)).said).toBe(
    '<ai-agent-0badc0de-FINAL tool="agent__final_report" status="success" format="json">{"city":"Paris","celsius":18}</ai-agent-0badc0de-FINAL>',
  );
  expect((await answer(model)).said).toBe(
    '<ai-agent-0badc0de-FINAL tool="agent__final_report" status="success" format="markdown">It is *warm*.</ai-agent-0badc0de-FINAL>',
  );
  expect((await answer(model)).said).toBe(
    '<ai-agent-0badc0de-FINAL tool="agent__final_report" status="failure" format="text">Could not tell.</ai-agent-0badc0de-FINAL>',
  );
});

test('streamedFinalReport streams the tag and each piece as its own delta; unclosed leaves the tag open', async () => {
  const deltas = async (model: ReturnType<typeof scriptedModel>) => {
    const said: string[] = [];
    for await (const event of model.stream({ messages: [{ role: 'user', content: notice }] })) {
      if (event.type === 'text-delta') said.push(event.text);
    }
    return said;
  };
  const model = scriptedModel([
    streamedFinalReport(['The sum ', 'is 5.']),
    streamedFinalReport(['{"n":', '1}'], { format: 'json', unclosed: true }),
  ]);
  expect(await deltas(model)).toEqual([
    '<ai-agent-0badc0de-FINAL tool="agent__final_report" status="success" format="markdown">',
    'The sum ',
    'is 5.',
    '</ai-agent-0badc0de-FINAL>',
  ]);
  expect(await deltas(model)).toEqual([
    '<ai-agent-0badc0de-FINAL tool="agent__final_report" status="success" format="json">',
    '{"n":',
    '1}',
  ]);
});

test('toolCall, toolCalls and text are the answers they name', async () => {
  const model = scriptedModel([
    toolCall('get_weather', { city: 'Paris' }),
    toolCalls(['a', { x: 1 }], ['b']),
    text('Hel', 'lo'),
  ]);
  expect((await answer(model)).calls).toEqual([{ name: 'get_weather', arguments: { city: 'Paris' } }]);
  expect((await answer(model)).calls).toEqual([
    { name: 'a', arguments: { x: 1 } },
    { name: 'b', arguments: {} },
  ]);
  expect(await answer(model)).toEqual({ said: 'Hello', calls: [] });
  model.assertAllConsumed();
});
