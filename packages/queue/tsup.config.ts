import { libraryBuild } from '../../tooling/tsup/library.js';

// `./options`: the checks of the queue's settings without bullmq and ioredis (agent-server parses
// its flags with them and loads the queue only when one is configured).
export default libraryBuild({}, { options: 'src/options.ts' });
