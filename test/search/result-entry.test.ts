import { describe, expect, it } from 'vitest';
import { toResultEntries } from '../../src/search/result-entry.js';

describe('search result entries', () => {
  it('fills every field in rank order', () => {
    const entries = toResultEntries([
      {
        url: 'https://www.example.com/a',
        title: 'A',
        snippet: 'about a',
        site: 'example.com',
        published: '2025-06-14T09:30:00.000Z',
        score: 3,
      },
      { url: 'https://news.example.org/b', title: 'B', snippet: 'about b', site: 'Example News', score: 1 },
    ]);
    expect(entries).toEqual([
      {
        title: 'A',
        content: 'about a',
        link: 'https://www.example.com/a',
        media: 'example.com',
        icon: 'https://www.example.com/favicon.ico',
        refer: 'ref_1',
        publish_date: '2025-06-14',
      },
      {
        title: 'B',
        content: 'about b',
        link: 'https://news.example.org/b',
        media: 'Example News',
        icon: 'https://news.example.org/favicon.ico',
        refer: 'ref_2',
        publish_date: '',
      },
    ]);
  });

  it('falls back to the host without www. for media', () => {
    const [e] = toResultEntries([{ url: 'https://www.a.example/', title: 't', snippet: 's', site: '', score: 0 }]);
    expect(e!.media).toBe('a.example');
  });
});
