import { deflateRawSync } from 'node:zlib';
import { crc32 } from '../../src/audit/zip-reader.js';

export interface ZipBuilderEntry {
  readonly name: string;
  /** The entry's contents, deflated here; or `deflated` with `size`, for data too big to hold. */
  readonly data?: Buffer;
  readonly deflated?: Buffer;
  /** The uncompressed size the central directory declares (a bomb may lie about it). */
  readonly size?: number;
}

/** Writes a zip archive of deflated entries byte by byte, as zip tools do (local headers, central directory). */
export function buildZip(entries: readonly ZipBuilderEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const body = entry.deflated ?? deflateRawSync(entry.data ?? Buffer.alloc(0));
    const size = entry.size ?? entry.data?.length ?? 0;
    const crc = entry.data ? crc32(entry.data) : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE((3 << 8) | 20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x800, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(body.length, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, body);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/**
 * A raw deflate stream of `mebibytes` MiB of zeros, built without ever holding them: one MiB
 * deflated with a sync flush ends on a byte boundary, so copies of it chain into one valid stream.
 */
export function deflatedZeros(mebibytes: number): Buffer {
  const zeros = Buffer.alloc(1024 * 1024);
  const middle = deflateRawSync(zeros, { finishFlush: 2 /* Z_SYNC_FLUSH */ });
  const last = deflateRawSync(zeros);
  return Buffer.concat([...Array.from({ length: mebibytes - 1 }, () => middle), last]);
}
