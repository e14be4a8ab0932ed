import { defineAgent, run, tool } from '@agent/core';
import { model } from '@agent/providers';
import { z } from 'zod';

const getWeather = tool({
  name: 'get_weather',
  description: 'The current weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 18, sky: 'sunny' }),
});

const agent = defineAgent({
  model: model('openai/gpt-4.1-mini'),
  instructions: 'Answer with the weather tool.',
  tools: [getWeather],
  output: { format: 'json', schema: z.object({ city: z.string(), celsius: z.number() }) },
});

const result = await run(agent, 'How warm is it in Paris?');
console.log(result.success ? result.finalReport.content_json : result.error); // { city: 'Paris', celsius: 18 }
