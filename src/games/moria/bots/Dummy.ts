/// <reference path="../player.d.ts" />
// Dummy: the qualification bar. To qualify, a player must beat three Dummies
// in each of four matches. It takes the decisions of the original AIDummy
// (the statement's package ships it only as an object file), with the same
// calls to random(), so a match of Dummies replays the original's.
//
// Each round, dwarves first, then wizards, each in the order of dwarves(me())
// and wizards(me()). A unit picks one direction of a list at random (one
// random() call when the list is not empty) and is commanded unless a unit of
// the clan already stands on, or was already sent to, the destination.
//
// Dwarves, over a distance map to caves the clan does not own (multi-source
// BFS in 8 directions through Outside and the clan's caves; cells within
// Manhattan distance 4 of the Balrog are walls):
//   1. a free neighbour holding a treasure;
//   2. else a neighbour holding a unit of another clan or of Sauron (attack);
//   3. else, within Manhattan distance 4 of the Balrog, the free Outside/Cave
//      neighbours farthest (Manhattan) from it, or nothing;
//   4. else, if no unit of another clan or of Sauron stands in the 11x11
//      square around, the free rock neighbours with the fewest hits left;
//   5. else (or with no rock around) the free neighbours lowest on the map.
// Wizards, over a 4-direction distance map to the clan's dwarves:
//   1. an enemy 4-adjacent: step straight away; diagonal: either straight way;
//   2. else near the Balrog, as dwarves (straight moves only);
//   3. else stay, or one of the free neighbours lowest on the map (ties with
//      staying are drawn among them).
export const GAME = 'moria';
export const PLAYER_NAME = 'Dummy';

const FAR = 1000000000;
const NONE = 8;
const floor = Math.floor;
const abs = Math.abs;
const DI = [1, 1, 0, -1, -1, -1, 0, 1, 0];
const DJ = [0, 1, 1, 1, 0, -1, -1, -1, 0];
const { Outside, Cave, Rock } = CellType;
const { Dwarf } = UnitType;

/** Keeps in dirs the directions of the lowest value so far: d joins them on a tie, replaces them below. Returns the lowest value. */
function keepLowest(dirs: number[], low: number, v: number, d: number): number {
  if (v < low) {
    dirs.length = 0;
    dirs.push(d);
    return v;
  }
  if (v === low) dirs.push(d);
  return low;
}

/** keepLowest for the highest value. */
function keepHighest(dirs: number[], high: number, v: number, d: number): number {
  return -keepLowest(dirs, -high, -v, d);
}

export default class extends Player {
  R = 0;
  C = 0;
  mine = 0;
  /** Cells (i*C+j, off-board ones shifted away) where a unit of the clan stands or goes. */
  taken = new Set<number>();
  /** Units already commanded this round. */
  done = new Set<number>();
  dist = new Int32Array(0);
  queue = new Int32Array(0);
  bi = 0;
  bj = 0;

  play(): void {
    this.R = rows();
    this.C = cols();
    this.mine = me();
    const n = this.R * this.C;
    if (this.dist.length !== n) {
      this.dist = new Int32Array(n);
      this.queue = new Int32Array(n);
    }
    this.taken.clear();
    this.done.clear();
    for (const id of dwarves(this.mine)) this.taken.add(this.key(unit(id).pos.i, unit(id).pos.j));
    for (const id of wizards(this.mine)) this.taken.add(this.key(unit(id).pos.i, unit(id).pos.j));
    const b = unit(balrog_id()).pos;
    this.bi = b.i;
    this.bj = b.j;
    this.moveDwarves();
    this.moveWizards();
  }

  key(i: number, j: number): number {
    return (i + 2) * (this.C + 4) + (j + 2);
  }

  inside(i: number, j: number): boolean {
    return i >= 0 && j >= 0 && i < this.R && j < this.C;
  }

  nearBalrog(i: number, j: number): boolean {
    return abs(i - this.bi) + abs(j - this.bj) <= 4;
  }

  /** One direction of dirs at random; commanded unless the destination is the clan's already. */
  pick(id: number, dirs: number[]): void {
    if (dirs.length === 0) return;
    const d = dirs[random(0, dirs.length - 1)]!;
    if (this.done.has(id)) return;
    const p = unit(id).pos;
    const k = this.key(p.i + DI[d]!, p.j + DJ[d]!);
    if (this.taken.has(k)) return;
    this.done.add(id);
    this.taken.add(k);
    command(id, d);
  }

  /** Breadth-first distances (sources 1, passable 0 until reached, walls FAR) over the given directions. */
  spread(tail: number, step: number): void {
    const { dist, queue, R, C } = this;
    for (let h = 0; h < tail; h++) {
      const p = queue[h]!;
      const i = floor(p / C);
      const j = p - i * C;
      const v = dist[p]! + 1;
      for (let d = 0; d < 8; d += step) {
        const qi = i + DI[d]!;
        const qj = j + DJ[d]!;
        if (qi < 0 || qj < 0 || qi >= R || qj >= C) continue;
        const q = qi * C + qj;
        if (dist[q] !== 0) continue;
        dist[q] = v;
        queue[tail++] = q;
      }
    }
  }

  /**
   * The distance map: each cell beyond the Balrog's reach is what seed(cell)
   * says (1 a source, 0 passable, FAR a wall), then spread() over the given
   * directions. Cells within the Balrog's reach are walls.
   */
  distances(step: number, seed: (c: Cell) => number): void {
    const { dist, queue, R, C } = this;
    let tail = 0;
    for (let i = 0; i < R; i++)
      for (let j = 0; j < C; j++) {
        const p = i * C + j;
        dist[p] = FAR;
        if (this.nearBalrog(i, j)) continue;
        dist[p] = seed(cell(i, j));
        if (dist[p] === 1) queue[tail++] = p;
      }
    this.spread(tail, step);
  }

  moveDwarves(): void {
    const { dist, C, mine } = this;
    // Sources: caves the clan does not own; passable: Outside and the clan's caves.
    this.distances(1, (c) => (c.type === Cave ? (c.owner === mine ? 0 : 1) : c.type === Outside ? 0 : FAR));

    for (const id of dwarves(mine)) {
      const { i, j } = unit(id).pos;
      const enemies: number[] = [];
      const lowest: number[] = [];
      const rock: number[] = [];
      const gold: number[] = [];
      const away: number[] = [];
      let low = 100000000;
      let fewest = 100;
      let farthest = 0;
      for (let d = 0; d < 8; d++) {
        const qi = i + DI[d]!;
        const qj = j + DJ[d]!;
        if (!this.inside(qi, qj)) continue;
        const c = cell(qi, qj);
        if (c.id !== -1) {
          if (unit(c.id).player !== mine) enemies.push(d);
          continue;
        }
        low = keepLowest(lowest, low, dist[qi * C + qj]!, d);
        if (c.type === Rock) fewest = keepLowest(rock, fewest, c.turns, d);
        if (c.treasure) gold.push(d);
        if (c.type === Outside || c.type === Cave) farthest = keepHighest(away, farthest, abs(qi - this.bi) + abs(qj - this.bj), d);
      }
      if (gold.length > 0) this.pick(id, gold);
      else if (enemies.length > 0) this.pick(id, enemies);
      else if (this.nearBalrog(i, j)) this.pick(id, away);
      else if (rock.length > 0 && !this.enemyAround(i, j)) this.pick(id, rock);
      else this.pick(id, lowest);
    }
  }

  /** Does a unit of another clan or of Sauron stand within 5 rows and 5 columns? */
  enemyAround(i: number, j: number): boolean {
    for (let a = i - 5; a <= i + 5; a++)
      for (let b = j - 5; b <= j + 5; b++) {
        if (!this.inside(a, b)) continue;
        const id = cell(a, b).id;
        if (id !== -1 && unit(id).player !== this.mine) return true;
      }
    return false;
  }

  moveWizards(): void {
    const { dist, C, mine } = this;
    // Sources: the clan's dwarves; passable: Outside and caves.
    this.distances(2, (c) => {
      if (c.id !== -1) {
        const u = unit(c.id);
        if (u.type === Dwarf && u.player === mine) return 1;
      }
      return c.type === Outside || c.type === Cave ? 0 : FAR;
    });

    for (const id of wizards(mine)) {
      const { i, j } = unit(id).pos;
      let low = dist[i * C + j]!;
      const lowest: number[] = [NONE];
      const flee: number[] = [];
      const away: number[] = [];
      let farthest = 0;
      for (let d = 0; d < 8; d += 2) {
        const qi = i + DI[d]!;
        const qj = j + DJ[d]!;
        if (!this.inside(qi, qj)) continue;
        const c = cell(qi, qj);
        if (c.id !== -1) {
          if (unit(c.id).player !== mine) flee.push((d + 4) & 7);
          continue;
        }
        low = keepLowest(lowest, low, dist[qi * C + qj]!, d);
        if (c.type === Outside || c.type === Cave) farthest = keepHighest(away, farthest, abs(qi - this.bi) + abs(qj - this.bj), d);
      }
      for (let d = 1; d < 8; d += 2) {
        const qi = i + DI[d]!;
        const qj = j + DJ[d]!;
        if (!this.inside(qi, qj)) continue;
        const other = cell(qi, qj).id;
        if (other === -1 || unit(other).player === mine) continue;
        flee.push((d + 3) & 7, (d + 5) & 7);
      }
      if (flee.length > 0) this.pick(id, flee);
      else if (this.nearBalrog(i, j)) this.pick(id, away);
      else this.pick(id, lowest);
    }
  }
}
