/// <reference path="../player.d.ts" />
// Bola de Drac: the qualification bar. Breadth-first distance maps for every
// goku; races only for the balls it can reach first; deposits at the nearest
// capsule; rides Kinton clouds when they are near; eats a bean when weak;
// shoots a Kame Hame at gokus carrying a ball (or winning a race against it);
// fights only when the odds are clearly on its side.

export const GAME = 'bola-de-drac';
export const PLAYER_NAME = 'Dummy';

const DIRS: Dir[] = [Dir.Top, Dir.Bottom, Dir.Left, Dir.Right];
const DI = [0, -1, 1, 0, 0];
const DJ = [0, 0, 0, -1, 1];
const FAR = 1 << 20;

export default class extends Player {
  R = 0;
  C = 0;
  /** CType per cell, this round. */
  grid = new Int8Array(0);
  /** Goku id per cell (alive), -1 elsewhere. */
  who = new Int8Array(0);
  queue = new Int32Array(0);
  /** Distance maps per player (rocks only block). */
  dist: Int32Array[] = [];
  /** My own map where enemy cells block, with the first step towards each cell. */
  mine = new Int32Array(0);
  first = new Int8Array(0);
  capDist = new Int32Array(0);

  play(): void {
    const id = me();
    const g = goku(id);
    if (!g.alive) return;
    const onKinton = has_kinton(g.type);
    if (round() % 2 === 1 && !onKinton) return;
    this.read();
    for (let p = 0; p < nb_players(); p++) {
      const o = goku(p);
      if (o.alive) this.bfs(o.pos.i * this.C + o.pos.j, this.dist[p]!, null, -1);
    }
    const here = g.pos.i * this.C + g.pos.j;
    this.bfs(here, this.mine, this.first, id);

    if (this.kamehame(g)) return;

    const target = this.choose(g);
    if (target < 0) return;
    const d = this.first[target]!;
    if (d > 0) move(d as Dir);
  }

  /** Copies the board into typed arrays (once per acting round). */
  read(): void {
    const R = rows();
    const C = cols();
    if (this.R !== R || this.C !== C) {
      this.R = R;
      this.C = C;
      this.grid = new Int8Array(R * C);
      this.who = new Int8Array(R * C);
      this.queue = new Int32Array(R * C);
      this.dist = [];
      for (let p = 0; p < nb_players(); p++) this.dist.push(new Int32Array(R * C));
      this.mine = new Int32Array(R * C);
      this.first = new Int8Array(R * C);
    }
    for (let i = 0; i < R; i++) {
      for (let j = 0; j < C; j++) {
        const c = cell(i, j);
        this.grid[i * C + j] = c.type;
        this.who[i * C + j] = c.id;
      }
    }
    for (const m of this.dist) m.fill(FAR);
  }

  /**
   * Breadth-first distances from `from`. With `first`, also the first step
   * of a shortest path, and cells of gokus other than `self` block the way
   * (they can still be reached as destinations).
   */
  bfs(from: number, dist: Int32Array, first: Int8Array | null, self: number): void {
    const C = this.C;
    dist.fill(FAR);
    dist[from] = 0;
    if (first) first.fill(0);
    let head = 0;
    let tail = 0;
    this.queue[tail++] = from;
    while (head < tail) {
      const k = this.queue[head++]!;
      if (first && k !== from && this.who[k]! >= 0 && this.who[k] !== self) continue;
      for (const d of DIRS) {
        const n = k + DI[d]! * C + DJ[d]!;
        if (dist[n] !== FAR || this.grid[n] === CType.Rock) continue;
        dist[n] = dist[k]! + 1;
        if (first) first[n] = k === from ? d : first[k]!;
        this.queue[tail++] = n;
      }
    }
  }

  /**
   * Rounds goku p needs to walk `steps` cells: one per round on a cloud, one
   * per two rounds on foot, one per four when too weak to pay the movement
   * penalty (rounds ≡ 2 mod 4 are lost).
   */
  time(p: number, steps: number): number {
    if (steps >= FAR) return FAR;
    const o = goku(p);
    const foot = o.strength < moving_penalty() ? 4 : 2;
    const k = o.kinton;
    return steps <= k ? steps : k + foot * (steps - k);
  }

  /** Cell index to go to this round, or -1: the target with the best value per round. */
  choose(g: Goku): number {
    const me_ = g.id;
    const C = this.C;
    const n = this.R * C;
    const mine = this.mine;
    const rest = nb_rounds() - round();
    const max = max_strength();
    let best = -1;
    let bestRate = 0;
    const consider = (k: number, value: number, rounds: number) => {
      if (mine[k]! >= FAR || mine[k] === 0 || rounds >= rest) return;
      const rate = value / (rounds + 1);
      if (rate > bestRate) {
        bestRate = rate;
        best = k;
      }
    };

    if (has_ball(g.type)) {
      for (let k = 0; k < n; k++) if (this.grid[k] === CType.Capsule) consider(k, 3 * (max + 1), this.time(me_, mine[k]!));
    } else {
      const toCapsule = this.capsuleDist();
      for (let k = 0; k < n; k++) {
        if (this.grid[k] !== CType.Ball || this.who[k]! >= 0) continue;
        const t = this.time(me_, mine[k]!);
        let rival = FAR;
        for (let p = 0; p < nb_players(); p++) {
          const o = goku(p);
          if (p === me_ || !o.alive || has_ball(o.type)) continue;
          rival = Math.min(rival, this.time(p, this.dist[p]![k]!));
        }
        // A ball a rival reaches first is probably lost.
        const value = rival < t ? (max + 1) / 4 : max + 1;
        consider(k, value, t + 2 * toCapsule[k]!);
      }
      // A weaker goku carrying a ball next to us: take it in a fight.
      for (let p = 0; p < nb_players(); p++) {
        const o = goku(p);
        if (p === me_ || !o.alive || !has_ball(o.type)) continue;
        const k = o.pos.i * C + o.pos.j;
        const win = (1 + g.strength) / (2 + g.strength + o.strength);
        if (mine[k] === 1 && win >= 0.8) consider(k, 4 * (max + 1), 0);
      }
    }

    // Beans: strength is score, mobility and Kame Hames. Kinton clouds: speed.
    for (let k = 0; k < n; k++) {
      if (this.who[k]! >= 0) continue;
      const t = this.grid[k];
      if (t === CType.Bean) {
        let value = max - g.strength;
        if (g.strength < moving_penalty() * 4) value += 300;
        if (g.strength < kamehame_penalty()) value += 200;
        consider(k, value, this.time(me_, mine[k]!));
      } else if (t === CType.Kinton && g.kinton < 10) {
        consider(k, Math.min(rest, kinton_life_time()) * 6, this.time(me_, mine[k]!));
      }
    }
    return best;
  }

  /** Distance from every cell to the nearest capsule. */
  capsuleDist(): Int32Array {
    const C = this.C;
    const dist = this.capDist;
    if (dist.length !== this.grid.length) this.capDist = new Int32Array(this.grid.length);
    const d = this.capDist;
    d.fill(FAR);
    let tail = 0;
    for (let k = 0; k < d.length; k++) {
      if (this.grid[k] === CType.Capsule) {
        d[k] = 0;
        this.queue[tail++] = k;
      }
    }
    for (let head = 0; head < tail; head++) {
      const k = this.queue[head]!;
      for (let e = 1; e <= 4; e++) {
        const m = k + DI[e]! * C + DJ[e]!;
        if (d[m] !== FAR || this.grid[m] === CType.Rock) continue;
        d[m] = d[k]! + 1;
        this.queue[tail++] = m;
      }
    }
    return d;
  }

  /** Throws a Kame Hame when it pays; true if asked. */
  kamehame(g: Goku): boolean {
    if (g.strength < kamehame_penalty()) return false;
    const C = this.C;
    const from = g.pos.i * C + g.pos.j;
    // Balls a rival would reach before us.
    let bestDir: Dir = Dir.None;
    let bestValue = 0;
    for (const d of DIRS) {
      const step = DI[d]! * C + DJ[d]!;
      let value = 0;
      for (let k = from + step; this.grid[k] !== CType.Rock; k += step) {
        const p = this.who[k]!;
        if (p < 0 || p === g.id) continue;
        const o = goku(p);
        if (has_ball(o.type)) value += 3 + (this.capsuleNear(p) ? 2 : 0);
        else if (this.racing(g, p)) value += 1;
        if (o.balls > g.balls) value += 1;
      }
      if (value > bestValue) {
        bestValue = value;
        bestDir = d;
      }
    }
    // Worth 700 points of strength only against a ball carrier, or two threats at once.
    if (bestValue >= 3 || (bestValue >= 2 && g.strength > 900)) {
      throw_kamehame(bestDir);
      return true;
    }
    return false;
  }

  /** Whether goku p is within 6 steps of a capsule. */
  capsuleNear(p: number): boolean {
    const dist = this.dist[p]!;
    for (let k = 0; k < dist.length; k++) if (this.grid[k] === CType.Capsule && dist[k]! <= 6) return true;
    return false;
  }

  /** Whether rival p (without a ball) reaches some free ball before us. */
  racing(g: Goku, p: number): boolean {
    for (let k = 0; k < this.grid.length; k++) {
      if (this.grid[k] !== CType.Ball) continue;
      const theirs = this.time(p, this.dist[p]![k]!);
      if (theirs < 12 && theirs < this.time(g.id, this.mine[k]!)) return true;
    }
    return false;
  }
}
