// A small zip writer for generated downloads (the starter kit): every entry
// deflated with zlib's raw deflate, CRC-32 computed here (Node 20's zlib has
// no crc32), one central directory, no zip64 (entries and archive < 4 GiB).
// zipStream() writes the same format entry by entry, for archives too big to
// hold in memory (a tournament's replays): only the central directory waits.

import { deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** Path inside the archive, '/'-separated. */
  name: string;
  data: Buffer | string;
  /** Modification time (default: now). */
  date?: Date;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, the one zip and gzip use). */
export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** MS-DOS time and date (local time, 2-second resolution, years 1980-2107). */
function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.min(2107, Math.max(1980, d.getFullYear()));
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

const UTF8_NAMES = 0x0800; // general purpose bit 11: names are UTF-8
const DEFLATE = 8;
const VERSION = 20; // 2.0: deflate

/** A header field: its size in bytes (2 or 4) and its value, little-endian. */
type Field = [size: 2 | 4, value: number];

/** A zip header: its signature, then its fields one after another. */
function header(signature: number, fields: readonly Field[]): Buffer {
  const b = Buffer.alloc(4 + fields.reduce((n, [size]) => n + size, 0));
  b.writeUInt32LE(signature, 0);
  let at = 4;
  for (const [size, value] of fields) {
    if (size === 2) b.writeUInt16LE(value, at);
    else b.writeUInt32LE(value, at);
    at += size;
  }
  return b;
}

export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const now = new Date();
  for (const e of entries) {
    if (!e.name || e.name.startsWith('/') || e.name.split('/').includes('..')) throw new Error(`bad zip entry name "${e.name}"`);
    const name = Buffer.from(e.name, 'utf8');
    const data = typeof e.data === 'string' ? Buffer.from(e.data, 'utf8') : e.data;
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const { time, date } = dosDateTime(e.date ?? now);

    // The local file header and the central directory entry share these fields, in this order.
    const fields: Field[] = [
      [2, UTF8_NAMES],
      [2, DEFLATE],
      [2, time],
      [2, date],
      [4, crc],
      [4, packed.length],
      [4, data.length],
      [2, name.length],
    ];
    const local = header(0x04034b50, [[2, VERSION], ...fields, [2, 0]]); // then: extra field length
    locals.push(local, name, packed);

    const central = header(0x02014b50, [
      [2, (3 << 8) | VERSION], // made by: Unix, so the attributes below are a mode
      [2, VERSION],
      ...fields,
      [2, 0], // extra field length
      [2, 0], // comment length
      [2, 0], // disk number
      [2, 0], // internal attributes
      [4, (0o100644 << 16) >>> 0], // external attributes: a regular file, rw-r--r--
      [4, offset],
    ]);
    centrals.push(central, name);

    offset += local.length + name.length + packed.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = header(0x06054b50, [
    [2, 0], // this disk's number
    [2, 0], // the disk the central directory starts on
    [2, entries.length], // entries on this disk
    [2, entries.length], // entries in all
    [4, centralSize],
    [4, offset], // where the central directory starts
    [2, 0], // comment length
  ]);
  return Buffer.concat([...locals, ...centrals, end]);
}

export interface ZipStreamEntry extends ZipEntry {
  /** Stored as is (method 0): for data already compressed (gzip'd replays). */
  store?: boolean;
}

/** The archive as a sequence of chunks: each entry's header and data as soon as the entry comes, the central directory at the end. */
export async function* zipStream(entries: AsyncIterable<ZipStreamEntry> | Iterable<ZipStreamEntry>): AsyncGenerator<Buffer> {
  const centrals: Buffer[] = [];
  let offset = 0;
  let count = 0;
  const now = new Date();
  for await (const e of entries) {
    if (!e.name || e.name.startsWith('/') || e.name.split('/').includes('..')) throw new Error(`bad zip entry name "${e.name}"`);
    const name = Buffer.from(e.name, 'utf8');
    const data = typeof e.data === 'string' ? Buffer.from(e.data, 'utf8') : e.data;
    const method = e.store ? 0 : DEFLATE;
    const packed = e.store ? data : deflateRawSync(data, { level: 6 });
    const crc = crc32(data);
    const { time, date } = dosDateTime(e.date ?? now);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    yield Buffer.concat([local, name]);
    yield packed;
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | VERSION, 4);
    central.writeUInt16LE(VERSION, 6);
    central.writeUInt16LE(UTF8_NAMES, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
    count++;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  yield Buffer.concat([...centrals, end]);
}
