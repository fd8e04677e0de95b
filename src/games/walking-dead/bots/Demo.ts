/// <reference path="../player.d.ts" />
// Demo: a simple example of the API. Every alive unit
//   1. kills a zombie standing next to it (up, down, left or right), or
//   2. walks towards the nearest food, found with a breadth-first search, or
//   3. wanders in a random direction.
// It ignores enemies and does not run away from zombies: there is plenty of
// room to do better.
export const GAME = 'walking-dead';
export const PLAYER_NAME = 'Demo';

/** The four directions an alive unit may take. */
const DIRS: Dir[] = [Dir.Down, Dir.Right, Dir.Up, Dir.Left];

export default class extends Player {
  play(): void {
    // If nearly out of CPU time, do nothing.
    if (status(me()) >= 0.9) return;

    for (const id of alive_units(me())) {
      const p = unit(id).pos;

      // 1. A zombie next to us dies if we move onto it.
      let done = false;
      for (const d of DIRS) {
        const q = pos_add(p, d);
        if (!pos_ok(q)) continue;
        const other = cell(q).id;
        if (other !== -1 && unit(other).type === Zombie) {
          move(id, d);
          done = true;
          break;
        }
      }
      if (done) continue;

      // 2. Towards the nearest food.
      const d = this.directionToFood(p);
      if (d !== -1) {
        move(id, d);
        continue;
      }

      // 3. Anywhere.
      const r = DIRS[random(0, 3)]!;
      const q = pos_add(p, r);
      if (pos_ok(q) && cell(q).type !== Waste) move(id, r);
    }
  }

  /**
   * Breadth-first search from p over street cells without units. Returns the
   * first step of a shortest path to the nearest food, or -1 if there is none
   * within 30 steps.
   */
  directionToFood(p: Pos): number {
    const rows = board_rows();
    const cols = board_cols();
    // firstDir[i*cols+j] = the direction of the first step towards (i, j), -1 = not visited.
    const firstDir = new Array<number>(rows * cols).fill(-1);
    const dist = new Array<number>(rows * cols).fill(0);
    const queue: Pos[] = [];
    for (const d of DIRS) {
      const q = pos_add(p, d);
      if (!pos_ok(q)) continue;
      const c = cell(q);
      if (c.type === Waste || c.id !== -1) continue;
      if (c.food) return d;
      firstDir[q.i * cols + q.j] = d;
      dist[q.i * cols + q.j] = 1;
      queue.push(q);
    }
    for (let head = 0; head < queue.length; head++) {
      const u = queue[head]!;
      const k = u.i * cols + u.j;
      if (dist[k]! >= 30) break;
      for (const d of DIRS) {
        const q = pos_add(u, d);
        if (!pos_ok(q) || firstDir[q.i * cols + q.j] !== -1 || (q.i === p.i && q.j === p.j)) continue;
        const c = cell(q);
        if (c.type === Waste || c.id !== -1) continue;
        if (c.food) return firstDir[k]!;
        firstDir[q.i * cols + q.j] = firstDir[k]!;
        dist[q.i * cols + q.j] = dist[k]! + 1;
        queue.push(q);
      }
    }
    return -1;
  }
}
