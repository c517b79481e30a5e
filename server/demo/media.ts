import { AVATAR_SIZE, BANNER_SIZE, COVER_SIZE, imageSize, type Size } from './media-urls.ts';
import { Rng } from './rng.ts';

/**
 * Procedural SVG media for the demo network: avatars, banners, "photos" and article covers.
 * Each image is a pure function of its path, so it can be cached forever, and contains no
 * script and no external reference, so it is safe to serve from our own origin.
 */
export type MediaSize = 's' | 'm' | 'l' | 'o';

export interface RenderedMedia {
  body: string;
  contentType: string;
}

const TARGET_WIDTH: Record<Exclude<MediaSize, 'o'>, number> = { s: 200, m: 400, l: 800 };
const MAX_INDEX = 1_000_000;

const f = (n: number) => (Math.round(n * 10) / 10).toString();
const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(((h % 360) + 360) % 360)},${Math.round(s)}%,${Math.round(l)}%)`;

function svg(natural: Size, size: MediaSize, body: string): string {
  const width = size === 'o' ? natural.width : TARGET_WIDTH[size];
  const height = Math.round((natural.height * width) / natural.width);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${natural.width} ${natural.height}" ` +
    `preserveAspectRatio="xMidYMid slice">${body}</svg>`
  );
}

function linear(id: string, stops: string[], vertical = true): string {
  const dir = vertical ? 'x1="0" y1="0" x2="0" y2="1"' : 'x1="0" y1="0" x2="1" y2="1"';
  const s = stops.map((c, i) => `<stop offset="${f((i / Math.max(1, stops.length - 1)) * 100)}%" stop-color="${c}"/>`).join('');
  return `<linearGradient id="${id}" ${dir}>${s}</linearGradient>`;
}

/** A filled ridge line: the sum of a few sines gives soft, natural-looking hills. */
function ridge(rng: Rng, w: number, h: number, base: number, amp: number, fill: string): string {
  const waves = [0, 1, 2].map((k) => ({ freq: (k + 1) * (0.8 + rng.next() * 1.6), phase: rng.next() * Math.PI * 2, amp: amp / (k + 1) }));
  const pts: string[] = [];
  for (let x = 0; x <= w; x += w / 48) {
    const y = base + waves.reduce((acc, wv) => acc + wv.amp * Math.sin((x / w) * Math.PI * 2 * wv.freq + wv.phase), 0);
    pts.push(`${f(x)},${f(y)}`);
  }
  return `<path d="M0,${h} L${pts.join(' L')} L${w},${h} Z" fill="${fill}"/>`;
}

function tree(rng: Rng, x: number, ground: number, scale: number, hue: number): string {
  const trunk = `<rect x="${f(x - 3 * scale)}" y="${f(ground - 18 * scale)}" width="${f(6 * scale)}" height="${f(20 * scale)}" fill="${hsl(25, 35, 22)}"/>`;
  if (rng.chance(0.5)) {
    const top = ground - 80 * scale;
    return `${trunk}<path d="M${f(x)},${f(top)} L${f(x + 22 * scale)},${f(ground - 14 * scale)} L${f(x - 22 * scale)},${f(ground - 14 * scale)} Z" fill="${hsl(hue + 135, 40, 22 + rng.next() * 10)}"/>`;
  }
  return `${trunk}<circle cx="${f(x)}" cy="${f(ground - 38 * scale)}" r="${f(24 * scale)}" fill="${hsl(hue + 100, 45, 28 + rng.next() * 12)}"/>`;
}

/** A landscape "photo": sky, sun or moon, clouds or stars, mountains, hills, maybe a lake and trees. */
function landscape(rng: Rng, { width: w, height: h }: Size, extra = ''): string {
  const mood = rng.pick(['day', 'day', 'sunset', 'dawn', 'night'] as const);
  // A small shift around natural greens and blue-greys: hills should never turn purple.
  const hue = rng.range(-20, 20);
  const sky = {
    day: [hsl(205, 70, 55), hsl(200, 70, 80)],
    sunset: [hsl(265, 45, 35), hsl(15, 85, 62), hsl(42, 95, 70)],
    dawn: [hsl(220, 50, 55), hsl(330, 60, 78), hsl(45, 90, 85)],
    night: [hsl(230, 55, 10), hsl(225, 45, 28)],
  }[mood];
  const horizon = h * (0.45 + rng.next() * 0.2);
  const parts: string[] = [`<defs>${linear('sky', sky)}${linear('lake', [hsl(205, 55, mood === 'night' ? 18 : 45), hsl(210, 60, mood === 'night' ? 10 : 30)])}</defs>`];
  parts.push(`<rect width="${w}" height="${h}" fill="url(#sky)"/>`);
  const orbX = w * (0.15 + rng.next() * 0.7);
  const orbY = horizon * (0.25 + rng.next() * 0.45);
  if (mood === 'night') {
    for (let i = 0; i < 70; i++) parts.push(`<circle cx="${f(rng.next() * w)}" cy="${f(rng.next() * horizon)}" r="${f(0.8 + rng.next() * 1.8)}" fill="#fff" opacity="${f(0.4 + rng.next() * 0.6)}"/>`);
    parts.push(`<circle cx="${f(orbX)}" cy="${f(orbY)}" r="${f(h * 0.06)}" fill="${hsl(50, 40, 92)}"/>`);
    parts.push(`<circle cx="${f(orbX + h * 0.025)}" cy="${f(orbY - h * 0.01)}" r="${f(h * 0.055)}" fill="${sky[0]}"/>`);
  } else {
    const sun = mood === 'day' ? hsl(50, 100, 88) : hsl(35, 100, 72);
    parts.push(`<circle cx="${f(orbX)}" cy="${f(orbY)}" r="${f(h * 0.14)}" fill="${sun}" opacity="0.35"/>`);
    parts.push(`<circle cx="${f(orbX)}" cy="${f(orbY)}" r="${f(h * 0.07)}" fill="${sun}"/>`);
    for (let i = rng.range(1, 4); i > 0; i--) {
      const cx = rng.next() * w;
      const cy = rng.next() * horizon * 0.6;
      const r = h * (0.03 + rng.next() * 0.04);
      parts.push(`<g fill="#fff" opacity="${f(0.6 + rng.next() * 0.3)}"><ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(r * 2.6)}" ry="${f(r)}"/><ellipse cx="${f(cx + r)}" cy="${f(cy - r * 0.6)}" rx="${f(r * 1.4)}" ry="${f(r * 0.9)}"/></g>`);
    }
  }
  const dark = mood === 'night' ? 0.45 : 1;
  parts.push(ridge(rng, w, h, horizon - h * 0.12, h * 0.07, hsl(hue + 220, 18, 58 * dark)));
  parts.push(ridge(rng, w, h, horizon - h * 0.04, h * 0.05, hsl(hue + 140, 22, 44 * dark)));
  const hasLake = rng.chance(0.55);
  if (hasLake) {
    const top = horizon + h * 0.02;
    parts.push(`<rect x="0" y="${f(top)}" width="${w}" height="${f(h - top)}" fill="url(#lake)"/>`);
    for (let i = 0; i < 14; i++) {
      const y = top + rng.next() * (h - top);
      const x = rng.next() * w;
      parts.push(`<rect x="${f(x)}" y="${f(y)}" width="${f(w * (0.04 + rng.next() * 0.12))}" height="2" fill="#fff" opacity="0.25"/>`);
    }
    if (mood !== 'night') parts.push(`<rect x="${f(orbX - h * 0.03)}" y="${f(top + 6)}" width="${f(h * 0.06)}" height="${f((h - top) * 0.6)}" fill="#fff" opacity="0.15"/>`);
    parts.push(ridge(rng, w, h, h - (h - top) * 0.12, h * 0.015, hsl(hue + 100, 35, 30 * dark)));
  } else {
    parts.push(ridge(rng, w, h, horizon + h * 0.1, h * 0.05, hsl(hue + 95, 40, 38 * dark)));
    parts.push(ridge(rng, w, h, horizon + h * 0.25, h * 0.04, hsl(hue + 85, 45, 30 * dark)));
  }
  const ground = hasLake ? h - h * 0.03 : horizon + h * 0.3;
  for (let i = rng.range(2, 9); i > 0; i--) parts.push(tree(rng, rng.next() * w, ground + rng.next() * h * 0.05, (h / 800) * (0.7 + rng.next() * 0.9), hue));
  parts.push(extra);
  return parts.join('');
}

/** A friendly geometric ostrich head whose colours and features come from the pubkey prefix. */
function avatar(rng: Rng, key: string): string {
  const hue = parseInt(key.slice(0, 6).padEnd(6, '0'), 16) % 360;
  const { width: w, height: h } = AVATAR_SIZE;
  const tilt = rng.range(-12, 12);
  const eye = 14 + rng.int(8);
  const beakHue = 25 + rng.int(20);
  const parts = [
    `<defs>${linear('bg', [hsl(hue, 65, 72), hsl(hue + 40, 60, 52)], false)}</defs>`,
    `<rect width="${w}" height="${h}" fill="url(#bg)"/>`,
  ];
  for (let i = 0; i < 6; i++) {
    parts.push(`<circle cx="${f(rng.next() * w)}" cy="${f(rng.next() * h)}" r="${f(20 + rng.next() * 60)}" fill="#fff" opacity="${f(0.06 + rng.next() * 0.1)}"/>`);
  }
  parts.push(
    `<g transform="rotate(${tilt} 200 230)">`,
    `<ellipse cx="200" cy="400" rx="150" ry="90" fill="${hsl(hue + 180, 25, 25)}"/>`,
    `<rect x="178" y="200" width="44" height="190" rx="22" fill="${hsl(20, 45, 80)}"/>`,
    `<circle cx="200" cy="170" r="78" fill="${hsl(20, 40, 85)}"/>`,
  );
  for (let i = rng.range(3, 6), k = 0; k < i; k++) {
    parts.push(`<circle cx="${f(170 + k * 14 + rng.next() * 6)}" cy="${f(96 + rng.next() * 10)}" r="${f(10 + rng.next() * 8)}" fill="${hsl(hue + 200, 15, 35)}"/>`);
  }
  parts.push(
    `<circle cx="172" cy="160" r="${eye + 8}" fill="#fff"/><circle cx="228" cy="160" r="${eye + 8}" fill="#fff"/>`,
    `<circle cx="${175 + rng.int(5)}" cy="163" r="${eye}" fill="#222"/><circle cx="${231 + rng.int(5)}" cy="163" r="${eye}" fill="#222"/>`,
    `<circle cx="${180}" cy="156" r="4" fill="#fff"/><circle cx="${236}" cy="156" r="4" fill="#fff"/>`,
    `<ellipse cx="200" cy="208" rx="${40 + rng.int(12)}" ry="17" fill="${hsl(beakHue, 85, 58)}"/>`,
    `<path d="M164,208 Q200,${216 + rng.int(8)} 236,208" stroke="${hsl(beakHue, 70, 35)}" stroke-width="3" fill="none"/>`,
    `</g>`,
  );
  return parts.join('');
}

function banner(rng: Rng): string {
  return landscape(rng, BANNER_SIZE);
}

function cover(rng: Rng): string {
  const { width: w, height: h } = COVER_SIZE;
  const hue = rng.range(0, 359);
  const overlay =
    `<rect width="${w}" height="${h}" fill="${hsl(hue, 60, 40)}" opacity="0.18"/>` +
    `<rect x="0" y="${f(h * 0.78)}" width="${w}" height="${f(h * 0.22)}" fill="#000" opacity="0.18"/>` +
    `<rect x="60" y="${f(h * 0.84)}" width="${f(w * (0.3 + rng.next() * 0.3))}" height="14" rx="7" fill="#fff" opacity="0.75"/>` +
    `<rect x="60" y="${f(h * 0.84 + 28)}" width="${f(w * (0.15 + rng.next() * 0.2))}" height="10" rx="5" fill="#fff" opacity="0.5"/>`;
  return landscape(rng, COVER_SIZE, overlay);
}

/** Renders /avatar/<hex>.svg, /banner/<n>.svg, /img/<n>.svg and /cover/<n>.svg; null for anything else. */
export function renderDemoMedia(pathname: string, size: MediaSize): RenderedMedia | null {
  const m = /^\/(avatar|banner|img|cover)\/([0-9a-f]{1,64}|[0-9]{1,7})\.svg$/.exec(pathname);
  if (!m) return null;
  const [, kind, key] = m;
  if (kind !== 'avatar' && (!/^[0-9]+$/.test(key) || Number(key) < 1 || Number(key) > MAX_INDEX)) return null;
  if (kind === 'avatar' && !/^[0-9a-f]+$/.test(key)) return null;
  const rng = new Rng(`strucc-media:${kind}:${key}`);
  let body: string;
  switch (kind) {
    case 'avatar':
      body = svg(AVATAR_SIZE, size, avatar(rng, key));
      break;
    case 'banner':
      body = svg(BANNER_SIZE, size, banner(rng));
      break;
    case 'cover':
      body = svg(COVER_SIZE, size, cover(rng));
      break;
    default: {
      const natural = imageSize(Number(key));
      body = svg(natural, size, landscape(rng, natural));
    }
  }
  return { body, contentType: 'image/svg+xml' };
}
