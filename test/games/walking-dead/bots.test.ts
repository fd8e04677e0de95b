// Built-in bots through the real match runner (in-process host): the API
// works end to end, and Dummy is a real qualification bar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import { builtinSeat } from '../../../src/match/builtins.ts';
import type { MatchSeat } from '../../../src/match/types.ts';
import game from '../../../src/games/walking-dead/index.ts';
import { slow } from '../../helpers/slow.ts';
import { assertDemoNeverPassesGate } from '../../helpers/gate-sets.ts';

const RANDOM_BOT: MatchSeat = {
  filename: 'Randy.js',
  source: `
export const GAME = 'walking-dead';
export const PLAYER_NAME = 'Randy';
export default class extends Player {
  play() {
    for (const id of alive_units(me())) move(id, 2 * random(0, 3));
  }
}`,
};

// Exercises the API surface; logs a summary the test reads back.
const API_BOT: MatchSeat = {
  filename: 'Probe.js',
  source: `
export const GAME = 'walking-dead';
export const PLAYER_NAME = 'Probe';
export default class extends Player {
  play() {
    if (round() !== 2) return;
    const id = alive_units(me())[0];
    const u = unit(id);
    const c = cell(u.pos);
    let streets = 0, food = 0, owned = 0;
    for (let i = 0; i < board_rows(); i++)
      for (let j = 0; j < board_cols(); j++) {
        const x = cell(i, j);
        if (x.type === Street) streets++;
        if (x.food) food++;
        if (x.owner === me()) owned++;
      }
    const info = {
      me: me(), round: round(), rows: board_rows(), cols: board_cols(),
      alive: alive_units(me()).length, dead: dead_units(me()).length, zombies: zombies().length,
      type: u.type, player: u.player, rfz: u.rounds_for_zombie, cellId: c.id === id, cellOwner: c.owner,
      settings: [num_players(), num_rounds(), num_ini_units_per_clan(), num_ini_zombies(), num_ini_food(),
        clan_ini_strength(), points_for_killing_person(), points_for_killing_zombie(), points_per_owned_cell(),
        food_strength(), rounds_before_becoming_zombie()],
      ok: [player_ok(3), player_ok(4), pos_ok(0, 0), pos_ok(60, 0), pos_ok(Pos(59, 59)), dir_ok(7), dir_ok(8)],
      add: pos_add(Pos(5, 5), Dir.RU), eq: pos_eq(Pos(1, 2), Pos(1, 2)), enums: [Dir.LD, Up, CellType.Waste, UnitType.Zombie, Dead],
      strength: strength(me()), score: score(me()), status: status(me()), version: version(),
      self: this.board_rows() === board_rows(), food, owned, streets, zombieType: unit(zombies()[0]).type,
      perm: random_permutation(4).length,
    };
    console.log(JSON.stringify(info));
    unit(1000); // bad id: warning
    cell(-1, 0); // outside: warning
    move(id, Dir.Down);
    move(id, Dir.Up); // second command: dropped
    move(id + 1, 12); // bad direction
    move(99999, 0); // bad id
    move('x', 'y'); // garbage
  }
}`,
};

const seat = (name: string) => builtinSeat('walking-dead', name);

async function play(seats: MatchSeat[], seed: number) {
  return playMatch({ game: 'walking-dead', seed, seats }, { host: 'inprocess' });
}

function wins(scores: number[], player: number): boolean {
  return scores.every((s, p) => p === player || s < scores[player]!);
}

test('the API answers as the statement says, and bad calls only warn', async () => {
  const out = await play([API_BOT, await seat('Null'), await seat('Null'), await seat('Null')], 5);
  const line = out.logs[0]!.split('\n').find((l) => l.startsWith('{'));
  assert.ok(line, out.logs[0]);
  const info = JSON.parse(line);
  assert.equal(info.me, 0);
  assert.equal(info.round, 2);
  assert.equal(info.rows, 60);
  assert.equal(info.cols, 60);
  // Nobody moved yet: no fights, no zombie killed; the clan switch may have moved a unit or two.
  assert.equal(info.dead, 0);
  assert.equal(info.zombies, 10);
  assert.ok(info.alive >= 18 && info.alive <= 22, `alive ${info.alive}`);
  assert.equal(info.type, 0);
  assert.equal(info.player, 0);
  assert.equal(info.cellId, true);
  assert.equal(info.cellOwner, 0);
  assert.deepEqual(info.settings, [4, 200, 20, 10, 15, 1000, 50, 10, 1, 50, 5]);
  assert.deepEqual(info.ok, [true, false, true, false, true, true, false]);
  assert.deepEqual(info.add, { i: 4, j: 6 });
  assert.equal(info.eq, true);
  assert.deepEqual(info.enums, [7, 4, 1, 2, 1]);
  assert.equal(info.version, 'TheWalkingDead 1.0');
  assert.equal(info.self, true);
  assert.equal(info.food, 15);
  assert.equal(info.zombieType, 2);
  assert.equal(info.perm, 4);
  assert.ok(info.streets > 1500 && info.streets < 3100);
  assert.ok(info.owned >= info.alive);
  assert.equal(info.strength, Math.floor(info.strength));
  assert.ok(info.score >= info.owned);
  assert.match(out.logs[0]!, /warning: unit requested for identifier 1000/);
  assert.match(out.logs[0]!, /warning: cell requested/);
  assert.match(out.logs[0]!, /command already requested/);
  // The orders stored in the replay are the validated ones: the unit's first move, and the order
  // with a bad direction for one's own next unit kept as the original keeps it (direction -1);
  // the second command, the unknown id and the garbage are dropped.
  const r3 = out.replay.rounds[3]!;
  assert.deepEqual(
    (r3.orders[0] as number[][]).map((o) => o[1]),
    [0, -1],
  );
  assert.equal(out.replay.players[0]!.frozenReason, null);
});

test('a replay of built-in bots is compact and its frames follow the engine', async () => {
  const out = await play([await seat('Dummy'), await seat('Demo'), await seat('Demo'), await seat('Null')], 3);
  assert.equal(out.replay.rounds.length, 201);
  assert.equal(out.replay.engineVersion, game.engineVersion);
  const last = out.replay.rounds[200]!;
  assert.deepEqual(last.scores, out.replay.result.scores);
  const { gzipSync } = await import('node:zlib');
  const size = gzipSync(JSON.stringify(out.replay)).length;
  assert.ok(size < 1_000_000, `${size} bytes`);
});

test('Dummy beats Null and a random-moving bot', slow, async () => {
  for (const seed of [1, 2]) {
    const a = await play([await seat('Dummy'), await seat('Null'), await seat('Null'), await seat('Null')], seed);
    assert.ok(wins(a.replay.result.scores, 0), `vs Null: ${a.replay.result.scores}`);
    const b = await play([RANDOM_BOT, RANDOM_BOT, await seat('Dummy'), RANDOM_BOT], seed);
    assert.ok(wins(b.replay.result.scores, 2), `vs random: ${b.replay.result.scores}`);
  }
});

// The Dummy is the original's (same decisions, same random() calls), the Demo takes the decisions
// of the original's demo player: the Dummy is strictly first against three Demos in all 12 of
// these matches.
test('Dummy beats Demo: strictly first against three Demos in at least 10 of 12 matches, and well within its CPU budget', slow, async () => {
  const dummy = await seat('Dummy');
  const demo = await seat('Demo');
  let won = 0;
  const results: string[] = [];
  for (let seed = 1; seed <= 12; seed++) {
    const pos = seed % 4;
    const seats = [demo, demo, demo, demo];
    seats[pos] = dummy;
    const out = await play(seats, seed);
    if (wins(out.replay.result.scores, pos)) won++;
    results.push(`${seed}:${out.replay.result.scores.join('/')}`);
    for (const p of out.replay.players) {
      assert.equal(p.frozenReason, null);
      assert.ok(p.cpuMs < 2500, `${p.name} used ${p.cpuMs} ms`);
    }
  }
  assert.ok(won >= 10, `Dummy won ${won}/12: ${results.join(' ')}`);
});

// The Demo wins none of these 16 matches, in Arbiter and in the original game
// (FIDELITY.md, Strength). A gate is four matches against three Dummies, one in
// each seat; a copy of the Demo must never pass one.
test(
  'Demo never passes the gate: fewer than 4 wins in each of four gate-like sets of 4 matches (seeds 1-16, every seat), at most 1 win of the 16',
  slow,
  async () => {
    const dummy = await seat('Dummy');
    const demo = await seat('Demo');
    await assertDemoNeverPassesGate(demo, dummy, play);
  },
);
