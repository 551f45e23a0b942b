/**
 * windows-1252 by table. Node 20's TextDecoder takes a Latin-1 fast path for this label and turns
 * 0x80-0x9F (curly quotes, dashes, the euro sign) into C1 control characters, so it cannot be used
 * for the most common legacy encoding of the web (which is also what `iso-8859-1` and `ascii` mean).
 */
const HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

export function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const chunk = 8192;
  for (let start = 0; start < bytes.length; start += chunk) {
    const codes = Array.from(bytes.subarray(start, start + chunk), (byte) =>
      byte >= 0x80 && byte <= 0x9f ? (HIGH[byte - 0x80] ?? byte) : byte,
    );
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}
