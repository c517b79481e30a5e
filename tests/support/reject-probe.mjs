// Preloaded into a server process (NODE_OPTIONS=--import) by process-guard.test.ts: once the
// server says it runs, one promise is rejected with no handler, then a line says it was.
const write = process.stdout.write.bind(process.stdout);
let fired = false;
process.stdout.write = (chunk, ...rest) => {
  const result = write(chunk, ...rest);
  if (!fired && String(chunk).includes('Strucc fut')) {
    fired = true;
    setImmediate(() => {
      void Promise.reject(new Error('probe: nobody handles this'));
      setImmediate(() => write('probe: rejected\n'));
    });
  }
  return result;
};
