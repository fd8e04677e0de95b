// Golden traces: per-round digests of matches played by the original C++
// engines, which Arbiter's engines must reproduce state for state.
//
// A fixture (test/fixtures/golden/<game>/<name>.json) names the seed, the
// settings and four players (files in the fixture folder's players/, or
// built-in names) and holds, for every state from round 0 to the last, the
// first 16 hex digits of the sha256 of that state's canonical text. Each game
// defines its canonical text twice in test/games/<game>/golden.ts: parsed from
// the original's output file (`originalStates`) and printed from Arbiter's
// state (`arbiterState`). scripts/golden-import.ts turns an original output
// file into a fixture.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getGame } from '../../src/games/registry.ts';
import type { AnyGame } from '../../src/sdk/types.ts';
import { builtinSeat } from '../../src/match/builtins.ts';
import { playMatch } from '../../src/sandbox/entries/play-match.ts';
import type { MatchSeat } from '../../src/match/types.ts';

export const GOLDEN_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/golden');

export interface GoldenTrace {
  format: 'arbiter-golden';
  game: string;
  /** Which original engine produced it: repository, folder, engine file. */
  original: string;
  /** Arbiter's engine version the trace was last checked against. */
  engineVersion: string;
  seed: number;
  config: Record<string, unknown>;
  /** Files in test/fixtures/golden/<game>/players/, or built-in names. */
  players: string[];
  /** One per state, round 0 first. */
  digests: string[];
  /** The canonical text of round 0, to show where a board differs. */
  round0?: string;
}

export function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** A fixture player: a file in the game's players/ folder, else a built-in. */
export async function goldenSeat(game: string, name: string): Promise<MatchSeat> {
  const file = join(GOLDEN_ROOT, game, 'players', name);
  if (existsSync(file)) return { source: await readFile(file, 'utf8'), filename: basename(file) };
  return builtinSeat(game, name);
}

/**
 * Plays a match in process and returns the engine state after every round
 * (index = round, 0 = the initial state), by running the engine again on the
 * orders the match recorded.
 */
export async function playStates(gameId: string, seed: number, seats: MatchSeat[], config: Record<string, unknown> = {}): Promise<unknown[]> {
  const game = await getGame(gameId);
  const { replay } = await playMatch({ game: gameId, seed, seats, config }, { host: 'inprocess' });
  const frozenAt = replay.players.filter((p) => p.frozenRound !== null);
  if (frozenAt.length) throw new Error(`a golden player was frozen: ${frozenAt.map((p) => `${p.name} (${p.frozenReason}: ${p.frozenMessage})`).join('; ')}`);
  let state = game.create(game.parseConfig(replay.config), replay.seed);
  const states = [state];
  for (const rec of replay.rounds.slice(1)) {
    state = game.next(state, rec.orders, rec.frozen).state;
    states.push(state);
  }
  return states;
}

export function readTrace(path: string): GoldenTrace {
  const trace = JSON.parse(readFileSync(path, 'utf8')) as GoldenTrace;
  if (trace.format !== 'arbiter-golden') throw new Error(`${path} is not a golden trace`);
  return trace;
}

/** The first line where two texts differ, both versions, for a readable failure. */
export function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if (a[i] !== b[i]) return `line ${i + 1}:\n  original: ${JSON.stringify(a[i] ?? '(none)')}\n  arbiter:  ${JSON.stringify(b[i] ?? '(none)')}`;
  return 'no line differs';
}

export type Mismatch = { round: number; message: string } | null;

/** Compares Arbiter's match with the trace; null when every state matches. */
export async function compareTrace<S>(trace: GoldenTrace, arbiterState: (state: S) => string): Promise<Mismatch> {
  const seats = await Promise.all(trace.players.map((p) => goldenSeat(trace.game, p)));
  const states = (await playStates(trace.game, trace.seed, seats, trace.config)) as S[];
  if (states.length !== trace.digests.length)
    return {
      round: Math.min(states.length, trace.digests.length),
      message: `the original has ${trace.digests.length - 1} rounds, Arbiter ${states.length - 1}`,
    };
  for (let r = 0; r < states.length; r++) {
    const text = arbiterState(states[r]!);
    if (digest(text) === trace.digests[r]) continue;
    const detail = r === 0 && trace.round0 ? `\n${firstDifference(trace.round0, text)}` : '';
    return { round: r, message: `state after round ${r} differs from the original's${detail}` };
  }
  return null;
}

/** Asserts that Arbiter plays the fixture's match exactly as the original did. */
export async function checkGolden<S>(fixturePath: string, arbiterState: (state: S) => string): Promise<void> {
  const trace = readTrace(fixturePath);
  const mismatch = await compareTrace(trace, arbiterState);
  if (mismatch) throw new Error(`${basename(fixturePath)} (seed ${trace.seed}): round ${mismatch.round}: ${mismatch.message}`);
}

/**
 * Registers a game's golden tests: traces of at least five seeds, each
 * recorded for the current engine version, and one test per trace that plays
 * it again. Returns the fixture folder.
 */
export function registerGoldenTests<S>(game: AnyGame, arbiterState: (state: S) => string, original = "the original's"): string {
  const dir = join(GOLDEN_ROOT, game.id);
  const fixtures = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  test('there are golden traces of at least five seeds, all recorded for the current engine', () => {
    const traces = fixtures.map((f) => readTrace(join(dir, f)));
    const seeds = new Set(traces.map((t) => t.seed));
    assert.ok(seeds.size >= 5, `${seeds.size} seeds`);
    for (const [i, t] of traces.entries()) assert.equal(t.engineVersion, game.engineVersion, fixtures[i]);
  });
  for (const f of fixtures) {
    test(`golden trace ${f}: every state equals ${original}`, async () => {
      await checkGolden(join(dir, f), arbiterState);
    });
  }
  return dir;
}

/** Asserts that round 0 (the board and the initial placement) equals the original's for a range of seeds, default settings. */
export function registerRound0Test<S>(game: AnyGame, arbiterState: (state: S) => string, file = 'boards/round0-seeds-0-299.json'): void {
  const boards = JSON.parse(readFileSync(join(GOLDEN_ROOT, game.id, file), 'utf8')) as { firstSeed: number; digests: string[] };
  const last = boards.firstSeed + boards.digests.length - 1;
  test(`round 0 (board generation and the initial placement) equals the original's for seeds ${boards.firstSeed}-${last}`, () => {
    const cfg = game.parseConfig({});
    const wrong = boards.digests.flatMap((d, k) => (digest(arbiterState(game.create(cfg, boards.firstSeed + k) as S)) === d ? [] : [boards.firstSeed + k]));
    assert.deepEqual(wrong, [], `seeds whose round 0 differs: ${wrong.join(' ')}`);
  });
}
