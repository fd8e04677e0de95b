/// <reference path="../player.d.ts" />
// Demo: a simple Moria player to learn from.
//  - A dwarf next to an enemy (another clan's unit, an orc or a troll) hits it.
//  - Otherwise it walks (digging through rock when needed) towards the nearest
//    treasure, or else the nearest cave its clan does not own: a BFS.
//  - Wizards follow the nearest dwarf of their clan, to heal it.
//  - Nobody steps next to the Balrog or into an abyss.
export const GAME = 'moria';
export const PLAYER_NAME = "Dummy";

export default class extends Player {
  /** This round's board, read once: grid[i * cols() + j]. */
  grid: Cell[] = [];

  at(p: Pos): Cell {
    return this.grid[p.i * cols() + p.j]!;
  }

  play(): void {
    const R = rows();
    const C = cols();
    this.grid = [];
    for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) this.grid.push(cell(i, j));
    const bal = unit(balrog_id()).pos;
    // Is p a cell a dwarf may enter (or dig)?
    const safe = (p: Pos): boolean => {
      const c = this.at(p);
      if (c.type === CellType.Granite || c.type === CellType.Abyss) return false;
      return Math.max(Math.abs(p.i - bal.i), Math.abs(p.j - bal.j)) > 2;
    };

    for (const id of dwarves(me())) {
      const u = unit(id);
      // 1. Attack an adjacent enemy.
      let attacked = false;
      for (let d = 0; d < 8 && !attacked; d++) {
        const q = pos_add(u.pos, d);
        if (!pos_ok(q)) continue;
        const c = this.at(q);
        if (c.id >= 0 && c.id !== balrog_id() && unit(c.id).player !== me()) {
          command(id, d);
          attacked = true;
        }
      }
      if (attacked) continue;
      // 2. BFS to the nearest treasure, or the nearest cave not ours.
      const dir = this.bfs(u.pos, (c) => c.treasure, safe, R, C) ?? this.bfs(u.pos, (c) => c.type === CellType.Cave && c.owner !== me(), safe, R, C);
      if (dir !== null) command(id, dir);
    }

    for (const id of wizards(me())) {
      const u = unit(id);
      // Wizards move only straight: directions 0, 2, 4, 6.
      let best = -1;
      let bestDist = 1e9;
      for (const d of dwarves(me())) {
        const p = unit(d).pos;
        const dist = Math.abs(p.i - u.pos.i) + Math.abs(p.j - u.pos.j);
        if (dist < bestDist) {
          bestDist = dist;
          best = d;
        }
      }
      if (best < 0 || bestDist <= 1) continue;
      const t = unit(best).pos;
      for (const d of [Dir.Bottom, Dir.Right, Dir.Top, Dir.Left]) {
        const q = pos_add(u.pos, d);
        if (!pos_ok(q) || !safe(q)) continue;
        const c = this.at(q);
        if ((c.type !== CellType.Cave && c.type !== CellType.Outside) || c.id >= 0) continue;
        if (Math.abs(q.i - t.i) + Math.abs(q.j - t.j) < bestDist) {
          command(id, d);
          break;
        }
      }
    }
  }

  /** First direction of a shortest path (8 directions, rock counts as one step) to a cell where goal holds, or null. */
  bfs(from: Pos, goal: (c: Cell) => boolean, safe: (p: Pos) => boolean, R: number, C: number): number | null {
    const first = new Int8Array(R * C).fill(-1);
    const queue: Pos[] = [from];
    first[from.i * C + from.j] = 8;
    for (let h = 0; h < queue.length; h++) {
      const p = queue[h]!;
      if (h > 0 && goal(this.at(p))) return first[p.i * C + p.j]!;
      for (let d = 0; d < 8; d++) {
        const q = pos_add(p, d);
        if (!pos_ok(q) || first[q.i * C + q.j] !== -1 || !safe(q)) continue;
        if (h === 0 && this.at(q).id >= 0) continue; // a unit right next to us blocks the first step
        first[q.i * C + q.j] = h === 0 ? d : first[p.i * C + p.j]!;
        queue.push(q);
      }
    }
    return null;
  }
}
