/**
 * Streams as Anthropic's API sends them, copied from its documentation ("Streaming Messages": a text
 * reply, a tool use, extended thinking): what the grammar check is first run on, so that it holds
 * the real wire rather than our own idea of it.
 */

const frame = (type: string, data: string) => `event: ${type}\ndata: ${data}\n\n`;

export const RECORDED_TEXT = [
  frame(
    'message_start',
    '{"type": "message_start", "message": {"id": "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY", "type": "message", "role": "assistant", "content": [], "model": "claude-opus-4-6", "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 25, "output_tokens": 1}}}',
  ),
  frame(
    'content_block_start',
    '{"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}',
  ),
  frame('ping', '{"type": "ping"}'),
  frame(
    'content_block_delta',
    '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hello"}}',
  ),
  frame(
    'content_block_delta',
    '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "!"}}',
  ),
  frame('content_block_stop', '{"type": "content_block_stop", "index": 0}'),
  frame(
    'message_delta',
    '{"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence":null}, "usage": {"output_tokens": 15}}',
  ),
  frame('message_stop', '{"type": "message_stop"}'),
].join('');

export const RECORDED_TOOL_USE = [
  frame(
    'message_start',
    '{"type":"message_start","message":{"id":"msg_014p7gG3wDgGV9EUtLvnow3U","type":"message","role":"assistant","model":"claude-opus-4-6","stop_sequence":null,"usage":{"input_tokens":472,"output_tokens":2},"content":[],"stop_reason":null}}',
  ),
  frame('content_block_start', '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}'),
  frame('ping', '{"type": "ping"}'),
  frame('content_block_delta', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Okay"}}'),
  frame(
    'content_block_delta',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":", let\'s check the weather."}}',
  ),
  frame('content_block_stop', '{"type":"content_block_stop","index":0}'),
  frame(
    'content_block_start',
    '{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"get_weather","input":{}}}',
  ),
  frame(
    'content_block_delta',
    '{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}',
  ),
  frame(
    'content_block_delta',
    '{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"location\\":"}}',
  ),
  frame(
    'content_block_delta',
    '{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" \\"San Francisco, CA\\"}"}}',
  ),
  frame('content_block_stop', '{"type":"content_block_stop","index":1}'),
  frame(
    'message_delta',
    '{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}',
  ),
  frame('message_stop', '{"type":"message_stop"}'),
].join('');

export const RECORDED_THINKING = [
  frame(
    'message_start',
    '{"type": "message_start", "message": {"id": "msg_01...", "type": "message", "role": "assistant", "content": [], "model": "claude-opus-4-6", "stop_reason": null, "stop_sequence": null}}',
  ),
  frame(
    'content_block_start',
    '{"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}',
  ),
  frame(
    'content_block_delta',
    '{"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "I need to find the GCD of 1071 and 462 using the Euclidean algorithm."}}',
  ),
  frame(
    'content_block_delta',
    '{"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds..."}}',
  ),
  frame('content_block_stop', '{"type": "content_block_stop", "index": 0}'),
  frame(
    'content_block_start',
    '{"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}',
  ),
  frame(
    'content_block_delta',
    '{"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "The greatest common divisor of 1071 and 462 is **21**."}}',
  ),
  frame('content_block_stop', '{"type": "content_block_stop", "index": 1}'),
  frame('message_delta', '{"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}}'),
  frame('message_stop', '{"type": "message_stop"}'),
].join('');
