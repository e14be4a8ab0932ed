import { openai } from '@ai-sdk/openai';
import { generateText, Output, stepCountIs, tool } from 'ai';
import { z } from 'zod';

const getWeather = tool({
  description: 'The current weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 18, sky: 'sunny' }),
});

const { output } = await generateText({
  model: openai('gpt-4.1-mini'),
  system: 'Answer with the weather tool.',
  tools: { get_weather: getWeather },
  stopWhen: stepCountIs(5),
  output: Output.object({ schema: z.object({ city: z.string(), celsius: z.number() }) }),
  prompt: 'How warm is it in Paris?',
});
console.log(output); // { city: 'Paris', celsius: 18 }
