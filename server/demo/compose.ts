import { imageSize, imageUrl, IMAGE_COUNT } from './media-urls.ts';
import type { Rng } from './rng.ts';
import { TOWNS } from './text.ts';
import { LINK_PATHS, OPENERS, SLOTS, TOPICS, type Topic } from './text-notes.ts';
import { GENERIC_REPLIES, LONG_REPLIES, SHORT_REPLIES, TOPIC_REPLIES } from './text-social.ts';

export const TOPIC_BY_ID = new Map<string, Topic>(TOPICS.map((t) => [t.id, t]));

export interface Composed {
  content: string;
  tags: string[][];
}

/** Fills {slot}s; `mention` is the nostr: URI to place where a template names someone. */
export function fillTemplate(rng: Rng, template: string, mention?: string): string {
  const town = rng.pick(TOWNS);
  let lastTeam = '';
  return template.replace(/\{(\w+)\}/g, (_, slot: string) => {
    switch (slot) {
      case 'town':
        return town.name;
      case 'townIn':
        return town.in;
      case 'townFrom':
        return town.from;
      case 'n':
        return String(rng.range(2, 12));
      case 'km':
        return String(rng.range(12, 32));
      case 'mention':
        return mention ?? 'mindenkinek';
      case 'team2': {
        let team = rng.pick(SLOTS.team);
        while (team === lastTeam) team = rng.pick(SLOTS.team);
        return team;
      }
      default: {
        const values = SLOTS[slot];
        if (!values) throw new Error(`unknown template slot {${slot}}`);
        const value = rng.pick(values);
        if (slot === 'team') lastTeam = value;
        return value;
      }
    }
  });
}

/** t tags for every #hashtag in the content, lowercased and deduplicated (S §5.5). */
export function hashtagTags(content: string): string[][] {
  const seen = new Set<string>();
  for (const m of content.matchAll(/(?:^|\s)#([\p{L}\p{N}_]+)/gu)) seen.add(m[1].toLowerCase());
  return [...seen].map((t) => ['t', t]);
}

export interface NoteOptions {
  /** npub of someone the author follows, for templates or a "cc" line. */
  mentionNpub?: string;
  mentionPubkey?: string;
  mediaDomain: string;
  siteDomain: string;
}

/** A top-level kind-1 note on the topic: text, maybe hashtags, a mention, an image or a link. */
export function composeNote(rng: Rng, topic: Topic, opts: NoteOptions): Composed {
  const template = rng.pick(topic.notes);
  const mentionUri = opts.mentionNpub ? `nostr:${opts.mentionNpub}` : undefined;
  let text = fillTemplate(rng, template, mentionUri);
  let mentioned = template.includes('{mention}') && mentionUri !== undefined;
  if (rng.chance(0.08)) text = `${rng.pick(OPENERS)} ${text}`;
  if (rng.chance(0.35)) text += (rng.chance(0.7) ? ' ' : '\n\n') + fillTemplate(rng, rng.pick(topic.extras));
  if (!mentioned && mentionUri && rng.chance(0.06)) {
    text += `\n\ncc ${mentionUri}`;
    mentioned = true;
  }
  if (rng.chance(0.55)) {
    const tags = rng.sample(topic.hashtags, rng.chance(0.7) ? 1 : 2);
    text += `\n\n${tags.map((t) => `#${t}`).join(' ')}`;
  }
  const tags: string[][] = [];
  if (mentioned && opts.mentionPubkey) tags.push(['p', opts.mentionPubkey, '', 'mention']);
  tags.push(...hashtagTags(text));
  if (rng.chance(0.13)) {
    const n = 1 + rng.int(IMAGE_COUNT);
    const url = imageUrl(opts.mediaDomain, n);
    const { width, height } = imageSize(n);
    text += `\n${url}`;
    tags.push(['imeta', `url ${url}`, 'm image/svg+xml', `dim ${width}x${height}`]);
  } else if (rng.chance(0.06)) {
    const url = `https://${opts.siteDomain}/${rng.pick(LINK_PATHS)}`;
    text += `\n\n${url}`;
    tags.push(['r', url]);
  }
  return { content: text, tags };
}

/** A reply's text: short, medium, long or topical, in the mix real threads have. */
export function composeReply(rng: Rng, topicId: string): string {
  const roll = rng.next();
  if (roll < 0.3) return rng.pick(SHORT_REPLIES);
  if (roll < 0.6) return rng.pick(TOPIC_REPLIES[topicId] ?? GENERIC_REPLIES);
  if (roll < 0.82) return rng.pick(GENERIC_REPLIES);
  if (roll < 0.92) return rng.pick(LONG_REPLIES);
  const topic = TOPIC_BY_ID.get(topicId) ?? TOPICS[0];
  return fillTemplate(rng, rng.pick(topic.notes.filter((t) => !t.includes('{mention}'))));
}
