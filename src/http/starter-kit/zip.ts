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
const STORE = 0;
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

export interface ZipStreamEntry extends ZipEntry {
  /** Stored as is (method 0): for data already compressed (gzip'd replays). */
  store?: boolean;
}

/** Writes entries one after another: each entry's local header and data at once, the central directory at the end. */
class ZipWriter {
  private readonly centrals: Buffer[] = [];
  private offset = 0;
  private count = 0;
  private readonly now = new Date();

  constructor(private readonly level: number) {}

  /** The local header, name and data of one entry; its central directory record is kept for the end. */
  entry(e: ZipStreamEntry): Buffer[] {
    if (!e.name || e.name.startsWith('/') || e.name.split('/').includes('..')) throw new Error(`bad zip entry name "${e.name}"`);
    const name = Buffer.from(e.name, 'utf8');
    const data = typeof e.data === 'string' ? Buffer.from(e.data, 'utf8') : e.data;
    const packed = e.store ? data : deflateRawSync(data, { level: this.level });
    const crc = crc32(data);
    const { time, date } = dosDateTime(e.date ?? this.now);

    // The local file header and the central directory entry share these fields, in this order.
    const fields: Field[] = [
      [2, UTF8_NAMES],
      [2, e.store ? STORE : DEFLATE],
      [2, time],
      [2, date],
      [4, crc],
      [4, packed.length],
      [4, data.length],
      [2, name.length],
    ];
    const local = header(0x04034b50, [[2, VERSION], ...fields, [2, 0]]); // then: extra field length
    const central = header(0x02014b50, [
      [2, (3 << 8) | VERSION], // made by: Unix, so the attributes below are a mode
      [2, VERSION],
      ...fields,
      [2, 0], // extra field length
      [2, 0], // comment length
      [2, 0], // disk number
      [2, 0], // internal attributes
      [4, (0o100644 << 16) >>> 0], // external attributes: a regular file, rw-r--r--
      [4, this.offset],
    ]);
    this.centrals.push(central, name);
    this.offset += local.length + name.length + packed.length;
    this.count++;
    return [local, name, packed];
  }

  /** The central directory and its end record. */
  end(): Buffer {
    const centralSize = this.centrals.reduce((n, b) => n + b.length, 0);
    const end = header(0x06054b50, [
      [2, 0], // this disk's number
      [2, 0], // the disk the central directory starts on
      [2, this.count], // entries on this disk
      [2, this.count], // entries in all
      [4, centralSize],
      [4, this.offset], // where the central directory starts
      [2, 0], // comment length
    ]);
    return Buffer.concat([...this.centrals, end]);
  }
}

export function zip(entries: ZipEntry[]): Buffer {
  const w = new ZipWriter(9);
  return Buffer.concat([...entries.flatMap((e) => w.entry(e)), w.end()]);
}

/** The archive as a sequence of chunks: each entry's header and data as soon as the entry comes, the central directory at the end. */
export async function* zipStream(entries: AsyncIterable<ZipStreamEntry> | Iterable<ZipStreamEntry>): AsyncGenerator<Buffer> {
  const w = new ZipWriter(6);
  for await (const e of entries) {
    const [local, name, packed] = w.entry(e);
    yield Buffer.concat([local!, name!]);
    yield packed!;
  }
  yield w.end();
}
