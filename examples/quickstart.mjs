// A model answer arrives in chunks: reasoning, some chatter, then the final report in the
// nonce-tagged slot with slightly broken JSON. The parser streams the report as it arrives;
// the processor repairs and validates it against the caller's schema.
import { finalReportToolSchema, processFinalReport } from '@agent/final-report';
import { createNonce, FinalSlotParser, finalTagName, renderXmlNext } from '@agent/xml-transport';

const nonce = createNonce();
const tag = finalTagName(nonce);
const schema = {
  type: 'object',
  required: ['city', 'temperatureC', 'status'],
  properties: {
    city: { type: 'string' },
    temperatureC: { type: 'number' },
    status: { enum: ['ok', 'stale'] },
  },
};

console.log('--- the notice the model gets this turn ---');
console.log(renderXmlNext({ nonce, turn: 1, maxTurns: 10, contextPercent: 3, format: 'json', schema }));

const answer = [
  '<think>The user wants JSON. An example: <',
  tag,
  ' format="json">{}</',
  tag,
  '></think>',
  'Here is the result.\n<',
  tag,
  ' tool="agent__final_report" status="success" format="json">',
  '```json\n{ \'city\': \'Athens\', "temperatureC": 31.5, "status": "ok", }\n```',
  '</',
  tag,
  '>',
].join('');

const parser = new FinalSlotParser({ nonce });
process.stdout.write('\n--- streamed report content ---\n');
for (let i = 0; i < answer.length; i += 7) {
  for (const event of parser.push(answer.slice(i, i + 7))) {
    if (event.type === 'content') process.stdout.write(event.text);
  }
}
parser.end();
const slot = parser.result;
console.log(
  `\n\n--- found: ${slot.found}; ignored tags: ${slot.ignored.length}; think block: ${slot.think ? 'yes' : 'no'} ---`,
);

if (!slot.found) process.exit(1);
const processed = processFinalReport(
  { source: 'xml', attributes: slot.attributes, payload: slot.payload },
  { format: 'json', schema },
);
if (!processed.ok) {
  console.log(`rejected (${processed.slug}): ${processed.reason}`);
  process.exit(1);
}
console.log('report status:', processed.report.status);
console.log('content_json:', JSON.stringify(processed.report.content_json));
console.log('repairs:', processed.repairs.length > 0 ? processed.repairs.join('; ') : 'none');
console.log(
  '\nThe agent__final_report tool schema for json has these properties:',
  Object.keys(finalReportToolSchema('json', schema).properties ?? {}).join(', '),
);
