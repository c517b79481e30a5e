/**
 * The import-direction rules of .dependency-cruiser.cjs (docs/ARCHITECTURE.md): the tree keeps
 * them, and a wrong import added to it fails with the name of the rule it breaks. The wrong
 * imports are files of the checker's temporary mirror only; the source tree is not written.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDependencies } from '../../../tools/depcheck.ts';

const root = join(import.meta.dirname, '..', '..', '..');

describe('dependency rule', () => {
  it('the tree breaks no rule', async () => {
    const result = await checkDependencies(root);
    expect(result.violations).toEqual([]);
    // Every room was read: a checker that cruised nothing would pass trivially.
    expect(result.cruised).toBeGreaterThan(400);
  });

  it('names the rule a wrong import breaks', async () => {
    const result = await checkDependencies(root, {
      'machines/probeWrongImport.ts': "import type { AccountStorage } from '../worker/storage.ts';\nexport type Probe = AccountStorage;\n",
      'src/probeWrongImport.ts': "import { serverConfig } from '../server/config';\nimport type { WalletService } from '../worker/wallet';\nexport const probe: unknown = [serverConfig, null as unknown as WalletService];\n",
      'core/probeWrongImport.ts': "import { readFileSync } from 'node:fs';\nimport { feedMachine } from '../machines/feed.ts';\nexport const probe = [readFileSync, feedMachine];\n",
      'server/probeWrongImport.ts': "import { parsePubkey } from '../core/keys.ts';\nimport { connect } from '../src/worker-client.ts';\nexport const probe = [parsePubkey, connect];\n",
    });
    const broken = result.violations.map((v) => `${v.rule} ${v.from} -> ${v.to}`).sort();
    expect(broken).toEqual([
      'core-has-no-node-apis core/probeWrongImport.ts -> fs',
      'core-imports-only-core core/probeWrongImport.ts -> machines/feed.ts',
      'machines-import-only-core machines/probeWrongImport.ts -> worker/storage.ts',
      'server-imports-only-core server/probeWrongImport.ts -> src/worker-client.ts',
      'src-not-server src/probeWrongImport.ts -> server/config.ts',
      'src-reaches-worker-only-through-comlink src/probeWrongImport.ts -> worker/wallet.ts',
    ]);
  });
});
