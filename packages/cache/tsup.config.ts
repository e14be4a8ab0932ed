import { libraryBuild } from '../../tooling/tsup/library.js';

export default libraryBuild({}, { redis: 'src/redis.ts' });
