import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenizerBody } from '../../../src/api/tokenizer.js';
import { VISION_MODELS, videoTokens } from '../../../src/services/tokenizer/media/formula.js';
import { countMedia } from '../../../src/services/tokenizer/media/media-counter.js';
import type { MediaOptions } from '../../../src/services/tokenizer/media/options.js';
import { apiError, dataUrl, type MediaServer, send, startMediaServer } from './fixtures.js';

const hasFfmpeg = (() => {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    execFileSync('ffprobe', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasFfmpeg) console.warn('SKIPPED video token tests: ffmpeg/ffprobe are absent (apt-get install ffmpeg)');

const rule = VISION_MODELS['gen-4.6v']!;
const FIELD = 'messages[0].content[0].video_url.url';
const withVideos = (...urls: string[]): TokenizerBody['messages'] => [
  { role: 'user', content: urls.map((url) => ({ type: 'video_url' as const, video_url: { url } })) },
];
const count = (options: MediaOptions, ...urls: string[]) => countMedia(withVideos(...urls), 'gen-4.6v', rule, options);

describe.skipIf(!hasFfmpeg)('video tokens (ffprobe)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tokenizer-video-'));
  const files: Record<string, Buffer> = {};
  let server: MediaServer;
  const allowed: MediaOptions = { allowHosts: ['127.0.0.1'] };

  beforeAll(async () => {
    const ffmpeg = (out: string, ...codec: string[]) =>
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc=duration=3:size=320x240:rate=10',
        '-pix_fmt',
        'yuv420p',
        ...codec,
        join(dir, out),
      ]);
    ffmpeg('out.mp4');
    ffmpeg('out.mkv');
    ffmpeg('out.mov');
    ffmpeg('out.avi', '-c:v', 'mpeg4');
    ffmpeg('out.webm', '-c:v', 'libvpx', '-b:v', '100k');
    for (const name of ['out.mp4', 'out.mkv', 'out.mov', 'out.avi', 'out.webm']) {
      files[name] = readFileSync(join(dir, name));
    }
    server = await startMediaServer({
      '/clip.mp4': send('video/mp4', files['out.mp4']!),
      // The extension lies: the container is probed, not named.
      '/clip-really-avi.mp4': send('video/mp4', files['out.avi']!),
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('probes a 3 s 320x240 mp4 fetched over http: 2 temporal patches of 11x9 tokens', async () => {
    const result = await count(allowed, `${server.origin}/clip.mp4`);
    expect(result.videoTokens).toBe(videoTokens(3, 320, 240, rule.video));
    expect(result).toEqual({ imageTokens: 0, videoTokens: 2 * (11 * 9 + 4) + 2 });
  });

  it('accepts mkv and mov containers from data: URLs', async () => {
    const mkv = await count({}, dataUrl('video/x-matroska', files['out.mkv']!));
    const mov = await count({}, dataUrl('video/quicktime', files['out.mov']!));
    expect(mkv.videoTokens).toBe(208);
    expect(mov.videoTokens).toBe(208);
    // Two videos on 4.6V are summed.
    const both = await count(
      {},
      dataUrl('video/mp4', files['out.mp4']!),
      dataUrl('video/quicktime', files['out.mov']!),
    );
    expect(both.videoTokens).toBe(416);
  });

  it('refuses AVI and WebM by the probed container, naming the field and allowed formats', async () => {
    await apiError(count(allowed, `${server.origin}/clip-really-avi.mp4`), 1214, FIELD, 'avi videos', 'mp4, mkv, mov');
    await apiError(count({}, dataUrl('video/webm', files['out.webm']!)), 1214, FIELD, 'WebM videos');
  });

  it('refuses data that is no video', async () => {
    await apiError(
      count({}, dataUrl('video/mp4', Buffer.from('definitely not a video'))),
      1214,
      FIELD,
      'not a readable video',
    );
  });

  it('refuses bare Base64 and private hosts for videos', async () => {
    await apiError(count({}, files['out.mp4']!.toString('base64')), 1214, FIELD, 'http(s) URL or a data: URL');
    await apiError(count({}, `${server.origin}/clip.mp4`), 1214, FIELD, 'loopback');
  });

  it('a manifest inside the video makes ffprobe fetch nothing', async () => {
    const target = await startMediaServer({ '/segment.mp4': send('video/mp4', files['out.mp4']!) });
    try {
      const manifest = `<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="PT3S"><Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="1000" width="320" height="240"><BaseURL>${target.origin}/segment.mp4</BaseURL></Representation></AdaptationSet></Period></MPD>`;
      await apiError(count({}, dataUrl('video/mp4', Buffer.from(manifest))), 1214, FIELD);
      expect(target.connections).toBe(0);
    } finally {
      await target.close();
    }
  });

  it('removes its temp files', async () => {
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith('gen-platform-video-')).length;
    await count({}, dataUrl('video/mp4', files['out.mp4']!));
    await count({}, dataUrl('video/webm', files['out.webm']!)).catch(() => undefined);
    const after = readdirSync(tmpdir()).filter((n) => n.startsWith('gen-platform-video-')).length;
    expect(after).toBeLessThanOrEqual(before);
  });
});

describe('the ffprobe command line', () => {
  it('limits ffprobe to reading files (-protocol_whitelist file), whatever the input holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-ffprobe-'));
    try {
      // A stand-in ffprobe that writes down its arguments and describes a 1 s 64x64 mp4.
      const script = join(dir, 'ffprobe');
      const argsFile = join(dir, 'args');
      const description = JSON.stringify({
        format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '1.0', tags: { major_brand: 'isom' } },
        streams: [{ codec_type: 'video', width: 64, height: 64 }],
      });
      writeFileSync(
        script,
        `#!/bin/sh\n[ "$1" = -version ] && exit 0\nprintf '%s\\n' "$@" > '${argsFile}'\necho '${description}'\n`,
        { mode: 0o755 },
      );
      await count({ ffprobePath: script }, dataUrl('video/mp4', Buffer.from('\0\0\0\x18ftypisom')));
      const args = readFileSync(argsFile, 'utf8').trim().split('\n');
      const at = args.indexOf('-protocol_whitelist');
      expect(at).toBeGreaterThanOrEqual(0);
      expect(args[at + 1]).toBe('file');
      // An input option: before the input, which is the last argument.
      expect(at).toBeLessThan(args.length - 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('without ffprobe', () => {
  it('answers 1234 with a clear message, before fetching', async () => {
    await apiError(
      count({ ffprobePath: '/nonexistent/ffprobe' }, 'http://videos.invalid/clip.mp4'),
      1234,
      'ffprobe',
      'apt-get install ffmpeg',
    );
  });
});
