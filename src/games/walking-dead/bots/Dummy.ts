/// <reference path="../player.d.ts" />
// Dummy: the qualification bar. Beat it in four matches out of four to qualify.
//
// It takes the decisions of the original package's Dummy (shipped only as an
// object file; its behaviour was read from its disassembly and checked against
// its commands, round by round), with the same calls to random() in the same
// order, so a match with Dummies plays the same here as in the original game.
//
// Every round it computes three distance maps by breadth-first search over the
// streets, four directions, through cells with no unit at all (alive, dead or
// zombie): from every cell with food, from every alive unit of another clan,
// and from every zombie (the sources themselves at distance 0).
// Then, for each of its alive units in increasing id order, it looks at the
// four neighbours (Down, Right, Up, Left; off-board and waste cells skipped)
// and, in each map, takes the neighbour with the smallest distance (the first
// one on ties). It draws random(0, 100) (always, once per unit); when the draw
// is below 80 the food target counts. The unit then goes towards the closest
// of food (if it counts), enemy, zombie — ties in that order, a target
// adjacent to the unit (distance 0) meaning an attack. With no reachable
// target it gives no order.
export const GAME = 'walking-dead';
export const PLAYER_NAME = 'Dummy';

const INF = 0x7fffffff;
/** Down, Right, Up, Left: the order in which the neighbours are tried. */
const DIRS: Dir[] = [Dir.Down, Dir.Right, Dir.Up, Dir.Left];
const DI = [1, 0, -1, 0];
const DJ = [0, 1, 0, -1];

export default class extends Player {
  rows = 0;
  cols = 0;
  /** Street cells with no unit: the cells a search may go through. */
  free = new Uint8Array(0);
  street = new Uint8Array(0);
  food = new Int32Array(0);
  enemy = new Int32Array(0);
  zombie = new Int32Array(0);
  queue = new Int32Array(0);

  play(): void {
    const rows = board_rows();
    const cols = board_cols();
    const n = rows * cols;
    if (this.rows !== rows || this.cols !== cols) {
      this.rows = rows;
      this.cols = cols;
      this.free = new Uint8Array(n);
      this.street = new Uint8Array(n);
      this.food = new Int32Array(n);
      this.enemy = new Int32Array(n);
      this.zombie = new Int32Array(n);
      this.queue = new Int32Array(n);
    }
    const me_ = me();
    const foodSrc: number[] = [];
    const enemySrc: number[] = [];
    const zombieSrc: number[] = [];
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        const c = cell(i, j);
        const k = i * cols + j;
        this.street[k] = c.type === Street ? 1 : 0;
        this.free[k] = c.type === Street && c.id === -1 ? 1 : 0;
        if (c.food) foodSrc.push(k);
        if (c.id !== -1) {
          const u = unit(c.id);
          if (u.type === Zombie) zombieSrc.push(k);
          else if (u.type === Alive && u.player !== me_) enemySrc.push(k);
        }
      }
    }
    this.bfs(this.food, foodSrc);
    this.bfs(this.enemy, enemySrc);
    this.bfs(this.zombie, zombieSrc);

    for (const id of alive_units(me_)) {
      const p = unit(id).pos;
      const [fd, fDist] = this.closest(p, this.food);
      const [ed, eDist] = this.closest(p, this.enemy);
      const [zd, zDist] = this.closest(p, this.zombie);
      let best = INF;
      let dir: number = Dir.Up;
      if (random(0, 100) < 80 && fDist < best) {
        dir = fd;
        best = fDist;
      }
      if (eDist < best) {
        dir = ed;
        best = eDist;
      }
      if (zDist < best) {
        dir = zd;
        best = zDist;
      }
      if (best < INF) move(id, dir as Dir);
    }
  }

  /** Distances from the sources through free cells (4 directions); INF where unreachable. */
  bfs(dist: Int32Array, sources: number[]): void {
    const { rows, cols, free, queue } = this;
    dist.fill(INF);
    let tail = 0;
    for (const k of sources) {
      dist[k] = 0;
      queue[tail++] = k;
    }
    let head = 0;
    while (head < tail) {
      const k = queue[head++]!;
      const i = Math.floor(k / cols);
      const j = k - i * cols;
      const d = dist[k]! + 1;
      for (let t = 0; t < 4; t++) {
        const a = i + DI[t]!;
        const b = j + DJ[t]!;
        if (a < 0 || b < 0 || a >= rows || b >= cols) continue;
        const q = a * cols + b;
        if (!free[q] || dist[q] !== INF) continue;
        dist[q] = d;
        queue[tail++] = q;
      }
    }
  }

  /** The neighbour of p (not waste, on the board) with the smallest distance: [direction, distance]; [Up, INF] if none. */
  closest(p: Pos, dist: Int32Array): [number, number] {
    let best = INF;
    let dir: number = Dir.Up;
    for (let t = 0; t < 4; t++) {
      const a = p.i + DI[t]!;
      const b = p.j + DJ[t]!;
      if (a < 0 || b < 0 || a >= this.rows || b >= this.cols) continue;
      const q = a * this.cols + b;
      if (!this.street[q]) continue;
      if (dist[q]! < best) {
        best = dist[q]!;
        dir = DIRS[t]!;
      }
    }
    return [dir, best];
  }
}
