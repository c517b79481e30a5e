import { startServer } from './app.ts';
import { readConfig } from './config.ts';

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
  const server = await startServer(config);
  console.log(`Strucc fut: ${server.url}`);

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
