/** The small zip reader of the fake artifact service, on archives built here byte by byte. */
import { deflateRawSync } from 'node:zlib';
import { crc32, readZip, unzip } from '../../test-support/fake-artifacts/index.js';

interface Entry {
  name: string;
  data: Buffer;
  method: 0 | 8;
  /** Write sizes and CRC in a data descriptor (bit 3), zeros in the local header, like archiver does. */
  descriptor?: boolean;
  /** An extra field in the local header only (Info-ZIP writes timestamps there). */
  localExtra?: Buffer;
}

/** A minimal zip writer (the reader must understand what real zip tools write, so keep it honest). */
function zip(entries: Entry[], options: { corruptCrcOf?: string } = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const body = entry.method === 8 ? deflateRawSync(entry.data) : entry.data;
    let crc = crc32(entry.data);
    if (options.corruptCrcOf === entry.name) crc = (crc + 1) >>> 0;
    const flags = 0x800 | (entry.descriptor ? 0x8 : 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.descriptor ? 0 : crc, 14);
    local.writeUInt32LE(entry.descriptor ? 0 : body.length, 18);
    local.writeUInt32LE(entry.descriptor ? 0 : entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const extra = entry.localExtra ?? Buffer.alloc(0);
    local.writeUInt16LE(extra.length, 28);
    const descriptor = Buffer.alloc(entry.descriptor ? 16 : 0);
    if (entry.descriptor) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(body.length, 8);
      descriptor.writeUInt32LE(entry.data.length, 12);
    }
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(flags, 8);
    header.writeUInt16LE(entry.method, 10);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(body.length, 20);
    header.writeUInt32LE(entry.data.length, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, extra, body, descriptor);
    offset += local.length + name.length + extra.length + body.length + descriptor.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}

describe('unzip', () => {
  const text = Buffer.from('hello, zip\n'.repeat(50));
  const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256));

  test('stored and deflated entries, data descriptors, UTF-8 names; directories left out', () => {
    const archive = zip([
      { name: 'a.txt', data: text, method: 8, descriptor: true },
      { name: 'dir/', data: Buffer.alloc(0), method: 0 },
      // Extended-timestamp extra field (0x5455), in the local header only.
      { name: 'dir/b.bin', data: binary, method: 0, localExtra: Buffer.from('5554050001d2029649', 'hex') },
      { name: 'dir/ünïcode.md', data: Buffer.from('ok'), method: 8 }
    ]);
    const files = unzip(archive);
    expect([...files.keys()]).toEqual(['a.txt', 'dir/b.bin', 'dir/ünïcode.md']);
    expect(files.get('a.txt')?.equals(text)).toBe(true);
    expect(files.get('dir/b.bin')?.equals(binary)).toBe(true);
    expect(files.get('dir/ünïcode.md')?.toString()).toBe('ok');
    const entries = readZip(archive);
    expect(entries.map((e) => [e.name, e.method, e.isDirectory])).toEqual([
      ['a.txt', 8, false],
      ['dir/', 0, true],
      ['dir/b.bin', 0, false],
      ['dir/ünïcode.md', 8, false]
    ]);
    expect(entries[0]?.compressedSize).toBeLessThan(text.length);
    expect(entries[2]?.unixMode).toBe(0o100644);
  });

  test('a corrupted entry, a truncated archive and a non-zip are errors, not silent garbage', () => {
    expect(() => unzip(zip([{ name: 'x.txt', data: text, method: 8 }], { corruptCrcOf: 'x.txt' }))).toThrow(
      'x.txt: CRC-32 mismatch'
    );
    const good = zip([{ name: 'x.txt', data: text, method: 0 }]);
    expect(() => unzip(good.subarray(0, good.length - 5))).toThrow(/unzip:/);
    expect(() => unzip(Buffer.from('PK but not really a zip file at all, no'))).toThrow(
      'no end of central directory'
    );
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926); // the standard check value
  });
});
