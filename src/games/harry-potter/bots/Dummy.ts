/// <reference path="../player.d.ts" />
// Dummy: the qualification bar. A competent player, in the spirit of the
// original AIDummy (its symbols hint at BFS distance maps to enemy ghosts,
// enemy wizards and converting friends):
//  - The ghost solves the spell puzzle (backtracking over triples) and casts
//    it as soon as it may; otherwise it paints cells it does not own yet,
//    keeping away from enemy wizards (an attack makes it rest 15 rounds).
//  - Wizards first rescue a converting friend next to them, then attack a
//    neighbouring enemy wizard when the odds are good (more than twice as
//    strong: a sure conversion; otherwise 30% surprise + proportional odds),
//    and else walk (BFS, one target per wizard) to the best of: a converting
//    friend, a weak enemy wizard, a book, a cell we do not own.
//  - Nobody steps where Voldemort could strike this round.
export const GAME = 'harry-potter';
export const PLAYER_NAME = 'Dummy';

const INF = 1 << 29;
const DI = [1, 1, 0, -1, -1, -1, 0, 1];
const DJ = [0, 1, 1, 1, 0, -1, -1, -1];
const STRAIGHT = [0, 2, 4, 6];
const ALL = [0, 1, 2, 3, 4, 5, 6, 7];
const MAX_DEPTH = 40;

export default class extends Player {
  R = 0;
  C = 0;
  wall = new Uint8Array(0);
  owner = new Int8Array(0);
  book = new Uint8Array(0);
  who = new Int16Array(0);
  /** 2 = deadly (Voldemort's 3x3 now), 1 = Voldemort may reach it after his move, 0 = safe. */
  danger = new Uint8Array(0);
  /** Cells next to an enemy wizard that could attack (for the ghost). */
  exposed = new Uint8Array(0);
  claimed = new Uint8Array(0);
  dist = new Int32Array(0);
  first = new Int8Array(0);
  queue = new Int32Array(0);
  strength: number[] = [];

  play(): void {
    this.readBoard();
    const mine = me();
    const g = ghost(mine);

    // The spell first: only one spell per round, and our own orders keep their order.
    const gu = unit(g);
    if (gu.resting_rounds() === 0 && round() < num_rounds() - 50) {
      const sol = solveSpell(spell_ingredients());
      if (sol) spell(g, sol);
      else this.moveGhost(gu);
    }

    const ws = wizards(mine);
    const used = new Set<number>();

    // 1. Rescue converting friends (moving onto them cancels the conversion).
    for (const id of ws) {
      const u = unit(id);
      if (u.is_in_conversion_process()) continue;
      for (const d of STRAIGHT) {
        const p = this.at(u.pos, d);
        if (p < 0 || this.danger[p] === 2) continue;
        const other = this.who[p]!;
        if (other >= 0 && !used.has(other) && other !== id) {
          const o = unit(other);
          if (o.type === Wizard && o.player === mine && o.is_in_conversion_process()) {
            move(id, d);
            used.add(id);
            used.add(other); // one rescuer is enough
            break;
          }
        }
      }
    }
    // 2. Attacks with good odds.
    for (const id of ws) {
      if (used.has(id)) continue;
      const u = unit(id);
      if (u.is_in_conversion_process()) continue;
      let best = -1;
      let bestOdds = 0.5;
      for (const d of STRAIGHT) {
        const p = this.at(u.pos, d);
        if (p < 0 || this.danger[p] === 2) continue;
        const other = this.who[p]!;
        if (other < 0) continue;
        const odds = this.odds(unit(other));
        if (odds > bestOdds) {
          bestOdds = odds;
          best = d;
        }
      }
      if (best >= 0) {
        move(id, best);
        used.add(id);
      }
    }
    // 3. Everybody else walks to a target.
    this.claimed.fill(0);
    for (const id of ws) {
      if (used.has(id)) continue;
      const d = this.chooseWalk(unit(id));
      if (d >= 0) move(id, d);
    }
    if (!(gu.resting_rounds() === 0 && round() < num_rounds() - 50)) this.moveGhost(gu);
  }

  readBoard(): void {
    const R = (this.R = board_rows());
    const C = (this.C = board_cols());
    const n = R * C;
    if (this.wall.length !== n) {
      this.wall = new Uint8Array(n);
      this.owner = new Int8Array(n);
      this.book = new Uint8Array(n);
      this.who = new Int16Array(n);
      this.danger = new Uint8Array(n);
      this.exposed = new Uint8Array(n);
      this.claimed = new Uint8Array(n);
      this.dist = new Int32Array(n);
      this.first = new Int8Array(n);
      this.queue = new Int32Array(n);
    }
    for (let i = 0; i < R; i++)
      for (let j = 0; j < C; j++) {
        const c = cell(i, j);
        const p = i * C + j;
        this.wall[p] = c.type === Wall ? 1 : 0;
        this.owner[p] = c.owner;
        this.book[p] = c.book ? 1 : 0;
        this.who[p] = c.id;
      }
    // Voldemort: the 3x3 kills at once; after his 4-direction step he kills the 3x3 around
    // his new cell, i.e. (|di| <= 2, |dj| <= 1) or (|di| <= 1, |dj| <= 2).
    this.danger.fill(0);
    const v = pos_voldemort();
    for (let di = -2; di <= 2; di++)
      for (let dj = -2; dj <= 2; dj++) {
        const i = v.i + di;
        const j = v.j + dj;
        if (i < 0 || j < 0 || i >= R || j >= C) continue;
        const a = Math.abs(di);
        const b = Math.abs(dj);
        if (a <= 1 && b <= 1) this.danger[i * C + j] = 2;
        else if (a + b <= 3) this.danger[i * C + j] = 1;
      }
    this.strength = [];
    for (let pl = 0; pl < num_players(); pl++) this.strength.push(magic_strength(pl));
    // Cells an enemy wizard (not converting) could step on this round.
    this.exposed.fill(0);
    const mine = me();
    for (let pl = 0; pl < num_players(); pl++) {
      if (pl === mine) continue;
      for (const id of wizards(pl)) {
        const u = unit(id);
        if (u.is_in_conversion_process()) continue;
        for (const d of STRAIGHT) {
          const p = this.at(u.pos, d);
          if (p >= 0) this.exposed[p] = 1;
        }
      }
    }
  }

  /** Index of pos + d, or -1 outside the board or on a wall. */
  at(pos: Pos, d: number): number {
    const i = pos.i + DI[d]!;
    const j = pos.j + DJ[d]!;
    if (i < 0 || j < 0 || i >= this.R || j >= this.C) return -1;
    const p = i * this.C + j;
    return this.wall[p] ? -1 : p;
  }

  /** Chance that our attack on this unit converts it (0 if it is not an attackable enemy wizard). */
  odds(e: Unit): number {
    const mine = me();
    if (e.type !== Wizard || e.player === mine || e.is_in_conversion_process()) return 0;
    const s1 = this.strength[mine]!;
    const s2 = this.strength[e.player]!;
    if (s1 > 2 * s2) return 1;
    if (s2 > 2 * s1) return 0;
    const fair = s1 + s2 === 0 ? 0.5 : s1 / (s1 + s2);
    return 30 / 101 + (71 / 101) * fair;
  }

  /** BFS from the wizard; picks the best unclaimed target and returns the first step (or -1). */
  chooseWalk(u: Unit): number {
    const C = this.C;
    const mine = me();
    const start = u.pos.i * C + u.pos.j;
    const dist = this.dist;
    const first = this.first;
    const queue = this.queue;
    dist.fill(INF);
    dist[start] = 0;
    first[start] = -1;
    let head = 0;
    let tail = 0;
    queue[tail++] = start;
    const converting = u.is_in_conversion_process();
    let best = -1;
    let bestScore = -INF;
    while (head < tail) {
      const p = queue[head++]!;
      const dp = dist[p]!;
      // Value of p as a target.
      if (p !== start) {
        let value = 0;
        const other = this.who[p]!;
        if (other >= 0) {
          const o = unit(other);
          if (o.type === Wizard && o.player === mine && o.is_in_conversion_process() && !converting) {
            if (dp <= o.rounds_pending) value = 90;
          } else if (!converting && o.type === Wizard && o.player !== mine) {
            const odds = this.odds(o);
            if (odds > 0.55) value = 25 + 60 * (odds - 0.5);
          }
        } else if (this.book[p]) value = 40;
        else if (this.owner[p] !== mine) value = 6;
        if (value > 0 && !this.claimed[p]) {
          const score = value - 2.5 * dp;
          if (score > bestScore) {
            bestScore = score;
            best = p;
          }
        }
      }
      if (dp >= MAX_DEPTH || (best >= 0 && bestScore > 90 - 2.5 * dp)) continue;
      for (let k = 0; k < 4; k++) {
        const d = STRAIGHT[k]!;
        const i = Math.floor(p / C) + DI[d]!;
        const j = (p % C) + DJ[d]!;
        if (i < 0 || j < 0 || i >= this.R || j >= C) continue;
        const q = i * C + j;
        if (this.wall[q] || dist[q] !== INF || this.danger[q]) continue;
        dist[q] = dp + 1;
        first[q] = p === start ? d : first[p]!;
        // Units block the way, but they are still worth reaching as targets.
        if (this.who[q]! >= 0) {
          const o = unit(this.who[q]!);
          if (q !== start) {
            // Evaluate the occupied cell as a target without expanding through it.
            let value = 0;
            if (o.type === Wizard && o.player === mine && o.is_in_conversion_process() && !converting) {
              if (dp + 1 <= o.rounds_pending) value = 90;
            } else if (!converting && o.type === Wizard && o.player !== mine) {
              const od = this.odds(o);
              if (od > 0.55) value = 25 + 60 * (od - 0.5);
            }
            if (value > 0 && !this.claimed[q] && value - 2.5 * (dp + 1) > bestScore) {
              bestScore = value - 2.5 * (dp + 1);
              best = q;
            }
          }
          continue;
        }
        queue[tail++] = q;
      }
    }
    if (best >= 0) {
      this.claimed[best] = 1;
      const d = first[best]!;
      // Stepping onto the target itself is an attack or a rescue: handled above for neighbours only.
      const p = this.at(u.pos, d);
      if (p >= 0 && this.who[p]! >= 0 && best === p) return -1;
      return d;
    }
    // Nothing reachable: get out of danger if needed.
    for (const d of STRAIGHT) {
      const p = this.at(u.pos, d);
      if (p >= 0 && this.who[p]! < 0 && !this.danger[p]) return d;
    }
    return -1;
  }

  moveGhost(g: Unit): void {
    // 8-direction BFS to the nearest cell we do not own (books count double), avoiding danger
    // and the cells enemy wizards can reach.
    const C = this.C;
    const mine = me();
    const start = g.pos.i * C + g.pos.j;
    const dist = this.dist;
    const first = this.first;
    const queue = this.queue;
    dist.fill(INF);
    dist[start] = 0;
    let head = 0;
    let tail = 0;
    queue[tail++] = start;
    let best = -1;
    let bestScore = -INF;
    while (head < tail) {
      const p = queue[head++]!;
      const dp = dist[p]!;
      if (p !== start && !this.claimed[p]) {
        const value = this.book[p] ? 12 : this.owner[p] !== mine ? 6 : 0;
        if (value > 0 && value - 2 * dp > bestScore) {
          bestScore = value - 2 * dp;
          best = p;
        }
      }
      if (dp >= MAX_DEPTH || best >= 0) continue;
      for (const d of ALL) {
        const i = Math.floor(p / C) + DI[d]!;
        const j = (p % C) + DJ[d]!;
        if (i < 0 || j < 0 || i >= this.R || j >= C) continue;
        const q = i * C + j;
        if (this.wall[q] || dist[q] !== INF || this.danger[q] || this.who[q]! >= 0 || this.exposed[q]) continue;
        dist[q] = dp + 1;
        first[q] = p === start ? d : first[p]!;
        queue[tail++] = q;
      }
    }
    if (best >= 0) {
      this.claimed[best] = 1;
      move(g.id, first[best]!);
      return;
    }
    for (const d of ALL) {
      const p = this.at(g.pos, d);
      if (p >= 0 && this.who[p]! < 0 && !this.danger[p]) {
        move(g.id, d);
        return;
      }
    }
  }
}

/** The spell: groups of 3 ingredients with equal sums, labelled 0..4 (backtracking). */
function solveSpell(v: number[]): number[] | null {
  const n = v.length;
  if (n % 3 !== 0) return null;
  const parts = n / 3;
  let total = 0;
  for (const x of v) total += x;
  if (total % parts !== 0) return null;
  const target = total / parts;
  const label: number[] = new Array<number>(n).fill(-1);
  const rec = (group: number): boolean => {
    if (group === parts) return true;
    const a = label.indexOf(-1);
    label[a] = group;
    for (let b = a + 1; b < n; b++) {
      if (label[b] !== -1 || v[a]! + v[b]! > target) continue;
      label[b] = group;
      for (let c = b + 1; c < n; c++) {
        if (label[c] !== -1 || v[a]! + v[b]! + v[c]! !== target) continue;
        label[c] = group;
        if (rec(group + 1)) return true;
        label[c] = -1;
      }
      label[b] = -1;
    }
    label[a] = -1;
    return false;
  };
  return rec(0) ? label : null;
}
