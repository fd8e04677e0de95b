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
  back = new Int32Array(0);
  /** Acting rounds spent waiting for a risky cell to clear. */
  waited = 0;
  /** How much a ray must be worth (see kamehame()). */
  KAME_NEED = 2;
  /** What being able to throw a Kame Hame again is worth. */
  BEAN_KAME = 600;

  play(): void {
    const id = me();
    const g = goku(id);
    if (!g.alive) return;
    const onKinton = has_kinton(g.type);
    if (round() % 2 === 1 && !onKinton) return;
    this.read();
    for (let p = 0; p < nb_players(); p++) {
      const o = goku(p);
      if (o.alive && p !== id) this.bfs(o.pos.i * this.C + o.pos.j, this.dist[p]!, null, -1);
    }
    const here = g.pos.i * this.C + g.pos.j;
    this.bfs(here, this.mine, this.first, id);

    if (this.kamehame(g)) return;

    const target = this.choose(g);
    if (target < 0) return;
    const d = this.safeStep(g, here, target, this.first[target]!);
    if (d > 0) move(d as Dir);
  }

  /**
   * Whether stepping into cell n risks a fight we would probably lose: an
   * enemy that can act this round stands next to n (both of us moving there
   * means a combat).
   */
  risky(g: Goku, n: number): boolean {
    const C = this.C;
    const even = round() % 2 === 0;
    for (let p = 0; p < nb_players(); p++) {
      const o = goku(p);
      if (p === g.id || !o.alive || (!even && !has_kinton(o.type))) continue;
      const k = o.pos.i * C + o.pos.j;
      if (k === n) return false; // a fight we chose
      const adjacent = k === n - C || k === n + C || k === n - 1 || k === n + 1;
      if (adjacent && (1 + g.strength) / (2 + g.strength + o.strength) < 0.75) return true;
    }
    return false;
  }

  /**
   * The first step d towards target, or another one just as short that
   * avoids a likely lost fight, or 0 to wait. After waiting twice in a row it
   * takes the risk half of the time (two careful gokus would wait forever).
   */
  safeStep(g: Goku, here: number, target: number, d: number): number {
    const n = here + DI[d]! * this.C + DJ[d]!;
    if (!this.risky(g, n)) {
      this.waited = 0;
      return d;
    }
    if (this.waited >= 2 && random(0, 1) === 0) {
      this.waited = 0;
      return d;
    }
    this.waited++;
    const back = this.back;
    if (back.length !== this.grid.length) this.back = new Int32Array(this.grid.length);
    this.bfs(target, this.back, null, -1);
    const want = this.back[n]!;
    for (const e of DIRS) {
      const m = here + DI[e]! * this.C + DJ[e]!;
      if (m === n || this.grid[m] === CType.Rock || this.who[m]! >= 0) continue;
      if (this.back[m] === want && !this.risky(g, m)) {
        this.waited = 0;
        return e;
      }
    }
    return 0;
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
  }

  /**
   * Breadth-first distances from `from`. With `first`, also the first step
   * of a shortest path, and cells of gokus other than `self` block the way
   * (they can still be reached as destinations).
   */
  bfs(from: number, dist: Int32Array, first: Int8Array | null, self: number): void {
    const C = this.C;
    const grid = this.grid;
    const who = this.who;
    const queue = this.queue;
    const step = [0, -C, C, -1, 1];
    const rock = CType.Rock;
    dist.fill(FAR);
    dist[from] = 0;
    if (first) first.fill(0);
    let head = 0;
    let tail = 0;
    queue[tail++] = from;
    while (head < tail) {
      const k = queue[head++]!;
      if (first && k !== from && who[k]! >= 0 && who[k] !== self) continue;
      const dk = dist[k]! + 1;
      for (let d = 1; d <= 4; d++) {
        const n = k + step[d]!;
        if (dist[n] !== FAR || grid[n] === rock) continue;
        dist[n] = dk;
        if (first) first[n] = k === from ? d : first[k]!;
        queue[tail++] = n;
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
        // Strength drains while walking, so it is worth its face value only near the end.
        let value = rest < 150 ? max - g.strength : 0;
        if (g.strength < moving_penalty() * 4) value += 300;
        if (g.strength < kamehame_penalty()) value += this.BEAN_KAME;
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
    const rest = nb_rounds() - round();
    let bestDir: Dir = Dir.None;
    let bestValue = 0;
    for (const d of DIRS) {
      const step = DI[d]! * C + DJ[d]!;
      let value = 0;
      for (let k = from + step; this.grid[k] !== CType.Rock; k += step) {
        const p = this.who[k]!;
        if (p < 0 || p === g.id) continue;
        const o = goku(p);
        // Every kill costs its victim goku_regen_time rounds; a carried ball is lost.
        value += 1;
        if (has_ball(o.type)) value += 3 + (this.capsuleNear(p) ? 2 : 0);
        else if (this.racing(g, p)) value += 1;
        if (o.balls >= g.balls) value += 1;
      }
      if (value > bestValue) {
        bestValue = value;
        bestDir = d;
      }
    }
    // 700 points of strength: near the end only against a ball carrier.
    const need = rest < 40 ? 4 : this.KAME_NEED;
    if (bestValue >= need) {
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
