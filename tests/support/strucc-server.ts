import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';

/**
 * The real server in this process on 127.0.0.1, a free port unless `env.PORT` names one, storing
 * in `dataDir`, without the demo network and without a client build; `env` overrides any of it.
 */
export function startStrucc(dataDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer(readConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, DEMO: '0', DIST_DIR: join(dataDir, 'no-dist'), ...env }));
}
