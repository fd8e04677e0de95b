/// <reference path="../player.d.ts" />
// Bola de Drac: a simple example. The goku walks (breadth-first search) to
// the nearest dragon ball, then to the nearest Hoi Poi capsule to deposit it.
// It never throws a Kame Hame and keeps away from other gokus.

export const GAME = 'bola-de-drac';
export const PLAYER_NAME = 'Demo';

const DIRS: Dir[] = [Dir.Top, Dir.Bottom, Dir.Left, Dir.Right];

export default class extends Player {
  play(): void {
    const g = goku(me());
    if (!g.alive) return;
    // Without a Kinton cloud, a goku only acts in even rounds.
    if (round() % 2 === 1 && !has_kinton(g.type)) return;
    const target = has_ball(g.type) ? CType.Capsule : CType.Ball;
    const d = this.first_step(g.pos, target);
    if (d !== Dir.None) move(d);
  }

  /**
   * Breadth-first search from p to the nearest cell of type t. Returns the
   * direction of the first step (None if there is no way). Rocks and other
   * gokus block the way.
   */
  first_step(p: Pos, t: CType): Dir {
    const C = cols();
    const first: number[] = new Array(rows() * C).fill(-1);
    first[p.i * C + p.j] = Dir.None;
    const queue: Pos[] = [];
    for (const d of DIRS) {
      const q = dest(p, d);
      if (this.free(q) && first[q.i * C + q.j] === -1) {
        first[q.i * C + q.j] = d;
        queue.push(q);
      }
    }
    for (let head = 0; head < queue.length; head++) {
      const q = queue[head]!;
      const d = first[q.i * C + q.j] as Dir;
      if (cell(q).type === t) return d;
      for (const e of DIRS) {
        const r = dest(q, e);
        if (this.free(r) && first[r.i * C + r.j] === -1) {
          first[r.i * C + r.j] = d;
          queue.push(r);
        }
      }
    }
    return Dir.None;
  }

  /** A cell we may walk into: on the board, not a rock, no goku there. */
  free(p: Pos): boolean {
    if (!pos_ok(p)) return false;
    const c = cell(p);
    return c.type !== CType.Rock && c.id === -1;
  }
}
