/**
 * Media-service links that get a player (spec §2 "Inline note content", heights from §9).
 * Pure: the URL is read, never fetched; the player itself loads only after a click.
 */
export type EmbedService = 'youtube' | 'spotify' | 'twitch' | 'mixcloud' | 'soundcloud' | 'applemusic' | 'wavlake';

export interface Embed {
  service: EmbedService;
  /** The player's address; Twitch's still needs `parent=<host>` added at render time. */
  src: string;
  /** Fixed height in px, or undefined for a 16:9 box. */
  height?: number;
}

const YOUTUBE_ID = /^[\w-]{11}$/;

function host(url: URL): string {
  return url.hostname.toLowerCase().replace(/^(?:www\.|m\.)/, '');
}

function segments(url: URL): string[] {
  return url.pathname.split('/').filter(Boolean);
}

function youtube(url: URL): Embed | null {
  const h = host(url);
  let id: string | null = null;
  if (h === 'youtu.be') id = segments(url)[0] ?? null;
  else if (h === 'youtube.com' || h === 'music.youtube.com') {
    const [first, second] = segments(url);
    if (first === 'watch') id = url.searchParams.get('v');
    else if (first === 'shorts' || first === 'embed' || first === 'live') id = second ?? null;
  }
  if (!id || !YOUTUBE_ID.test(id)) return null;
  // The no-cookie host keeps YouTube from setting tracking cookies before the viewer plays.
  return { service: 'youtube', src: `https://www.youtube-nocookie.com/embed/${id}` };
}

const SPOTIFY_TYPES = new Set(['track', 'album', 'playlist', 'episode', 'show', 'artist']);

function spotify(url: URL): Embed | null {
  if (host(url) !== 'open.spotify.com') return null;
  let parts = segments(url);
  if (parts[0]?.startsWith('intl-')) parts = parts.slice(1);
  const [type, id] = parts;
  if (!type || !SPOTIFY_TYPES.has(type) || !id || !/^[A-Za-z0-9]+$/.test(id)) return null;
  return { service: 'spotify', src: `https://open.spotify.com/embed/${type}/${id}`, height: 352 };
}

function twitch(url: URL): Embed | null {
  const h = host(url);
  if (h !== 'twitch.tv' && h !== 'go.twitch.tv') return null;
  const [first, second] = segments(url);
  if (first === 'videos' && second && /^\d+$/.test(second)) {
    return { service: 'twitch', src: `https://player.twitch.tv/?video=v${second}&autoplay=false` };
  }
  if (first && /^\w{3,25}$/.test(first) && !second) {
    return { service: 'twitch', src: `https://player.twitch.tv/?channel=${first}&autoplay=false` };
  }
  return null;
}

function mixcloud(url: URL): Embed | null {
  if (host(url) !== 'mixcloud.com') return null;
  const parts = segments(url);
  if (parts.length !== 2) return null;
  const feed = `/${parts.join('/')}/`;
  return {
    service: 'mixcloud',
    src: `https://www.mixcloud.com/widget/iframe/?hide_cover=1&feed=${encodeURIComponent(feed)}`,
    height: 120,
  };
}

function soundcloud(url: URL): Embed | null {
  if (host(url) !== 'soundcloud.com' || segments(url).length < 2) return null;
  const track = `https://soundcloud.com${url.pathname}`;
  return { service: 'soundcloud', src: `https://w.soundcloud.com/player/?url=${encodeURIComponent(track)}&auto_play=false`, height: 166 };
}

function appleMusic(url: URL): Embed | null {
  if (host(url) !== 'music.apple.com') return null;
  const parts = segments(url);
  const type = parts[1];
  if (!type || !['album', 'playlist', 'song', 'music-video'].includes(type)) return null;
  const single = type === 'song' || url.searchParams.has('i');
  const src = `https://embed.music.apple.com${url.pathname}${url.searchParams.has('i') ? `?i=${encodeURIComponent(url.searchParams.get('i') ?? '')}` : ''}`;
  return { service: 'applemusic', src, height: single ? 175 : 450 };
}

function wavlake(url: URL): Embed | null {
  const h = host(url);
  if (h !== 'wavlake.com' && h !== 'player.wavlake.com') return null;
  const [type, id] = segments(url);
  if (!type || !id || !['track', 'album', 'artist', 'playlist'].includes(type) || !/^[\w-]+$/.test(id)) return null;
  return { service: 'wavlake', src: `https://embed.wavlake.com/${type}/${id}`, height: 380 };
}

const DETECTORS = [youtube, spotify, twitch, mixcloud, soundcloud, appleMusic, wavlake];

export function embedOf(raw: string): Embed | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  for (const detect of DETECTORS) {
    const embed = detect(url);
    if (embed) return embed;
  }
  return null;
}
