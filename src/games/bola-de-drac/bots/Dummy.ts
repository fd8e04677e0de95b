/// <reference path="../player.d.ts" />
// Bola de Drac: the qualification bar, playing as the original game's dummy
// player does (observed from its object file and its matches, FIDELITY.md).
// Each round: one time in four a random step; a goku ahead of everybody on
// deposited balls wanders at random; a goku too weak to pay the movement
// penalty walks to the nearest magic bean; a goku with a ball walks to the
// nearest capsule; otherwise it hunts the nearest goku carrying a ball, else
// walks to the nearest free ball, else steps at random. "Nearest" is by a
// breadth-first search where only rocks block (other gokus do not: walking
// into one is a fight), neighbours in the order Top, Bottom, Left, Right. It
// never throws a Kame Hame, and asks for its move every round, even when the
// rules will not let it act.
//
// As cheap as the native dummy, with the same decisions as the
// plain search (test/fixtures/bots/reference/bola-de-drac/Dummy.ts). A breadth-first
// search that visits neighbours in DIRS order and stops at the first goal it
// takes from its queue steps first in the earliest direction of DIRS whose
// neighbour is one step nearer to the nearest goal (its queue holds each
// distance's cells grouped by first step, in DIRS order). So one search from
// all the goals at once, a distance field, answers from every start, and a
// field is kept while its goals stay the same: the capsules never move, the
// balls and the beans seldom do. Rocks and capsules never change in a match:
// they are read once, not every round; the balls are followed from round to
// round (`ballCells`), the beans read at their spots.

export const GAME = 'bola-de-drac';
export const PLAYER_NAME = 'Dummy';

/** Search and random-step order. */
const DIRS: Dir[] = [Dir.Top, Dir.Bottom, Dir.Left, Dir.Right];
const DI = [0, -1, 1, 0, 0];
const DJ = [0, 0, 0, -1, 1];
/** A field's distance for a cell no goal can be reached from. */
const FAR = 0x7fffffff;

/** The distances from every cell to its nearest goal, for one set of goals. */
class Field {
  /** The goals (cell indices) the distances were computed for. */
  goals: number[] = [];
  valid = false;
  readonly dist: Int32Array;
  constructor(n: number) {
    this.dist = new Int32Array(n);
  }
}

export default class extends Player {
  R = 0;
  C = 0;
  /** The round last played, to notice another board (a test may feed another match's state). */
  last = -1;
  /** The cells' neighbours in DIRS order (-1 off the board or on a rock: rocks never change), four per cell. */
  next = new Int32Array(0);
  capsules: number[] = [];
  /** Cells a bean can be on (its spots, and the Bean cells of the first read). */
  beanSpots: number[] = [];
  /**
   * The free balls on the board. A ball is placed (at random) only when a
   * ball leaves the board or a carrier loses its own, so the balls on the
   * board plus the carried ones never grow: when the known balls still in
   * place plus the carriers make the total counted at the last full read
   * (`ballTotal`), there is no ball anywhere else, and no cell to read.
   */
  ballCells: number[] = [];
  ballTotal = 0;
  queue = new Int32Array(0);
  capsuleField = new Field(0);
  beanField = new Field(0);
  ballField = new Field(0);
  carrierField = new Field(0);
  goals: number[] = [];

  play(): void {
    const id = me();
    const g = goku(id);
    if (random(0, 3) === 0) return this.randomStep();
    let most = 0;
    for (let p = 0; p < nb_players(); p++) if (p !== id) most = Math.max(most, goku(p).balls);
    if (g.balls > most) return this.randomStep();

    this.board();
    const C = this.C;
    const from = g.pos.i * C + g.pos.j;
    const goals = this.goals;
    goals.length = 0;
    if (g.strength < moving_penalty()) {
      for (const k of this.beanSpots) if (cell(Math.floor(k / C), k % C).type === CType.Bean) goals.push(k);
      if (goals.length) this.walk(from, this.field(this.beanField, goals));
      return;
    }
    if (has_ball(g.type)) {
      if (this.capsules.length) this.walk(from, this.field(this.capsuleField, this.capsules));
      return;
    }
    for (let p = 0; p < nb_players(); p++) {
      const x = goku(p);
      if (p !== id && x.alive && has_ball(x.type)) goals.push(x.pos.i * C + x.pos.j);
    }
    if (goals.length && this.walk(from, this.field(this.carrierField, goals))) return;
    this.followBalls();
    if (this.ballCells.length && this.walk(from, this.field(this.ballField, this.ballCells))) return;
    this.randomStep();
  }

  randomStep(): void {
    move(DIRS[random(0, 3)]!);
  }

  /** Reads the board's rocks, capsules, bean spots and balls on the first round that needs them (and again on another board). */
  board(): void {
    const R = rows();
    const C = cols();
    const r = round();
    const same = this.R === R && this.C === C && r > this.last;
    this.last = r;
    if (same) return;
    this.R = R;
    this.C = C;
    const n = R * C;
    const rock = new Uint8Array(n);
    const bean = new Uint8Array(n);
    this.next = new Int32Array(4 * n);
    this.queue = new Int32Array(n);
    this.capsules = [];
    this.beanSpots = [];
    this.ballCells = [];
    this.capsuleField = new Field(n);
    this.beanField = new Field(n);
    this.ballField = new Field(n);
    this.carrierField = new Field(n);
    for (const b of beans()) bean[b.pos.i * C + b.pos.j] = 1;
    for (let i = 0; i < R; i++) {
      for (let j = 0; j < C; j++) {
        const k = i * C + j;
        const t = cell(i, j).type;
        if (t === CType.Rock) rock[k] = 1;
        else if (t === CType.Capsule) this.capsules.push(k);
        else if (t === CType.Ball) this.ballCells.push(k);
        else if (t === CType.Bean) bean[k] = 1;
      }
    }
    for (let k = 0; k < n; k++) if (bean[k]) this.beanSpots.push(k);
    for (let k = 0; k < n; k++) {
      const i = Math.floor(k / C);
      const j = k % C;
      for (let x = 0; x < 4; x++) {
        const ni = i + DI[DIRS[x]!]!;
        const nj = j + DJ[DIRS[x]!]!;
        this.next[4 * k + x] = ni < 0 || nj < 0 || ni >= R || nj >= C || rock[ni * C + nj] ? -1 : ni * C + nj;
      }
    }
    this.ballTotal = this.ballCells.length + this.carried();
  }

  /** Gokus carrying a ball, this round. */
  carried(): number {
    let n = 0;
    for (let p = 0; p < nb_players(); p++) if (has_ball(goku(p).type)) n++;
    return n;
  }

  /** Brings `balls` up to date: the known ones still in place, and a full read only when a ball may be elsewhere. */
  followBalls(): void {
    const { C, ballCells: balls } = this;
    let kept = 0;
    for (let x = 0; x < balls.length; x++) {
      const k = balls[x]!;
      if (cell(Math.floor(k / C), k % C).type === CType.Ball) balls[kept++] = k;
    }
    balls.length = kept;
    const carried = this.carried();
    if (kept + carried === this.ballTotal) return;
    balls.length = 0;
    for (let i = 0; i < this.R; i++) for (let j = 0; j < C; j++) if (cell(i, j).type === CType.Ball) balls.push(i * C + j);
    this.ballTotal = balls.length + carried;
  }

  /** `f` with its distances to `goals` (a breadth-first search from all of them, rocks blocking), searched again only when the goals changed. */
  field(f: Field, goals: readonly number[]): Field {
    if (f.valid && f.goals.length === goals.length) {
      let same = true;
      for (let x = 0; x < goals.length && same; x++) same = f.goals[x] === goals[x];
      if (same) return f;
    }
    f.goals = goals.slice();
    f.valid = true;
    const { dist } = f;
    const { queue, next } = this;
    dist.fill(FAR);
    let tail = 0;
    for (const k of goals) {
      if (dist[k] !== 0) queue[tail++] = k;
      dist[k] = 0;
    }
    for (let head = 0; head < tail; head++) {
      const k = queue[head]!;
      const d = dist[k]! + 1;
      for (let x = 4 * k; x < 4 * k + 4; x++) {
        const m = next[x]!;
        if (m >= 0 && dist[m] === FAR) {
          dist[m] = d;
          queue[tail++] = m;
        }
      }
    }
    return f;
  }

  /**
   * One step from `from` towards the nearest goal of `f`, the step a
   * breadth-first search from `from` takes (the header): Dir.None on a goal,
   * else the first direction of DIRS to a neighbour nearest to a goal. False
   * when no goal can be reached.
   */
  walk(from: number, f: Field): boolean {
    const { dist } = f;
    if (dist[from] === 0) {
      move(Dir.None);
      return true;
    }
    let best = FAR;
    let step = -1;
    for (let x = 0; x < 4; x++) {
      const m = this.next[4 * from + x]!;
      if (m >= 0 && dist[m]! < best) {
        best = dist[m]!;
        step = x;
      }
    }
    if (step < 0) return false;
    move(DIRS[step]!);
    return true;
  }
}
