import { newToolCallId } from '../../../ids/tool-call-id.js';
import type { ChatStreamPart } from '../types.js';
import type { WireToolCall } from './wire.js';

interface OpenCall {
  upstreamIndex: number;
  upstreamId: string | undefined;
  index: number;
  id: string;
  started: boolean;
  /** Argument pieces that arrived before the call's name (then the start part cannot be sent yet). */
  pending: string;
}

/**
 * Turns upstream tool-call fragments into start / delta / end parts. Upstreams send id and name on
 * the first fragment then argument pieces (vLLM, OpenAI), whole calls at once (Ollama), or repeat id
 * and name on every fragment (our own API): a name seen again is never appended, and a new id at an
 * index already in use starts a new call (some proxies number every call 0).
 */
export class ToolCallAssembler {
  private readonly calls: OpenCall[] = [];
  private current: OpenCall | undefined = undefined;

  constructor(private readonly generateIds: boolean) {}

  get count(): number {
    return this.calls.length;
  }

  push(fragment: WireToolCall, position: number, out: ChatStreamPart[]): void {
    const upstreamIndex =
      typeof fragment.index === 'number' ? fragment.index : (this.current?.upstreamIndex ?? position);
    const upstreamId = fragment.id ? fragment.id : undefined;
    let call = this.find(upstreamIndex);
    if (
      call === undefined ||
      (upstreamId !== undefined && call.upstreamId !== undefined && upstreamId !== call.upstreamId)
    ) {
      call = this.open(upstreamIndex, upstreamId);
    } else if (call.upstreamId === undefined && upstreamId !== undefined) {
      call.upstreamId = upstreamId;
      if (!this.generateIds && !call.started) call.id = upstreamId;
    }
    this.current = call;
    const name = fragment.function?.name;
    const args = fragment.function?.arguments;
    if (!call.started && name) {
      call.started = true;
      out.push({ type: 'tool-call-start', index: call.index, id: call.id, name });
      if (call.pending !== '') {
        out.push({ type: 'tool-call-delta', index: call.index, argumentsDelta: call.pending });
        call.pending = '';
      }
    }
    if (args) {
      if (call.started) out.push({ type: 'tool-call-delta', index: call.index, argumentsDelta: args });
      else call.pending += args;
    }
  }

  /** Ends every open call; a call whose name never came still gets a start, so the parts stay well-formed. */
  end(out: ChatStreamPart[]): void {
    for (const call of this.calls) {
      if (!call.started) {
        out.push({ type: 'tool-call-start', index: call.index, id: call.id, name: '' });
        if (call.pending !== '') out.push({ type: 'tool-call-delta', index: call.index, argumentsDelta: call.pending });
      }
      out.push({ type: 'tool-call-end', index: call.index });
    }
    this.calls.length = 0;
    this.current = undefined;
  }

  private find(upstreamIndex: number): OpenCall | undefined {
    for (let i = this.calls.length - 1; i >= 0; i--) {
      const call = this.calls[i]!;
      if (call.upstreamIndex === upstreamIndex) return call;
    }
    return undefined;
  }

  private open(upstreamIndex: number, upstreamId: string | undefined): OpenCall {
    const id = this.generateIds || upstreamId === undefined ? newToolCallId() : upstreamId;
    const call: OpenCall = { upstreamIndex, upstreamId, index: this.calls.length, id, started: false, pending: '' };
    this.calls.push(call);
    return call;
  }
}
