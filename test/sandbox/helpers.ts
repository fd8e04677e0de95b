import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import tally from '../fixtures/tally/index.ts';
import { playMatchWithGame } from '../../src/sandbox/entries/play-match.ts';
import type { MatchOutcome, MatchSeat, RunOptions } from '../../src/match/types.ts';
import type { Limits } from '../../src/sdk/types.ts';
import { compileBot } from '../../src/sandbox/languages/index.ts';
import { buildPrelude } from '../../src/sandbox/hosts/prelude.ts';
import type { LoadRequest, PlayRequest } from '../../src/match/bot-host.ts';
import { LOG_CAP_BYTES } from '../../src/sdk/limits.ts';

export const adder: MatchSeat = { source: readFileSync(new URL('../fixtures/bots/adder.js', import.meta.url), 'utf8'), filename: 'adder.js' };

/** A tally bot whose class body is `body` (a play() method and anything else). */
export function bot(name: string, body: string, topLevel = ''): MatchSeat {
  return {
    source: `export const GAME = 'tally';\nexport const PLAYER_NAME = '${name}';\n${topLevel}\nexport default class extends Player {\n${body}\n}\n`,
    filename: `${name}.js`,
  };
}

/** Seat 1 is the bot under test; seats 0, 2, 3 add 1 every round. */
export function playAgainstAdders(suspect: MatchSeat, limits: Partial<Limits> = {}, rounds = 10, options: RunOptions = {}): Promise<MatchOutcome> {
  return playMatchWithGame(tally, { game: 'tally', seed: 7, config: { nb_rounds: rounds }, limits, seats: [adder, suspect, adder, adder] }, options);
}

/** The three honest bots played every round and the result reflects it; if not, the failure says each seat's freeze, round, CPU and score, and the match's runs. */
export function assertOthersUnaffected(out: MatchOutcome, rounds = 10): void {
  const { replay } = out;
  const unaffected = [0, 2, 3].every((p) => replay.players[p]!.frozenReason === null && replay.result.scores[p] === rounds);
  const seats = replay.players.map((p, i) => `${i}: ${p.frozenReason ?? 'playing'} ${p.frozenRound ?? ''} ${p.cpuMs} ms, score ${replay.result.scores[i]}`);
  assert.ok(unaffected, `${seats.join('; ')} (runs ${out.runs})`);
}

/** What a bot host's load() gets for a tally bot: compiled, with the tally prelude; seat 1, seed 3. */
export async function tallyLoad(seat: MatchSeat, limits: { cpuBudgetMs?: number; memoryMb?: number } = {}): Promise<LoadRequest> {
  return {
    prelude: await buildPrelude(tally),
    code: await compileBot(seat.source, seat.filename, 'tally'),
    filename: seat.filename,
    me: 1,
    seed: 3,
    cpuBudgetMs: limits.cpuBudgetMs ?? 5000,
    memoryMb: limits.memoryMb ?? 64,
    logCapBytes: LOG_CAP_BYTES,
  };
}

/** A play() request with the first round's view of a tally match (every call of a test gets the same). */
export function tallyPlay(): PlayRequest {
  const view = tally.encodeView(tally.create(tally.parseConfig({ nb_rounds: 5 }), 3));
  return {
    names: JSON.stringify(Object.keys(view)),
    status: JSON.stringify({ status: [0, 0, 0, 0], names: ['a', 'b', 'c', 'd'] }),
    arrays: Object.values(view),
  };
}
