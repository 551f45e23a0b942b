/** The parts of ComfyUI's `/history/{prompt_id}` entry that the engine reads (spec/image-engines.md). */
export interface HistoryEntry {
  outputs?: Record<string, { images?: { filename: string; subfolder: string; type: string }[] }>;
  status?: { status_str?: string; completed?: boolean; messages?: [string, Record<string, unknown>][] };
}

export type HistoryState =
  | { state: 'pending' }
  | { state: 'done'; image: { filename: string; subfolder: string; type: string } }
  | { state: 'failed'; message: string };

/** What an entry says: still running, the output image, or why it failed. */
export function readHistory(entry: HistoryEntry | undefined, outputNode: string | undefined): HistoryState {
  if (!entry) return { state: 'pending' };
  const status = entry.status;
  const messages = status?.messages ?? [];
  const error = messages.find(([name]) => name === 'execution_error')?.[1];
  if (error) {
    const node = `${String(error['node_id'] ?? '?')} (${String(error['node_type'] ?? 'unknown')})`;
    return {
      state: 'failed',
      message: `ComfyUI failed at node ${node}: ${String(error['exception_type'] ?? 'error')}: ${String(
        error['exception_message'] ?? '',
      )
        .trim()
        .slice(0, 300)}`,
    };
  }
  if (messages.some(([name]) => name === 'execution_interrupted')) {
    return { state: 'failed', message: 'ComfyUI interrupted the job' };
  }
  if (status?.status_str === 'error') return { state: 'failed', message: 'ComfyUI reports the job failed' };
  if (status && status.completed !== true && status.status_str !== 'success') return { state: 'pending' };
  const outputs = entry.outputs ?? {};
  const nodes = outputNode === undefined ? Object.keys(outputs) : [outputNode];
  for (const node of nodes) {
    const image = outputs[node]?.images?.find((i) => i.type === 'output') ?? outputs[node]?.images?.[0];
    if (image) return { state: 'done', image };
  }
  return {
    state: 'failed',
    message: `ComfyUI finished without an image${outputNode === undefined ? '' : ` at node ${outputNode}`}`,
  };
}

/** The message of a 400 from `POST /prompt`: the error and each node's first errors. */
export function describePromptError(body: unknown): string {
  const b = (body ?? {}) as {
    error?: { type?: string; message?: string; details?: string };
    node_errors?: Record<
      string,
      { class_type?: string; errors?: { type?: string; message?: string; details?: string }[] }
    >;
  };
  const parts = [
    `${b.error?.type ?? 'error'}: ${b.error?.message ?? 'refused'}${b.error?.details ? ` (${b.error.details})` : ''}`,
  ];
  for (const [id, node] of Object.entries(b.node_errors ?? {})) {
    for (const e of (node.errors ?? []).slice(0, 3)) {
      parts.push(
        `node ${id} (${node.class_type ?? '?'}): ${e.type ?? 'error'}: ${e.message ?? ''}${e.details ? ` ${e.details}` : ''}`,
      );
    }
  }
  return parts.join('; ').slice(0, 600);
}
