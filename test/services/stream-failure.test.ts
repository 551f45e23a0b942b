import { describe, expect, it, vi } from 'vitest';
import { chunkAfterCutOff, chunkAfterFailure, FAILED_STREAM_REASON } from '../../src/services/stream-failure.js';

const last = (reason: string) => `last:${reason}`;

describe('the streaming-failure rule', () => {
  it('before the first chunk, the error propagates (the edge answers a JSON error)', () => {
    const log = vi.fn();
    const err = new Error('engine down');
    expect(() => chunkAfterFailure(err, { sent: false, cancelled: false }, log, last)).toThrow(err);
    expect(() => chunkAfterFailure(err, { sent: false, cancelled: true }, log, last)).toThrow(err);
    expect(log).not.toHaveBeenCalled();
  });

  it('after it, the failure is logged and the stream ends with a network_error chunk', () => {
    const log = vi.fn();
    const err = new Error('lost upstream');
    expect(chunkAfterFailure(err, { sent: true, cancelled: false }, log, last)).toBe('last:network_error');
    expect(FAILED_STREAM_REASON).toBe('network_error');
    expect(log).toHaveBeenCalledWith(err, 'stream failed after its first chunk');
  });

  it('once the client has gone, nothing more is sent or logged', () => {
    const log = vi.fn();
    expect(chunkAfterFailure(new Error('x'), { sent: true, cancelled: true }, log, last)).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });

  it('a source cut off without its finish ends with network_error, unless the client has gone', () => {
    expect(chunkAfterCutOff({ cancelled: false }, last)).toBe('last:network_error');
    expect(chunkAfterCutOff({ cancelled: true }, last)).toBeUndefined();
  });
});
