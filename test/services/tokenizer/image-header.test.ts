import { describe, expect, it } from 'vitest';
import { ImageFormatError, readImageInfo } from '../../../src/services/tokenizer/media/image-header.js';
import { jpegBytes, pngBytes } from './fixtures.js';

describe('image headers', () => {
  it('reads PNG dimensions from IHDR', () => {
    expect(readImageInfo(pngBytes(640, 480))).toEqual({ format: 'png', width: 640, height: 480 });
    expect(readImageInfo(pngBytes(1, 6000))).toEqual({ format: 'png', width: 1, height: 6000 });
  });

  it('reads JPEG dimensions from SOF0, SOF1 and SOF2 past APPn, comments and fill bytes', () => {
    expect(readImageInfo(jpegBytes(800, 600))).toEqual({ format: 'jpeg', width: 800, height: 600 });
    expect(readImageInfo(jpegBytes(31, 17, 0xc1))).toMatchObject({ width: 31, height: 17 });
    expect(readImageInfo(jpegBytes(1024, 768, 0xc2))).toMatchObject({ width: 1024, height: 768 });
  });

  it('detects the format from the bytes, not a name', () => {
    // The PNG's bytes are read as PNG whatever the URL or data: type said; no name is even passed.
    expect(readImageInfo(Buffer.concat([pngBytes(2, 3), Buffer.from('trailing')])).format).toBe('png');
  });

  it.each([
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1'), /GIF images are not accepted/],
    ['WebP', Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'), /WebP images/],
    ['SVG', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'), /SVG images/],
    ['garbage', Buffer.from('hello, world'), /not a JPEG or PNG image/],
    ['a truncated PNG', pngBytes(10, 10).subarray(0, 20), /truncated/],
    ['a JPEG without a frame header', Buffer.from([0xff, 0xd8, 0xff, 0xd9]), /no frame header/],
    ['a truncated JPEG', jpegBytes(10, 10).subarray(0, 30), /truncated/],
    ['a lossless JPEG (SOF3)', jpegBytes(10, 10, 0xc3), /SOF3/],
    ['a zero-size PNG', pngBytes(0, 10), /size of 0/],
  ])('refuses %s', (_name, bytes, message) => {
    expect(() => readImageInfo(bytes)).toThrow(ImageFormatError);
    expect(() => readImageInfo(bytes)).toThrow(message);
  });
});
