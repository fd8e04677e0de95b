// The built-in Dummy against the original AIDummy (alvaroarino/JOC-EDA-2019-2020,
// game19/AIDummy.o.Linux64): each fixture in test/fixtures/dummy/moria holds
// consecutive states of an original match (as the original printed them in its
// output file), the original Dummy's commands in each of those rounds (in the
// order it gave them) and the state of its random generator before the first
// one. Arbiter's Dummy, loaded once per player through the real bot runtime,
// plays the same rounds on the same states and must give the same commands;
// since its generator carries over from round to round, a different number of
// random() calls shows up as different commands later on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { getGame } from '../../../src/games/registry.ts';
import { buildPrelude } from '../../../src/sandbox/hosts/prelude.ts';
import { compileBot } from '../../../src/sandbox/languages/index.ts';
import { InProcessBotHost } from '../../../src/sandbox/hosts/inprocess-host.ts';

interface Fixture {
  label: string;
  seed: number;
  names: string[];
  dummies: number[];
  /** Per Dummy player: its generator's seed before the first round of the fixture. */
  generatorBefore: Record<string, number>;
  /**
   * state: the board the players saw (60 grid lines, then round, nb_cells, nb_treasures, status and one line per unit);
   * ghosts: [i, j, id] where the original's grid shows a unit away from its position (a troll killed and reborn).
   */
  rounds: { round: number; state: string[]; ghosts?: [number, number, number][]; orders: Record<string, string> }[];
}

const DIR = new URL('../../fixtures/dummy/moria/', import.meta.url);
const ROWS = 60;
const COLS = 60;
const ROCK = 5;

/** The view Arbiter's engine would give a bot for this printed state (index.ts encodeView). */
function viewOf(state: string[], ghosts: [number, number, number][] = []) {
  const cells = new Uint16Array(ROWS * COLS);
  for (let i = 0; i < ROWS; i++)
    for (let j = 0; j < COLS; j++) {
      const ch = state[i]![j]!;
      let type = 1; // Cave
      let owner = -1;
      let treasure = 0;
      let turns = 0;
      if (ch === 'O') type = 0;
      else if (ch === 'A') type = 2;
      else if (ch === 'G') type = 3;
      else if (ch === 'R') [type, turns] = [4, ROCK];
      else if (ch >= 'a' && ch <= 'd') [type, turns] = [4, ch.charCodeAt(0) - 96];
      else if (ch === 'T') treasure = 1;
      else if (ch >= '0' && ch <= '3') owner = +ch;
      else assert.equal(ch, 'C', `unexpected cell '${ch}'`);
      cells[i * COLS + j] = type | ((owner + 1) << 3) | (treasure << 6) | (turns << 7);
    }
  const [roundLine, cellsLine, treasuresLine] = state.slice(ROWS, ROWS + 3).map((l) => l.trim().split(/\s+/));
  const unitLines = state.slice(ROWS + 4);
  const units = new Int16Array(unitLines.length * 3);
  unitLines.forEach((line, id) => {
    const [, pl, i, j, health] = line.trim().split(/\s+/).map(Number);
    units[3 * id] = pl!;
    units[3 * id + 1] = health!;
    units[3 * id + 2] = i! < 0 ? -1 : i! * COLS + j!;
  });
  const meta = new Int32Array([
    +roundLine![1]!,
    4,
    200,
    20,
    5,
    20,
    4,
    10,
    ROCK,
    ROWS,
    COLS,
    ...cellsLine!.slice(1).map(Number),
    ...treasuresLine!.slice(1).map(Number),
  ]);
  // The unit id each cell shows (Cell::id): the units' positions, then the ghost cells.
  const grid = new Int16Array(ROWS * COLS).fill(-1);
  for (let id = 0; id < unitLines.length; id++) if (units[3 * id + 2]! >= 0) grid[units[3 * id + 2]!] = id;
  for (const [i, j, id] of ghosts) grid[i * COLS + j] = id;
  return [cells, units, meta, grid];
}

test("Arbiter's Dummy gives the original Dummy's commands on the original's states", async () => {
  const game = await getGame('moria');
  const prelude = await buildPrelude(game);
  const code = await compileBot(readFileSync(new URL('../../../src/games/moria/bots/Dummy.ts', import.meta.url), 'utf8'), 'Dummy.ts');
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
  assert.ok(files.length >= 3, 'fixtures are missing');
  let compared = 0;
  for (const file of files) {
    const fx = JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as Fixture;
    for (const pl of fx.dummies) {
      const host = new InProcessBotHost();
      // The runtime seeds a player's generator with seed + player + 1.
      const loaded = await host.load({
        prelude,
        code,
        filename: 'Dummy.ts',
        me: pl,
        seed: fx.generatorBefore[pl]! - pl - 1,
        cpuBudgetMs: 60000,
        memoryMb: 512,
        logCapBytes: 65536,
      });
      assert.ok(loaded.ok, `${file}: the Dummy does not load`);
      for (const r of fx.rounds) {
        const reply = await host.play({
          names: JSON.stringify(['cells', 'units', 'meta', 'grid']),
          status: JSON.stringify({ status: [0, 0, 0, 0], names: fx.names }),
          arrays: viewOf(r.state, r.ghosts),
        });
        assert.ok(reply.ok, `${file} round ${r.round}: the Dummy failed`);
        const ours = (JSON.parse(reply.orders) as [number, number][]).map(([id, d]) => `${id}:${d}`).join(' ');
        assert.equal(ours, r.orders[pl], `${file} (${fx.label}), player ${pl}, round ${r.round}: commands differ`);
        compared++;
      }
      await host.close();
    }
  }
  assert.ok(compared >= 16 * (4 + 4 + 2), `only ${compared} rounds compared`);
});
