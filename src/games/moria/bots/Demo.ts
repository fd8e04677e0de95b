/// <reference path="../player.d.ts" />
// Demo: a simple Moria player to learn from.
//  - A dwarf next to an enemy (another clan's unit, an orc or a troll) hits it.
//  - Otherwise it takes one step downhill on a distance map: a BFS from every
//    treasure (digging through rock counts as one step), or, when no treasure
//    can be reached, from every cave its clan does not own.
//  - Wizards walk (straight only) towards the nearest dwarf of their clan, to heal it.
//  - Nobody steps near the Balrog or into an abyss.
export const GAME = 'moria';
export const PLAYER_NAME = 'Demo';

const INF = 1e9;
// Read once: looking a global up inside a hot loop is slow in some sandboxes.
const { Cave, Abyss, Granite, Rock } = CellType;
// Row and column offsets of the directions 0..7 (Bottom, BR, Right, RT, Top, TL, Left, LB).
const DI = [1, 1, 0, -1, -1, -1, 0, 1];
const DJ = [0, 1, 1, 1, 0, -1, -1, -1];

export default class extends Player {
  R = 0;
  C = 0;
  type = new Int8Array(0);
  owner = new Int8Array(0);
  who = new Int16Array(0);
  gold = new Uint8Array(0);
  danger = new Uint8Array(0);

  play(): void {
    this.readBoard();
    const mine = me();
    const toGold = this.bfs((p) => this.gold[p] === 1);
    const toLand = this.bfs((p) => this.type[p] === Cave && this.owner[p] !== mine && this.gold[p] === 0);

    for (const id of dwarves(me())) {
      const u = unit(id);
      const p = u.pos.i * this.C + u.pos.j;
      const enemy = this.enemyDir(u.pos);
      if (enemy >= 0) command(id, enemy);
      else {
        const d = this.downhill(u.pos, this.reachable(toGold, u.pos) ? toGold : toLand, 8);
        if (d >= 0 && p >= 0) command(id, d);
      }
    }

    for (const id of wizards(me())) {
      const u = unit(id);
      let best = -1;
      let bestDist = INF;
      for (const d of dwarves(me())) {
        const q = unit(d).pos;
        const dist = Math.abs(q.i - u.pos.i) + Math.abs(q.j - u.pos.j);
        if (dist < bestDist) {
          bestDist = dist;
          best = d;
        }
      }
      if (best < 0 || bestDist <= 1) continue;
      const t = unit(best).pos;
      // Wizards move only straight: Bottom, Right, Top, Left are the even directions.
      for (let d = 0; d < 8; d += 2) {
        const q = pos_add(u.pos, d);
        if (!this.free(q) || this.type[q.i * this.C + q.j] === Rock) continue;
        if (Math.abs(q.i - t.i) + Math.abs(q.j - t.j) < bestDist) {
          command(id, d);
          break;
        }
      }
    }
  }

  /** Reads the whole board once per round into flat arrays (index i*C + j). */
  readBoard(): void {
    const R = (this.R = rows());
    const C = (this.C = cols());
    this.type = new Int8Array(R * C);
    this.owner = new Int8Array(R * C);
    this.who = new Int16Array(R * C);
    this.gold = new Uint8Array(R * C);
    this.danger = new Uint8Array(R * C);
    for (let i = 0; i < R; i++)
      for (let j = 0; j < C; j++) {
        const c = cell(i, j);
        const p = i * C + j;
        this.type[p] = c.type;
        this.owner[p] = c.owner;
        this.who[p] = c.id;
        this.gold[p] = c.treasure ? 1 : 0;
      }
    // The Balrog moves one step and then kills its 8 neighbours: keep 2 cells away.
    const b = unit(balrog_id()).pos;
    for (let i = b.i - 2; i <= b.i + 2; i++)
      for (let j = b.j - 2; j <= b.j + 2; j++) if (pos_ok(i, j)) this.danger[i * C + j] = 1;
  }

  /** Can a dwarf walk into (or dig) p? */
  free(q: Pos): boolean {
    if (!pos_ok(q)) return false;
    const p = q.i * this.C + q.j;
    const t = this.type[p];
    return t !== Granite && t !== Abyss && this.danger[p] === 0 && this.who[p] < 0;
  }

  /** An adjacent enemy to hit (never the Balrog), or -1. */
  enemyDir(from: Pos): number {
    for (let d = 0; d < 8; d++) {
      const q = pos_add(from, d);
      if (!pos_ok(q)) continue;
      const id = this.who[q.i * this.C + q.j];
      if (id >= 0 && id !== balrog_id() && unit(id).player !== me()) return d;
    }
    return -1;
  }

  /** Distances (8 directions, rock = 1 step) from every cell where goal holds. */
  bfs(goal: (p: number) => boolean): Int32Array {
    const { R, C } = this;
    const dist = new Int32Array(R * C).fill(INF);
    const queue = new Int32Array(R * C);
    let tail = 0;
    for (let p = 0; p < R * C; p++)
      if (goal(p) && this.danger[p] === 0) {
        dist[p] = 0;
        queue[tail++] = p;
      }
    for (let head = 0; head < tail; head++) {
      const p = queue[head]!;
      const i = Math.floor(p / C);
      const j = p % C;
      for (let d = 0; d < 8; d++) {
        const qi = i + DI[d]!;
        const qj = j + DJ[d]!;
        if (qi < 0 || qj < 0 || qi >= R || qj >= C) continue;
        const k = qi * C + qj;
        const t = this.type[k];
        if (dist[k] !== INF || t === Granite || t === Abyss || this.danger[k]) continue;
        dist[k] = dist[p]! + 1;
        queue[tail++] = k;
      }
    }
    return dist;
  }

  reachable(dist: Int32Array, from: Pos): boolean {
    for (let d = 0; d < 8; d++) {
      const q = pos_add(from, d);
      if (pos_ok(q) && dist[q.i * this.C + q.j]! < INF) return true;
    }
    return false;
  }

  /** The free neighbour with the smallest distance, or -1. */
  downhill(from: Pos, dist: Int32Array, n: number): number {
    let best = -1;
    let bestDist = INF;
    for (let d = 0; d < n; d++) {
      const q = pos_add(from, d);
      if (!this.free(q)) continue;
      const v = dist[q.i * this.C + q.j]!;
      if (v < bestDist) {
        bestDist = v;
        best = d;
      }
    }
    return best;
  }
}
