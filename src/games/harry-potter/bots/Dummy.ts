/// <reference path="../player.d.ts" />
// Dummy: the qualification bar. It takes the decisions of the original
// package's Dummy (shipped only as an object file; its behaviour was read from
// its disassembly and checked against its commands, state by state), with the
// same calls to random() in the same order, so a match of Dummies plays the
// same here as in the original game.
//
// Every round it computes five distance maps over the corridors (BFS; other
// units do not block): to the nearest book, enemy wizard, enemy ghost and
// enemy wizard in conversion (4 directions), and, for the ghost, to the
// nearest enemy wizard through free cells only (8 directions).
//  - The ghost, when it may cast and has not cast yet in this match (a Dummy
//    casts once at most): three times in ten (random(0, 9) <= 2) it solves
//    the spell by backtracking and casts it, and does nothing else that round
//    (nothing at all if it finds no solution). Otherwise, if Voldemort is
//    within 5 (Manhattan), it steps away from him; else, if an enemy wizard
//    is within 14 steps, it steps to where enemy wizards are farthest.
//  - Each wizard, in increasing id order: 30 times in 101
//    (random(0, 100) <= 29) a random step (never into a wall nor off the
//    board); else away from Voldemort if he is within 5; else one step
//    towards the closest of: a book (only within 19 steps and when
//    random(0, 100) <= 79), an enemy wizard, an enemy ghost, an enemy wizard
//    in conversion (ties in that order). With no target at all it takes a
//    random step checked, as the original does, from its ghost's cell.
export const GAME = 'harry-potter';
export const PLAYER_NAME = 'Dummy';

const INF = 0x7fffffff;
const DI = [1, 1, 0, -1, -1, -1, 0, 1];
const DJ = [0, 1, 1, 1, 0, -1, -1, -1];
/** Down, Right, Up, Left: the order in which ties are broken. */
const DIRS4 = [0, 2, 4, 6];
const DIRS8 = [0, 1, 2, 3, 4, 5, 6, 7];

export default class extends Player {
  R = 0;
  C = 0;
  /** Spells tried so far in this match (the original tries one at most). */
  spellsTried = 0;
  readonly maxSpells = 1;
  wall = new Uint8Array(0);
  who = new Int16Array(0);
  queue = new Int32Array(0);
  /** This round's cells with a unit, row-major, and their units: read once for every map. */
  occupied: number[] = [];
  occupants: Unit[] = [];
  /** The round's five distance maps (to books, enemy wizards for wizards and for the ghost, ghosts, wizards in conversion). */
  maps: Int32Array[] = [];
  // The searches run on the board with a border of walls around it (no bounds checks), rows W = C + 2 wide.
  W = 0;
  /** Walls and the border, and the same with every cell that holds a unit. */
  block = new Uint8Array(0);
  blockFree = new Uint8Array(0);
  padded = new Int32Array(0);
  /** The index steps of DIRS4 and DIRS8 on the bordered board. */
  step4: number[] = [];
  step8: number[] = [];

  play(): void {
    const R = (this.R = board_rows());
    const C = (this.C = board_cols());
    if (this.wall.length !== R * C) {
      this.maps = [0, 1, 2, 3, 4].map(() => new Int32Array(R * C));
      this.wall = new Uint8Array(R * C);
      this.who = new Int16Array(R * C);
      this.W = C + 2;
      const W = this.W;
      this.block = new Uint8Array((R + 2) * W);
      this.blockFree = new Uint8Array((R + 2) * W);
      this.padded = new Int32Array((R + 2) * W);
      this.queue = new Int32Array((R + 2) * W);
      this.step4 = DIRS4.map((d) => DI[d]! * W + DJ[d]!);
      this.step8 = DIRS8.map((d) => DI[d]! * W + DJ[d]!);
    }
    const books: number[] = [];
    for (let i = 0; i < R; i++)
      for (let j = 0; j < C; j++) {
        const c = cell(i, j);
        this.wall[i * C + j] = c.type === Wall ? 1 : 0;
        this.who[i * C + j] = c.id;
        if (c.book) books.push(i * C + j);
      }
    const { W, block, blockFree, wall, who } = this;
    block.fill(1);
    blockFree.fill(1);
    for (let i = 0; i < R; i++)
      for (let j = 0, k = i * C, b = (i + 1) * W + 1; j < C; j++, k++, b++) {
        block[b] = wall[k]!;
        blockFree[b] = wall[k]! | (who[k] !== -1 ? 1 : 0);
      }
    this.occupied.length = 0;
    this.occupants.length = 0;
    for (let k = 0; k < R * C; k++) {
      const id = this.who[k]!;
      if (id === -1) continue;
      this.occupied.push(k);
      this.occupants.push(unit(id));
    }
    const mine = me();
    const toBook = this.bfs(0, books, DIRS4, false);
    const enemyWizards = this.seeds((u) => u.player !== mine && u.type === Wizard);
    const toWizard = this.bfs(1, enemyWizards, DIRS4, false);
    const toWizardForGhost = this.bfs(2, enemyWizards, DIRS8, true);
    const toGhost = this.bfs(
      3,
      this.seeds((u) => u.player !== mine && u.type === Ghost),
      DIRS4,
      false,
    );
    const toConverting = this.bfs(
      4,
      this.seeds((u) => u.player !== mine && u.type === Wizard && u.rounds_pending > 0),
      DIRS4,
      false,
    );

    this.playGhost(ghost(mine), toWizardForGhost);

    for (const id of wizards(mine)) {
      const p = unit(id).pos;
      if (random(0, 100) <= 29) {
        move(id, this.randomDir(p));
        continue;
      }
      if (this.nearVoldemort(p)) {
        move(id, this.awayFromVoldemort(p, 2));
        continue;
      }
      let [dir, dist] = this.closest(p, toBook, DIRS4);
      const toWiz = this.closest(p, toWizard, DIRS4);
      const toGh = this.closest(p, toGhost, DIRS4);
      const toConv = this.closest(p, toConverting, DIRS4);
      if (random(0, 100) > 79 || dist > 19) {
        dir = 4;
        dist = INF;
      }
      for (const [d, x] of [toWiz, toGh, toConv]) {
        if (x < dist) {
          dir = d;
          dist = x;
        }
      }
      // With no target the original draws a random step from its ghost's cell (unit me()).
      if (dist === INF) move(id, this.randomDir(unit(mine).pos));
      else move(id, dir);
    }
  }

  playGhost(g: number, toWizard: Int32Array): void {
    const u = unit(g);
    if (u.rounds_pending === 0 && this.spellsTried < this.maxSpells && random(0, 9) <= 2) {
      // A spell attempt: the ghost does nothing else this round, solved or not.
      const sol = solveSpell(spell_ingredients());
      if (sol) {
        spell(g, sol);
        this.spellsTried++;
      }
      return;
    }
    const p = u.pos;
    if (this.nearVoldemort(p)) {
      move(g, this.awayFromVoldemort(p, 1));
      return;
    }
    // The step to where enemy wizards are farthest (an unreached cell counts as farthest).
    let best = 4;
    let far = -1;
    for (const d of DIRS8) {
      const k = this.at(p, d);
      if (k < 0 || this.wall[k]) continue;
      if (toWizard[k]! > far) {
        far = toWizard[k]!;
        best = d;
      }
    }
    if (this.closest(p, toWizard, DIRS8)[1] <= 14) move(g, best);
  }

  /** Index of p + d, or -1 outside the board. */
  at(p: Pos, d: number): number {
    const i = p.i + DI[d]!;
    const j = p.j + DJ[d]!;
    if (i < 0 || j < 0 || i >= this.R || j >= this.C) return -1;
    return i * this.C + j;
  }

  /** Cells of the units that satisfy `pred`, row-major. */
  seeds(pred: (u: Unit) => boolean): number[] {
    const out: number[] = [];
    for (let x = 0; x < this.occupied.length; x++) if (pred(this.occupants[x]!)) out.push(this.occupied[x]!);
    return out;
  }

  /** Multi-source BFS over corridors, into this round's map number `map`; with `free`, only through cells without a unit. */
  bfs(map: number, sources: number[], dirs: number[], free: boolean): Int32Array {
    const { R, C, W, padded, queue } = this;
    const blocked = free ? this.blockFree : this.block;
    const steps = dirs === DIRS8 ? this.step8 : this.step4;
    padded.fill(INF);
    let head = 0;
    let tail = 0;
    for (let s = 0; s < sources.length; s++) {
      const k = sources[s]!;
      const b = ((k / C) | 0) * W + W + 1 + (k % C);
      padded[b] = 0;
      queue[tail++] = b;
    }
    const nd = steps.length;
    while (head < tail) {
      const b = queue[head++]!;
      const next = padded[b]! + 1;
      for (let x = 0; x < nd; x++) {
        const n = b + steps[x]!;
        if (blocked[n] || padded[n] !== INF) continue;
        padded[n] = next;
        queue[tail++] = n;
      }
    }
    const dist = this.maps[map]!;
    for (let i = 0, k = 0; i < R; i++) for (let j = 0, b = (i + 1) * W + 1; j < C; j++) dist[k++] = padded[b++]!;
    return dist;
  }

  /** The first direction (in `dirs` order) to a non-wall neighbour with the smallest distance; [Up, INF] if none is reached. */
  closest(p: Pos, dist: Int32Array, dirs: number[]): [number, number] {
    let best = 4;
    let bestDist = INF;
    for (const d of dirs) {
      const k = this.at(p, d);
      if (k < 0 || this.wall[k]) continue;
      if (dist[k]! < bestDist) {
        bestDist = dist[k]!;
        best = d;
      }
    }
    return [best, bestDist];
  }

  nearVoldemort(p: Pos): boolean {
    const v = pos_voldemort();
    return Math.abs(p.i - v.i) + Math.abs(p.j - v.j) <= 5;
  }

  /** The step (every `step`-th direction from Down) to the corridor cell farthest from Voldemort (Manhattan). */
  awayFromVoldemort(p: Pos, step: number): number {
    const v = pos_voldemort();
    let best = 0;
    let far = -1;
    for (let d = 0; d <= 7; d += step) {
      const k = this.at(p, d);
      if (k < 0 || this.wall[k]) continue;
      const x = Math.abs(v.i - ((k / this.C) | 0)) + Math.abs(v.j - (k % this.C));
      if (x > far) {
        far = x;
        best = d;
      }
    }
    return best;
  }

  /** A random straight direction whose cell from p is on the board and not a wall. */
  randomDir(p: Pos): number {
    for (;;) {
      const d = DIRS4[random(0, 3)]!;
      const k = this.at(p, d);
      if (k >= 0 && !this.wall[k]) return d;
    }
  }
}

/**
 * The spell: ingredient 0 opens group 0, then each next ingredient goes to the
 * first group (0..4) with room (fewer than 3) whose sum stays within the
 * target, backtracking; null when the total is not a multiple of 5 or nothing fits.
 */
function solveSpell(v: number[]): number[] | null {
  const n = v.length;
  if (n === 0 || n % 3 !== 0) return null;
  const parts = n / 3;
  let total = 0;
  for (const x of v) total += x;
  if (total % parts !== 0) return null;
  const target = total / parts;
  const sol = new Array<number>(n).fill(0);
  const sums = new Array<number>(parts).fill(0);
  const counts = new Array<number>(parts).fill(0);
  counts[0] = 1;
  sums[0] = v[0]!;
  const rec = (i: number): boolean => {
    if (i === n) return true;
    for (let k = 0; k < parts; k++) {
      if (v[i]! + sums[k]! > target || counts[k] === 3) continue;
      sol[i] = k;
      counts[k]!++;
      sums[k]! += v[i]!;
      if (rec(i + 1)) return true;
      sums[k]! -= v[i]!;
      counts[k]!--;
    }
    return false;
  };
  return rec(1) ? sol : null;
}
