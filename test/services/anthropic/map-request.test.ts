import { describe, expect, it } from 'vitest';
import type { MessagesBody } from '../../../src/api/anthropic.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { chatMessages } from '../../../src/services/anthropic/map-request.js';

const messagesOf = (messages: unknown[], system?: string) =>
  chatMessages({ messages, ...(system === undefined ? {} : { system }) } as Pick<MessagesBody, 'system' | 'messages'>);

describe('Anthropic messages as chat messages', () => {
  it('keeps a system message given in the course of the conversation in its place (Claude Code sends one)', () => {
    expect(
      messagesOf(
        [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          { role: 'system', content: 'Agents you may call: ...' },
          { role: 'system', content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }] },
        ],
        'You are a coding agent.',
      ),
    ).toEqual([
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'Agents you may call: ...' },
      { role: 'system', content: 'Be brief.' },
    ]);
  });

  it('refuses a system message with other than text blocks, naming the block', () => {
    const bad = () =>
      messagesOf([
        { role: 'user', content: 'Hi' },
        { role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] },
      ]);
    expect(bad).toThrow(ApiError);
    expect(bad).toThrow(/messages\[1\]\.content\[0\]\.type: a system message holds text blocks only/);
  });
});
