// Moria's view (src/games/moria/viewer.ts) over a real match: its board size,
// counters, cell descriptions and the cells of this round's events, and
// every round drawn into a recording fake of the 2D canvas context.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import { builtinSeat } from '../../../src/match/builtins.ts';
import type { Replay } from '../../../src/sdk/replay-format.ts';
import { importGameView, PLAYER_COLORS, RecordingContext, viewArgs, type ViewArgs, type ViewUnderTest } from '../../helpers/game-view.ts';
import type { MoriaEvent, MoriaOrder } from '../../../src/games/moria/engine.ts';
import { UT, chebyshev, emptyMarks, frameOf, roundMarks, type MoriaFrame } from '../../../src/games/moria/viewer/frame.ts';
import moria from '../../../src/games/moria/index.ts';
import { at, build, Dir, play } from './helpers.ts';

const ROUNDS = 60;

let replay: Replay<MoriaFrame>;
let view: ViewUnderTest;

before(async () => {
  view = (await importGameView('moria')).default;
  const seats = await Promise.all(['Demo', 'Dummy', 'Demo', 'Null'].map((n) => builtinSeat('moria', n)));
  replay = (await playMatch({ game: 'moria', seed: 11, config: { nb_rounds: ROUNDS }, seats }, { host: 'inprocess' })).replay as Replay<MoriaFrame>;
});

function argsAt(index: number, ctx: unknown = new RecordingContext().ctx, width = 900, height = 900): ViewArgs<MoriaFrame> {
  return viewArgs(replay, index, ctx, width, height);
}

test('the board is the configured size and the counters named are the ones the game reports', () => {
  assert.deepEqual(view.boardSize(replay), { rows: replay.config.rows, cols: replay.config.cols });
  assert.deepEqual(view.boardSize(replay), { rows: 60, cols: 60 });
  assert.deepEqual(Object.keys(view.counterLabels), ['cells', 'treasures']);
  for (const round of replay.rounds)
    for (const key of Object.keys(view.counterLabels)) assert.equal(round.counters[key]?.length, 4, `round ${round.round}: ${key}`);
});

test('describeCell names the cell type, its clan, its treasure and the unit on it', () => {
  const index = ROUNDS / 2;
  const args = argsAt(index);
  const f = frameOf(args.round);
  const at = (p: number) => view.describeCell(args, Math.floor(p / f.cols), p % f.cols)!;
  const first = (test: (c: string) => boolean) => [...f.grid].findIndex(test);

  assert.match(at(0), /^\(0, 0\) outside/);
  const expectations: [(c: string) => boolean, RegExp][] = [
    [(c) => c === 'C', /^\(\d+, \d+\) cave(;|$)/],
    [(c) => c === 'T', /^\(\d+, \d+\) cave, treasure/],
    [(c) => c === 'G', /^\(\d+, \d+\) granite/],
    [(c) => c === 'R', /^\(\d+, \d+\) rock(;|$)/],
    [(c) => c >= 'a' && c <= 'd', /^\(\d+, \d+\) rock, dug [1-4] of 5 times/],
  ];
  for (const [is, re] of expectations) {
    const p = first(is);
    assert.ok(p >= 0, `no cell for ${re}`);
    assert.match(at(p), re);
  }
  // Conquered caves name their clan; two Demos are told apart by seat.
  for (const seat of [0, 1, 2]) {
    const p = first((c) => c === String(seat));
    assert.ok(p >= 0, `no cave of clan ${seat} at round ${index}`);
    const name = seat === 1 ? 'Dummy' : `Demo (player ${seat})`;
    assert.match(at(p), new RegExp(`cave, conquered by ${name.replace(/[()]/g, '\\$&')}`));
  }
  // Units: kind, clan and health.
  const seen = new Set<number>();
  for (let id = 0; id < f.unitTypes.length; id++) {
    const p = f.units[3 * id + 2]!;
    if (p < 0) continue;
    const kind = Number(f.unitTypes[id]);
    const player = f.units[3 * id]!;
    const hp = f.units[3 * id + 1]!;
    const text = at(p);
    if (kind === UT.Dwarf) assert.ok(text.includes(`; dwarf of ${replay.players[player]!.name}`) && text.includes(`${hp}/100 hp`), text);
    else if (kind === UT.Wizard) assert.ok(text.includes(`; wizard of ${replay.players[player]!.name}`) && text.includes(`${hp}/50 hp`), text);
    else if (kind === UT.Orc) assert.ok(text.includes(`; orc, ${hp}/75 hp`), text);
    else if (kind === UT.Troll) assert.ok(text.includes(`; troll, ${hp}/500 hp`), text);
    else assert.ok(text.endsWith('; the Balrog') || text.includes('; the Balrog;'), text);
    seen.add(kind);
  }
  for (const kind of [UT.Dwarf, UT.Wizard, UT.Troll, UT.Balrog]) assert.ok(seen.has(kind), `no unit of kind ${kind} on the board`);
  assert.equal(view.describeCell(args, -1, 0), null);
  assert.equal(view.describeCell(args, 0, 60), null);
});

test("this round's deaths, attacks and captures are placed where they happened", () => {
  const marks = emptyMarks();
  let kills = 0;
  let attacks = 0;
  let captures = 0;
  for (let index = 1; index < replay.rounds.length; index++) {
    const round = replay.rounds[index]!;
    const prev = frameOf(replay.rounds[index - 1]!);
    const cur = frameOf(round);
    roundMarks(replay, index, marks);
    const events = round.events as MoriaEvent[];
    const killEvents = events.filter((e) => e.t === 'kill');
    const atkEvents = events.filter((e) => e.t === 'atk');
    assert.equal(marks.deaths.length / 4, killEvents.length, `round ${round.round}: one mark per death`);
    assert.equal(marks.attacks.length / 2, atkEvents.length, `round ${round.round}: one mark per attack`);
    for (let k = 0; k < marks.attacks.length; k += 2) {
      const e = atkEvents[k / 2] as Extract<MoriaEvent, { t: 'atk' }>;
      assert.equal(marks.attacks[k], prev.units[3 * e.a + 2], 'an attacker attacks from where it stood');
      assert.equal(chebyshev(marks.attacks[k]!, marks.attacks[k + 1]!, cur.cols), 1, 'it hits a neighbouring cell');
    }
    for (let k = 0; k < marks.deaths.length; k += 4) {
      const e = killEvents[k / 4] as Extract<MoriaEvent, { t: 'kill' }>;
      const [p, oldPlayer, kind, id] = marks.deaths.slice(k, k + 4) as [number, number, number, number];
      assert.equal(id, e.v);
      assert.equal(oldPlayer, prev.units[3 * e.v]);
      assert.equal(kind, Number(cur.unitTypes[e.v]));
      // A unit dies on its cell or on the one it stepped to this round.
      assert.ok(chebyshev(p, prev.units[3 * e.v + 2]!, cur.cols) <= 1, `round ${round.round}: death of ${e.v} at ${p}`);
      if (e.why === 'abyss') assert.equal(cur.grid[p], 'A');
      // Killed by the Balrog: in its reach, before it moved (walked in) or after (caught in the ring).
      const balrog = 3 * (cur.unitTypes.length - 1) + 2;
      if (e.why === 'balrog') assert.ok(Math.min(chebyshev(p, prev.units[balrog]!, cur.cols), chebyshev(p, cur.units[balrog]!, cur.cols)) <= 1);
      kills++;
    }
    for (let k = 0; k < marks.captured.length; k += 2) {
      const id = marks.captured[k]!;
      assert.notEqual(cur.units[3 * id], marks.captured[k + 1], 'a captured unit changed clan');
      assert.equal(prev.units[3 * id], marks.captured[k + 1]);
      captures++;
    }
    attacks += atkEvents.length;
  }
  assert.ok(kills > 0 && attacks > 0 && captures > 0, `the match had deaths (${kills}), attacks (${attacks}) and captures (${captures})`);
});

test('a fall into an abyss, a walk into the Balrog and its ring are each marked on the right cell', () => {
  // SMALL config: dwarves 0-2 and wizard 3 per clan, Balrog 18.
  const s0 = build(
    ['OOOOOOOOOO', 'OOOOOOOOOO', 'OO......OO', 'OO.A....OO', 'OO......OO', 'OO......OO', 'OO......OO', 'OOOOOOOOOO', 'OOOOOOOOOO'],
    [
      { id: 0, at: [3, 2] },
      { id: 4, at: [5, 5] },
      { id: 5, at: [3, 6] },
      { id: 18, at: [5, 7] },
    ],
  );
  const orders: Record<number, MoriaOrder[]> = { 0: [[0, Dir.Right]], 1: [[5, Dir.Bottom]] };
  const { state: s1, events } = play(s0, orders);
  const round = (n: number, frame: unknown, ev: unknown[], o: unknown[][]) => ({
    round: n,
    orders: o,
    events: ev,
    frame,
    scores: [0, 0, 0, 0],
    counters: {},
    cpuMs: [0, 0, 0, 0],
    frozen: [false, false, false, false],
  });
  const mini = {
    config: s0.cfg,
    players: ['A', 'B', 'C', 'D'].map((name) => ({ name })),
    rounds: [round(0, moria.frame(s0), [], [[], [], [], []]), round(1, moria.frame(s1), events, [orders[0]!, orders[1]!, [], []])],
  } as unknown as Replay<MoriaFrame>;
  const why = new Map((events as MoriaEvent[]).flatMap((e) => (e.t === 'kill' ? [[e.v, e.why] as const] : [])));
  assert.deepEqual(
    [...why.entries()].sort(),
    [
      [0, 'abyss'],
      [4, 'balrog'],
      [5, 'balrog'],
    ],
    'the scene plays as planned',
  );

  const marks = roundMarks(mini, 1, emptyMarks());
  const deathAt = new Map<number, number>();
  for (let k = 0; k < marks.deaths.length; k += 4) deathAt.set(marks.deaths[k + 3]!, marks.deaths[k]!);
  assert.equal(deathAt.get(0), at(s0, 3, 3), 'fell into the abyss it stepped on');
  assert.equal(deathAt.get(5), at(s0, 4, 6), 'died on the cell it stepped to, next to the Balrog');
  assert.equal(deathAt.get(4), at(s0, 5, 5), 'caught where it stood when the Balrog came');
  assert.deepEqual([marks.captured[0], marks.captured[2], marks.captured[4]].sort(), [0, 4, 5], 'the three are reborn in other clans');

  const args = viewArgs(mini, 1, new RecordingContext().ctx, 200, 180);
  view.draw(args);
  assert.match(view.describeCell(args, 3, 3)!, /^\(3, 3\) abyss; a dwarf of A died here$/);
  assert.match(view.describeCell(args, 5, 5)!, /^\(5, 5\) cave; a dwarf of B died here$/);
  assert.match(view.describeCell(args, 5, 6)!, /; the Balrog$/);
});

test('every round draws at desktop and phone sizes, batched into a few paths, and every legend swatch draws', () => {
  for (const [width, height] of [
    [900, 900],
    [360, 360],
  ] as const) {
    for (let index = 0; index < replay.rounds.length; index++) {
      const ctx = new RecordingContext();
      view.draw(argsAt(index, ctx.ctx, width, height));
      assert.ok(ctx.balanced, 'save and restore pair up, no dash or transparency left behind');
      // Terrain: one fillRect per run of same-coloured cells in a row (at least one per row, far fewer than cells).
      assert.ok(ctx.count('fillRect') >= 60 && ctx.count('fillRect') < 3600, `round ${index}: ${ctx.count('fillRect')} fillRects`);
      assert.ok(ctx.count('arc') + ctx.count('lineTo') > 100, 'the units are drawn');
      // Units: one path per kind and clan, not one per unit.
      assert.ok(ctx.count('fill') + ctx.count('stroke') < 80, `round ${index}: ${ctx.count('fill')} fills, ${ctx.count('stroke')} strokes`);
    }
  }
  const ctx = new RecordingContext();
  assert.ok(view.legend.length >= 13);
  for (const item of view.legend) {
    item.swatch(ctx.ctx, 16, PLAYER_COLORS);
    assert.ok(ctx.count('fillRect') > 0, item.label);
  }
  for (const name of ['outside', 'cave', 'treasure', 'rock', 'granite', 'abyss', 'dwarf', 'wizard', 'orc', 'troll', 'Balrog'])
    assert.ok(
      view.legend.some((l) => l.label.includes(name)),
      `legend names ${name}`,
    );
});
