import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Embed, EmbedService } from '../../lib/content';
import { NOTE_NS } from '../../lib/noteI18n';

const SERVICE_NAMES: Record<EmbedService, string> = {
  youtube: 'YouTube',
  spotify: 'Spotify',
  twitch: 'Twitch',
  mixcloud: 'Mixcloud',
  soundcloud: 'SoundCloud',
  applemusic: 'Apple Music',
  wavlake: 'Wavlake',
};

function playerSrc(embed: Embed): string {
  // Twitch refuses to play unless told which page embeds it; YouTube may start since the viewer asked.
  if (embed.service === 'twitch') return `${embed.src}&parent=${encodeURIComponent(window.location.hostname)}`;
  if (embed.service === 'youtube') return `${embed.src}?autoplay=1`;
  return embed.src;
}

/**
 * A click-to-load player: until the viewer presses the button nothing is requested from the
 * service, so merely scrolling past a note tells no third party who is reading.
 */
export function EmbedPlayer({ url, embed }: { url: string; embed: Embed }) {
  const { t } = useTranslation(NOTE_NS);
  const [loaded, setLoaded] = useState(false);
  const name = SERVICE_NAMES[embed.service];
  const sizing = embed.height ? { height: embed.height } : undefined;
  const className = `note-player note-player-${embed.service}${embed.height ? '' : ' note-player-wide'}`;
  if (loaded) {
    return (
      <div className={className} style={sizing}>
        <iframe
          src={playerSrc(embed)}
          title={t('player.title', { service: name })}
          sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-presentation"
          allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
          referrerPolicy="strict-origin-when-cross-origin"
          allowFullScreen
        />
      </div>
    );
  }
  let host = '';
  try {
    host = new URL(embed.src).hostname;
  } catch {
    host = name;
  }
  return (
    <div className={`${className} note-player-idle`} style={sizing}>
      <button type="button" className="note-player-load" onClick={() => setLoaded(true)}>
        <svg viewBox="0 0 24 24" width="40" height="40" aria-hidden="true" focusable="false">
          <circle cx="12" cy="12" r="11" fill="currentColor" opacity="0.9" />
          <path d="M10 8l6 4-6 4z" fill="var(--surface)" />
        </svg>
        <span className="note-player-name">{t('player.load', { service: name })}</span>
        <span className="note-player-privacy">{t('player.privacy', { host })}</span>
      </button>
      <a className="note-player-open" href={url} target="_blank" rel="noopener noreferrer">
        {t('player.open', { service: name })}
      </a>
    </div>
  );
}
