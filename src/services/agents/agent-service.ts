import { randomBytes } from 'node:crypto';
import type { AgentBody } from '../../api/agents.js';
import { ConfigError } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import { countTokensAtMost } from '../../engines/chat/token-bound.js';
import type { ChatEngine } from '../../engines/chat/types.js';
import { notFound, unknownModel } from '../../errors/errors.js';
import type { FileStore } from '../../files/types.js';
import { CHAT_MODEL_CODES, chatModel } from '../../models/catalogue.js';
import type { ConversationRecord, ConversationStore } from '../../stores/conversations.js';
import { retryThroughFaults } from '../../stores/retry-faults.js';
import { AsyncQueue } from '../../util/async-queue.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import type { CallContext } from '../call-context.js';
import type { ChatService } from '../chat/chat-service.js';
import { type Artifact, type ArtifactOptions, ConversationArtifacts } from './artifacts/conversation-artifacts.js';
import { ArtifactRenderer } from './artifacts/renderer.js';
import { detectLanguage } from './detect-language.js';
import { languageName } from './languages.js';
import { type AgentUsage, ModelCaller } from './model-caller.js';
import { translationRequest } from './request.js';
import { splitText } from './split-text.js';
import { translatePieces } from './translate-pieces.js';

export const TRANSLATION_AGENT = 'general_translation';

/** How long a conversation's save is tried again while the database is faulty (then the call fails). */
const SAVE_RETRY_MS = 5000;

export interface AgentIdentity {
  id: string;
  conversationId: string;
  keyId: string;
}

/** A started agent call: its translation comes piece by piece; usage grows as calls finish. */
export interface AgentRun {
  identity: AgentIdentity;
  /** The translation as it is made, to be sent as it comes; the conversation is saved before the last text returns. */
  pieces: AsyncIterable<string>;
  usage: AgentUsage;
  /** `length` when a piece's translation was cut by the model's output limit, else `stop`. */
  finishReason(): 'stop' | 'length';
}

type AgentsConfig = Config['agents']['general_translation'];

/** Start-up check: a code outside the catalogue can never be served, so a typo stops the server. */
export function checkAgentsConfig(config: Config['agents']): void {
  const code = config.general_translation.model;
  if (!chatModel(code)) {
    throw new ConfigError(
      `config: agents.general_translation.model: unknown chat model code "${code}"; known: ${CHAT_MODEL_CODES.join(', ')}`,
    );
  }
}

/** The `general_translation` agent: translation strategies on a chat model, and its conversations. */
export class AgentService {
  private readonly renderer: ArtifactRenderer;
  private readonly artifactFiles: ConversationArtifacts;

  /** `secret` names the stored artifacts (see ConversationArtifacts); default: one for this process only. */
  constructor(
    private readonly chat: ChatService | undefined,
    private readonly conversations: ConversationStore,
    files: FileStore,
    private readonly config: AgentsConfig,
    secret: Buffer = randomBytes(32),
  ) {
    this.renderer = new ArtifactRenderer(config.render_queue_size);
    this.artifactFiles = new ConversationArtifacts(files, this.renderer, secret, {
      maxPages: config.artifact_max_pages,
      maxPagePixels: config.artifact_max_page_pixels,
      maxPixels: config.artifact_max_pixels,
    });
  }

  /** Validates the request against the agent (1214 naming the field) before any model work. */
  check(body: AgentBody): void {
    this.request(body);
  }

  /**
   * Resolves the model and cuts the text into pieces; everything that can fail before the first
   * piece fails here, so the caller can still answer with a JSON error.
   */
  async start(body: AgentBody, identity: AgentIdentity, call: CallContext): Promise<AgentRun> {
    const req = this.request(body);
    const engine = await this.engine();
    const sourceLang = req.sourceLang === 'auto' ? await detectLanguage(req.text) : req.sourceLang;
    const budget = this.config.piece_tokens || Math.floor(engine.capabilities.maxContext / 8);
    // An upper bound is enough to cut pieces: engines without a tokenizer count UTF-8 bytes.
    const pieces = await splitText(req.text, Math.max(64, budget), (text) =>
      countTokensAtMost(engine, [{ role: 'user', content: text }]),
    );
    const spec = chatModel(this.config.model);
    call.usage.useModel(this.config.model);
    const model = new ModelCaller(engine, this.config.model, call, Math.min(spec?.temperature ?? 0.6, 0.7));
    const base = {
      source: sourceLang ? languageName(sourceLang) : 'the original language',
      target: languageName(req.targetLang),
      suggestion: req.suggestion,
      reasonLang: req.reasonLang,
    };
    const conversations = this.conversations;
    const repair = this.config.glossary_repair;
    const settings = {
      source_lang: sourceLang ?? 'auto',
      target_lang: req.targetLang,
      strategy: req.strategy.name,
      glossary: req.glossaryText,
      model: this.config.model,
    };
    let cut = false;
    const noteFinish = () => {
      if (model.lastFinish === 'length' || model.lastFinish === 'model_context_window_exceeded') cut = true;
    };
    async function* run(): AsyncGenerator<string> {
      const queue = new AsyncQueue<string>();
      let translation = '';
      const emit = (text: string) => {
        translation += text;
        queue.push(text);
      };
      const work = async () => {
        await translatePieces(pieces, req.strategy, base, req.glossary, model, emit, { repair, onPiece: noteFinish });
        // Saved before the last text goes out (it is held below): a client that has the whole
        // answer can fetch the conversation at once.
        const record = {
          id: identity.conversationId,
          keyId: identity.keyId,
          agentId: TRANSLATION_AGENT,
          settings,
          sourceText: req.text,
          translation,
          usage: { ...model.usage },
          createdAt: Date.now(),
        };
        // A database away for a moment must not cost a finished translation: the save (an upsert)
        // is tried again for a few seconds before the call fails with 1305.
        await retryThroughFaults(() => conversations.save(record), SAVE_RETRY_MS);
      };
      const working = work().then(
        () => queue.close(),
        (err: unknown) => queue.fail(err),
      );
      let held: string | undefined;
      try {
        for await (const text of queue.drain()) {
          if (held !== undefined) yield held;
          held = text;
        }
      } catch (err) {
        // What was made before the failure still goes out; the caller then ends the stream.
        if (held !== undefined) yield held;
        throw err;
      } finally {
        // A client that left stops the work (its signal); the request ends, and its usage is
        // recorded, once the model call under way has stopped and been counted.
        await working;
      }
      if (held !== undefined) yield held;
    }
    return { identity, pieces: run(), usage: model.usage, finishReason: () => (cut ? 'length' : 'stop') };
  }

  /** The caller's conversation, or 1233 as if it did not exist. */
  async conversation(keyId: string, id: string): Promise<ConversationRecord> {
    const found = await this.conversations.get(keyId, id);
    if (!found) throw notFound(`Conversation ${id} does not exist`);
    return found;
  }

  /**
   * The artifacts of the caller's conversation, stored in the file store once per conversation and
   * options (see conversation-artifacts.ts). Renders wait their turn key by key; one whose clients
   * have all left (`signal`) is dropped, waiting or in the worker.
   */
  async artifacts(keyId: string, id: string, options: ArtifactOptions, signal?: CancelSignal): Promise<Artifact[]> {
    this.artifactFiles.check(options);
    return this.artifactFiles.get(await this.conversation(keyId, id), options, signal);
  }

  /** Stops the rendering worker, if one runs. */
  close(): Promise<void> {
    return this.renderer.close();
  }

  private request(body: AgentBody) {
    return translationRequest(body, this.config.max_input_chars, {
      maxEntries: this.config.max_glossary_entries,
      maxBytes: this.config.max_glossary_bytes,
    });
  }

  private async engine(): Promise<ChatEngine> {
    const code = this.config.model;
    if (!this.chat?.hasModel(code)) {
      throw unknownModel(
        `Agent general_translation runs on model ${code}, which is not configured on this server: add it under \`models.${code}\`, set \`embedded.default_model\`, or point \`agents.general_translation.model\` at a configured code`,
      );
    }
    return this.chat.engineFor(code);
  }
}
