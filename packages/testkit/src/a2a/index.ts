export * from './client.js';
export * from './remote-agent.js';
