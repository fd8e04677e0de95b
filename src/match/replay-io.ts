import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { gzipSync, gunzipSync } from 'node:zlib';
import { REPLAY_FORMAT, REPLAY_MAX_JSON_BYTES, REPLAY_VERSION, type Replay } from '../sdk/replay-format.ts';

export { REPLAY_MAX_JSON_BYTES };

export class ReplayFormatError extends Error {
  override name = 'ReplayFormatError';
}

/**
 * The replay as stored and downloaded: gzip'd JSON, any level reads the same.
 * Level 4, the last of zlib's fast strategies: on a 4-Dummy replay (1.2-1.5 MiB
 * of JSON, seed 3, one run) it takes 8.5-12.3 ms against level 6's 18-22 ms
 * (part of every match's fixed cost), for 17-24% more bytes (Moria 215 KiB
 * against 181; Harry Potter 135/115, The Walking Dead 183/150, Bola de Drac
 * 31/25); levels 1-3 save 1-3 ms more for 30-56% more bytes. Level 9 took 77 ms.
 */
export function encodeReplay(replay: Replay): Buffer {
  return encodeReplayJson(JSON.stringify(replay));
}

/** encodeReplay of a replay already written as JSON (MatchRun.playOutAsJson's UTF-8 bytes, or JSON.stringify's text). */
export function encodeReplayJson(json: Uint8Array | string): Buffer {
  return gzipSync(json, { level: 4 });
}

/** A replay sent without its rounds, `rounds: null` keeping their place (withRoundsFrom). */
export type ReplayHead = Omit<Replay, 'rounds'> & { rounds: null };

/**
 * A replay whose rounds (nearly all of it) are decoded from `gz`, its
 * encoding, when first read: the match process sends its replay with
 * `rounds: null` beside the encoded one, and a worker, which needs only the
 * players and the result, never decodes it. The property keeps its place, so
 * the replay serializes as the original did.
 */
export function withRoundsFrom(head: ReplayHead, gz: Buffer): Replay {
  const replay = head as unknown as Replay;
  const settle = (rounds: Replay['rounds']) => Object.defineProperty(replay, 'rounds', { value: rounds, enumerable: true, writable: true, configurable: true });
  Object.defineProperty(replay, 'rounds', {
    enumerable: true,
    configurable: true,
    get: () => {
      const rounds = decodeReplay(gz).rounds;
      settle(rounds);
      return rounds;
    },
    set: settle,
  });
  return replay;
}

const MIB = 1024 * 1024;
const tooLarge = (what: string) =>
  new ReplayFormatError(`not a replay: ${what} past ${REPLAY_MAX_JSON_BYTES / MIB} MiB, the limit for a replay's JSON (a real match is a few MiB)`);

/**
 * A replay file's bytes, refused before reading when the file is larger than
 * a replay can be (gzip never makes JSON larger than a little over its size).
 * A missing file is the caller's ENOENT.
 */
export function readReplayFile(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > REPLAY_MAX_JSON_BYTES + 64 * 1024) throw tooLarge(`the file is ${Math.ceil(size / MIB)} MiB,`);
    const data = Buffer.alloc(size);
    let at = 0;
    while (at < size) {
      const n = readSync(fd, data, at, size - at, at);
      if (n === 0) break;
      at += n;
    }
    return data.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads gzip'd or plain JSON and checks it is a replay this version understands. Gzip is inflated
 * with a cap (zlib stops at REPLAY_MAX_JSON_BYTES of output), so a bomb costs bounded memory and CPU.
 */
export function decodeReplay(data: Buffer | string): Replay {
  let text: string;
  if (typeof data === 'string') {
    if (data.length > REPLAY_MAX_JSON_BYTES) throw tooLarge('its JSON is');
    text = data;
  } else if (data[0] === 0x1f && data[1] === 0x8b) {
    let json: Buffer;
    try {
      json = gunzipSync(data, { maxOutputLength: REPLAY_MAX_JSON_BYTES });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge('it unpacks');
      throw new ReplayFormatError('not a replay: corrupt gzip data');
    }
    text = json.toString('utf8');
  } else {
    if (data.length > REPLAY_MAX_JSON_BYTES) throw tooLarge('its JSON is');
    text = data.toString('utf8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ReplayFormatError('not a replay: not JSON');
  }
  const r = parsed as Partial<Replay> | null;
  if (!r || typeof r !== 'object' || r.format !== REPLAY_FORMAT) throw new ReplayFormatError(`not a replay: "format" must be "${REPLAY_FORMAT}"`);
  if (r.version !== REPLAY_VERSION)
    throw new ReplayFormatError(`replay version ${String(r.version)} is not supported (this Arbiter reads version ${REPLAY_VERSION})`);
  if (typeof r.game !== 'string' || !Array.isArray(r.rounds) || !Array.isArray(r.players) || typeof r.seed !== 'number')
    throw new ReplayFormatError('not a replay: missing game, seed, players or rounds');
  return r as Replay;
}
