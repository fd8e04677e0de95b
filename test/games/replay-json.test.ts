// The replay as the match process writes it (MatchRun.playOutAsJson: JsonWriter, each game's writeFrame,
// the records written after the last round) is, byte for byte, the UTF-8 of JSON.stringify of the replay
// the same match gives as objects (playOut), for every game, frozen seats and non-ASCII text included.
// A game that writes its frames reads them back for frame() (readBack): its frames are then checked against
// the state they show, field by field, as frame.ts documents them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonWriter } from '../../src/sdk/json-writer.ts';
import { MatchRun } from '../../src/match/match-run.ts';
import type { BotHost, LoadReply, PlayReply } from '../../src/match/bot-host.ts';
import { loadGames } from '../../src/games/registry.ts';
import { resolveLimits } from '../../src/sdk/limits.ts';
import { playMatch } from '../../src/sandbox/entries/play-match.ts';
import { builtinSeat } from '../../src/match/builtins.ts';
import type { AnyGame } from '../../src/sdk/types.ts';
import harryPotter from '../../src/games/harry-potter/index.ts';
import walkingDead from '../../src/games/walking-dead/index.ts';
import { WIZARD, magicStrength, type HPState } from '../../src/games/harry-potter/engine.ts';
import { UType, type TwdState } from '../../src/games/walking-dead/engine.ts';

test('JsonWriter writes numbers, arrays, text and values as JSON.stringify does', () => {
  const numbers = [0, -0, 1, 9, 10, 99, 100, 999, 1000, 12345, -1, -10, -999, -1000, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e21, 0.5];
  const more = [-0.125, 1 / 3, 123.456, 1e-7, Number.NaN, Infinity, -Infinity, Number.MAX_VALUE, Number.MIN_VALUE];
  const out = new JsonWriter(4);
  for (const x of [...numbers, ...more]) {
    out.length = 0;
    out.number(x);
    assert.equal(Buffer.from(out.view()).toString(), JSON.stringify(x), String(x));
  }
  out.length = 0;
  out.numbers(Int32Array.from([3, -7, 1 << 20]));
  out.numbers([]);
  out.numbers(more);
  assert.equal(Buffer.from(out.view()).toString(), '[3,-7,1048576][]' + JSON.stringify(more));
  const texts = ['', 'ascii', 'Bòt ☃', `${'x'.repeat(40)}é`, `${'y'.repeat(31)}\u{1f600}`, '"quoted" \\ \n', 'lone \ud800 surrogate'];
  out.length = 0;
  for (const t of texts) out.value(t);
  out.value({ a: [1, null, true], b: 'ñ', c: undefined });
  assert.equal(Buffer.from(out.view()).toString(), texts.map((t) => JSON.stringify(t)).join('') + JSON.stringify({ a: [1, null, true], b: 'ñ', c: undefined }));
  assert.equal(Buffer.from(out.view()).length, Buffer.byteLength(texts.map((t) => JSON.stringify(t)).join('') + '{"a":[1,null,true],"b":"ñ"}'));
  assert.throws(() => out.value(undefined), TypeError);
  // biome-ignore lint/suspicious/noSparseArray: a hole, as JSON.stringify writes it
  const nested = [[0, 1, 2], [1, 3, [4, -5, 0.5]], [], [[[]]], [, undefined, () => 1, null, 'é', { a: 1 }, true, Number.NaN], -0];
  out.length = 0;
  out.nested(nested);
  out.nested([]);
  out.nested(7);
  out.nested('x');
  assert.equal(Buffer.from(out.view()).toString(), JSON.stringify(nested) + '[]7"x"');
});

/** A bot that gives the orders a recorded match gave its seat, round by round, and a fixed CPU time; frozen at `failAt` (a round) if given. */
class ReplayingHost implements BotHost {
  private round = 0;
  constructor(
    private readonly game: string,
    private readonly me: number,
    private readonly orders: unknown[][],
    private readonly failAt: number | null,
  ) {}
  async load(): Promise<LoadReply> {
    return { ok: true, name: 'ignored', game: this.game, log: '', cpuMs: 0.5 };
  }
  async play(): Promise<PlayReply> {
    this.round++;
    if (this.round === this.failAt) return { ok: false, reason: 'exception', message: 'Erreur: ça a planté ☹', log: 'adéu\n', cpuMs: 2.0625 };
    const orders = this.orders[this.round] ?? [];
    return { ok: true, count: orders.length, orders: JSON.stringify(orders), log: '', cpuMs: 0.125 * (this.me + 1) + this.round / 3 };
  }
  async close(): Promise<void> {}
}

async function twice(game: AnyGame, orders: unknown[][][], lastRoundOnly: boolean) {
  const seats = [0, 1, 2, 3].map((me) => ({ source: '', filename: me === 2 ? 'Bòt ☃.js' : `bot${me}.js` }));
  const spec = { game: game.id, seed: 7, seats, limits: resolveLimits(game.defaultLimits, {}) };
  const run = () =>
    new MatchRun(game, spec, spec.seed, {
      host: (me) =>
        new ReplayingHost(
          game.id,
          me,
          orders.map((r) => r[me] ?? []),
          me === 1 ? 9 : null,
        ),
      prelude: async () => '',
      declaredName: () => null,
      compile: async () => ({ code: 'bot' }),
      mapPositions: (_seat, _filename, message) => message,
      lastRoundOnly,
    });
  const objects = await run().playOut();
  const json = await run().playOutAsJson();
  return { objects, json };
}

for (const game of (await loadGames()).values()) {
  test(`${game.title}: the replay written as JSON is JSON.stringify's of the replay as objects, to the byte`, async () => {
    // Real orders, from a match of Dummies on the same seed: the engine then has units moving, fighting, scoring.
    const dummy = await builtinSeat(game.id, 'Dummy');
    const played = await playMatch({ game: game.id, seed: 7, seats: [dummy, dummy, dummy, dummy] }, { host: 'inprocess' });
    const orders = played.replay.rounds.map((r) => r.orders as unknown[][]);
    const { objects, json } = await twice(game, orders, false);
    assert.ok(objects.replay.rounds.length > 10);
    assert.equal(objects.replay.players[1]!.frozenRound, 9);
    assert.equal(Buffer.from(json.json).toString(), JSON.stringify(objects.replay));
    assert.deepEqual(json.head, { ...objects.replay, rounds: null });
    assert.deepEqual(json.logs, objects.logs);
    const last = await twice(game, orders, true);
    assert.equal(last.objects.replay.rounds.length, 1);
    assert.equal(Buffer.from(last.json.json).toString(), JSON.stringify(last.objects.replay));
  });
}

/** Every state of a 4-Dummy match on `seed`, in order. */
async function dummyStates<S>(game: AnyGame, seed: number): Promise<S[]> {
  const dummy = await builtinSeat(game.id, 'Dummy');
  const { replay } = await playMatch({ game: game.id, seed, seats: [dummy, dummy, dummy, dummy] }, { host: 'inprocess' });
  let s = game.create(game.parseConfig(replay.config), replay.seed);
  const states = [s];
  for (const rec of replay.rounds.slice(1)) states.push((s = game.next(s, rec.orders, rec.frozen).state));
  return states as S[];
}

test('Harry Potter: frame() (writeFrame read back) shows the state as HPFrame documents it', async () => {
  const states = await dummyStates<HPState>(harryPotter as unknown as AnyGame, 7);
  let books = 0;
  let owned = 0;
  for (const s of states) {
    const f = harryPotter.frame(s);
    assert.deepEqual([f.round, f.rows, f.cols], [s.round, s.rows, s.cols]);
    const g = Array.from(s.wall, (wall, k) => (wall ? '#' : s.book[k] ? 'B' : s.owner[k]! >= 0 ? String(s.owner[k]) : '.')).join('');
    assert.equal(f.g, g, `round ${s.round}: g`);
    books += [...g].filter((c) => c === 'B').length;
    owned += [...g].filter((c) => c >= '0' && c <= '3').length;
    const u = Array.from(s.utype, (type, id) => [type, s.uplayer[id]!, Math.floor(s.upos[id]! / s.cols), s.upos[id]! % s.cols, s.upending[id]!, s.unext[id]!]);
    assert.deepEqual(f.u, u.flat(), `round ${s.round}: u`);
    assert.deepEqual(f.v, [s.vi, s.vj]);
    assert.deepEqual(f.s, Array.from(s.strength));
    assert.deepEqual(
      f.w,
      [0, 1, 2, 3].map((p) => Array.from(s.utype).filter((type, id) => type === WIZARD && s.uplayer[id] === p).length),
    );
    assert.deepEqual(
      f.m,
      [0, 1, 2, 3].map((p) => magicStrength(s, p)),
    );
    assert.deepEqual(f.sp, Array.from(s.spell));
  }
  // The states seen have books and owned cells: every kind of cell was compared.
  assert.ok(books > 0 && owned > 0);
});

test('The Walking Dead: frame() (writeFrame read back) shows the state as TwdFrame documents it', async () => {
  const states = await dummyStates<TwdState>(walkingDead as unknown as AnyGame, 7);
  let seen = '';
  for (const s of states) {
    const f = walkingDead.frame(s);
    assert.deepEqual([f.round, f.rows, f.cols], [s.round, s.rows, s.cols]);
    const grid = Array.from({ length: s.rows * s.cols }, (_x, c) => (s.waste[c] ? 'W' : s.owner[c]! >= 0 ? String(s.owner[c]) : '.')).join('');
    assert.equal(f.grid, grid, `round ${s.round}: grid`);
    seen += grid;
    assert.deepEqual(
      f.food,
      Array.from(s.food.keys()).filter((c) => s.food[c]),
    );
    const units = Array.from(s.uType, (type, u) => [type, s.uPlayer[u]!, s.uPos[u]!, s.uRfz[u]!]);
    assert.deepEqual(f.units, units.flat(), `round ${s.round}: units`);
    const alive = [0, 1, 2, 3].map((p) => Array.from(s.uType).filter((type, u) => type === UType.Alive && s.uPlayer[u] === p).length);
    assert.deepEqual(f.alive, alive);
    assert.deepEqual(f.points, Array.from(s.points));
    assert.deepEqual(
      f.strength,
      alive.map((a, p) => (a === 0 ? 0 : Math.floor(s.points[p]! / a))),
    );
  }
  assert.ok(['W', '.', '0', '1', '2', '3'].every((c) => seen.includes(c)));
});
