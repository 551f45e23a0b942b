import { describe, expect, it } from 'vitest';
import { ParamsText } from '../../../src/engines/chat/llama-cpp/params-text.js';

/** Feeds `chunks` one by one and returns what passes through. */
const pass = (chunks: string[]) => {
  const text = new ParamsText();
  return { out: chunks.map((c) => text.push(c)).join(''), text };
};

describe('ParamsText: the arguments object out of the streamed tool-call text', () => {
  it('passes the object through piece by piece and drops what follows it', () => {
    const { out, text } = pass(['{"', 'city', '":"', 'Paris', '"}', '\n\n', '\n\n']);
    expect(out).toBe('{"city":"Paris"}');
    expect(text.complete).toBe(true);
  });

  it('cuts the end-of-call markup that arrives in the same chunk as the closing brace', () => {
    expect(pass(['{"a":1}</tool_call>']).out).toBe('{"a":1}');
    expect(pass(['{"a":1', '}\n<|im_end|>']).out).toBe('{"a":1}');
  });

  it('skips leading whitespace', () => {
    expect(pass(['  \n', ' {"a":', '2}']).out).toBe('{"a":2}');
  });

  it('counts braces, brackets and quotes inside strings as text', () => {
    const args = '{"q":"a } ] \\" { [","list":[{"x":[1,2]},"}"],"o":{"p":{}}}';
    expect(pass([...args, '\n']).out).toBe(args);
    expect(JSON.parse(pass([args.slice(0, 7), args.slice(7), ' tail']).out)).toEqual(JSON.parse(args));
  });

  it('holds back text that does not open an object, so the caller sends the parsed parameters', () => {
    const { out, text } = pass(['"just a string"', '{"a":1}']);
    expect(out).toBe('');
    expect(text.started).toBe(false);
  });

  it('reports an object cut short as started but not complete', () => {
    const { out, text } = pass(['{"city":"Par']);
    expect(out).toBe('{"city":"Par');
    expect(text.started).toBe(true);
    expect(text.complete).toBe(false);
  });
});
