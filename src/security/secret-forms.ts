/**
 * The forms a known secret can take on its way out of a tool: as written, JSON-escaped, reversed,
 * URL-encoded, hex, and base64 (standard and URL-safe) wherever it sits in a longer base64 stream.
 */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = [
    secret,
    JSON.stringify(secret).slice(1, -1), // as it appears inside JSON lines
    [...secret].reverse().join(''),
    encodeURIComponent(secret),
    percentEncodeEveryByte(bytes).toLowerCase(),
    percentEncodeEveryByte(bytes).toUpperCase(),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
    bytes.toString('base64'),
    bytes.toString('base64url'),
    ...[0, 1, 2].flatMap((offset) => {
      const core = base64Core(bytes, offset);
      return [core, toUrlSafe(core)];
    })
  ];
  return [...new Set(forms)].filter((form) => form.length >= 8);
}

/**
 * The base64 characters that depend on the secret alone when it starts `offset` bytes (mod 3) into
 * a longer stream, as in `base64("x-access-token:" + token)`. Whatever comes before or after it,
 * these characters appear verbatim; only the one or two characters at each edge, shared with the
 * neighbouring bytes, differ.
 */
export function base64Core(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  // Character k covers bits [6k, 6k + 6) of the stream; the secret holds bits [8·offset, 8·(offset + n)).
  const first = Math.ceil((8 * offset) / 6);
  const end = Math.floor((8 * (offset + bytes.length)) / 6);
  return encoded.slice(first, end);
}

function toUrlSafe(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_');
}

function percentEncodeEveryByte(bytes: Buffer): string {
  return [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}
