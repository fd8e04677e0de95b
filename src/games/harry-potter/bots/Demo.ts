/// <reference path="../player.d.ts" />
// Demo: a simple Harry Potter player to learn from.
//  - A wizard next to an enemy wizard that is not converting attacks it.
//  - Otherwise it takes one step downhill on a distance map: a BFS from every
//    book (reading books makes the clan stronger).
//  - The ghost wanders towards cells its clan does not own yet (another BFS).
//  - Nobody steps into the 3x3 square around Voldemort: that is instant death.
//  - It does not try to solve the spell (a good exercise for you!).
export const GAME = 'harry-potter';
export const PLAYER_NAME = 'Demo';

const INF = 1e9;
// Row and column offsets of the directions 0..7 (Down, DR, Right, RU, Up, UL, Left, LD).
const DI = [1, 1, 0, -1, -1, -1, 0, 1];
const DJ = [0, 1, 1, 1, 0, -1, -1, -1];
const STRAIGHT = [Dir.Down, Dir.Right, Dir.Up, Dir.Left];
const ALL = [0, 1, 2, 3, 4, 5, 6, 7];

export default class extends Player {
  R = 0;
  C = 0;

  play(): void {
    this.R = board_rows();
    this.C = board_cols();
    const mine = me();
    const v = pos_voldemort();

    // Distance (4 directions) from every cell to the nearest book.
    const toBook = this.bfs((i, j) => cell(i, j).book, STRAIGHT);

    for (const id of wizards(mine)) {
      const u = unit(id);
      // 1. Attack a neighbouring enemy wizard.
      let done = false;
      if (!u.is_in_conversion_process()) {
        for (const d of STRAIGHT) {
          const p = pos_add(u.pos, d);
          if (!pos_ok(p) || this.deadly(p, v)) continue;
          const c = cell(p);
          if (c.id !== -1) {
            const e = unit(c.id);
            if (e.type === Wizard && e.player !== mine && !e.is_in_conversion_process()) {
              move(id, d);
              done = true;
              break;
            }
          }
        }
      }
      // 2. Walk towards the nearest book.
      if (!done) {
        const d = this.downhill(u.pos, toBook, STRAIGHT, v);
        if (d >= 0) move(id, d);
      }
    }

    // The ghost (8 directions) goes for cells we do not own.
    const g = unit(ghost(mine));
    const toLand = this.bfs((i, j) => cell(i, j).owner !== mine, ALL);
    const d = this.downhill(g.pos, toLand, ALL, v);
    if (d >= 0) move(g.id, d);
  }

  /** Would a unit entering p be killed by Voldemort (standing at v)? */
  deadly(p: Pos, v: Pos): boolean {
    return Math.abs(p.i - v.i) <= 1 && Math.abs(p.j - v.j) <= 1;
  }

  /** Multi-source BFS over corridors: distance from each cell to the nearest cell where `target` holds. */
  bfs(target: (i: number, j: number) => boolean, dirs: number[]): Int32Array {
    const R = this.R;
    const C = this.C;
    const dist = new Int32Array(R * C).fill(INF);
    const queue: number[] = [];
    for (let i = 0; i < R; i++)
      for (let j = 0; j < C; j++)
        if (cell(i, j).type === Corridor && target(i, j)) {
          dist[i * C + j] = 0;
          queue.push(i * C + j);
        }
    for (let head = 0; head < queue.length; head++) {
      const p = queue[head]!;
      const i = Math.floor(p / C);
      const j = p % C;
      for (const d of dirs) {
        const ni = i + DI[d]!;
        const nj = j + DJ[d]!;
        if (!pos_ok(ni, nj) || dist[ni * C + nj] !== INF || cell(ni, nj).type === Wall) continue;
        dist[ni * C + nj] = dist[p]! + 1;
        queue.push(ni * C + nj);
      }
    }
    return dist;
  }

  /** The direction to a free neighbour with a smaller distance (-1 if none). */
  downhill(from: Pos, dist: Int32Array, dirs: number[], v: Pos): number {
    let best = -1;
    let bestDist = dist[from.i * this.C + from.j]!;
    for (const d of dirs) {
      const p = pos_add(from, d);
      if (!pos_ok(p) || this.deadly(p, v)) continue;
      const c = cell(p);
      if (c.type === Wall || c.id !== -1) continue;
      const dd = dist[p.i * this.C + p.j]!;
      if (dd < bestDist || (dd === bestDist && best < 0 && random(0, 3) === 0)) {
        best = d;
        bestDist = dd;
      }
    }
    return best;
  }
}
