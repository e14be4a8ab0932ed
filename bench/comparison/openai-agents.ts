import { Agent, run, tool } from '@openai/agents';
import { z } from 'zod';

const getWeather = tool({
  name: 'get_weather',
  description: 'The current weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 18, sky: 'sunny' }),
});

const agent = new Agent({
  name: 'weather',
  model: 'gpt-4.1-mini',
  instructions: 'Answer with the weather tool.',
  tools: [getWeather],
  outputType: z.object({ city: z.string(), celsius: z.number() }),
});

const result = await run(agent, 'How warm is it in Paris?');
console.log(result.finalOutput); // { city: 'Paris', celsius: 18 }
