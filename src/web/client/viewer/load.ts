// Reading a replay in the browser: the server's download (gzip) or a file
// the user picked (gzip or plain JSON, as `arbiter play` writes either).

import type { Replay } from './game-view.ts';

export class ReplayLoadError extends Error {}

async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Parses replay bytes (gzip or JSON) and checks it is a replay this viewer reads. */
export async function parseReplay(bytes: Uint8Array<ArrayBuffer>): Promise<Replay> {
  let data = bytes;
  if (data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = await gunzip(data);
    } catch {
      throw new ReplayLoadError('the file looks gzipped but does not decompress');
    }
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
    throw new ReplayLoadError('the replay is incomplete (no players or rounds)');
  }
  return r as Replay;
}

export async function fetchReplay(url: string): Promise<Replay> {
  const res = await fetch(url);
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      message = ((await res.json()) as { message?: string }).message ?? message;
    } catch {
      // not JSON: keep the status line
    }
    throw new ReplayLoadError(`could not download the replay: ${message}`);
  }
  return parseReplay(new Uint8Array(await res.arrayBuffer()));
}
