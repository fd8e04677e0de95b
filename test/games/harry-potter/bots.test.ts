// Built-in bots through the real match runner (in-process host): the API
// works end to end, and Dummy is the original's qualification bar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import { builtinSeat } from '../../../src/match/builtins.ts';
import type { MatchSeat } from '../../../src/match/types.ts';
import { slow } from '../../helpers/slow.ts';
import { assertDemoNeverPassesGate } from '../../helpers/gate-sets.ts';

function check(cond: unknown, message: string): asserts cond {
  assert.ok(cond, message);
}

const RANDOM_BOT: MatchSeat = {
  filename: 'Randy.js',
  source: `
export const GAME = 'harry-potter';
export const PLAYER_NAME = 'Randy';
export default class extends Player {
  play() {
    for (const id of wizards(me())) move(id, 2 * random(0, 3));
    move(ghost(me()), random(0, 7));
  }
}`,
};

// Exercises the API surface; logs a summary the test reads back.
const API_BOT: MatchSeat = {
  filename: 'Probe.js',
  source: `
export const GAME = 'harry-potter';
export const PLAYER_NAME = 'Probe';
export default class extends Player {
  play() {
    if (round() === 61) {
      // Solve the spell by brute force over triples (the ghost may cast from round 60; round 60 is used below).
      return;
    }
    if (round() === 60) {
      const v = spell_ingredients();
      const total = v.reduce((a, b) => a + b, 0);
      const target = total / 5;
      const label = v.map(() => -1);
      const rec = (g) => {
        if (g === 5) return true;
        const a = label.indexOf(-1);
        label[a] = g;
        for (let b = a + 1; b < 15; b++) {
          if (label[b] !== -1) continue;
          label[b] = g;
          for (let c = b + 1; c < 15; c++) {
            if (label[c] !== -1 || v[a] + v[b] + v[c] !== target) continue;
            label[c] = g;
            if (rec(g + 1)) return true;
            label[c] = -1;
          }
          label[b] = -1;
        }
        label[a] = -1;
        return false;
      };
      rec(0);
      const g = ghost(me());
      spell(g, label);
      move(g, Dir.Down); // second command for the ghost: ignored without a word, as in the original
      console.log(JSON.stringify({ rest: unit(g).resting_rounds(), fn: resting_rounds(unit(g)) }));
      return;
    }
    if (round() !== 3) return;
    const ws = wizards(me());
    const u = unit(ws[0]);
    const c = cell(u.pos);
    const g = unit(ghost(me()));
    const info = {
      me: me(), round: round(), rows: board_rows(), cols: board_cols(),
      wizards: ws.length, first: ws[0], ghost: ghost(me()), gtype: g.type, gplayer: g.player, rest: g.resting_rounds(),
      type: u.type, owner: c.owner, id: c.id === u.id, empty: c.is_empty(), conv: u.is_in_conversion_process(),
      fconv: is_in_conversion_process(u), rfc: u.rounds_for_converting(), ptc: u.player_to_be_converted_to(), lar: g.last_attack_received(),
      settings: [num_players(), num_rounds(), num_ini_wizards_per_clan(), num_ini_books(), clan_ini_magic_strength(),
        points_for_converting_wizard(), points_per_owned_cell(), book_magic_strength(), rounds_for_converting_wizard(),
        rounds_attack_resting_ghost(), rounds_spell_resting_ghost(), rounds_no_attack_ghost()],
      ok: [player_ok(3), player_ok(4), pos_ok(0, 0), pos_ok(60, 0), pos_ok(Pos(59, 59)), dir_ok(7), dir_ok(8)],
      add: pos_add(Pos(5, 5), Dir.RU), add2: pos_add(Pos(5, 5), Pos(1, 2)), eq: pos_eq(Pos(1, 2), Pos(1, 2)),
      enums: [Dir.LD, Up, CellType.Wall, Wall, UnitType.Ghost, Ghost, Corridor, Wizard],
      magic: magic_strength(me()), score: score(me()), ingredients: spell_ingredients().length, v: pos_voldemort(),
      vcell: cell(pos_voldemort()).type !== undefined, status: status(me()), version: version(),
      self: this.board_rows() === board_rows(), bad: unit(999).id, outside: cell(-1, 0).type,
    };
    console.log(JSON.stringify(info));
    move(u.id, Dir.DR); // a wizard diagonal: the host drops it with a warning
  }
}`,
};

async function seat(name: string): Promise<MatchSeat> {
  return builtinSeat('harry-potter', name);
}

async function play(seats: MatchSeat[], seed: number) {
  return playMatch({ game: 'harry-potter', seed, seats }, { host: 'inprocess' });
}

test('the bot API under the statement names, end to end', async () => {
  const out = await play([API_BOT, await seat('Null'), await seat('Null'), await seat('Null')], 3);
  const lines = out.logs[0]!.split('\n').filter((l) => l.startsWith('{'));
  const info = JSON.parse(lines[0]!);
  assert.equal(info.me, 0);
  assert.equal(info.round, 3);
  assert.deepEqual([info.rows, info.cols], [60, 60]);
  assert.equal(info.wizards, 20);
  assert.equal(info.first, 4);
  assert.deepEqual([info.ghost, info.gtype, info.gplayer, info.rest], [0, 1, 0, 57]);
  assert.deepEqual(
    [info.type, info.owner, info.id, info.empty, info.conv, info.fconv, info.rfc, info.ptc, info.lar],
    [0, 0, true, false, false, false, 0, -1, -1],
  );
  assert.deepEqual(info.settings, [4, 200, 20, 50, 1000, 100, 1, 50, 5, 15, 60, 5]);
  assert.deepEqual(info.ok, [true, false, true, false, true, true, false]);
  assert.deepEqual(info.add, { i: 4, j: 6 });
  assert.deepEqual(info.add2, { i: 6, j: 7 });
  assert.equal(info.eq, true);
  assert.deepEqual(info.enums, [7, 4, 1, 1, 1, 1, 0, 0]);
  assert.equal(info.magic, Math.floor(1000 / 21));
  assert.equal(info.score, 21);
  assert.equal(info.ingredients, 15);
  assert.equal(info.version, 'HarryPotter 1.0');
  assert.equal(info.self, true);
  assert.equal(info.bad, -1);
  assert.equal(info.outside, 0);
  check(out.logs[0]!.includes('warning'), 'bad calls warn in the log');
  assert.doesNotMatch(out.logs[0]!, /unit requested/, 'unit(999) is silent, as in the original');
  // Round 60: the spell worked (the ghost rests 60 rounds from then on).
  const spellInfo = JSON.parse(lines[1]!);
  assert.equal(spellInfo.rest, 0);
  assert.equal(spellInfo.fn, 0);
  const r61 = out.replay.rounds.find((r) => r.round === 61)!;
  check(
    (r61.events as { t: string }[]).some((e) => e.t === 'spell'),
    'the spell was cast in round 60',
  );
  const r60 = out.replay.rounds.find((r) => r.round === 60)!;
  check(r61.counters.cells![0]! > r60.counters.cells![0]! + 200, 'a spell captures hundreds of cells');
  assert.equal(out.replay.players[0]!.frozenReason, null);
});

test('Null does nothing, Demo and Dummy play whole matches without errors, quickly', async () => {
  const out = await play([await seat('Dummy'), await seat('Demo'), await seat('Null'), await seat('Demo')], 12);
  for (const p of out.replay.players) assert.equal(p.frozenReason, null, `${p.name}: ${p.frozenMessage}`);
  assert.equal(out.replay.rounds.length, 201);
  const final = out.replay.result.scores;
  check(final[0]! > final[2]!, `Dummy ${final[0]} > Null ${final[2]}`);
  // Null gives no orders: its ghost stays put until Voldemort or nobody moves it.
  const g0 = (out.replay.rounds[0]!.frame as { u: number[] }).u.slice(2 * 6 + 2, 2 * 6 + 4);
  const g50 = (out.replay.rounds[50]!.frame as { u: number[] }).u.slice(2 * 6 + 2, 2 * 6 + 4);
  const killed = out.replay.rounds.slice(1, 51).some((r) => (r.events as { t: string; id: number }[]).some((e) => e.t === 'kill' && e.id === 2));
  if (!killed) assert.deepEqual(g50, g0);
  for (const p of out.replay.players) check(p.cpuMs < 3000, `${p.name} used ${p.cpuMs} ms of CPU`);
});

test('Dummy beats Null and a random mover', slow, async () => {
  for (const seed of [1, 2, 3]) {
    const out = await play([await seat('Dummy'), await seat('Null'), RANDOM_BOT, await seat('Null')], seed);
    assert.equal(out.replay.result.winner, 0, `seed ${seed}: ${out.replay.result.scores}`);
  }
  for (const seed of [4, 5]) {
    const out = await play([RANDOM_BOT, RANDOM_BOT, await seat('Dummy'), RANDOM_BOT], seed);
    assert.equal(out.replay.result.winner, 2, `seed ${seed}: ${out.replay.result.scores}`);
  }
});

// The Demo takes the decisions of the original package's demo player (its
// wizards wander at random), and the Dummy is the original's (dummy.test.ts):
// in both games the demo wins none of these 16 matches (FIDELITY.md,
// Strength). A gate is four matches against three Dummies, one in each seat;
// a copy of the Demo must never pass one.
test(
  'Demo never passes the gate: fewer than 4 wins in each of four gate-like sets of 4 matches (seeds 1-16, every seat), at most 1 win of the 16',
  slow,
  async () => {
    const demo = await seat('Demo');
    const dummy = await seat('Dummy');
    await assertDemoNeverPassesGate(demo, dummy, play);
  },
);

test('one Dummy against three Demos finishes first', slow, async () => {
  const demo = await seat('Demo');
  const dummy = await seat('Dummy');
  for (let seed = 1; seed <= 2; seed++) {
    const out = await play([dummy, demo, demo, demo], 100 + seed);
    check(out.replay.result.winner === 0, `seed ${100 + seed}: ${out.replay.result.scores}`);
  }
});
