import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `bench/`: children run from here so `--import tsx` resolves. */
export const BENCH_DIR = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
/** Node flags of every contender process, the same for all. */
export const CONTENDER_NODE_FLAGS: readonly string[] = ['--import', 'tsx', '--expose-gc'];
