import type * as fsp from 'node:fs/promises';

/** The filesystem calls the store makes (injectable so tests can see every one). */
export type StoreFs = Pick<typeof fsp, 'mkdir' | 'open' | 'rm' | 'readdir' | 'readFile' | 'writeFile'>;
