import { coverUrl, COVER_COUNT, imageUrl, IMAGE_COUNT } from './media-urls.ts';
import { Network, type Post } from './model.ts';
import { WeightedPicker, type Rng } from './rng.ts';
import { asciiName } from './text.ts';
import { ARTICLE_KITS, CLOSINGS, REFLECTIONS, type ArticleKit } from './text-articles.ts';

/** Which article kit suits a note topic (some note topics have no long-form kit). */
const KIT_FOR_TOPIC: Record<string, string> = {
  nostr: 'nostr', tech: 'tech', cooking: 'cooking', balaton: 'travel', nature: 'nature', books: 'books', budapest: 'budapest',
};

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function slug(title: string): string {
  return title
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Markdown list items: semicolons between, a full stop after the last, as Hungarian lists are punctuated. */
function markdownList(items: string[]): string {
  return items.map((item, i) => `- ${item.replace(/[;.]$/, '')}${i === items.length - 1 ? '.' : ';'}`).join('\n');
}

/** k distinct indices of 0…n-1, in increasing order. */
function sortedSample(rng: Rng, n: number, k: number): number[] {
  return rng.sample(Array.from({ length: n }, (_, i) => i), k).sort((a, b) => a - b);
}

/**
 * A Markdown body: the introduction, then titled sections in the kit's narrative order
 * (a subset of them), a list, an image, a link to a related article, and a closing.
 */
export function articleBody(rng: Rng, kit: ArticleKit, title: string, mediaDomain: string, siteDomain: string): string {
  const target = rng.range(300, 1500);
  const blocks: string[] = [kit.paragraphs[0]];
  let words = wordCount(kit.paragraphs[0]);
  const push = (block: string) => {
    blocks.push(block);
    words += wordCount(block);
  };
  const sectionCount = kit.paragraphs.length - 1;
  const sections = sortedSample(rng, sectionCount, rng.range(Math.min(4, sectionCount), sectionCount)).map((i) => i + 1);
  const related = kit.titles.filter((t) => t !== title);
  sections.forEach((p, n) => {
    push(`## ${kit.headings[p - 1]}`);
    push(kit.paragraphs[p]);
    if (n === 0) push(`![${title}](${imageUrl(mediaDomain, 1 + rng.int(IMAGE_COUNT))})`);
    if (n === 1) {
      const items = sortedSample(rng, kit.listItems.length, rng.range(4, kit.listItems.length)).map((i) => kit.listItems[i]);
      push(`${kit.listIntro}\n\n${markdownList(items)}`);
    }
    if (n === 2 && related.length > 0) {
      const other = rng.pick(related);
      push(`Ha érdekel a téma, erről is írtam: [${other}](https://${siteDomain}/cikk/${slug(other)})`);
    }
  });
  for (const r of rng.sample(REFLECTIONS, REFLECTIONS.length)) if (words < target) push(r);
  push(`## Zárszó\n\n${rng.pick(CLOSINGS)}`);
  return blocks.join('\n\n');
}

/** Long-form articles (kind 30023) by a smaller set of bloggers. */
export function articlePhase(net: Network): void {
  const rng = net.rng.fork('articles');
  const users = net.users.slice(1);
  const picker = new WeightedPicker(users.map((u) => u.activity * (0.3 + u.popularity * 10)));
  const bloggers: number[] = [];
  const wantBloggers = Math.max(2, Math.round(net.counts.articles / 3));
  for (let tries = 0; bloggers.length < Math.min(wantBloggers, users.length) && tries < 10_000; tries++) {
    const idx = users[picker.pick(rng)].idx;
    if (!bloggers.includes(idx)) bloggers.push(idx);
  }
  const usedTitles = new Set<string>();
  for (let k = 0; k < net.counts.articles; k++) {
    const author = net.users[bloggers[k % bloggers.length]];
    const preferred = author.topics.map((t) => KIT_FOR_TOPIC[t]).filter(Boolean);
    const kits = [
      ...ARTICLE_KITS.filter((kit) => preferred.includes(kit.topic)),
      ...rng.sample(ARTICLE_KITS, ARTICLE_KITS.length),
    ];
    const kit = kits.find((c) => c.titles.some((t) => !usedTitles.has(t)));
    if (!kit) break;
    const title = rng.pick(kit.titles.filter((t) => !usedTitles.has(t)));
    usedTitles.add(title);
    const createdAt = net.sampleTime(rng, author.joinedAt + 3600);
    const d = `${slug(title)}-${asciiName(author.username).slice(0, 6)}`;
    const image = coverUrl(net.mediaDomain, 1 + (k % COVER_COUNT));
    const tags = [
      ['d', d],
      ['title', title],
      ['summary', rng.pick(kit.summaries)],
      ['image', image],
      ['published_at', String(createdAt)],
      ...rng.sample(kit.hashtags, rng.range(2, 3)).map((t) => ['t', t.toLowerCase()]),
    ];
    const content = articleBody(rng, kit, title, net.mediaDomain, net.nip05Domain);
    const event = net.emit({ kind: 30023, created_at: createdAt, tags, content }, author.account.secretKey);
    if (!event) continue;
    const post: Post = {
      event, author: author.idx, depth: 0, topic: kit.topic, appeal: 3 * (0.5 + rng.next()), address: `30023:${event.pubkey}:${d}`,
    };
    net.articles.push(post);
  }
}
