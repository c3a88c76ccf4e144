/**
 * A small zip reader (central directory, stored and deflated entries, ZIP64 fields, CRC-32 check):
 * `compact-agent transcript` opens a downloaded artifact with it, and tests look inside uploads.
 * The archive may come from anyone, so it is read within limits (see ZipLimits): a zip bomb is
 * refused from its central directory, and an entry that lies about its size stops inflating at
 * the size it declared, so no more than the limits is ever allocated.
 */
import { inflateRawSync } from 'node:zlib';

/** Bounds on what reading one archive may cost. */
export interface ZipLimits {
  /** Entries in the central directory. */
  readonly maxEntries: number;
  /** Uncompressed bytes of one entry. */
  readonly maxEntryBytes: number;
  /** Uncompressed bytes of all entries together. */
  readonly maxTotalBytes: number;
  /** Uncompressed size over compressed size, for entries above `ratioCheckFromBytes`. */
  readonly maxRatio: number;
  /** Small entries may compress extremely well (a file of one repeated line) and cost nothing. */
  readonly ratioCheckFromBytes: number;
}

const MiB = 1024 * 1024;

/**
 * Far above any real transcript artifact (a 1,000-turn run's transcript is a few MB and compresses
 * about 10:1), far below what would hurt the runner; deflate itself tops out near 1,032:1.
 */
export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 256 * MiB,
  maxTotalBytes: 512 * MiB,
  maxRatio: 200,
  ratioCheckFromBytes: MiB
};

/** The archive is over one of the limits: refused before its data is expanded. */
export class ZipLimitError extends Error {
  constructor(message: string) {
    super(`unzip: ${message}`);
    this.name = 'ZipLimitError';
  }
}

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
export function readZip(buf: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipEntry[] {
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
  if (count > limits.maxEntries) {
    refuse(`the archive lists ${count} entries; the limit is ${limits.maxEntries}`);
  }

  const entries: ZipEntry[] = [];
  let totalSize = 0;
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
    totalSize += size;
    checkEntryCost(name, size, compressedSize, totalSize, limits);
    const raw = buf.subarray(dataStart, dataStart + compressedSize);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateWithin(name, raw, size);
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

function refuse(problem: string): never {
  throw new ZipLimitError(
    `${problem}. The archive is refused as a possible zip bomb (nothing past the limits was expanded). ` +
      'If it is a genuine artifact, unpack it with a zip tool you trust and point the command at the folder instead.'
  );
}

/** Judges an entry by the sizes its central-directory record declares, before any of it is expanded. */
function checkEntryCost(
  name: string,
  size: number,
  compressedSize: number,
  total: number,
  limits: ZipLimits
): void {
  if (size > limits.maxEntryBytes) {
    refuse(`${name} would expand to ${size} bytes; the limit for one entry is ${limits.maxEntryBytes} bytes`);
  }
  if (total > limits.maxTotalBytes) {
    refuse(
      `the entries up to ${name} would expand to ${total} bytes; the limit for all is ${limits.maxTotalBytes} bytes`
    );
  }
  if (size >= limits.ratioCheckFromBytes && size > compressedSize * limits.maxRatio) {
    const ratio = Math.round(size / Math.max(compressedSize, 1));
    refuse(
      `${name} would expand ${ratio} times (${compressedSize} to ${size} bytes); the limit is ${limits.maxRatio} times`
    );
  }
}

/** Inflates at most one byte past the declared size: an entry that lies about it stops there. */
function inflateWithin(name: string, raw: Buffer, declaredSize: number): Buffer {
  try {
    return inflateRawSync(raw, { maxOutputLength: declaredSize + 1 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      refuse(`${name} inflates past the ${declaredSize} bytes its central directory declares`);
    }
    return fail(`${name}: ${(error as Error).message}`);
  }
}

/** The files of a zip archive (directories left out): path inside the archive → contents. */
export function unzip(buf: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readZip(buf, limits)) {
    if (entry.isDirectory) continue;
    if (files.has(entry.name)) fail(`duplicate entry ${entry.name}`);
    files.set(entry.name, entry.data);
  }
  return files;
}
