import { AgentBody, AgentConversationBody } from '../api/agents.js';
import { ApiError } from '../errors/api-error.js';
import { notConfigured } from './not-configured.js';
import { defineOperation } from './operation.js';

export const agents = defineOperation<AgentBody>({
  id: 'agents',
  method: 'POST',
  path: '/agents',
  base: 'agents',
  summary: 'Run an agent (general_translation), whole or streamed',
  body: AgentBody,
  async handle({ body }) {
    throw notConfigured(`Agent ${body.agent_id}`, 'agents');
  },
});

export const agentConversation = defineOperation<AgentConversationBody>({
  id: 'agents.conversation',
  method: 'POST',
  path: '/agents/conversation',
  base: 'agents',
  summary: "The artifacts of one of the caller's agent conversations",
  body: AgentConversationBody,
  async handle({ body }) {
    throw new ApiError(1233, `Conversation ${body.conversation_id} does not exist`);
  },
});
