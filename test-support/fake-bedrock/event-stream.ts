/**
 * The AWS event-stream binary framing (application/vnd.amazon.eventstream), written here from the
 * format's description rather than with the SDK's own codec, so that the client's decoder is tested
 * against an independent encoder: prelude (total length, headers length, CRC32 of both), headers,
 * payload, CRC32 of everything before it. All integers big-endian; header values are strings (type 7).
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function encodeHeaders(headers: Readonly<Record<string, string>>): Buffer {
  return Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const nameBytes = Buffer.from(name, 'utf8');
      const valueBytes = Buffer.from(value, 'utf8');
      const header = Buffer.alloc(1 + nameBytes.length + 1 + 2 + valueBytes.length);
      header.writeUInt8(nameBytes.length, 0);
      nameBytes.copy(header, 1);
      header.writeUInt8(7, 1 + nameBytes.length);
      header.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
      valueBytes.copy(header, 4 + nameBytes.length);
      return header;
    })
  );
}

export function encodeMessage(headers: Readonly<Record<string, string>>, payload: Buffer): Buffer {
  const headerBytes = encodeHeaders(headers);
  const prelude = Buffer.alloc(8);
  prelude.writeUInt32BE(12 + headerBytes.length + payload.length + 4, 0);
  prelude.writeUInt32BE(headerBytes.length, 4);
  const preludeCrc = Buffer.alloc(4);
  preludeCrc.writeUInt32BE(crc32(prelude), 0);
  const withoutCrc = Buffer.concat([prelude, preludeCrc, headerBytes, payload]);
  const messageCrc = Buffer.alloc(4);
  messageCrc.writeUInt32BE(crc32(withoutCrc), 0);
  return Buffer.concat([withoutCrc, messageCrc]);
}

/** A `chunk` event of InvokeModelWithResponseStream: the model's JSON event, base64 in `bytes`. */
export function chunkEvent(json: string): Buffer {
  const payload = Buffer.from(
    JSON.stringify({ bytes: Buffer.from(json, 'utf8').toString('base64') }),
    'utf8'
  );
  return encodeMessage(
    { ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' },
    payload
  );
}

/** An exception frame (`:message-type: exception`), as Bedrock sends a failure mid-stream. */
export function exceptionEvent(type: string, message: string): Buffer {
  return encodeMessage(
    { ':exception-type': type, ':content-type': 'application/json', ':message-type': 'exception' },
    Buffer.from(JSON.stringify({ message }), 'utf8')
  );
}
