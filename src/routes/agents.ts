import { AgentBody, AgentConversationBody } from '../api/agents.js';
import { AgentChunk, AgentConversationReply, AgentReply } from '../api/agents-reply.js';
import { modelNotConfigured } from '../errors/errors.js';
import { sendEventStream } from '../server/event-stream.js';
import { newPlatformId } from '../server/ids.js';
import { publicUrl } from '../server/public-url.js';
import type { AgentUsage } from '../services/agents/model-caller.js';
import { chunkAfterFailure } from '../services/stream-failure.js';
import { filePath } from './files.js';
import { defineOperation } from './operation.js';

const wireUsage = (u: AgentUsage) => ({
  prompt_tokens: u.promptTokens,
  completion_tokens: u.completionTokens,
  total_tokens: u.promptTokens + u.completionTokens,
  total_calls: u.totalCalls,
});

export const agents = defineOperation<AgentBody, typeof AgentReply>({
  id: 'agents',
  method: 'POST',
  path: '/agents',
  base: 'agents',
  summary: 'Run an agent (general_translation), whole or streamed',
  body: AgentBody,
  reply: AgentReply,
  chunk: AgentChunk,
  async handle(ctx) {
    const { body, services, key, identity: replyIdentity, signal, request, reply } = ctx;
    const agent = services.agents;
    if (!agent) throw modelNotConfigured(`Agent ${body.agent_id}`, 'agents');
    agent.check(body);
    const identity = { id: replyIdentity.id, conversationId: newPlatformId(), keyId: key.id };
    // The service notes what its model calls use in ctx.usage, however they end.
    const run = await agent.start(body, identity, ctx);
    const head = { id: identity.id, agent_id: body.agent_id, conversation_id: identity.conversationId };
    if (!body.stream) {
      let text = '';
      for await (const piece of run.pieces) text += piece;
      return {
        ...head,
        status: 'success',
        choices: [
          {
            index: 0,
            finish_reason: run.finishReason(),
            messages: [{ role: 'assistant', content: { type: 'text', text } }],
          },
        ],
        usage: wireUsage(run.usage),
      };
    }
    // docs/wire.md, "Agents": a chunk per text as it is made, then one with finish_reason and usage;
    // a failure is handled by the one streaming-failure rule (services/stream-failure.ts).
    const log = (err: unknown, message: string) => request.log.error({ err }, `agent ${message}`);
    const lastChunk = (reason: string) =>
      JSON.stringify({ ...head, choices: [{ index: 0, finish_reason: reason }], usage: wireUsage(run.usage) });
    async function* chunks(): AsyncGenerator<string> {
      let sent = false;
      let last: string | undefined;
      try {
        for await (const text of run.pieces) {
          sent = true;
          yield JSON.stringify({
            ...head,
            choices: [{ index: 0, messages: [{ role: 'assistant', content: { type: 'text', text } }] }],
          });
        }
        last = lastChunk(run.finishReason());
      } catch (err) {
        last = chunkAfterFailure(err, { sent, cancelled: signal.aborted }, log, lastChunk);
      }
      if (last !== undefined) yield last;
    }
    await sendEventStream(reply, chunks());
    return undefined;
  },
});

export const agentConversation = defineOperation<AgentConversationBody, typeof AgentConversationReply>({
  id: 'agents.conversation',
  method: 'POST',
  path: '/agents/conversation',
  base: 'agents',
  summary: "The artifacts of one of the caller's agent conversations",
  body: AgentConversationBody,
  reply: AgentConversationReply,
  async handle({ body, services, key, signal, request }) {
    const agent = services.agents;
    if (!agent) throw modelNotConfigured(`Agent ${body.agent_id}`, 'agents');
    const vars = body.custom_variables ?? {};
    const artifacts = await agent.artifacts(
      key.id,
      body.conversation_id,
      { includePdf: vars.include_pdf === true, pages: vars.pages ?? [] },
      signal,
    );
    const url = (file: Parameters<typeof filePath>[0]) =>
      publicUrl(request, services.config.server.public_url, filePath(file));
    const content = artifacts.map((a) => ({ type: a.type, tag_cn: a.tagCn, tag_en: a.tagEn, [a.type]: url(a.file) }));
    return {
      conversation_id: body.conversation_id,
      agent_id: body.agent_id,
      choices: [{ index: 0, message: [{ role: 'assistant', content }] }],
    };
  },
});
