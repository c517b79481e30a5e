import { startServer } from './app.ts';
import { readConfig } from './config.ts';

async function main(): Promise<void> {
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
