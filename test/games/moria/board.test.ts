import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import game, { gridString } from '../../../src/games/moria/index.ts';
import { CT, UT, type MoriaState } from '../../../src/games/moria/engine.ts';
import { reachFromOutside } from '../../../src/games/moria/mapgen.ts';
import { GameConfigError, isOver } from '../../../src/sdk/types.ts';

const cfg = game.parseConfig({});
const SEEDS = Array.from({ length: 25 }, (_, k) => k * 7919 + 1);
const boards = new Map<number, MoriaState>(SEEDS.map((seed) => [seed, game.create(cfg, seed)]));

function count(s: MoriaState, t: CT): number {
  return s.type.reduce((n, x) => n + (x === t ? 1 : 0), 0);
}

// The original's generator (reproduced cell for cell: golden.test.ts) guarantees
// these; the figures are its own bounds, not statistics of a sample.
test('boards as the original makes them: the 2-cell Outside band, 800-1100 treasureless caves, at least 80 treasures, granite structures, no Abyss', () => {
  for (const [seed, s] of boards) {
    assert.equal(count(s, CT.Outside), 464, `seed ${seed}`);
    const caves = s.type.reduce((n, t, p) => n + (t === CT.Cave && !s.treasure[p] ? 1 : 0), 0);
    assert.ok(caves >= 800 && caves <= 1100, `seed ${seed}: ${caves} caves`);
    assert.ok(count(s, CT.Granite) > 0, `seed ${seed}: no granite structure`);
    assert.equal(count(s, CT.Abyss), 0);
    // 80 treasures, or a few more when a chess block goes on past the 80th.
    const treasures = s.treasure.reduce((a, b) => a + b, 0);
    assert.ok(treasures >= 80 && treasures <= 120, `seed ${seed}: ${treasures} treasures`);
    // The outside band is exactly the 2 outer rows and columns.
    for (let i = 0; i < 60; i++)
      for (let j = 0; j < 60; j++) {
        const out = i < 2 || j < 2 || i >= 58 || j >= 58;
        assert.equal(s.type[i * 60 + j] === CT.Outside, out);
      }
    // Rock starts at full resistance.
    for (let p = 0; p < 3600; p++) if (s.type[p] === CT.Rock) assert.equal(s.turns[p], 5);
  }
});

test('treasures lie in the rock, never next to a tunnel, and every one can be dug to from the Outside (never sealed by granite)', () => {
  for (const [seed, s] of boards) {
    const dig = reachFromOutside(s, (p) => s.type[p] !== CT.Granite);
    for (let p = 0; p < 3600; p++) {
      if (!s.treasure[p]) continue;
      assert.equal(s.type[p], CT.Cave);
      assert.ok(dig[p], `seed ${seed}: treasure ${p} sealed`);
      for (let a = -1; a <= 1; a++)
        for (let b = -1; b <= 1; b++) {
          const q = p + a * 60 + b;
          assert.ok(!(s.type[q] === CT.Cave && !s.treasure[q]), `seed ${seed}: treasure ${p} next to a tunnel`);
        }
    }
  }
});

test('caves are tunnels of 2x2 blocks (but for a few cells on the bottom and right edges) connected to the Outside band', () => {
  for (const [seed, s] of boards) {
    const walk = reachFromOutside(s, (p) => s.type[p] === CT.Cave && !s.treasure[p]);
    let thin = 0;
    let caves = 0;
    for (let p = 0; p < 3600; p++) {
      if (s.type[p] !== CT.Cave || s.treasure[p]) continue;
      caves++;
      assert.ok(walk[p], `seed ${seed}: cave ${p} cut off`);
      let inBlock = false;
      for (const [a, b] of [
        [0, 0],
        [-1, 0],
        [0, -1],
        [-1, -1],
      ] as const) {
        const q = p + a * 60 + b;
        if ([q, q + 1, q + 60, q + 61].every((r) => s.type[r] === CT.Cave && !s.treasure[r])) inBlock = true;
      }
      if (!inBlock) {
        thin++;
        const i = Math.floor(p / 60);
        const j = p % 60;
        assert.ok(i >= 56 || j >= 56, `seed ${seed}: cave ${p} in a 1-wide passage away from the edges`);
      }
    }
    assert.ok(thin <= caves / 50, `seed ${seed}: ${thin} of ${caves} caves in a 1-wide passage`);
  }
});

test('initial units: ids by the facts, on distinct treasureless caves, dwarves conquer theirs, Balrog away from everyone', () => {
  for (const [seed, s] of boards) {
    assert.equal(s.utype.length, 125);
    for (let pl = 0; pl < 4; pl++) {
      for (let k = 0; k < 25; k++) {
        const id = 25 * pl + k;
        assert.equal(s.utype[id], k < 20 ? UT.Dwarf : UT.Wizard);
        assert.equal(s.uplayer[id], pl);
        const p = s.upos[id]!;
        assert.equal(s.type[p], CT.Cave);
        assert.equal(s.treasure[p], 0);
        assert.equal(s.unitAt[p], id);
        assert.equal(s.uhealth[id], k < 20 ? 100 : 50);
        if (k < 20) assert.equal(s.owner[p], pl);
      }
      assert.equal(s.nbCells[pl], 20, `seed ${seed}: round 0 has 20 cells per clan`);
    }
    for (let id = 100; id < 120; id++) {
      assert.equal(s.utype[id], UT.Orc);
      assert.equal(s.upos[id], -1, 'orcs start dead');
    }
    for (let id = 120; id < 124; id++) {
      assert.equal(s.utype[id], UT.Troll);
      assert.equal(s.type[s.upos[id]!], CT.Cave);
    }
    assert.equal(s.utype[124], UT.Balrog);
    const b = s.upos[124]!;
    for (let id = 0; id < 124; id++) {
      const p = s.upos[id]!;
      if (p < 0) continue;
      const d = Math.max(Math.abs(Math.floor(p / 60) - Math.floor(b / 60)), Math.abs((p % 60) - (b % 60)));
      assert.ok(d > 3, `seed ${seed}: unit ${id} within 3 of the Balrog`);
    }
  }
});

test('parseConfig: default.cnf names; unknown keys and bad values are errors', () => {
  assert.equal(game.parseConfig({ nb_rounds: 50 }).nb_rounds, 50);
  assert.equal(game.parseConfig().nb_dwarves, 20);
  assert.throws(() => game.parseConfig({ nb_round: 50 }), GameConfigError);
  assert.throws(() => game.parseConfig({ nb_rounds: 0 }), GameConfigError);
  assert.throws(() => game.parseConfig({ nb_rounds: '10' }), GameConfigError);
  assert.throws(() => game.parseConfig({ rows: 40 }), /rows/);
  assert.throws(() => game.parseConfig({ nb_players: 3 }), GameConfigError);
});

test("a fixed board (the original's FIXED grid): read as given, owners and dug rock included; units placed from the seed; bad boards are errors", () => {
  const rows = gridString(boards.get(SEEDS[0]!)!).match(/.{60}/g)!;
  // Some owned caves and a half-dug rock, as the original's output files show them.
  rows[10] = rows[10]!.slice(0, 2) + 'Ab' + rows[10]!.slice(4);
  const text = rows.join('\n');
  const cfgB = game.parseConfig({ board: `\n${text}\n` });
  assert.equal(cfgB.board, text);
  const s = game.create(cfgB, 77);
  const grid = gridString(s).match(/.{60}/g)!;
  for (let i = 0; i < 60; i++)
    for (let j = 0; j < 60; j++) {
      const want = rows[i]![j]!;
      // Round 0 shows the original cells, but for the caves the dwarves now stand on.
      if (grid[i]![j] !== want) assert.ok(s.utype[s.unitAt[i * 60 + j]!] === UT.Dwarf, `cell ${i},${j}`);
    }
  assert.equal(s.type[10 * 60 + 2], CT.Abyss);
  assert.equal(s.turns[10 * 60 + 3], 2);
  assert.deepEqual(game.create(cfgB, 77), s);
  assert.notDeepEqual(game.create(cfgB, 78).upos, s.upos);
  assert.deepEqual(game.parseConfig({ board: rows.join(' \n') }).board, text);
  assert.throws(() => game.parseConfig({ board: rows }), /must be a text/);
  assert.throws(() => game.parseConfig({ board: rows.slice(1).join('\n') }), /59 rows/);
  assert.throws(() => game.parseConfig({ board: text.replace('R', 'X') }), /"X" is not a cell/);
  assert.throws(() => game.parseConfig({ board: text.replace(/R/, 'e') }), /not a cell/);
  assert.throws(() => game.parseConfig({ board: 42 }), GameConfigError);
});

test('a match lasts nb_rounds rounds; the replay frames of a whole match gzip well under 1 MB', () => {
  let s = game.create(game.parseConfig({}), 5);
  const frames = [game.frame(s)];
  let rounds = 0;
  while (!isOver(game, s.cfg, s)) {
    s = game.next(s, [[], [], [], []], [false, false, false, false]).state;
    frames.push(game.frame(s));
    rounds++;
  }
  assert.equal(rounds, 200);
  assert.equal(game.round(s), 200);
  const size = gzipSync(JSON.stringify(frames)).length;
  assert.ok(size < 400_000, `${size} bytes`);
  // Scores are c + 10t.
  assert.deepEqual(
    game.scores(s),
    [0, 1, 2, 3].map((pl) => s.nbCells[pl]! + 10 * s.nbTreasures[pl]!),
  );
});
