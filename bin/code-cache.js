// V8's code cache of a script the launcher compiles itself (`arbiter play`'s bundle, bin/play.js): what V8
// made of it last time, so a later start deserializes its bytecode instead of parsing and compiling it
// again. Node 22+ cache ES modules themselves (module.enableCompileCache, bin/arbiter.js); Node 20 caches
// nothing, so a script compiled here is the way on every version.
//
// Safe to lose and safe to find spoiled: a cache lives in the user's own folder (~/.cache/arbiter, made
// 0700, files 0600), is named by the script's content hash and this Node (version, V8, architecture), and
// carries a SHA-256 of its bytes. One that is missing, of another owner, writable by others, cut short,
// altered or refused by V8 (another V8, other flags) is not used: the script compiles from its source and
// the cache is written again. One that cannot be written is only not there next time.

import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

/** The first bytes of a cache file of ours (the format's version is in it). */
const MAGIC = Buffer.from('arbiter v8 code cache 1\n');
const DIGEST_BYTES = 32;
/** A cache larger than this is not one of ours. */
const MAX_BYTES = 64 * 1024 * 1024;
/** Caches kept per script name (older builds' and other Nodes' beyond that are removed when one is written). */
const KEEP = 6;

/** This user's folder of code caches, or null when there is no home folder. */
export function cacheFolder() {
  try {
    const home = homedir();
    return home ? join(home, '.cache', 'arbiter') : null;
  } catch {
    return null;
  }
}

/** The cache file of a script (`name`: its content-hashed file name) under this Node. */
export function cacheFile(folder, name) {
  return join(folder, `${name}.node-${process.versions.node}.v8-${process.versions.v8}.${process.arch}.code`);
}

const ownedByMe = (stat) => typeof process.getuid !== 'function' || stat.uid === process.getuid();
// Group or others may write it: a file or folder someone else could have put there.
const writableByOthers = (stat) => typeof process.getuid === 'function' && (stat.mode & 0o022) !== 0;

/** The cached data in `file` when it is ours and whole, else undefined. */
export function readCache(file) {
  let fd;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || !ownedByMe(stat) || writableByOthers(stat)) return undefined;
    if (stat.size < MAGIC.length + DIGEST_BYTES || stat.size > MAX_BYTES) return undefined;
    const bytes = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) return undefined;
      read += n;
    }
    if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const data = bytes.subarray(MAGIC.length + DIGEST_BYTES);
    const digest = createHash('sha256').update(data).digest();
    return digest.equals(bytes.subarray(MAGIC.length, MAGIC.length + DIGEST_BYTES)) ? data : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Writes `data` as the cache `file` (whole or not at all), and removes the oldest caches of the same script name. */
export function writeCache(folder, file, data, name) {
  try {
    // Its parent, then itself, each by itself: Node 20's recursive mkdirSync never returns under some
    // folders (/proc). The home folder itself is not made.
    for (const level of [dirname(folder), folder]) {
      try {
        mkdirSync(level, { mode: 0o700 });
      } catch (err) {
        if (err?.code !== 'EEXIST') throw err;
      }
    }
    const stat = statSync(folder);
    if (!stat.isDirectory() || !ownedByMe(stat) || writableByOthers(stat)) return;
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.concat([MAGIC, createHash('sha256').update(data).digest(), data]), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
    const family = name.replace(/-[0-9a-f]+\.[a-z]+$/, '-');
    const caches = readdirSync(folder)
      .filter((f) => f.startsWith(family) && f.endsWith('.code'))
      .map((f) => ({ f, mtime: statSync(join(folder, f)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const { f } of caches.slice(KEEP)) rmSync(join(folder, f), { force: true });
  } catch {
    // Not written (a read-only home, a full disk, a race with another run): the next run compiles again.
  }
}

/**
 * `source` compiled as the script `filename` (named `name` in the cache: its content-hashed file name), from
 * its code cache when there is a good one. `saveCache()` writes the cache when there was none or V8 refused
 * it: call it once the script has run its top level, so that what it compiled then is in the cache too.
 */
export function compileWithCache(source, filename, name, folder = cacheFolder()) {
  const file = folder ? cacheFile(folder, name) : null;
  const cachedData = file ? readCache(file) : undefined;
  const script = new vm.Script(source, { filename, cachedData });
  const fresh = cachedData === undefined || script.cachedDataRejected === true;
  return {
    script,
    fromCache: !fresh,
    saveCache() {
      if (fresh && file) writeCache(folder, file, script.createCachedData(), name);
    },
  };
}
