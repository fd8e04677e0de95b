// Reading the files of a zip archive (a previous term's submissions as the
// course's platform exports them): the central directory, then each entry
// stored or deflated. No zip64, no encryption (refused with a message); an
// entry is inflated with a cap, so a zip bomb stops at the cap.

import { inflateRawSync } from 'node:zlib';

export class ZipReadError extends Error {
  override name = 'ZipReadError';
}

export interface ZipFileEntry {
  /** Path inside the archive, '/'-separated. */
  name: string;
  /** Uncompressed size as the directory says. */
  size: number;
  /** The bytes (inflated now; at most maxBytes or a ZipReadError). */
  read(maxBytes: number): Buffer;
}

/** The file entries of a zip (directories left out). */
export function zipEntries(zip: Buffer): ZipFileEntry[] {
  // The end of central directory record: 22 bytes plus a comment of up to 65535.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ZipReadError('not a zip archive (no end of central directory)');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (at === 0xffffffff || count === 0xffff)
    throw new ZipReadError('zip64 archives are not read: zip the folder again without zip64, or import the folder itself');
  const out: ZipFileEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) throw new ZipReadError('damaged zip: a central directory entry is missing');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString(flags & 0x800 ? 'utf8' : 'latin1');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    out.push({
      name,
      size,
      read(maxBytes) {
        if (flags & 1) throw new ZipReadError(`${name}: encrypted entries are not read`);
        if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) throw new ZipReadError(`damaged zip: no local header for ${name}`);
        const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
        const data = zip.subarray(start, start + compressed);
        if (method === 0) {
          if (data.length > maxBytes) throw new ZipReadError(`${name}: larger than ${maxBytes} bytes`);
          return Buffer.from(data);
        }
        if (method !== 8) throw new ZipReadError(`${name}: compression method ${method} is not read (only stored and deflate)`);
        try {
          return inflateRawSync(data, { maxOutputLength: maxBytes });
        } catch (err) {
          throw new ZipReadError(
            `${name}: ${(err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? `larger than ${maxBytes} bytes` : (err as Error).message}`,
          );
        }
      },
    });
  }
  return out;
}
