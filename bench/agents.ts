/**
 * The translation agent, on whatever GGUF `BENCH_AGENTS_MODEL` names (default: the
 * programmed test model, which gives the mechanics, not translation quality):
 * - overhead: `POST /v1/agents` through the whole server (socket, auth, validation, language and
 *   glossary handling, splitting, conversation saved) against the very chat-engine requests that
 *   agent call made (recorded, then replayed on the same engine directly), for a one-call and a
 *   three-call strategy;
 * - glossary adherence: share of the applicable glossary terms found in the translations of a
 *   fixed set (bench/data/glossary.json), with the repair pass and without it.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AgentBody } from '../src/api/agents.js';
import type { ChatEngine, ChatRequest } from '../src/engines/chat/types.js';
import { AgentService } from '../src/services/agents/agent-service.js';
import { parseGlossary } from '../src/services/agents/glossary.js';
import { callContext } from '../src/services/call-context.js';
import { writeTestModels } from '../src/test-models/write-test-models.js';
import { startBenchApp } from './gateway/app.js';
import { type BenchRow, benchRow } from './types.js';

const ROUNDS = 9;
const TEXT =
  'The weather is lovely today, so the committee moved its meeting outdoors.\n\nAfter lunch we will walk to the harbour and count the boats that come in.';
const CASES = JSON.parse(readFileSync(fileURLToPath(new URL('./data/glossary.json', import.meta.url)), 'utf8')) as {
  text: string;
  target_lang: string;
  glossary: string;
}[];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function drain(engine: ChatEngine, request: ChatRequest): Promise<void> {
  for await (const _ of engine.generate(request, new AbortController().signal));
}

export async function run(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-agents-'));
  let bench: Awaited<ReturnType<typeof startBenchApp>> | undefined;
  try {
    const model = process.env['BENCH_AGENTS_MODEL'] ?? (await writeTestModels(dir)).programmed;
    const deployment = { engine: 'llama-cpp', model, threads: 1, context_size: 4096, parallel: 1 };
    bench = await startBenchApp({ 'gen-4.7': { deployments: [deployment] } });
    const b = bench;
    const engine = await b.services.chat!.engineFor('gen-4.7');
    const rows: BenchRow[] = [];

    for (const strategy of ['general', 'reflection']) {
      const body = {
        agent_id: 'general_translation',
        messages: [{ role: 'user', content: TEXT }],
        custom_variables: { source_lang: 'en', target_lang: 'fr', strategy },
      };
      const viaAgent = async () => {
        const start = performance.now();
        const res = await fetch(`${b.origin}/v1/agents`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${b.key}` },
          body: JSON.stringify(body),
        });
        if (res.status !== 200) throw new Error(`agent answered ${res.status}: ${await res.text()}`);
        await res.json();
        return performance.now() - start;
      };
      // Record the requests one agent call makes, then time the agent and their direct replay in turns.
      const recorded: ChatRequest[] = [];
      const generate = engine.generate.bind(engine);
      engine.generate = (request, signal) => {
        recorded.push(structuredClone(request));
        return generate(request, signal);
      };
      await viaAgent();
      engine.generate = generate;
      const direct = async () => {
        const start = performance.now();
        for (const r of recorded) await drain(engine, r);
        return performance.now() - start;
      };
      await direct();
      const ours: number[] = [];
      const theirs: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        ours.push(await viaAgent());
        theirs.push(await direct());
      }
      rows.push(
        benchRow(
          `agents: POST /v1/agents, strategy ${strategy} (${recorded.length} model call${recorded.length > 1 ? 's' : ''}, 2 paragraphs en→fr) vs the same engine requests made directly`,
          median(ours),
          'ms',
          median(theirs),
          1,
        ),
      );
    }

    const adherence = async (repair: boolean) => {
      const agent = new AgentService(b.services.chat, b.services.store.conversations, b.services.files, {
        ...b.services.config.agents.general_translation,
        glossary_repair: repair,
      });
      let applicable = 0;
      let kept = 0;
      let calls = 0;
      for (const [i, c] of CASES.entries()) {
        const body = {
          agent_id: 'general_translation',
          messages: [{ role: 'user', content: c.text }],
          custom_variables: { source_lang: 'en', target_lang: c.target_lang, glossary: c.glossary },
        } as AgentBody;
        const run = await agent.start(
          body,
          { id: `b${i}`, conversationId: `bench-${repair}-${i}`, keyId: 'bench' },
          callContext({ tenant: 'bench' }),
        );
        let text = '';
        for await (const piece of run.pieces) text += piece;
        calls += run.usage.totalCalls;
        for (const e of parseGlossary(c.glossary).entriesIn(c.text)) {
          applicable++;
          if (text.toLocaleLowerCase().includes(e.target.toLocaleLowerCase())) kept++;
        }
      }
      return { share: applicable === 0 ? 0 : (100 * kept) / applicable, calls, applicable };
    };
    const withRepair = await adherence(true);
    const without = await adherence(false);
    process.stderr.write(
      `agents bench: glossary terms applicable ${withRepair.applicable}; calls with repair ${withRepair.calls}, without ${without.calls}\n`,
    );
    rows.push(
      benchRow(
        `agents: glossary adherence (share of applicable terms in the translation, ${CASES.length} cases, bench/data/glossary.json) with the repair pass vs without`,
        withRepair.share,
        '%',
        without.share,
        1,
      ),
      benchRow(
        'agents: model calls for the glossary set with the repair pass vs without',
        withRepair.calls,
        'calls',
        without.calls,
        0,
      ),
    );
    return rows;
  } finally {
    await bench?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await run());
  process.exit(0);
}
