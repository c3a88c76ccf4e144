/**
 * A small zip reader (central directory, stored and deflated entries, ZIP64 fields, CRC-32 check):
 * `compact-agent transcript` opens a downloaded artifact with it, and tests look inside uploads.
 */
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** The entry's path inside the archive ('/'-separated; directories end with '/'). */
  name: string;
  isDirectory: boolean;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  size: number;
  crc32: number;
  /** The general-purpose flag bits (bit 3: sizes in a data descriptor; bit 11: UTF-8 name). */
  flags: number;
  /** Unix mode bits when the archive was made on Unix (external attributes >> 16), else 0. */
  unixMode: number;
  data: Buffer;
}

const EOCD = 0x06054b50;
const ZIP64_EOCD = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

let crcTable: Uint32Array | undefined;

export function crc32(data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of data) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function fail(message: string): never {
  throw new Error(`unzip: ${message}`);
}

function u16(buf: Buffer, at: number): number {
  if (at + 2 > buf.length) fail('truncated archive');
  return buf.readUInt16LE(at);
}

function u32(buf: Buffer, at: number): number {
  if (at + 4 > buf.length) fail('truncated archive');
  return buf.readUInt32LE(at);
}

function u64(buf: Buffer, at: number): number {
  if (at + 8 > buf.length) fail('truncated archive');
  const value = buf.readBigUInt64LE(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) fail('ZIP64 value too large');
  return Number(value);
}

function findEndOfCentralDirectory(buf: Buffer): number {
  // The EOCD record is 22 bytes plus a comment of at most 65535 bytes.
  const stop = Math.max(0, buf.length - 22 - 0xffff);
  for (let at = buf.length - 22; at >= stop; at--) {
    if (buf.readUInt32LE(at) === EOCD && at + 22 + buf.readUInt16LE(at + 20) === buf.length) return at;
  }
  return fail('no end of central directory record (not a zip file?)');
}

/** Every entry of a zip archive, in central-directory order, with its data inflated and checked. */
export function readZip(buf: Buffer): ZipEntry[] {
  if (buf.length < 22) fail('too short to be a zip file');
  const eocd = findEndOfCentralDirectory(buf);
  let count = u16(buf, eocd + 10);
  let cdSize = u32(buf, eocd + 12);
  let cdOffset = u32(buf, eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || u32(buf, locator) !== ZIP64_LOCATOR) fail('ZIP64 values without a ZIP64 locator');
    const zip64 = u64(buf, locator + 8);
    if (u32(buf, zip64) !== ZIP64_EOCD) fail('bad ZIP64 end of central directory record');
    count = u64(buf, zip64 + 32);
    cdSize = u64(buf, zip64 + 40);
    cdOffset = u64(buf, zip64 + 48);
  }
  if (cdOffset + cdSize > buf.length) fail('central directory outside the file');

  const entries: ZipEntry[] = [];
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (u32(buf, at) !== CENTRAL) fail(`bad central directory header #${i}`);
    const madeBy = u16(buf, at + 4);
    const flags = u16(buf, at + 8);
    const method = u16(buf, at + 10);
    const crc = u32(buf, at + 16);
    let compressedSize = u32(buf, at + 20);
    let size = u32(buf, at + 24);
    const nameLength = u16(buf, at + 28);
    const extraLength = u16(buf, at + 30);
    const commentLength = u16(buf, at + 32);
    const external = u32(buf, at + 38);
    let localOffset = u32(buf, at + 42);
    const name = buf.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength);
    // ZIP64 extended information: only the fields whose 32-bit value is 0xffffffff, in this order.
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = u16(buf, extra);
      const length = u16(buf, extra + 2);
      if (id === 0x0001) {
        let field = extra + 4;
        if (size === 0xffffffff) {
          size = u64(buf, field);
          field += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = u64(buf, field);
          field += 8;
        }
        if (localOffset === 0xffffffff) localOffset = u64(buf, field);
      }
      extra += 4 + length;
    }
    at = extraEnd + commentLength;

    if (u32(buf, localOffset) !== LOCAL) fail(`bad local header for ${name}`);
    const dataStart = localOffset + 30 + u16(buf, localOffset + 26) + u16(buf, localOffset + 28);
    if (dataStart + compressedSize > buf.length) fail(`data of ${name} runs past the end`);
    const raw = buf.subarray(dataStart, dataStart + compressedSize);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw);
    else fail(`${name}: unsupported compression method ${method}`);
    if (data.length !== size) fail(`${name}: size ${data.length}, central directory says ${size}`);
    if (crc32(data) !== crc) fail(`${name}: CRC-32 mismatch`);
    entries.push({
      name,
      isDirectory: name.endsWith('/'),
      method,
      compressedSize,
      size,
      crc32: crc,
      flags,
      unixMode: madeBy >> 8 === 3 ? external >>> 16 : 0,
      data
    });
  }
  return entries;
}

/** The files of a zip archive (directories left out): path inside the archive → contents. */
export function unzip(buf: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readZip(buf)) {
    if (entry.isDirectory) continue;
    if (files.has(entry.name)) fail(`duplicate entry ${entry.name}`);
    files.set(entry.name, entry.data);
  }
  return files;
}
