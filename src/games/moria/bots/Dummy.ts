/// <reference path="../player.d.ts" />
// Dummy: the qualification bar. To qualify, a player must beat three Dummies
// in each of four matches.
//  - Dwarves: hit adjacent enemies worth hitting (wizards, weak dwarves, orcs),
//    step away from trolls, never near the Balrog. Otherwise each dwarf runs a
//    Dijkstra (rock costs its remaining hits) and takes the best target not
//    already claimed by a clan mate: a treasure (worth 10 points) or caves the
//    clan does not own, the enemy's first.
//  - Wizards: go and stand next to hurt dwarves of the clan (they heal at the
//    end of the round), otherwise next to the nearest dwarf.
export const GAME = 'moria';
export const PLAYER_NAME = 'Dummy';

const INF = 1e9;
// Globals read once: a global lookup inside a hot loop is slow in some sandboxes.
const floor = Math.floor;
const abs = Math.abs;
const DI = [1, 1, 0, -1, -1, -1, 0, 1];
const DJ = [0, 1, 1, 1, 0, -1, -1, -1];
const { Outside, Cave, Abyss, Granite, Rock } = CellType;
const { Dwarf, Wizard, Orc, Troll } = UnitType;

export default class extends Player {
  R = 0;
  C = 0;
  N = 0;
  mine = 0;
  type = new Int8Array(0);
  owner = new Int8Array(0);
  who = new Int16Array(0);
  gold = new Uint8Array(0);
  turns = new Int16Array(0);
  /** 2: certain death (Balrog), 1: a troll may hit there. */
  danger = new Uint8Array(0);
  claimed = new Uint8Array(0);
  /** Cells a clan mate moves into this round. */
  taken = new Uint8Array(0);
  dist = new Int32Array(0);
  first = new Int8Array(0);
  heap = new Int32Array(0);
  utype: number[] = [];
  uplayer: number[] = [];
  uhealth: number[] = [];

  play(): void {
    this.readBoard();
    const mine = this.mine;
    const ds = dwarves(mine);
    const busy = new Set<number>();

    // 1. Fights and escapes.
    for (const id of ds) {
      const u = unit(id);
      const p = u.pos.i * this.C + u.pos.j;
      const d = this.fight(p, u.health);
      if (d >= 0) {
        command(id, d);
        busy.add(id);
        continue;
      }
      if (this.danger[p]) {
        const e = this.escape(p);
        if (e >= 0) {
          command(id, e);
          busy.add(id);
          this.taken[this.step(p, e)] = 1;
        }
      }
    }

    // 2. Targets, nearest dwarves first get the first pick of what they see.
    for (const id of ds) {
      if (busy.has(id)) continue;
      const u = unit(id);
      const p = u.pos.i * this.C + u.pos.j;
      const d = this.plan(p);
      if (d >= 0) {
        command(id, d);
        this.taken[this.step(p, d)] = 1;
      }
    }

    // 3. Wizards.
    for (const id of wizards(mine)) {
      const u = unit(id);
      const p = u.pos.i * this.C + u.pos.j;
      const d = this.wizardMove(p);
      if (d >= 0) {
        command(id, d);
        this.taken[this.step(p, d)] = 1;
      }
    }
  }

  readBoard(): void {
    const R = (this.R = rows());
    const C = (this.C = cols());
    const N = (this.N = R * C);
    this.mine = me();
    if (this.type.length !== N) {
      this.type = new Int8Array(N);
      this.owner = new Int8Array(N);
      this.who = new Int16Array(N);
      this.gold = new Uint8Array(N);
      this.turns = new Int16Array(N);
      this.danger = new Uint8Array(N);
      this.claimed = new Uint8Array(N);
      this.taken = new Uint8Array(N);
      this.dist = new Int32Array(N);
      this.first = new Int8Array(N);
      this.heap = new Int32Array(8 * N + 16);
    }
    this.danger.fill(0);
    this.claimed.fill(0);
    this.taken.fill(0);
    for (let i = 0; i < R; i++)
      for (let j = 0; j < C; j++) {
        const c = cell(i, j);
        const p = i * C + j;
        this.type[p] = c.type;
        this.owner[p] = c.owner;
        this.who[p] = c.id;
        this.gold[p] = c.treasure ? 1 : 0;
        this.turns[p] = c.turns;
      }
    const n = nb_units();
    this.utype = [];
    this.uplayer = [];
    this.uhealth = [];
    for (let id = 0; id < n; id++) {
      const p = this.posOf(id);
      if (p < 0) {
        this.utype.push(-1);
        this.uplayer.push(-1);
        this.uhealth.push(0);
        continue;
      }
      // Only ids on the board are asked for (unit() warns about dead orcs).
      const u = unit(id);
      this.utype.push(u.type);
      this.uplayer.push(u.player);
      this.uhealth.push(u.health);
    }
    // The Balrog steps once (not diagonally) and kills its 8 neighbours.
    const b = unit(balrog_id()).pos;
    for (let di = -2; di <= 2; di++)
      for (let dj = -2; dj <= 2; dj++) {
        if (abs(di) === 2 && abs(dj) === 2) continue;
        const i = b.i + di;
        const j = b.j + dj;
        if (i >= 0 && j >= 0 && i < R && j < C) this.danger[i * C + j] = 2;
      }
    // Trolls hit 50-150 whatever is next to them after they move.
    for (const t of trolls()) {
      const q = unit(t).pos;
      for (let di = -2; di <= 2; di++)
        for (let dj = -2; dj <= 2; dj++) {
          const i = q.i + di;
          const j = q.j + dj;
          if (i >= 0 && j >= 0 && i < R && j < C && this.danger[i * C + j] === 0) this.danger[i * C + j] = 1;
        }
    }
  }

  posOf(id: number): number {
    // who[] already tells where every unit is; a reverse scan is cheap enough once per round.
    if (!this.posIndex || this.posIndexRound !== round()) {
      this.posIndex = new Int32Array(nb_units()).fill(-1);
      for (let p = 0; p < this.N; p++) if (this.who[p]! >= 0) this.posIndex[this.who[p]!] = p;
      this.posIndexRound = round();
    }
    return this.posIndex[id]!;
  }
  posIndex: Int32Array | null = null;
  posIndexRound = -1;

  /** Neighbour of p in direction d, or -1 off the board. */
  step(p: number, d: number): number {
    const i = floor(p / this.C) + DI[d]!;
    const j = (p % this.C) + DJ[d]!;
    return i < 0 || j < 0 || i >= this.R || j >= this.C ? -1 : i * this.C + j;
  }

  /** The direction of an adjacent enemy worth hitting, or -1. */
  fight(p: number, health: number): number {
    let best = -1;
    let bestScore = 0;
    for (let d = 0; d < 8; d++) {
      const q = this.step(p, d);
      if (q < 0) continue;
      const id = this.who[q]!;
      if (id < 0 || this.uplayer[id] === this.mine) continue;
      const t = this.utype[id];
      const h = this.uhealth[id]!;
      let score = 0;
      if (t === Wizard) score = 100 - h; // 50 hp: two hits capture it
      else if (t === Dwarf) score = h <= 40 ? 120 - h : health >= h ? 60 - h / 4 : 0;
      else if (t === Orc) score = 50 - h / 4;
      else if (t === Troll) score = h <= 60 ? 40 : 0;
      if (score > bestScore) {
        bestScore = score;
        best = d;
      }
    }
    return best;
  }

  /** Can a dwarf step into (or dig) q now? */
  open(q: number): boolean {
    const t = this.type[q];
    return q >= 0 && t !== Granite && t !== Abyss && this.danger[q] !== 2 && this.who[q]! < 0 && !this.taken[q];
  }

  /** The safest free neighbour (walkable, least danger), or -1. */
  escape(p: number): number {
    let best = -1;
    let bestScore = this.danger[p]!;
    for (let d = 0; d < 8; d++) {
      const q = this.step(p, d);
      if (q < 0 || !this.open(q) || this.type[q] === Rock) continue;
      if (this.danger[q]! < bestScore) {
        bestScore = this.danger[q]!;
        best = d;
      }
    }
    return best;
  }

  /**
   * Dijkstra from p (rock costs the hits it still needs, plus the step; troll
   * zones cost extra) and the first step to the best target not claimed yet.
   */
  plan(src: number): number {
    const { dist, first, heap, C, R, N } = this;
    dist.fill(INF);
    let hn = 0;
    const push = (v: number, p: number) => {
      // Binary heap of (dist * N + p).
      let k = hn++;
      const key = v * N + p;
      while (k > 0) {
        const parent = (k - 1) >> 1;
        if (heap[parent]! <= key) break;
        heap[k] = heap[parent]!;
        k = parent;
      }
      heap[k] = key;
    };
    const pop = (): number => {
      const top = heap[0]!;
      const last = heap[--hn]!;
      let k = 0;
      for (;;) {
        let c = 2 * k + 1;
        if (c >= hn) break;
        if (c + 1 < hn && heap[c + 1]! < heap[c]!) c++;
        if (heap[c]! >= last) break;
        heap[k] = heap[c]!;
        k = c;
      }
      if (hn > 0) heap[k] = last;
      return top;
    };
    dist[src] = 0;
    first[src] = -1;
    push(0, src);
    let bestDir = -1;
    let bestValue = INF;
    let bestCell = -1;
    while (hn > 0) {
      const key = pop();
      const v = floor(key / N);
      const p = key - v * N;
      if (v !== dist[p]) continue;
      if (v - 14 >= bestValue) break; // nothing further can beat the best
      if (v > 30) break; // far targets: the shared map below
      if (p !== src && !this.claimed[p]) {
        let value = INF;
        if (this.gold[p]) value = v - 14;
        else if (this.type[p] === Cave && this.owner[p] !== this.mine) value = this.owner[p]! >= 0 ? v - 1 : v;
        if (value < bestValue) {
          bestValue = value;
          bestDir = first[p]!;
          bestCell = p;
        }
      }
      const i = floor(p / C);
      const j = p - i * C;
      for (let d = 0; d < 8; d++) {
        const qi = i + DI[d]!;
        const qj = j + DJ[d]!;
        if (qi < 0 || qj < 0 || qi >= R || qj >= C) continue;
        const q = qi * C + qj;
        const t = this.type[q];
        if (t === Granite || t === Abyss || this.danger[q] === 2) continue;
        let cost = t === Rock ? this.turns[q]! + 1 : 1;
        if (this.danger[q] === 1) cost += 4;
        if (this.who[q]! >= 0) {
          if (p === src) continue; // occupied right now: not a first step
          cost += 2;
        }
        if (p === src && this.taken[q]) continue;
        const nv = v + cost;
        if (nv < dist[q]!) {
          dist[q] = nv;
          first[q] = p === src ? d : first[p]!;
          push(nv, q);
        }
      }
    }
    if (bestCell < 0) return this.downhill(src);
    {
      // Claim the target (and, for plain caves, its surroundings) so mates spread out.
      const r = this.gold[bestCell] ? 0 : 2;
      const bi = floor(bestCell / C);
      const bj = bestCell % C;
      for (let i = bi - r; i <= bi + r; i++)
        for (let j = bj - r; j <= bj + r; j++) if (i >= 0 && j >= 0 && i < R && j < C) this.claimed[i * C + j] = 1;
    }
    return bestDir;
  }

  far: Int32Array | null = null;
  farRound = -1;

  /** One step down a BFS map from every target (computed once per round), for dwarves with nothing near. */
  downhill(src: number): number {
    const { C, R, N } = this;
    if (!this.far || this.farRound !== round()) {
      const dist = (this.far = new Int32Array(N).fill(INF));
      this.farRound = round();
      const queue = new Int32Array(N);
      let tail = 0;
      for (let p = 0; p < N; p++)
        if (this.gold[p] || (this.type[p] === Cave && this.owner[p] !== this.mine)) {
          dist[p] = 0;
          queue[tail++] = p;
        }
      for (let h = 0; h < tail; h++) {
        const p = queue[h]!;
        const i = floor(p / C);
        const j = p - i * C;
        for (let d = 0; d < 8; d++) {
          const qi = i + DI[d]!;
          const qj = j + DJ[d]!;
          if (qi < 0 || qj < 0 || qi >= R || qj >= C) continue;
          const q = qi * C + qj;
          const t = this.type[q];
          if (dist[q] !== INF || t === Granite || t === Abyss || this.danger[q] === 2) continue;
          dist[q] = dist[p]! + 1;
          queue[tail++] = q;
        }
      }
    }
    let best = -1;
    let bestDist = INF;
    for (let d = 0; d < 8; d++) {
      const q = this.step(src, d);
      if (q < 0 || !this.open(q)) continue;
      if (this.far[q]! < bestDist) {
        bestDist = this.far[q]!;
        best = d;
      }
    }
    return best;
  }

  /** A wizard walks (straight only) to stand 4-adjacent to a hurt dwarf of its clan, else to any dwarf. */
  wizardMove(src: number): number {
    const { C, R, N } = this;
    const hurt = new Uint8Array(N);
    let anyHurt = false;
    for (const id of dwarves(this.mine)) {
      const p = this.posOf(id);
      if (p < 0) continue;
      const h = this.uhealth[id]!;
      hurt[p] = h < 100 ? 2 : 1;
      if (h < 100) anyHurt = true;
    }
    const want = anyHurt ? 2 : 1;
    // Already next to one: stay.
    for (let d = 0; d < 8; d += 2) {
      const q = this.step(src, d);
      if (q >= 0 && hurt[q]! >= want) return -1;
    }
    // BFS over walkable cells, 4 directions.
    const seen = new Int8Array(N).fill(-2);
    const queue = new Int32Array(N);
    let tail = 0;
    queue[tail++] = src;
    seen[src] = -1;
    for (let h = 0; h < tail; h++) {
      const p = queue[h]!;
      const i = floor(p / C);
      const j = p - i * C;
      if (p !== src) {
        for (let d = 0; d < 8; d += 2) {
          const qi = i + DI[d]!;
          const qj = j + DJ[d]!;
          if (qi >= 0 && qj >= 0 && qi < R && qj < C && hurt[qi * C + qj]! >= want) return seen[p]!;
        }
      }
      for (let d = 0; d < 8; d += 2) {
        const qi = i + DI[d]!;
        const qj = j + DJ[d]!;
        if (qi < 0 || qj < 0 || qi >= R || qj >= C) continue;
        const q = qi * C + qj;
        const t = this.type[q];
        if (seen[q] !== -2 || (t !== Cave && t !== Outside) || this.danger[q] || this.who[q]! >= 0) continue;
        if (p === src && this.taken[q]) continue;
        seen[q] = p === src ? d : seen[p]!;
        queue[tail++] = q;
      }
    }
    return -1;
  }
}
