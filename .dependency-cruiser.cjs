/**
 * The direction of dependencies between Strucc's rooms (docs/ARCHITECTURE.md):
 *
 *   core  <-  machines  <-  worker
 *   core  <-  src                      (src reaches the worker only through Comlink, src/worker-client.ts)
 *   core  <-  server
 *
 * Checked by `npm run depcheck` (tools/depcheck.ts), the first step of `npm test`. Each rule's
 * name is printed with every import that breaks it. Type-only imports count: a type the UI needs
 * from the worker belongs in core/types.
 */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-only-core',
      comment: 'core/ is what every side may import: it may not import src/, worker/, machines/ or server/.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(src|worker|machines|server|tests|bench|tools)/' },
    },
    {
      name: 'core-has-no-node-apis',
      comment: 'core/ runs in the browser, the worker and Node alike: no Node built-in modules.',
      severity: 'error',
      from: { path: '^core/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'machines-import-only-core',
      comment: 'machines/ are pure XState machines: effects (storage, crypto, sockets) come in as actors through .provide(), types and constants from core/.',
      severity: 'error',
      from: { path: '^machines/' },
      to: { path: '^(src|worker|server)/' },
    },
    {
      name: 'worker-not-ui-or-server',
      comment: 'worker/ runs the machines for the tabs: it may import core/ and machines/, never the UI (src/) or the cache server (server/).',
      severity: 'error',
      from: { path: '^worker/' },
      to: { path: '^(src|server)/' },
    },
    {
      name: 'src-reaches-worker-only-through-comlink',
      comment: 'The UI talks to the shared worker only through the Comlink API (src/worker-client.ts starts it by URL); the API contract types are in core/types.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(worker|machines)/' },
    },
    {
      name: 'src-not-server',
      comment: 'The UI never imports the cache server; what both need lives in core/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-imports-only-core',
      comment: 'The cache server shares only core/ with the client: never src/, worker/ or machines/.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(src|worker|machines)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
