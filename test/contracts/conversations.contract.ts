import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationRecord, ConversationStore } from '../../src/stores/conversations.js';

export interface ConversationsFixture {
  conversations: ConversationStore;
  /** The same data through a second connection, as another process would see it. */
  reopen(): Promise<ConversationStore>;
  close(): Promise<void>;
}

const record = (id: string, keyId: string, extra: Partial<ConversationRecord> = {}): ConversationRecord => ({
  id,
  keyId,
  agentId: 'general_translation',
  settings: { source_lang: 'en', target_lang: 'zh-CN', strategy: 'general' },
  sourceText: 'The weather is lovely today.\n\nLet us walk.',
  translation: '今天天气很好。\n\n我们走走吧。',
  usage: { promptTokens: 12, completionTokens: 7, totalCalls: 1 },
  createdAt: 1_700_000_000_000,
  ...extra,
});

/** The conversations sub-interface's contract: every store runs this same suite. */
export function runConversationsContract(label: string, setup: () => Promise<ConversationsFixture>): void {
  describe(`conversations contract: ${label}`, () => {
    let f: ConversationsFixture;
    beforeAll(async () => {
      f = await setup();
    });
    afterAll(async () => {
      await f.close();
    });

    it('reads back what it saved, text and numbers intact', async () => {
      const r = record('c-1', 'key-a', { translation: 'مرحبا بالعالم 🌍 Привет\n\n你好' });
      await f.conversations.save(r);
      expect(await f.conversations.get('key-a', 'c-1')).toEqual(r);
    });

    it("finds nothing for an unknown id or another key's conversation", async () => {
      await f.conversations.save(record('c-2', 'key-a'));
      expect(await f.conversations.get('key-a', 'nope')).toBeUndefined();
      expect(await f.conversations.get('key-b', 'c-2')).toBeUndefined();
    });

    it('a second save of one id replaces the first', async () => {
      await f.conversations.save(record('c-3', 'key-a', { translation: 'first' }));
      await f.conversations.save(record('c-3', 'key-a', { translation: 'second' }));
      expect((await f.conversations.get('key-a', 'c-3'))?.translation).toBe('second');
    });

    it('is seen through another connection', async () => {
      await f.conversations.save(record('c-4', 'key-c', { createdAt: 1_800_000_000_123 }));
      const other = await f.reopen();
      expect(await other.get('key-c', 'c-4')).toEqual(record('c-4', 'key-c', { createdAt: 1_800_000_000_123 }));
    });

    it('deletes the conversations made before a time, whatever their key, and only those', async () => {
      const at = 1_600_000_000_000;
      await f.conversations.save(record('old-1', 'key-r', { createdAt: at - 2 }));
      await f.conversations.save(record('old-2', 'key-s', { createdAt: at - 1 }));
      await f.conversations.save(record('edge', 'key-r', { createdAt: at }));
      const other = await f.reopen();
      expect(await other.deleteBefore(at)).toBe(2);
      expect(await f.conversations.get('key-r', 'old-1')).toBeUndefined();
      expect(await f.conversations.get('key-s', 'old-2')).toBeUndefined();
      expect((await f.conversations.get('key-r', 'edge'))?.createdAt).toBe(at);
      expect(await f.conversations.deleteBefore(at)).toBe(0);
    });

    it('keeps a long text whole', async () => {
      const long = 'x'.repeat(300_000);
      await f.conversations.save(record('c-5', 'key-a', { sourceText: long, translation: long }));
      expect((await f.conversations.get('key-a', 'c-5'))?.translation.length).toBe(300_000);
    });
  });
}
