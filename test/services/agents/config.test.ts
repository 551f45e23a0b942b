import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/load.js';
import { createTestApp } from '../../helpers/test-app.js';

describe('agents.general_translation.model', () => {
  it('an unknown chat model code stops start-up, naming the key', async () => {
    const app = createTestApp({ agents: { general_translation: { model: 'gen-47' } } });
    await expect(app).rejects.toThrow(ConfigError);
    await expect(app).rejects.toThrow(/agents\.general_translation\.model: unknown chat model code "gen-47"/);
  });

  it('defaults to gen-4.7 and starts without any agent configuration', async () => {
    const app = await createTestApp();
    try {
      expect(app.config.agents.general_translation).toMatchObject({
        model: 'gen-4.7',
        glossary_repair: true,
        piece_tokens: 0,
      });
    } finally {
      await app.close();
    }
  });
});
