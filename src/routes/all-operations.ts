import { agentConversation, agents } from './agents.js';
import { ANTHROPIC_OPERATIONS } from './anthropic.js';
import { chatCompletions } from './chat.js';
import { asyncImageGenerations, asyncResult, imageGenerations } from './images.js';
import { models, modelsV1 } from './models.js';
import type { Operation } from './operation.js';
import { reader } from './reader.js';
import {
  responsesCreate,
  responsesCreateV1,
  responsesDelete,
  responsesDeleteV1,
  responsesGet,
  responsesGetV1,
} from './responses.js';
import { tokenizer } from './tokenizer.js';
import { webSearch } from './web-search.js';

export const ALL_OPERATIONS: readonly Operation<never>[] = [
  tokenizer,
  chatCompletions,
  imageGenerations,
  asyncImageGenerations,
  asyncResult,
  agents,
  agentConversation,
  reader,
  webSearch,
  models,
  modelsV1,
  responsesCreate,
  responsesGet,
  responsesDelete,
  responsesCreateV1,
  responsesGetV1,
  responsesDeleteV1,
  ...ANTHROPIC_OPERATIONS,
] as Operation<never>[];
