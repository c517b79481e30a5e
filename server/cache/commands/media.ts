/** Media commands (S §3.10): `get_media_metadata {urls}` describes media the server knows by URL. */
import { variantsOf, type MediaRow } from '../../media/info.ts';
import { normaliseUrl } from '../../media/urls.ts';
import { CommandError } from '../args.ts';
import type { Command } from '../registry.ts';
import { CacheKind } from '../../../core/kinds.ts';

const MAX_URLS = 100;

const getMediaMetadata: Command = async (args, { ctx }) => {
  const raw = args.raw.urls;
  if (raw === undefined || raw === null) throw new CommandError('missing urls');
  if (!Array.isArray(raw) || !raw.every((u) => typeof u === 'string')) throw new CommandError('invalid urls: expected an array of strings');
  if (raw.length > MAX_URLS) throw new CommandError('too many urls');
  const urls = [...new Set(raw.map((u) => normaliseUrl(u)).filter((u): u is string => u !== null))];
  if (!urls.length) return [];
  const rows = await ctx.db.all<MediaRow>(
    `SELECT * FROM media WHERE status = 'ok' AND url IN (${urls.map(() => '?').join(',')}) ORDER BY url`,
    urls,
  );
  if (!rows.length) return [];
  const resources = rows.map((r) => ({ url: r.url, mt: r.mimetype, variants: variantsOf(r) }));
  return [{ kind: CacheKind.MEDIA_METADATA, content: JSON.stringify({ resources, thumbnails: {} }) }];
};

export const mediaCommands: [string, Command][] = [['get_media_metadata', getMediaMetadata]];
