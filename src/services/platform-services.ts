import type { Config } from '../config/schema.js';
import type { FileStore } from '../files/types.js';
import type { Store } from '../stores/types.js';
import type { AgentService } from './agents/agent-service.js';
import type { ChatService } from './chat/chat-service.js';
import type { EngineDirectory } from './chat/engine-directory.js';
import type { KeyService } from './keys/key-service.js';
import type { KeyLimiter } from './limits/key-limiter.js';
import type { ReaderService } from './reader/index.js';
import type { SearchService } from './search/search-service.js';
import type { TokenizerService } from './tokenizer/tokenizer-service.js';
import type { UsageRecorder } from './usage/usage-recorder.js';

/** Everything the routes call. Capabilities that later work plugs in are optional until configured. */
export interface PlatformServices {
  config: Config;
  store: Store;
  keys: KeyService;
  limiter: KeyLimiter;
  usage: UsageRecorder;
  engines?: EngineDirectory;
  chat?: ChatService | undefined;
  tokenizer?: TokenizerService | undefined;
  reader: ReaderService;
  /** Generated files (images, agent artifacts), served at `/files/{id}`. */
  files: FileStore;
  search: SearchService;
  /** The `general_translation` agent and its conversations. */
  agents?: AgentService | undefined;
  /** Releases what the services hold (engines, browsers, pools). */
  close(): Promise<void>;
}
