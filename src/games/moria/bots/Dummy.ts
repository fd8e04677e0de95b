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
//
// The board is read once a round into typed arrays (one cell() per cell, one
// unit() per unit on the board): the maps and the neighbourhoods read those,
// not a new Cell object per look, which cost the Dummy most of its time.
export const GAME = 'moria';
export const PLAYER_NAME = 'Dummy';

const FAR = 1000000000;
const NONE = 8;
const abs = Math.abs;
const DI = [1, 1, 0, -1, -1, -1, 0, 1, 0];
const DJ = [0, 1, 1, 1, 0, -1, -1, -1, 0];
const { Outside, Cave, Rock, Granite } = CellType;
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
  taken = new Int32Array(0);
  /** Units already commanded this round. */
  done = new Int32Array(0);
  /** The round's mark in taken and done (a cell or unit is in them when its entry equals it): nothing to clear each round. */
  mark = 0;
  /** The distance map on the board with a border of walls (FAR) around it, rows W = C + 2 wide: cell (i, j) at (i+1)*W + j+1. */
  dist = new Int32Array(0);
  W = 0;
  queue = new Int32Array(0);
  /** The distance maps' cells before the Balrog's reach and their sources (readBoard), on the bordered board. */
  baseD = new Int32Array(0);
  /** 1 on the rock and granite cells kept from the last round's read (readBoard). */
  settled = new Uint8Array(0);
  /** The cells of every clan's dwarves on the last board read. */
  diggers: number[] = [];
  lastRound = -2;
  baseW = new Int32Array(0);
  sourcesD: number[] = [];
  sourcesW: number[] = [];
  /** This round's board, per cell i*C+j: its type, owner, unit id (-1 none), hits left and treasure (1). */
  type = new Int8Array(0);
  owner = new Int8Array(0);
  unitAt = new Int16Array(0);
  turns = new Int32Array(0);
  treasure = new Uint8Array(0);
  /** This round's units on the board, per id: clan and type. */
  unitPlayer = new Int8Array(0);
  unitType = new Int8Array(0);
  bi = 0;
  bj = 0;
  // Reused each unit: the directions of each kind.
  enemies: number[] = [];
  lowest: number[] = [];
  rock: number[] = [];
  gold: number[] = [];
  away: number[] = [];
  flee: number[] = [];
  /** The neighbours with no unit on them, in direction order (the candidates of the distance map's choice). */
  free: number[] = [];

  play(): void {
    this.R = rows();
    this.C = cols();
    this.mine = me();
    const n = this.R * this.C;
    if (this.type.length !== n) {
      this.W = this.C + 2;
      const W = this.W;
      // The border is never written again: FAR, a wall no search enters.
      this.dist = new Int32Array((this.R + 2) * W).fill(FAR);
      this.queue = new Int32Array((this.R + 2) * W);
      // Their borders are never written: FAR, a wall no search enters.
      this.baseD = new Int32Array((this.R + 2) * W).fill(FAR);
      this.baseW = new Int32Array((this.R + 2) * W).fill(FAR);
      this.type = new Int8Array(n);
      this.owner = new Int8Array(n);
      this.unitAt = new Int16Array(n);
      this.turns = new Int32Array(n);
      this.treasure = new Uint8Array(n);
      this.settled = new Uint8Array(n);
      this.diggers = [];
      this.lastRound = -2;
    }
    if (this.unitPlayer.length !== nb_units()) {
      this.unitPlayer = new Int8Array(nb_units());
      this.unitType = new Int8Array(nb_units());
    }
    this.readBoard();
    if (this.taken.length !== (this.R + 4) * (this.C + 4)) this.taken = new Int32Array((this.R + 4) * (this.C + 4));
    if (this.done.length !== nb_units()) this.done = new Int32Array(nb_units());
    const mark = ++this.mark;
    for (const id of dwarves(this.mine)) {
      const { i, j } = unit(id).pos;
      this.taken[this.key(i, j)] = mark;
    }
    for (const id of wizards(this.mine)) {
      const { i, j } = unit(id).pos;
      this.taken[this.key(i, j)] = mark;
    }
    const b = unit(balrog_id()).pos;
    this.bi = b.i;
    this.bj = b.j;
    this.moveDwarves();
    this.moveWizards();
  }

  /**
   * This round's board into the typed arrays, and the two distance maps'
   * cells before the Balrog's reach (`baseD`, `baseW`). Granite never
   * changes, and a rock only when a dwarf digs it from a cell next to it,
   * where it stood on the last board (a digger stays; the engine moves a
   * unit from its recorded cell), or when the Balrog walks in or out (one
   * step a round, through rock too): from one round to the next, the cells
   * around those are read again and the other rocks and granite kept
   * (`settled`), so a round reads about half the board. Another board, or a
   * round skipped, reads it all.
   */
  readBoard(): void {
    const { R, C, W, type, owner, unitAt, turns, treasure, unitPlayer, unitType, baseD, baseW, sourcesD, sourcesW, settled, diggers, mine } = this;
    const round_ = round();
    const whole = round_ !== this.lastRound + 1;
    this.lastRound = round_;
    if (whole) settled.fill(0);
    for (const p of diggers) {
      const i = Math.floor(p / C);
      const j = p % C;
      for (let a = Math.max(0, i - 1); a <= Math.min(R - 1, i + 1); a++)
        for (let b = Math.max(0, j - 1); b <= Math.min(C - 1, j + 1); b++) settled[a * C + b] = 0;
    }
    diggers.length = 0;
    sourcesD.length = 0;
    sourcesW.length = 0;
    for (let i = 0; i < R; i++)
      for (let j = 0, b = (i + 1) * W + 1; j < C; j++, b++) {
        const p = i * C + j;
        if (settled[p] === 1) continue;
        const c = cell(i, j);
        const t = c.type;
        const id = c.id;
        type[p] = t;
        owner[p] = c.owner;
        unitAt[p] = id;
        turns[p] = c.turns;
        treasure[p] = c.treasure ? 1 : 0;
        // Only the Balrog walks on rock (its cells are read again), nobody on granite.
        settled[p] = (t === Rock || t === Granite) && id === -1 ? 1 : 0;
        let dwarf = false;
        if (id !== -1) {
          const u = unit(id);
          unitPlayer[id] = u.player;
          unitType[id] = u.type;
          dwarf = u.type === Dwarf && u.player === mine;
          // Where every clan's dwarves stand now (a dwarf's cell shows it): next round, the rocks they may have dug.
          if (u.type === Dwarf) diggers.push(p);
        }
        // The dwarves' map: sources the caves the clan does not own; passable Outside and the clan's caves.
        const d = t === Cave ? (c.owner === mine ? 0 : 1) : t === Outside ? 0 : FAR;
        baseD[b] = d;
        if (d === 1) sourcesD.push(b);
        // The wizards' map: sources the clan's dwarves; passable Outside and caves.
        baseW[b] = dwarf ? 1 : t === Outside || t === Cave ? 0 : FAR;
        if (dwarf) sourcesW.push(b);
      }
    // And the Balrog, the one unit that walks through rock.
    const balrog = unit(balrog_id()).pos;
    if (balrog.i >= 0) diggers.push(balrog.i * C + balrog.j);
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

  /** One direction of dirs at random; unit id at (i, j) is commanded unless the destination is the clan's already. */
  pick(id: number, i: number, j: number, dirs: number[]): void {
    if (dirs.length === 0) return;
    const d = dirs[random(0, dirs.length - 1)]!;
    if (this.done[id] === this.mark) return;
    const k = this.key(i + DI[d]!, j + DJ[d]!);
    if (this.taken[k] === this.mark) return;
    this.done[id] = this.mark;
    this.taken[k] = this.mark;
    command(id, d);
  }

  /**
   * The distance map: each cell beyond the Balrog's reach is 1 (a source), 0
   * (passable) or FAR (a wall), as the dwarves' map (forDwarves) or the
   * wizards' says (readBoard), then breadth-first distances from the sources
   * over all eight directions (dwarves) or the four straight ones (wizards).
   * Cells within the Balrog's reach are walls.
   */
  distances(forDwarves: boolean): void {
    const { dist, queue, R, C, W, bi, bj } = this;
    dist.set(forDwarves ? this.baseD : this.baseW);
    for (let i = Math.max(0, bi - 4); i <= Math.min(R - 1, bi + 4); i++) {
      const reach = 4 - abs(i - bi);
      for (let j = Math.max(0, bj - reach); j <= Math.min(C - 1, bj + reach); j++) dist[(i + 1) * W + j + 1] = FAR;
    }
    let tail = 0;
    for (const b of forDwarves ? this.sourcesD : this.sourcesW) if (dist[b] === 1) queue[tail++] = b;
    // The neighbours written out: the same distances as a loop over the directions, at a fraction of its cost.
    const n = -W;
    const s = W;
    for (let h = 0; h < tail; h++) {
      const p = queue[h]!;
      const v = dist[p]! + 1;
      if (dist[p + s] === 0) {
        dist[p + s] = v;
        queue[tail++] = p + s;
      }
      if (dist[p + 1] === 0) {
        dist[p + 1] = v;
        queue[tail++] = p + 1;
      }
      if (dist[p + n] === 0) {
        dist[p + n] = v;
        queue[tail++] = p + n;
      }
      if (dist[p - 1] === 0) {
        dist[p - 1] = v;
        queue[tail++] = p - 1;
      }
      if (!forDwarves) continue;
      if (dist[p + s + 1] === 0) {
        dist[p + s + 1] = v;
        queue[tail++] = p + s + 1;
      }
      if (dist[p + n + 1] === 0) {
        dist[p + n + 1] = v;
        queue[tail++] = p + n + 1;
      }
      if (dist[p + n - 1] === 0) {
        dist[p + n - 1] = v;
        queue[tail++] = p + n - 1;
      }
      if (dist[p + s - 1] === 0) {
        dist[p + s - 1] = v;
        queue[tail++] = p + s - 1;
      }
    }
  }

  moveDwarves(): void {
    const { C, mine, type, unitAt, unitPlayer, turns, treasure, enemies, lowest, rock, gold, away, free } = this;
    // The distance map only for the dwarves that go by it (the last choice): most dig, fight or take a treasure.
    let mapped = false;
    for (const id of dwarves(mine)) {
      const { i, j } = unit(id).pos;
      enemies.length = 0;
      free.length = 0;
      rock.length = 0;
      gold.length = 0;
      away.length = 0;
      let fewest = 100;
      let farthest = 0;
      for (let d = 0; d < 8; d++) {
        const qi = i + DI[d]!;
        const qj = j + DJ[d]!;
        if (!this.inside(qi, qj)) continue;
        const q = qi * C + qj;
        const other = unitAt[q]!;
        if (other !== -1) {
          if (unitPlayer[other] !== mine) enemies.push(d);
          continue;
        }
        const t = type[q]!;
        free.push(d);
        if (t === Rock) fewest = keepLowest(rock, fewest, turns[q]!, d);
        if (treasure[q] === 1) gold.push(d);
        if (t === Outside || t === Cave) farthest = keepHighest(away, farthest, abs(qi - this.bi) + abs(qj - this.bj), d);
      }
      if (gold.length > 0) this.pick(id, i, j, gold);
      else if (enemies.length > 0) this.pick(id, i, j, enemies);
      else if (this.nearBalrog(i, j)) this.pick(id, i, j, away);
      else if (rock.length > 0 && !this.enemyAround(i, j)) this.pick(id, i, j, rock);
      else {
        if (!mapped) this.distances(true);
        mapped = true;
        const { dist, W } = this;
        lowest.length = 0;
        let low = 100000000;
        for (const d of free) low = keepLowest(lowest, low, dist[(i + DI[d]! + 1) * W + j + DJ[d]! + 1]!, d);
        this.pick(id, i, j, lowest);
      }
    }
  }

  /** Does a unit of another clan or of Sauron stand within 5 rows and 5 columns? */
  enemyAround(i: number, j: number): boolean {
    const { C, unitAt, unitPlayer, mine } = this;
    for (let a = i - 5; a <= i + 5; a++)
      for (let b = j - 5; b <= j + 5; b++) {
        if (!this.inside(a, b)) continue;
        const id = unitAt[a * C + b]!;
        if (id !== -1 && unitPlayer[id] !== mine) return true;
      }
    return false;
  }

  moveWizards(): void {
    const { C, mine, type, unitAt, unitPlayer, lowest, flee, away, free } = this;
    let mapped = false;
    for (const id of wizards(mine)) {
      const { i, j } = unit(id).pos;
      free.length = 0;
      flee.length = 0;
      away.length = 0;
      let farthest = 0;
      for (let d = 0; d < 8; d += 2) {
        const qi = i + DI[d]!;
        const qj = j + DJ[d]!;
        if (!this.inside(qi, qj)) continue;
        const q = qi * C + qj;
        const other = unitAt[q]!;
        if (other !== -1) {
          if (unitPlayer[other] !== mine) flee.push((d + 4) & 7);
          continue;
        }
        const t = type[q]!;
        free.push(d);
        if (t === Outside || t === Cave) farthest = keepHighest(away, farthest, abs(qi - this.bi) + abs(qj - this.bj), d);
      }
      for (let d = 1; d < 8; d += 2) {
        const qi = i + DI[d]!;
        const qj = j + DJ[d]!;
        if (!this.inside(qi, qj)) continue;
        const other = unitAt[qi * C + qj]!;
        if (other === -1 || unitPlayer[other] === mine) continue;
        flee.push((d + 3) & 7, (d + 5) & 7);
      }
      if (flee.length > 0) this.pick(id, i, j, flee);
      else if (this.nearBalrog(i, j)) this.pick(id, i, j, away);
      else {
        // The wizards' map, made once a round for the first wizard that goes by it.
        if (!mapped) this.distances(false);
        mapped = true;
        const { dist, W } = this;
        let low = dist[(i + 1) * W + j + 1]!;
        lowest.length = 0;
        lowest.push(NONE);
        for (const d of free) low = keepLowest(lowest, low, dist[(i + DI[d]! + 1) * W + j + DJ[d]! + 1]!, d);
        this.pick(id, i, j, lowest);
      }
    }
  }
}
