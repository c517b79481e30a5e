/**
 * Renders the app icons of the web app manifest from the logo (public/favicon.svg) with sharp.
 * Run once when the logo changes: `npx tsx tools/make-icons.ts`; the PNGs are committed, so a
 * build needs no image work.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

const root = join(import.meta.dirname, '..');
const logo = readFileSync(join(root, 'public', 'favicon.svg'));
const out = join(root, 'public', 'icons');
/** The logo's own round background: a maskable icon is filled with it to the edges. */
const LOGO_BG = '#fff1e6';

function render(size: number): Promise<Buffer> {
  // Rendered at the target density so the strokes stay sharp instead of being scaled up from 64 px.
  return sharp(logo, { density: Math.ceil((72 * size) / 64) })
    .resize(size, size)
    .png()
    .toBuffer();
}

async function main(): Promise<void> {
  mkdirSync(out, { recursive: true });
  for (const size of [192, 512]) await sharp(await render(size)).png({ compressionLevel: 9 }).toFile(join(out, `icon-${size}.png`));
  // Maskable: launchers cut any shape out of the square and only promise the centre circle of 80%
  // of its width (the safe zone); the round logo is drawn exactly inside it on a full-bleed background.
  const size = 512;
  const inner = Math.round(size * 0.8);
  const pad = Math.round((size - inner) / 2);
  await sharp({ create: { width: size, height: size, channels: 4, background: LOGO_BG } })
    .composite([{ input: await render(inner), left: pad, top: pad }])
    .png({ compressionLevel: 9 })
    .toFile(join(out, 'icon-maskable-512.png'));
}

await main();
