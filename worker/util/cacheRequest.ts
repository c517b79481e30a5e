import type { CacheReply } from '../../core/types.ts';

/** One cache command answered at its EOSE: what every worker service is given to talk to the cache server. */
export type CacheRequest = (command: string, payload?: Record<string, unknown>) => Promise<CacheReply>;
