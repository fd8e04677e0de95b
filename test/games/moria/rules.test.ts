import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CT, UT, type MoriaEvent } from '../../../src/games/moria/engine.ts';
import game, { scoresOf } from '../../../src/games/moria/index.ts';
import { build, play, at, posOf, Dir, WITH_TROLL } from './helpers.ts';

// Ids with the SMALL config: clan pl has dwarves 4pl..4pl+2, wizard 4pl+3;
// orcs 16, 17; troll 18; Balrog 19.
const ORC = 16;
const ORC2 = 17;
const TROLL = 18; // with { cfg: WITH_TROLL }
const BALROG_T = 19; // with { cfg: WITH_TROLL }
const BALROG = 18;
const T = { cfg: WITH_TROLL };

// Plenty of Outside room for the unlisted units and the respawns.
const OPEN = [
  'OOOOOOOOOOOOOO',
  'OOOOOOOOOOOOOO',
  'OO..........OO',
  'OO..........OO',
  'OO..........OO',
  'OO..........OO',
  'OO..........OO',
  'OO..........OO',
  'OOOOOOOOOOOOOO',
  'OOOOOOOOOOOOOO',
];

function kinds<K extends MoriaEvent['t']>(ev: MoriaEvent[], t: K): Extract<MoriaEvent, { t: K }>[] {
  return ev.filter((e): e is Extract<MoriaEvent, { t: K }> => e.t === t);
}

test('statement example: a wizard and dwarves X, Y, Z move onto an abyss with an orc: X hurts, Y kills, Z falls and dies', () => {
  // Health 41: X (20..40) never kills; X + Y (>= 40) kills unless both roll 20.
  let checked = 0;
  for (let seed = 1; seed <= 5 && checked === 0; seed++) {
    const pic = OPEN.slice();
    pic[4] = 'OO....A.....OO';
    const W = 3,
      X = 0,
      Y = 1,
      Z = 2;
    const s = build(
      pic,
      [
        { id: ORC, at: [4, 6], health: 41 },
        { id: W, at: [4, 5] }, // wizard, left of the abyss
        { id: X, at: [3, 6] }, // above
        { id: Y, at: [5, 6] }, // below
        { id: Z, at: [3, 7] }, // top-right
      ],
      { seed },
    );
    const { state, events } = play(s, {
      0: [
        [W, Dir.Right],
        [X, Dir.Bottom],
        [Y, Dir.Top],
        [Z, Dir.LB],
      ],
    });
    const atks = kinds(events, 'atk');
    if (atks.length !== 2 || atks[1]!.h !== 0) continue; // both rolled 20: try another seed
    checked++;
    // The wizard did not move (occupied), and is not an attacker.
    assert.deepEqual(posOf(state, W), [4, 5]);
    assert.equal(atks[0]!.a, X);
    assert.ok(atks[0]!.h > 0, 'X hurts the orc');
    assert.equal(atks[1]!.a, Y);
    // Attackers stay where they were.
    assert.deepEqual(posOf(state, X), [3, 6]);
    assert.deepEqual(posOf(state, Y), [5, 6]);
    const kills = kinds(events, 'kill');
    assert.deepEqual(
      kills.map((k) => k.t === 'kill' && [k.v, k.why]),
      [
        [ORC, 'attack'],
        [Z, 'abyss'],
      ],
    );
    // Z fell: reborn for another clan, on the Outside band, full health.
    assert.notEqual(state.uplayer[Z], 0);
    assert.equal(state.type[state.upos[Z]!], CT.Outside);
    assert.equal(state.uhealth[Z], 100);
    assert.equal(state.uhealth[ORC], state.upos[ORC]! < 0 ? 0 : 75);
  }
  assert.equal(checked, 1);
});

test('single file: ordered front to back, every dwarf moves one step; back to front, only the front one', () => {
  const s = build(OPEN, [
    { id: 0, at: [3, 4] },
    { id: 1, at: [3, 3] },
    { id: 2, at: [3, 2] },
  ]);
  const front = play(s, {
    0: [
      [0, Dir.Right],
      [1, Dir.Right],
      [2, Dir.Right],
    ],
  }).state;
  assert.deepEqual(
    [0, 1, 2].map((id) => posOf(front, id)),
    [
      [3, 5],
      [3, 4],
      [3, 3],
    ],
  );
  const back = play(s, {
    0: [
      [2, Dir.Right],
      [1, Dir.Right],
      [0, Dir.Right],
    ],
  }).state;
  assert.deepEqual(
    [0, 1, 2].map((id) => posOf(back, id)),
    [
      [3, 5],
      [3, 3],
      [3, 2],
    ],
  );
  // Blocked by a friend is not an attack.
  assert.equal(kinds(play(s, { 0: [[2, Dir.Right]] }).events, 'atk').length, 0);
});

test('an attacker does not move even if it kills; the victim is captured by its clan', () => {
  const s = build(OPEN, [
    { id: 0, at: [3, 4] },
    { id: 4, at: [3, 5], health: 1 }, // clan 1's dwarf
  ]);
  const { state, events } = play(s, { 0: [[0, Dir.Right]] });
  assert.deepEqual(posOf(state, 0), [3, 4]);
  assert.equal(state.unitAt[at(state, 3, 5)], -1);
  assert.equal(state.uplayer[4], 0, 'captured by the killing clan');
  assert.equal(state.uhealth[4], 100);
  assert.equal(state.type[state.upos[4]!], CT.Outside, 'reborn outside');
  assert.ok(events.some((e) => e.t === 'kill' && e.v === 4 && e.by === 0 && e.to === 0));
});

test('dwarves and wizards cannot attack their own clan', () => {
  const s = build(OPEN, [
    { id: 0, at: [3, 4] },
    { id: 1, at: [3, 5], health: 10 },
  ]);
  const { state } = play(s, { 0: [[0, Dir.Right]] });
  assert.equal(state.uhealth[1], 10);
  assert.deepEqual(posOf(state, 0), [3, 4]);
});

test('digging: a rock hit 5 times (by one or more dwarves) opens; the diggers never move', () => {
  const pic = OPEN.slice();
  pic[3] = 'OO..R.......OO';
  let s = build(pic, [
    { id: 0, at: [3, 3] },
    { id: 4, at: [2, 4] },
  ]);
  const rock = at(s, 3, 4);
  for (let k = 1; k <= 4; k++) {
    // Alternate digger and clan: one or more dwarves count toward the same 5.
    s = play(s, k % 2 ? { 0: [[0, Dir.Right]] } : { 1: [[4, Dir.Bottom]] }).state;
    assert.equal(s.type[rock], CT.Rock);
    assert.equal(s.turns[rock], 5 - k);
  }
  const { state, events } = play(s, { 0: [[0, Dir.Right]] });
  assert.notEqual(state.type[rock], CT.Rock);
  assert.ok(events.some((e) => e.t === 'open' && e.p === rock));
  assert.deepEqual(posOf(state, 0), [3, 3]);
  assert.equal(state.owner[rock], -1, 'an opened rock is not conquered by digging');
});

test('an opened rock is an abyss with probability 1/25 (4%)', () => {
  const pic = OPEN.slice();
  pic[3] = 'OO..R.......OO';
  let abysses = 0;
  const N = 3000;
  for (let seed = 1; seed <= N; seed++) {
    const s = build(pic, [{ id: 0, at: [3, 3] }], { seed });
    s.turns[at(s, 3, 4)] = 1;
    const r = play(s, { 0: [[0, Dir.Right]] }).state;
    if (r.type[at(r, 3, 4)] === CT.Abyss) abysses++;
    else assert.equal(r.type[at(r, 3, 4)], CT.Cave);
  }
  assert.ok(abysses > N * 0.025 && abysses < N * 0.055, `${abysses} abysses of ${N}`);
});

test('granite cannot be entered or dug; wizards cannot dig', () => {
  const pic = OPEN.slice();
  pic[3] = 'OO..GR......OO';
  const s = build(pic, [
    { id: 0, at: [3, 3] },
    { id: 3, at: [2, 5] },
  ]);
  const { state } = play(s, {
    0: [
      [0, Dir.Right],
      [3, Dir.Bottom],
    ],
  });
  assert.deepEqual(posOf(state, 0), [3, 3]);
  assert.equal(state.type[at(state, 3, 4)], CT.Granite);
  assert.equal(state.turns[at(state, 3, 5)], 5);
});

test('a dwarf moving onto an abyss dies and goes to a random different clan', () => {
  const pic = OPEN.slice();
  pic[3] = 'OO...A......OO';
  const seen = new Set<number>();
  for (let seed = 1; seed <= 40; seed++) {
    const s = build(pic, [{ id: 5, at: [3, 4] }], { seed }); // clan 1's dwarf
    const { state, events } = play(s, { 1: [[5, Dir.Right]] });
    assert.ok(events.some((e) => e.t === 'kill' && e.v === 5 && e.why === 'abyss'));
    assert.notEqual(state.uplayer[5], 1);
    seen.add(state.uplayer[5]!);
    assert.equal(state.type[state.upos[5]!], CT.Outside);
  }
  assert.deepEqual([...seen].sort(), [0, 2, 3]);
});

test('wizards: cannot hit, move diagonally, conquer nor pick treasures', () => {
  const pic = OPEN.slice();
  pic[3] = 'OO..T.......OO';
  const s = build(pic, [
    { id: 3, at: [3, 3] }, // clan 0 wizard
    { id: 4, at: [4, 3], health: 30 }, // enemy dwarf below it
    { id: 7, at: [5, 5] }, // clan 1 wizard
  ]);
  const hit = play(s, { 0: [[3, Dir.Bottom]] });
  assert.equal(hit.state.uhealth[4], 30);
  assert.equal(kinds(hit.events, 'atk').length, 0);
  // Diagonal: the host drops it with a warning, and the engine ignores it anyway.
  const v = game.validateOrders(s, 0, [[3, Dir.BR]]);
  assert.equal(v.orders.length, 0);
  assert.match(v.warnings[0]!, /diagonal/);
  assert.deepEqual(posOf(play(s, { 0: [[3, Dir.BR]] }).state, 3), [3, 3]);
  // Onto the treasure: moves, but no treasure, no conquest.
  const walk = play(s, { 0: [[3, Dir.Right]] }).state;
  assert.deepEqual(posOf(walk, 3), [3, 4]);
  assert.equal(walk.treasure[at(walk, 3, 4)], 1);
  assert.equal(walk.nbTreasures[0], 0);
  assert.equal(walk.owner[at(walk, 3, 4)], -1);
  const plain = play(s, { 1: [[7, Dir.Right]] }).state;
  assert.equal(plain.owner[at(plain, 5, 6)], -1);
});

test('a dwarf conquers the cave it enters and picks its treasure; score = c + 10t', () => {
  const pic = OPEN.slice();
  pic[3] = 'OO..T.......OO';
  const s = build(pic, [{ id: 0, at: [3, 3] }]);
  const { state, events } = play(s, { 0: [[0, Dir.Right]] });
  assert.equal(state.treasure[at(state, 3, 4)], 0);
  assert.equal(state.nbTreasures[0], 1);
  assert.equal(state.owner[at(state, 3, 4)], 0);
  assert.ok(events.some((e) => e.t === 'gold'));
  // The starting cell was never conquered (it was built unowned); now 1 cell, 1 treasure.
  // Its starting cave (conquered when it was placed) and the treasure cave.
  assert.equal(state.nbCells[0], 2);
  assert.deepEqual(scoresOf(state), [2 + 10, 0, 0, 0]);
  // A conquered cell stays conquered when the dwarf leaves; another clan takes it over.
  const s2 = play(state, { 0: [[0, Dir.Right]] }).state;
  assert.equal(s2.nbCells[0], 3);
});

test('at the very end of the round, a wizard fully heals 4-adjacent allies only (not diagonal, not enemies, not itself)', () => {
  const s = build(OPEN, [
    { id: 3, at: [4, 5], health: 10 }, // clan 0 wizard, hurt
    { id: 0, at: [3, 5], health: 10 }, // ally above: healed
    { id: 1, at: [5, 6], health: 10 }, // ally diagonal: not healed
    { id: 4, at: [4, 6], health: 10 }, // enemy right: not healed
    { id: 2, at: [6, 9], health: 10 }, // ally far away, walks next to the wizard this round
  ]);
  const { state } = play(s, { 0: [[2, Dir.TL]] }); // (6,9) -> (5,8): not adjacent
  assert.equal(state.uhealth[0], 100);
  assert.equal(state.uhealth[1], 10);
  assert.equal(state.uhealth[4], 10);
  assert.equal(state.uhealth[3], 10, 'a wizard does not heal itself');
  // Healing happens after the moves: a dwarf that moves next to the wizard is healed the same round.
  const s2 = play(s, { 0: [[1, Dir.Left]] }).state; // (5,6) -> (5,5), below the wizard
  assert.equal(s2.uhealth[1], 100);
  // Two wizards of a clan heal each other.
  const w = build(OPEN, [
    { id: 3, at: [4, 5], health: 10 },
    { id: 7, at: [4, 6], health: 10 },
  ]);
  const ww = play(w, {}).state;
  assert.equal(ww.uhealth[3], 10);
  assert.equal(ww.uhealth[7], 10);
});

test('orders: the first per unit counts; None is dropped; foreign, dead or garbage orders are dropped with warnings', () => {
  const s = build(OPEN, [
    { id: 0, at: [3, 3] },
    { id: 4, at: [5, 5] },
  ]);
  const v = game.validateOrders(s, 0, [
    [0, Dir.None],
    [0, Dir.Right], // None takes the unit's one order
    [4, Dir.Right], // not ours
    [ORC, Dir.Right], // dead orc / not ours
    [1, 9],
    'x',
    null,
    [1.5, 2],
    [2, Dir.Top],
  ]);
  assert.deepEqual(v.orders, [[2, Dir.Top]]);
  // Six drops explained; the second order for unit 0 is dropped without a word (the API warned, as the original's Action does).
  assert.equal(v.warnings.length, 6);
  assert.doesNotMatch(v.warnings.join('\n'), /already/);
  assert.deepEqual(game.validateOrders(s, 0, 'nope').orders, []);
  // The engine itself keeps only the first order per unit.
  const r = play(s, {
    0: [
      [0, Dir.Right],
      [0, Dir.Bottom],
    ],
  }).state;
  assert.deepEqual(posOf(r, 0), [3, 4]);
});

test('a unit killed earlier in the round skips its order', () => {
  // Clan 1 kills clan 0's dwarf, which then must not move (as the captured unit either).
  for (let seed = 1; seed <= 30; seed++) {
    const s = build(
      OPEN,
      [
        { id: 0, at: [3, 3], health: 1 },
        { id: 4, at: [3, 4] },
      ],
      { seed },
    );
    const { state, events } = play(s, { 0: [[0, Dir.Bottom]], 1: [[4, Dir.Left]] });
    const killedFirst = events.findIndex((e) => e.t === 'kill') === 1 && events[0]!.t === 'atk';
    const moved = events.some((e) => e.t === 'atk') && state.uplayer[0] === 1;
    if (killedFirst && moved) {
      // Reborn outside, never at (4,3).
      assert.equal(state.type[state.upos[0]!], CT.Outside);
    } else {
      // Clan 0 moved first: (3,3) -> (4,3), then clan 1 moved into the freed cell.
      assert.deepEqual(posOf(state, 0), [4, 3]);
      assert.deepEqual(posOf(state, 4), [3, 3]);
    }
  }
});

test("interleaving: random between players, but each clan's orders keep their order", () => {
  const pic = ['OOOOOOOOOOOO', 'OOOOOOOOOOOO', 'OO.R.R.R.ROO', 'OO.R.R.R.ROO', 'OO.R.R.R.ROO', 'OO.R.R.R.ROO', 'OOOOOOOOOOOO', 'OOOOOOOOOOOO'];
  const firsts = new Set<string>();
  for (let seed = 1; seed <= 30; seed++) {
    const units = [];
    const orders: Record<number, [number, number][]> = {};
    for (let pl = 0; pl < 4; pl++) {
      orders[pl] = [];
      for (let k = 0; k < 3; k++) {
        units.push({ id: 4 * pl + k, at: [2 + pl, 2 + 2 * k] as [number, number] });
        orders[pl]!.push([4 * pl + k, Dir.Right]);
      }
    }
    const { events } = play(build(pic, units, { seed }), orders);
    const digs = events.filter((e) => e.t === 'dig').map((e) => (e.t === 'dig' ? e.p : -1));
    assert.equal(digs.length, 12);
    for (let pl = 0; pl < 4; pl++) {
      const mine = digs.filter((p) => Math.floor(p / 12) === 2 + pl).map((p) => p % 12);
      assert.deepEqual(mine, [3, 5, 7], `clan ${pl} order kept`);
    }
    firsts.add(
      digs
        .slice(0, 4)
        .map((p) => Math.floor(p / 12))
        .join(''),
    );
  }
  assert.ok(firsts.size > 5, 'the interleaving varies with the seed');
});

test('orcs attack an adjacent dwarf or wizard; otherwise they approach the nearest one inside Moria', () => {
  const pic = OPEN.slice();
  const s = build(pic, [
    { id: ORC, at: [4, 9] },
    { id: 0, at: [4, 3] },
    { id: 4, at: [2, 11] },
  ]);
  // Nearest by path: dwarf 4 at (2,11) is 2 steps away, dwarf 0 is 6 away.
  const r = play(s, {}).state;
  assert.deepEqual(posOf(r, ORC), [3, 10]);
  const r2 = play(r, {}).state;
  assert.equal(r2.uhealth[4]! < 100, true, 'then it attacks');
  assert.deepEqual(posOf(r2, ORC), [3, 10]);
  // Killed by an orc: the dwarf goes to a different clan.
  const weak = build(pic, [
    { id: ORC, at: [4, 9] },
    { id: 4, at: [4, 10], health: 1 },
  ]);
  const k = play(weak, {}).state;
  assert.notEqual(k.uplayer[4], 1);
  assert.equal(k.type[k.upos[4]!], CT.Outside);
});

test('orcs ignore units on the Outside band and never leave Moria (but hit an adjacent one)', () => {
  // (0,0) is outside and not adjacent to anything the orc can reach: it wanders inside.
  let st = build(OPEN, [
    { id: ORC, at: [2, 2] },
    { id: 0, at: [0, 0] },
  ]);
  for (let k = 0; k < 20; k++) {
    const r = play(st, {});
    assert.equal(kinds(r.events, 'atk').length, 0);
    st = r.state;
    assert.notEqual(st.type[st.upos[ORC]!], CT.Outside);
  }
  // An adjacent unit is attacked even when it stands outside.
  const adj = build(OPEN, [
    { id: ORC, at: [2, 2] },
    { id: 0, at: [1, 1] },
  ]);
  const a = kinds(play(adj, {}).events, 'atk');
  assert.equal(a.length, 1);
  assert.equal(a[0]!.v, 0);
  assert.ok(a[0]!.d >= 15 && a[0]!.d <= 30);
});

test('Sauron units never attack Sauron units', () => {
  const s = build(
    OPEN,
    [
      { id: ORC, at: [3, 3] },
      { id: ORC2, at: [3, 4] },
      { id: TROLL, at: [4, 3] },
    ],
    T,
  );
  let st = s;
  for (let k = 0; k < 30; k++) {
    const r = play(st, {});
    assert.equal(kinds(r.events, 'atk').length, 0);
    st = r.state;
  }
  assert.equal(st.uhealth[ORC], 75);
  assert.equal(st.uhealth[TROLL], 500);
});

test('trolls: outside, they head for the nearest cave; inside, random caves only (never an abyss, never out)', () => {
  const pic = OPEN.slice();
  pic[4] = 'OO.AA.......OO';
  const s = build(pic, [{ id: TROLL, at: [1, 6] }], T);
  const r = play(s, {}).state;
  assert.deepEqual(posOf(r, TROLL)![0], 2, 'one step to the caves');
  let st = r;
  for (let k = 0; k < 60; k++) {
    st = play(st, {}).state;
    assert.equal(st.type[st.upos[TROLL]!], CT.Cave);
  }
  // A troll hits hard (50..150) and unconquers the caves it visits.
  const t = build(
    OPEN,
    [
      { id: TROLL, at: [3, 3] },
      { id: 0, at: [3, 4] },
    ],
    T,
  );
  const hit = play(t, {});
  const a = hit.events.find((e) => e.t === 'atk');
  assert.ok(a && a.t === 'atk' && a.d >= 50 && a.d <= 150);
});

test('a killed troll is reborn outside Moria with full health', () => {
  const s = build(
    OPEN,
    [
      { id: TROLL, at: [3, 4], health: 10 },
      { id: 0, at: [3, 3] },
    ],
    T,
  );
  // The dwarf hits first (players move before Sauron).
  const { state, events } = play(s, { 0: [[0, Dir.Right]] });
  assert.ok(events.some((e) => e.t === 'kill' && e.v === TROLL));
  assert.equal(state.type[state.upos[TROLL]!], CT.Outside);
  assert.equal(state.uhealth[TROLL], 500);
  assert.equal(state.uplayer[TROLL], -1);
});

test('a troll killed by the clans still takes its turn, from where it fell, and is reborn outside afterwards (as in the original)', () => {
  const s = build(
    OPEN,
    [
      { id: TROLL, at: [3, 4], health: 10 },
      { id: 0, at: [3, 3] },
    ],
    T,
  );
  const { state, events } = play(s, { 0: [[0, Dir.Right]] });
  const kill = events.findIndex((e) => e.t === 'kill' && e.v === TROLL);
  const hit = events.findIndex((e) => e.t === 'atk' && e.a === TROLL && e.v === 0);
  assert.ok(kill >= 0 && hit > kill, 'the dead troll hits its killer');
  assert.equal(state.type[state.upos[TROLL]!], CT.Outside);
  assert.equal(state.uhealth[TROLL], 500);
});

test('a killed troll that walks before its rebirth leaves its id on the cell it walked to (the original does not clear it)', () => {
  // Clan 0's dwarf kills the troll, then clan 1 kills that dwarf: the troll has
  // nobody to hit and walks (inside: to a random cave); it is then reborn outside.
  let seen = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const s = build(
      OPEN,
      [
        { id: TROLL, at: [4, 6], health: 10 },
        { id: 0, at: [4, 5], health: 10 },
        { id: 4, at: [4, 4] },
      ],
      { ...T, seed },
    );
    const { state, events } = play(s, { 0: [[0, Dir.Right]], 1: [[4, Dir.Right]] });
    const order = events.filter((e) => e.t === 'kill').map((e) => e.t === 'kill' && e.v);
    if (order.join() !== `${TROLL},0`) continue;
    const walk = events.find((e) => e.t === 'move' && e.v === TROLL);
    assert.ok(walk && walk.t === 'move' && walk.d !== Dir.None);
    seen++;
    const ghost = at(state, 4 + [1, 1, 0, -1, -1, -1, 0, 1][walk.d]!, 6 + [0, 1, 1, 1, 0, -1, -1, -1][walk.d]!);
    assert.equal(state.unitAt[ghost], TROLL, 'the cell still shows the troll');
    assert.equal((game.encodeView(state)['grid'] as Int16Array)[ghost], TROLL, "and so does the bots' cell(i, j).id");
    assert.notEqual(state.upos[TROLL], ghost);
    assert.equal(state.type[state.upos[TROLL]!], CT.Outside);
    assert.equal(state.unitAt[at(state, 4, 6)], -1);
  }
  assert.ok(seen > 0);
});

test('the Balrog heads for a dwarf killed earlier in the round, at the cell where it fell (as in the original)', () => {
  // Balrog (4,6); clan 0's dwarf at (4,9), distance 3, is killed by clan 1's at
  // (3,10), distance 5; the nearest living one is clan 2's at (4,2), distance 4.
  const s = build(OPEN, [
    { id: BALROG, at: [4, 6] },
    { id: 0, at: [4, 9], health: 10 },
    { id: 4, at: [3, 10] },
    { id: 8, at: [4, 2] },
  ]);
  const { state, events } = play(s, { 1: [[4, Dir.LB]] });
  assert.ok(events.some((e) => e.t === 'kill' && e.v === 0));
  assert.deepEqual(posOf(state, BALROG), [4, 7], 'toward where the dead dwarf fell');
});

test('a round where nothing happens still draws from the board generator (the rebirth shuffles run every round)', () => {
  const s = build(OPEN, [{ id: 0, at: [3, 3] }]);
  const r = play(s, {});
  assert.equal(r.events.length, 0);
  assert.notEqual(r.state.seed, s.seed);
  assert.deepEqual({ ...r.state, seed: 0, round: 0 }, { ...s, seed: 0, round: 0 });
});

test('orcs and trolls unconquer the caves they visit', () => {
  const pic = OPEN.slice();
  pic[3] = 'OO0000000000OO';
  pic[2] = 'OO0000000000OO';
  pic[4] = 'OO0000000000OO';
  const s = build(pic, [{ id: TROLL, at: [3, 6] }], T);
  const r = play(s, {}).state;
  assert.equal(r.owner[r.upos[TROLL]!], -1);
  assert.equal(r.nbCells[0], s.nbCells[0]! - 1);
});

test('the Balrog approaches the nearest dwarf or wizard inside Moria, straight only, and kills its whole ring (orcs and trolls too)', () => {
  const pic = OPEN.slice();
  pic[5] = 'OO0000000000OO';
  const pic2 = pic.slice();
  const s2 = build(pic2, [
    { id: BALROG, at: [5, 5] },
    { id: 0, at: [5, 10] },
    { id: 4, at: [1, 5] },
  ]);
  const r = play(s2, {});
  assert.deepEqual(posOf(r.state, BALROG), [5, 6]);
  // Its ring is unconquered.
  for (const [i, j] of [
    [5, 7],
    [4, 7],
    [6, 7],
    [5, 5],
  ] as const)
    assert.equal(r.state.owner[at(r.state, i, j)], -1);
  // Orcs and trolls in the ring die too (placed so that the Balrog's step puts them in the ring).
  const ring = play(
    build(
      [
        'OOOOOOOOOOOOOO',
        'OOOOOOOOOOOOOO',
        'OORRRRRRRRRROO',
        'OORRRRRRRRRROO',
        'OORRRRRARRRROO',
        'OORRR.R.R...OO',
        'OORRRRRTRRRROO',
        'OORRRRRRRRRROO',
        'OOOOOOOOOOOOOO',
        'OOOOOOOOOOOOOO',
      ],
      [
        { id: BALROG_T, at: [5, 5] },
        { id: 0, at: [5, 11] },
        { id: ORC, at: [4, 7] },
        { id: TROLL, at: [5, 7] },
      ],
      T,
    ),
    {},
  );
  assert.ok(ring.events.some((e) => e.t === 'kill' && e.v === ORC && e.why === 'balrog'));
  assert.ok(ring.events.some((e) => e.t === 'kill' && e.v === TROLL && e.why === 'balrog'));
  assert.equal(ring.state.type[ring.state.upos[TROLL]!], CT.Outside, 'the troll is reborn outside');
  assert.equal(ring.state.uhealth[ORC], ring.state.upos[ORC]! >= 0 ? 75 : 0);
});

test('a dwarf that steps next to the Balrog dies; the Balrog is immortal', () => {
  const s = build(OPEN, [
    { id: BALROG, at: [4, 8] },
    { id: 0, at: [4, 5] },
    { id: 1, at: [7, 2] },
  ]);
  const { state, events } = play(s, { 0: [[0, Dir.Right]] }); // (4,6) is 2 away: safe, then the Balrog steps to (4,7)
  assert.ok(events.some((e) => e.t === 'kill' && e.v === 0 && e.why === 'balrog'));
  assert.notEqual(state.uplayer[0], 0);
  const s2 = build(OPEN, [
    { id: BALROG, at: [4, 8] },
    { id: 0, at: [4, 6] },
  ]);
  const r2 = play(s2, { 0: [[0, Dir.Right]] });
  assert.ok(r2.events.some((e) => e.t === 'kill' && e.v === 0 && e.why === 'balrog'));
});

test('reborn units keep away from everyone: radius 1 around units, 3 around the Balrog', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const s = build(
      OPEN,
      [
        { id: BALROG, at: [2, 2] },
        { id: 0, at: [2, 4], health: 1 },
        { id: 4, at: [2, 5] },
      ],
      { seed },
    );
    const { state } = play(s, { 1: [[4, Dir.Left]] });
    const p = state.upos[0]!;
    const [i, j] = [Math.floor(p / 14), p % 14];
    assert.equal(state.type[p], CT.Outside);
    assert.ok(Math.max(Math.abs(i - Math.floor(state.upos[BALROG]! / 14)), Math.abs(j - (state.upos[BALROG]! % 14))) > 3);
    for (let id = 0; id < 19; id++) {
      const q = state.upos[id]!;
      if (id === 0 || q < 0) continue;
      assert.ok(Math.max(Math.abs(i - Math.floor(q / 14)), Math.abs(j - (q % 14))) > 1, `seed ${seed}: unit ${id} too close`);
    }
  }
});

test('orcs: 2% per empty abyss per round, never more than max_nb_orcs, ids 100..119 on the default layout', () => {
  const pic = OPEN.slice();
  pic[2] = 'OOAAAAAAAAAAOO';
  pic[3] = 'OOAAAAAAAAAAOO';
  pic[4] = 'OOAAAAAAAAAAOO';
  pic[5] = 'OOAAAAAAAAAAOO';
  pic[6] = 'OOAAAAAAAAAAOO';
  // 50 abysses: about one orc per round, cap 2 (SMALL).
  let st = build(pic, []);
  let spawns = 0;
  for (let k = 0; k < 100; k++) {
    const r = play(st, {});
    spawns += r.events.filter((e) => e.t === 'spawn' && e.v >= 16 && e.v < 18).length;
    st = r.state;
    let alive = 0;
    for (let id = 16; id < 18; id++) if (st.upos[id]! >= 0) alive++;
    assert.ok(alive <= 2);
  }
  assert.equal(spawns, 2, 'two orcs appeared and, with no one to fight, never died');
  // Rate: with the cap out of the way, 1 in 50 per abyss per round.
  let born = 0;
  const N = 4000;
  for (let seed = 1; seed <= N; seed++) {
    const one = build(['OOOOO', 'OOOOO', 'OOAOO', 'OOOOO', 'OOOOO'], [], { seed, cfg: { nb_dwarves: 1, nb_wizards: 0, nb_trolls: 0, max_nb_orcs: 1 } });
    if (play(one, {}).state.upos[4]! >= 0) born++;
  }
  assert.ok(born > N * 0.012 && born < N * 0.03, `${born} orcs in ${N} rounds`);
});

test('counts stay constant: 80 dwarves, 20 wizards and 4 trolls on the default board, whatever happens', () => {
  let s = game.create(game.defaultConfig, 7);
  for (let k = 0; k < 60; k++) s = game.next(s, [[], [], [], []], [false, false, false, false]).state;
  let d = 0,
    w = 0,
    t = 0;
  for (let id = 0; id < s.utype.length; id++) {
    if (s.upos[id]! < 0) continue;
    if (s.utype[id] === UT.Dwarf) d++;
    if (s.utype[id] === UT.Wizard) w++;
    if (s.utype[id] === UT.Troll) t++;
  }
  assert.deepEqual([d, w, t], [80, 20, 4]);
});
