// Built-in bots and the bot API, through the real match runner (in-process host).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import { builtinSeat } from '../../../src/match/builtins.ts';
import type { MatchSeat } from '../../../src/match/types.ts';
import { isOutrightWinner } from '../../../src/sdk/ranking.ts';
import { slow } from '../../helpers/slow.ts';
import { assertDemoNeverPassesGate } from '../../helpers/gate-sets.ts';

const GAME = 'bola-de-drac';
const seat = (name: string) => builtinSeat(GAME, name);

/** A bot that moves in a random direction (or throws, now and then) every round. */
const randomBot: MatchSeat = {
  filename: 'Randy.js',
  source: `export const GAME = 'bola-de-drac';
export const PLAYER_NAME = 'Randy';
export default class extends Player {
  play() {
    const d = random(1, 4);
    if (random(0, 9) === 0) throw_kamehame(d); else move(d);
  }
}
`,
};

async function play(seats: MatchSeat[], seed: number, config?: Record<string, unknown>) {
  return playMatch({ game: GAME, seed, seats, config }, { host: 'inprocess' });
}

describe('built-in bots', () => {
  // The Dummy plays as the original game's dummy (FIDELITY.md): a weak player
  // that wanders at random once it leads. The Demo takes the decisions of the
  // original's demo player (it runs straight and throws Kame Hames at random),
  // weaker still: the Dummy is strictly first against three Demos in 11 of these 12.
  test('the Dummy beats the Demo: it finishes strictly first against three Demos in at least 9 of 12 matches (every seat)', slow, async () => {
    const [dummy, demo] = await Promise.all([seat('Dummy'), seat('Demo')]);
    let wins = 0;
    const lines: string[] = [];
    for (let seed = 1; seed <= 12; seed++) {
      const at = seed % 4;
      const seats = [demo, demo, demo, demo];
      seats[at] = dummy;
      const { replay } = await play(seats, seed * 1009);
      assert.ok(
        replay.players.every((p) => p.frozenReason === null),
        `seed ${seed}: a bot was frozen`,
      );
      if (isOutrightWinner(replay.result.scores, at)) wins++;
      lines.push(`${seed}: ${replay.result.scores.join(' ')} (Dummy at ${at})`);
    }
    console.log(`Dummy vs 3 Demo: ${wins}/12 wins\n  ${lines.join('\n  ')}`);
    assert.ok(wins >= 9, `Dummy won only ${wins} of 12`);
  });

  // The Demo wins none of these 16 matches (and none on the original boards, in
  // Arbiter and in the 2012 game: FIDELITY.md). A gate is four matches against
  // three Dummies, one in each seat; a copy of the Demo must never pass one.
  test(
    'the Demo never passes the gate: fewer than 4 wins in each of four gate-like sets of 4 matches (seeds 1-16, every seat), at most 1 win of the 16',
    slow,
    async () => {
      const [dummy, demo] = await Promise.all([seat('Dummy'), seat('Demo')]);
      await assertDemoNeverPassesGate(demo, dummy, play);
    },
  );

  test('Dummy beats Null and random movers', slow, async () => {
    const [dummy, nul] = await Promise.all([seat('Dummy'), seat('Null')]);
    for (let seed = 1; seed <= 3; seed++) {
      const a = await play([nul, dummy, nul, nul], seed);
      assert.ok(isOutrightWinner(a.replay.result.scores, 1), `vs Null seed ${seed}: ${a.replay.result.scores}`);
      const b = await play([randomBot, randomBot, dummy, randomBot], seed);
      assert.ok(isOutrightWinner(b.replay.result.scores, 2), `vs random seed ${seed}: ${b.replay.result.scores}`);
      assert.ok(b.replay.result.scores[2]! >= 1000, `vs random seed ${seed}: Dummy deposited no ball`);
    }
  });

  test('self-play: four copies of each built-in finish without being frozen, well within the CPU budget', async () => {
    for (const name of ['Null', 'Demo', 'Dummy']) {
      const s = await seat(name);
      const { replay, logs } = await play([s, s, s, s], 5);
      for (const p of replay.players) assert.equal(p.frozenReason, null, `${name}: ${p.frozenMessage}`);
      assert.ok(
        logs.every((l) => !/warning/.test(l)),
        `${name} logs warnings: ${logs.join('|').slice(0, 300)}`,
      );
      const cpu = Math.max(...replay.players.map((p) => p.cpuMs));
      console.log(`${name} x4: max CPU ${cpu.toFixed(0)} ms of ${replay.limits.cpuBudgetMs}`);
      assert.ok(cpu < replay.limits.cpuBudgetMs / 2, `${name} used ${cpu} ms`);
    }
    const dummies = await play([await seat('Dummy'), await seat('Dummy'), await seat('Dummy'), await seat('Dummy')], 1);
    const deposits = dummies.replay.result.scores.reduce((n, s) => n + Math.floor(s / 1000), 0);
    assert.ok(deposits > 0, 'four Dummies do not stall each other');
  });
});

describe('bot API', () => {
  const probe: MatchSeat = {
    filename: 'Probe.js',
    source: `export const GAME = 'bola-de-drac';
export const PLAYER_NAME = 'Probe';
export default class extends Player {
  play() {
    if (round() > 2) return;
    const g = this.goku(me());
    const out = {
      round: round(), rows: rows(), cols: cols(), np: nb_players(), nr: nb_rounds(), max: max_strength(), kp: kamehame_penalty(),
      me: me(), pos: g.pos, type: g.type, strength: strength(me()), score: score(me()), alive: g.alive,
      corner: cell(0, 0).type, here: cell(g.pos).id, outside: cell(-1, 0).type,
      ok: [pos_ok(0, 0), pos_ok(-1, 0), pos_ok(Pos(0, 0), Dir.Top), pos_ok(1, 1, Dir.Bottom), player_ok(3), player_ok(4)],
      dest: dest(Pos(3, 4), Dir.Left), beans: beans().length, kintons: kintons().length, bean0: beans()[0],
      enums: [Dir.Right, CType.Bean, GType.On_Kinton_With_Ball, Player.Dir.Top],
      helpers: [has_ball(GType.With_Ball), has_kinton(GType.With_Ball), take_ball(GType.On_Kinton), jump_on_kinton(GType.Normal)],
      gokuBad: goku(9).id,
    };
    console.log(JSON.stringify(out));
    move(Dir.Right);
    throw_kamehame(Dir.Left);
    move(7);
  }
}
`,
  };

  test('getters answer like the engine state; the first action wins, later ones warn', async () => {
    const nul = await seat('Null');
    const { replay, logs } = await play([nul, probe, nul, nul], 11, { nb_rounds: 3 });
    const lines = logs[1]!.split('\n').filter((l) => l.startsWith('{'));
    assert.equal(lines.length, 3);
    const first = JSON.parse(lines[0]!);
    const f0 = replay.rounds[0]!.frame as { rows: number; cols: number; gokus: number[]; grid: string };
    assert.equal(first.round, 0);
    assert.equal(first.rows, f0.rows);
    assert.equal(first.cols, f0.cols);
    assert.equal(first.np, 4);
    assert.equal(first.nr, 3);
    assert.equal(first.max, 999);
    assert.equal(first.kp, 700);
    assert.equal(first.me, 1);
    assert.deepEqual(first.pos, { i: f0.gokus[8], j: f0.gokus[9] });
    assert.equal(first.type, 0);
    assert.equal(first.strength, 999);
    assert.equal(first.score, 999);
    assert.equal(first.alive, true);
    assert.equal(first.corner, 1);
    assert.equal(first.here, 1);
    assert.equal(first.outside, 1);
    assert.deepEqual(first.ok, [true, false, false, true, true, false]);
    assert.deepEqual(first.dest, { i: 3, j: 3 });
    assert.equal(first.beans, 4);
    assert.equal(first.kintons, 4);
    assert.equal(first.bean0.present, true);
    assert.equal(f0.grid[first.bean0.pos.i * f0.cols + first.bean0.pos.j], 'M');
    assert.deepEqual(first.enums, [4, 5, 3, 1]);
    assert.deepEqual(first.helpers, [true, false, 3, 1]);
    assert.equal(first.gokuBad, -1);
    assert.deepEqual(replay.rounds[1]!.orders[1], [['m', 4]]);
    assert.match(logs[1]!, /throw_kamehame: an action was already requested/);
    assert.match(logs[1]!, /move: invalid direction 7/);
    assert.equal(JSON.parse(lines[1]!).round, 1);
  });
});
