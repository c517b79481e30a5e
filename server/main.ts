import cluster from 'node:cluster';
import { startServer } from './app.ts';
import { readConfig } from './config.ts';
import { runPrimary, workerCount } from './cluster/workers.ts';

/**
 * A promise rejected without a handler anywhere in the server is a bug to log, not a reason to
 * drop every client: Node's default would end the process.
 */
function installRejectionGuard(): void {
  process.on('unhandledRejection', (reason: unknown) => {
    console.error('Kezeletlen elutasított ígéret (a szerver fut tovább):', reason instanceof Error ? (reason.stack ?? reason.message) : reason);
  });
}

async function main(): Promise<void> {
  installRejectionGuard();
  const config = readConfig();
  const workers = workerCount(process.env.WORKERS);
  if (workers > 1 && cluster.isPrimary) return runPrimary(config, workers);
  const server = await startServer(config);
  // A cluster worker reports to the primary, which prints the address once for all of them.
  if (cluster.isWorker) process.send?.({ type: 'listening', url: server.url });
  else console.log(`Strucc fut: ${server.url}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (config.verbose) console.log(`${signal}: leállítás…`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('Hiba leállításkor:', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error('A szerver nem indult el:', err instanceof Error ? err.message : err);
  process.exit(1);
});
