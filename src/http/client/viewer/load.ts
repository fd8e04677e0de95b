// Reading a replay in the browser: the server's download (gzip) or a file
// the user picked (gzip or plain JSON, as `arbiter play` writes either).
// Every way a file can be wrong ends in a ReplayLoadError the page shows.

import type { Replay } from '../../../sdk/viewer/game-view.ts';
import { REPLAY_MAX_JSON_BYTES } from '../../../sdk/replay-format.ts';

export class ReplayLoadError extends Error {
  override name = 'ReplayLoadError';
}

/** The file as picked, or JSON unpacked: the server's and `arbiter verify`'s limit (far above any real match). */
const MAX_FILE_BYTES = REPLAY_MAX_JSON_BYTES;
const limitText = `${REPLAY_MAX_JSON_BYTES / 1048576} MiB`;

class TooLargeError extends Error {}

/** Inflated a chunk at a time, stopped at the limit: a gzip bomb costs the tab no more than the limit. */
async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > REPLAY_MAX_JSON_BYTES) {
      await reader.cancel();
      throw new TooLargeError();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const isNumbers = (a: unknown, n: number) => Array.isArray(a) && a.length === n && a.every((x) => typeof x === 'number');

/** The fields the viewer reads, checked once so a damaged file is an error message, not a broken page. */
function checkShape(r: Replay) {
  const n = r.players.length;
  if (n === 0 || !r.players.every((p) => p && typeof p.name === 'string')) throw new ReplayLoadError('the replay is damaged: bad players list');
  if (!r.limits || typeof r.limits.cpuBudgetMs !== 'number') throw new ReplayLoadError('the replay is damaged: no CPU limits');
  if (!r.result || !isNumbers(r.result.ranks, n) || !isNumbers(r.result.scores, n)) throw new ReplayLoadError('the replay is damaged: no final result');
  for (const [i, round] of r.rounds.entries()) {
    const ok =
      round &&
      typeof round.round === 'number' &&
      isNumbers(round.scores, n) &&
      isNumbers(round.cpuMs, n) &&
      Array.isArray(round.frozen) &&
      round.frozen.length === n &&
      round.counters !== null &&
      typeof round.counters === 'object';
    if (!ok) throw new ReplayLoadError(`the replay is damaged: round ${i} lacks scores, CPU, frozen players or counters`);
  }
}

/** Parses replay bytes (gzip or JSON) and checks it is a replay this viewer reads. */
export async function parseReplay(bytes: Uint8Array<ArrayBuffer>): Promise<Replay> {
  let data = bytes;
  if (data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = await gunzip(data);
    } catch (err) {
      if (err instanceof TooLargeError) throw new ReplayLoadError(`not a replay: it unpacks past ${limitText}, the limit for a replay`);
      throw new ReplayLoadError('the file looks gzipped but does not decompress (truncated or corrupted)');
    }
  } else if (data.byteLength > REPLAY_MAX_JSON_BYTES) {
    throw new ReplayLoadError(`not a replay: larger than ${limitText}, the limit for a replay`);
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(data));
  } catch {
    throw new ReplayLoadError('not a replay: the file is neither gzip nor JSON');
  }
  const r = value as Partial<Replay> | null;
  if (!r || typeof r !== 'object' || r.format !== 'arbiter-replay') throw new ReplayLoadError('not an Arbiter replay (no "format": "arbiter-replay")');
  if (r.version !== 1) throw new ReplayLoadError(`replay version ${String(r.version)} is not supported by this viewer (it reads version 1)`);
  if (!Array.isArray(r.rounds) || r.rounds.length === 0 || !Array.isArray(r.players) || typeof r.game !== 'string') {
    throw new ReplayLoadError('the replay is incomplete (no game, players or rounds)');
  }
  checkShape(r as Replay);
  return r as Replay;
}

export async function fetchReplay(url: string): Promise<Replay> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new ReplayLoadError(`could not download the replay: ${(err as Error).message}`);
  }
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      message = ((await res.json()) as { message?: string }).message ?? message;
    } catch {
      // not JSON: keep the status line
    }
    throw new ReplayLoadError(`could not download the replay: ${message}`);
  }
  const length = Number(res.headers.get('content-length') ?? 0);
  if (length > MAX_FILE_BYTES) throw new ReplayLoadError(`could not download the replay: larger than ${limitText}, the limit for a replay`);
  return parseReplay(new Uint8Array(await res.arrayBuffer()));
}

/** A file the user picked or dropped: whatever its name, its content decides. */
export async function readReplayFile(file: File): Promise<Replay> {
  if (file.size === 0) throw new ReplayLoadError(`${file.name} is empty`);
  if (file.size > MAX_FILE_BYTES)
    throw new ReplayLoadError(`${file.name} is ${Math.round(file.size / 1048576)} MiB: larger than ${limitText}, the limit for a replay`);
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (err) {
    throw new ReplayLoadError(`could not read ${file.name}: ${(err as Error).message}`);
  }
  try {
    return await parseReplay(bytes);
  } catch (err) {
    if (err instanceof ReplayLoadError) throw new ReplayLoadError(`${file.name}: ${err.message}`);
    throw err;
  }
}
