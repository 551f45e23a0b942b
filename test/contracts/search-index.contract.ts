import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TopKOptions } from '../../src/search/ranking/top-k.js';
import type { SearchDocument, SearchIndex } from '../../src/search/types.js';
import { MIXED_CORPUS, MIXED_QUERIES } from './mixed-corpus.js';

export interface SearchIndexFixture {
  index: SearchIndex;
  close(): Promise<void>;
}

const NOW = new Date('2026-03-15T12:00:00Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString().slice(0, 10);

const CORPUS: SearchDocument[] = [
  {
    url: 'https://energy.example.com/tidal-orkney',
    title: 'Tidal turbines in Orkney',
    content:
      'Engineers installed tidal turbines on the seabed of the Orkney strait. The turbines turn slowly and feed power ashore through an armoured cable.',
    published: daysAgo(0),
    site: 'Energy Weekly',
  },
  {
    url: 'https://news.example.org/solar-sahara',
    title: 'Solar farms in the Sahara',
    content: 'Photovoltaic panels across the desert supply electricity to coastal cities; dust storms reduce output.',
    published: daysAgo(400),
    site: 'Example News',
  },
  {
    url: 'https://blog.example.net/sourdough',
    title: 'A sourdough starter in seven days',
    content:
      'Flour, water and patience: feed the starter twice a day and it will rise reliably by the end of the week.',
    published: daysAgo(20),
  },
  {
    url: 'https://www.energy.example.com/wind-offshore',
    title: 'Offshore wind records',
    content:
      'Offshore wind farms in the North Sea set a generation record during the winter storms. Power prices fell.',
    published: daysAgo(3),
  },
  {
    url: 'https://notenergy.example.com/grid',
    title: 'Grid batteries',
    content: 'Large batteries keep the grid stable when wind and solar power dip; operators bid into reserve markets.',
    published: daysAgo(2),
  },
  {
    url: 'https://marathon.example.org/training',
    title: 'Marathon training plan',
    content: 'She runs forty kilometres a week and rests on Sundays. A good plan avoids injury.',
  },
  {
    url: 'https://cn.example.cn/chaxi',
    title: '潮汐能发电站',
    content: '工程师在海峡海底安装了潮汐涡轮机，缓慢转动的叶片通过海底电缆向岸上输送电力。',
    published: daysAgo(100),
    site: '能源周刊',
  },
  {
    url: 'https://jp.example.jp/tenki',
    title: '東京の天気予報',
    content: '明日の東京は晴れのち曇りで、最高気温は二十度の見込みです。週末は雨が降るでしょう。',
  },
  {
    url: 'https://kr.example.kr/food',
    title: '김치 만드는 법',
    content: '배추를 소금에 절인 다음 양념을 버무려 김치를 만듭니다.',
  },
];

const urls = (hits: { url: string }[]) => hits.map((h) => h.url);

/** The shared suite every SearchIndex implementation must pass (docs/architecture.md, "Seams"). */
export function runSearchIndexContract(
  label: string,
  setup: (options?: { topK?: TopKOptions }) => Promise<SearchIndexFixture>,
): void {
  describe(`SearchIndex contract: ${label}`, () => {
    let fx: SearchIndexFixture;
    let index: SearchIndex;
    beforeEach(async () => {
      fx = await setup();
      index = fx.index;
      await index.upsert(CORPUS);
    });
    afterEach(async () => {
      await fx.close();
    });

    it('ranks the document about the query first', async () => {
      expect(urls(await index.query({ text: 'tidal turbines cable', count: 10 }))[0]).toBe(CORPUS[0]!.url);
      expect(urls(await index.query({ text: 'sourdough starter flour', count: 10 }))[0]).toBe(CORPUS[2]!.url);
    });

    it('puts a title match above a passing mention in the body', async () => {
      await index.upsert([
        {
          url: 'https://a.example/kayak',
          title: 'Kayak repair guide',
          content: 'Patch the hull with resin and cloth.',
        },
        {
          url: 'https://a.example/trip',
          title: 'A weekend by the lake',
          content: 'We walked, swam, ate well and saw someone with a kayak on the far shore of the lake.',
        },
      ]);
      expect(urls(await index.query({ text: 'kayak', count: 10 }))).toEqual([
        'https://a.example/kayak',
        'https://a.example/trip',
      ]);
    });

    it('ranks the long page that answers a query above short off-topic pages that repeat its words', async () => {
      await index.upsert(MIXED_CORPUS);
      for (const [text, url] of MIXED_QUERIES) {
        expect([text, urls(await index.query({ text, count: 5 }))[0]]).toEqual([text, url]);
      }
    });

    it('stems English: "running" finds "runs"', async () => {
      expect(urls(await index.query({ text: 'running', count: 10 }))).toContain(CORPUS[5]!.url);
    });

    it('returns at most count hits', async () => {
      expect(await index.query({ text: 'power wind solar turbines', count: 2 })).toHaveLength(2);
      expect(await index.query({ text: 'power', count: 1 })).toHaveLength(1);
    });

    it('completes hundreds of candidates in order: count 50 over 300 matching pages, filtered or not', async () => {
      const pages = Array.from({ length: 300 }, (_, i) => ({
        url: `https://${i % 2 === 0 ? 'even' : 'odd'}.reefs.example/p${i}`,
        title: `Page ${i}`,
        content: `${'reef '.repeat((i % 10) + 1)}${'coral water '.repeat(15 - (i % 10))}`,
      }));
      await index.upsert(pages);
      const best = await index.query({ text: 'reef', count: 50 });
      const even = await index.query({ text: 'reef', count: 50, domain: 'even.reefs.example' });
      for (const hits of [best, even]) {
        expect(new Set(urls(hits)).size).toBe(50);
        const scores = hits.map((h) => h.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      }
      expect(urls(even).every((u) => u.startsWith('https://even.'))).toBe(true);
      // The same ranking however many candidates a query completes: the best 10 lead the best 50,
      // and the filtered answer starts with the unfiltered one's pages of that domain.
      expect(urls(await index.query({ text: 'reef', count: 10 }))).toEqual(urls(best).slice(0, 10));
      const evenInBest = urls(best).filter((u) => u.startsWith('https://even.'));
      expect(urls(even).slice(0, evenInBest.length)).toEqual(evenInBest);
    });

    it('answers a query whose filters leave few pages as reading every posting would', async () => {
      // 400 pages on one site, 6 on another, the query's word on all of them; a budget of 40 postings
      // reaches none of the small site's pages in the first round.
      const pages = Array.from({ length: 406 }, (_, i) => ({
        url: i < 400 ? `https://big.reefs.example/p${i}` : `https://small.reefs.example/p${i}`,
        title: `Page ${i}`,
        content: `${'reef '.repeat((i % 7) + 1)}${'coral water '.repeat(12 - (i % 7))}`,
        published: daysAgo(i % 10),
      }));
      const small = await setup({ topK: { budget: 40, candidates: 64 } });
      try {
        await small.index.upsert([...CORPUS, ...pages]);
        await index.upsert(pages);
        for (const q of [
          { text: 'reef', count: 3, domain: 'small.reefs.example' },
          { text: 'reef coral', count: 10, domain: 'small.reefs.example', recency: 'oneWeek' as const, now: NOW },
          { text: 'reef', count: 5, domain: 'big.reefs.example', recency: 'oneWeek' as const, now: NOW },
        ]) {
          const expected = await index.query(q);
          expect(expected.length).toBeGreaterThan(0);
          expect(await small.index.query(q)).toEqual(expected);
        }
      } finally {
        await small.close();
      }
    });

    it('filters by a domain with more pages than the scoring is restricted to (checked on the candidates)', async () => {
      const filler = Array.from({ length: 20_010 }, (_, i) => ({
        url: `https://big.example/f${i}`,
        title: `Filler ${i}`,
        content: 'nothing here',
      }));
      const reefs = ['https://big.example/r1', 'https://sub.big.example/r2', 'https://other.example/r3'];
      await index.upsert([
        ...filler,
        ...reefs.map((url, i) => ({ url, title: `Reef ${i}`, content: 'reef '.repeat(i + 1) })),
      ]);
      for (let round = 0; round < 2; round++) {
        // The second time the domain is known to be broad and its pages are not read again.
        const hits = await index.query({ text: 'reef', count: 5, domain: 'big.example' });
        expect(urls(hits).sort()).toEqual([reefs[0], reefs[1]].sort());
      }
    }, 60_000);

    it('filters by domain, subdomains included', async () => {
      const hits = await index.query({ text: 'power wind electricity', count: 10, domain: 'energy.example.com' });
      expect(urls(hits).sort()).toEqual([CORPUS[0]!.url, CORPUS[3]!.url].sort());
    });

    it('filters by domain and recency together (one read of the host index on both backends)', async () => {
      await index.upsert([
        {
          url: 'https://energy.example.com/wind-archive',
          title: 'Wind power, two months on',
          content: 'Electricity from wind turbines, looked at again after two months.',
          published: daysAgo(60),
        },
      ]);
      const text = 'power wind electricity';
      const month = await index.query({ text, count: 10, domain: 'energy.example.com', recency: 'oneMonth', now: NOW });
      expect(urls(month).sort()).toEqual([CORPUS[0]!.url, CORPUS[3]!.url].sort());
      const year = await index.query({ text, count: 10, domain: 'energy.example.com', recency: 'oneYear', now: NOW });
      expect(urls(year)).toContain('https://energy.example.com/wind-archive');
      expect(urls(year)).not.toContain('https://notenergy.example.com/grid');
    });

    it('filters by recency against the given clock; undated documents never pass', async () => {
      const text = 'turbines wind solar sourdough batteries running';
      const week = await index.query({ text, count: 10, recency: 'oneWeek', now: NOW });
      expect(urls(week).sort()).toEqual([CORPUS[0]!.url, CORPUS[3]!.url, CORPUS[4]!.url].sort());
      const month = await index.query({ text, count: 10, recency: 'oneMonth', now: NOW });
      expect(urls(month)).toContain(CORPUS[2]!.url);
      expect(urls(month)).not.toContain(CORPUS[5]!.url);
      const all = await index.query({ text, count: 10, recency: 'noLimit', now: NOW });
      expect(urls(all)).toContain(CORPUS[5]!.url);
      expect(urls(all)).toContain(CORPUS[1]!.url);
    });

    it('replaces a document by url and removes it', async () => {
      await index.upsert([{ ...CORPUS[2]!, title: 'Rye bread', content: 'Dark rye loaves baked slowly.' }]);
      expect(await index.query({ text: 'sourdough', count: 10 })).toEqual([]);
      expect(urls(await index.query({ text: 'rye', count: 10 }))).toEqual([CORPUS[2]!.url]);
      await index.remove([CORPUS[2]!.url, 'https://unknown.example/']);
      expect(await index.query({ text: 'rye', count: 10 })).toEqual([]);
    });

    it('keeps collections apart', async () => {
      await index.upsert([
        { url: 'https://kb.example/a', title: 'Sourdough FAQ', content: 'Starter questions.', collection: 'kb' },
      ]);
      expect(urls(await index.query({ text: 'sourdough', count: 10 }))).toEqual([CORPUS[2]!.url]);
      expect(urls(await index.query({ text: 'sourdough', count: 10, collections: ['kb'] }))).toEqual([
        'https://kb.example/a',
      ]);
      expect(await index.query({ text: 'sourdough', count: 10, collections: ['kb', 'web'] })).toHaveLength(2);
      await index.remove(['https://kb.example/a']); // wrong collection: nothing happens
      expect(await index.query({ text: 'sourdough', count: 10, collections: ['kb'] })).toHaveLength(1);
      await index.remove(['https://kb.example/a'], 'kb');
      expect(await index.query({ text: 'sourdough', count: 10, collections: ['kb'] })).toEqual([]);
    });

    it('finds Chinese, Japanese and Korean documents with queries in those languages', async () => {
      expect(urls(await index.query({ text: '潮汐涡轮机', count: 10 }))[0]).toBe(CORPUS[6]!.url);
      expect(urls(await index.query({ text: '海底电缆', count: 10 }))[0]).toBe(CORPUS[6]!.url);
      expect(urls(await index.query({ text: '東京の天気', count: 10 }))[0]).toBe(CORPUS[7]!.url);
      expect(urls(await index.query({ text: '김치', count: 10 }))[0]).toBe(CORPUS[8]!.url);
    });

    it('fills every hit field; the snippet holds a matched term', async () => {
      const [hit] = await index.query({ text: 'armoured cable', count: 1 });
      expect(hit).toMatchObject({ url: CORPUS[0]!.url, title: CORPUS[0]!.title, site: 'Energy Weekly' });
      expect(hit!.snippet).toMatch(/cable/);
      expect(hit!.published?.slice(0, 10)).toBe(daysAgo(0));
      expect(typeof hit!.score).toBe('number');
      const [www] = await index.query({ text: 'offshore', count: 1 });
      expect(www!.site).toBe('energy.example.com');
      expect(www!.published).toBeDefined();
      const [undated] = await index.query({ text: 'marathon', count: 1 });
      expect(undated!.published).toBeUndefined();
    });

    it('centres long snippets on the matched terms', async () => {
      const filler = 'lorem ipsum dolor sit amet '.repeat(40);
      await index.upsert([
        { url: 'https://long.example/', title: 'Long page', content: `${filler} the zeppelin hangar ${filler}` },
      ]);
      const [hit] = await index.query({ text: 'zeppelin', count: 1 });
      expect(hit!.snippet).toContain('zeppelin');
      expect(hit!.snippet.length).toBeLessThanOrEqual(310);
      expect(hit!.snippet.length).toBeGreaterThan(150);
      expect(hit!.snippet).toMatch(/^… ?[a-z]+ /); // starts at a word boundary
    });

    it('answers [] for queries with no searchable term or no match', async () => {
      expect(await index.query({ text: '', count: 10 })).toEqual([]);
      expect(await index.query({ text: '"-( )*^:', count: 10 })).toEqual([]);
      expect(await index.query({ text: 'zzqqxx nothingmatches', count: 10 })).toEqual([]);
    });

    it('never throws on punctuation and operator-laden queries', async () => {
      const pieces = ['.', '-', '(', ')', ',', '/', "'", '%', '+', '$', ':', '"', '*', '^', 'NEAR', 'AND', 'OR', 'NOT'];
      const token = fc.oneof(fc.constantFrom(...pieces, ' ', 'wind', 'title:', '潮汐'), fc.string({ maxLength: 6 }));
      await fc.assert(
        fc.asyncProperty(fc.array(token, { maxLength: 12 }), async (parts) => {
          const hits = await index.query({ text: parts.join(''), count: 5 });
          expect(hits.length).toBeLessThanOrEqual(5);
        }),
        { numRuns: 150 },
      );
    });

    it('reports documents per collection', async () => {
      await index.upsert([{ url: 'https://kb.example/a', title: 'A', content: 'B', collection: 'kb' }]);
      expect(await index.stats()).toEqual([
        { collection: 'kb', documents: 1 },
        { collection: 'web', documents: CORPUS.length },
      ]);
    });

    it('keeps who a collection belongs to: none until given, then the latest owner, per collection', async () => {
      await index.upsert([{ url: 'https://kb.example/a', title: 'A', content: 'B', collection: 'kb' }]);
      expect(await index.ownerOf('kb')).toBeUndefined();
      await index.setOwner('kb', 'account:a');
      await index.setOwner('other', 'key:k');
      expect(await index.ownerOf('kb')).toBe('account:a');
      await index.setOwner('kb', 'account:b');
      expect(await index.ownerOf('kb')).toBe('account:b');
      expect(await index.ownerOf('other')).toBe('key:k');
      expect(await index.ownerOf('web')).toBeUndefined();
      // Owners are not counts: emptying a collection leaves its owner.
      await index.remove(['https://kb.example/a'], 'kb');
      expect(await index.ownerOf('kb')).toBe('account:b');
    });

    it('lists documents without their text, the latest first, by collection and page', async () => {
      await index.upsert([{ url: 'https://kb.example/a', title: 'A', content: 'Body', collection: 'kb' }]);
      const [latest] = await index.documents({ offset: 0, limit: 1 });
      expect(latest).toEqual({
        url: 'https://kb.example/a',
        title: 'A',
        site: latest!.site,
        collection: 'kb',
        published: undefined,
        chars: 4,
      });
      const web = await index.documents({ collection: 'web', offset: 0, limit: 100 });
      expect(web.map((d) => d.url).sort()).toEqual(CORPUS.map((d) => d.url).sort());
      expect(await index.documents({ collection: 'web', offset: 1, limit: 2 })).toEqual(web.slice(1, 3));
      expect(await index.documents({ collection: 'none', offset: 0, limit: 10 })).toEqual([]);
    });

    it('rejects invalid documents and counts without writing', async () => {
      await expect(index.upsert([{ url: 'not a url', title: 't', content: 'c' }])).rejects.toMatchObject({
        code: 1214,
      });
      await expect(
        index.upsert([{ url: 'https://ok.example/', title: 't', content: 'c', published: 'yesterday-ish' }]),
      ).rejects.toMatchObject({ code: 1214 });
      await expect(index.query({ text: 'wind', count: 0 })).rejects.toMatchObject({ code: 1214 });
      expect(await index.stats()).toEqual([{ collection: 'web', documents: CORPUS.length }]);
    });
  });
}
