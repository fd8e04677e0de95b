/// <reference path="../player.d.ts" />
// Bola de Drac: the qualification bar, playing as the original game's dummy
// player does (observed from its object file and its matches, FIDELITY.md).
// Each round: one time in four a random step; a goku ahead of everybody on
// deposited balls wanders at random; a goku too weak to pay the movement
// penalty walks to the nearest magic bean; a goku with a ball walks to the
// nearest capsule; otherwise it hunts the nearest goku carrying a ball, else
// walks to the nearest free ball, else steps at random. "Nearest" is by a
// breadth-first search where only rocks block (other gokus do not: walking
// into one is a fight). It never throws a Kame Hame, and asks for its move
// every round, even when the rules will not let it act.

export const GAME = 'bola-de-drac';
export const PLAYER_NAME = 'Dummy';

/** Search and random-step order. */
const DIRS: Dir[] = [Dir.Top, Dir.Bottom, Dir.Left, Dir.Right];
const DI = [0, -1, 1, 0, 0];
const DJ = [0, 0, 0, -1, 1];

export default class extends Player {
  R = 0;
  C = 0;
  /** CType per cell, this round. */
  grid = new Int8Array(0);
  /** Goku id per cell (alive gokus), -1 elsewhere. */
  who = new Int8Array(0);
  queue = new Int32Array(0);
  /** First step (a Dir) from the start to each visited cell; -1 = not visited. */
  first = new Int8Array(0);
  goal = new Uint8Array(0);

  play(): void {
    const id = me();
    const g = goku(id);
    if (random(0, 3) === 0) return this.randomStep();
    let most = 0;
    for (let p = 0; p < nb_players(); p++) if (p !== id) most = Math.max(most, goku(p).balls);
    if (g.balls > most) return this.randomStep();

    this.read();
    const from = g.pos.i * this.C + g.pos.j;
    this.goal.fill(0);
    if (g.strength < moving_penalty()) {
      if (this.mark((k) => this.grid[k] === CType.Bean)) this.walk(from);
      return;
    }
    if (has_ball(g.type)) {
      if (this.mark((k) => this.grid[k] === CType.Capsule)) this.walk(from);
      return;
    }
    const carrier = (k: number) => {
      const p = this.who[k]!;
      return p >= 0 && p !== id && has_ball(goku(p).type);
    };
    if (this.mark(carrier) && this.walk(from)) return;
    this.goal.fill(0);
    if (this.mark((k) => this.grid[k] === CType.Ball) && this.walk(from)) return;
    this.randomStep();
  }

  randomStep(): void {
    move(DIRS[random(0, 3)]!);
  }

  /** Copies the board into typed arrays. */
  read(): void {
    const R = rows();
    const C = cols();
    if (this.R !== R || this.C !== C) {
      this.R = R;
      this.C = C;
      this.grid = new Int8Array(R * C);
      this.who = new Int8Array(R * C);
      this.queue = new Int32Array(R * C);
      this.first = new Int8Array(R * C);
      this.goal = new Uint8Array(R * C);
    }
    for (let i = 0; i < R; i++) {
      for (let j = 0; j < C; j++) {
        const c = cell(i, j);
        this.grid[i * C + j] = c.type;
        this.who[i * C + j] = c.id;
      }
    }
  }

  /** Marks the goal cells; false if there is none. */
  mark(is: (k: number) => boolean): boolean {
    let any = false;
    for (let k = 0; k < this.grid.length; k++) {
      if (is(k)) {
        this.goal[k] = 1;
        any = true;
      }
    }
    return any;
  }

  /**
   * Breadth-first search from `from` (neighbours in DIRS order, rocks block)
   * to the first goal cell taken from the queue, the start included; moves
   * one step along the way found (Dir.None if the goal is the start). False
   * when no goal can be reached.
   */
  walk(from: number): boolean {
    const { R, C, grid, goal, queue, first } = this;
    first.fill(-1);
    first[from] = Dir.None;
    let head = 0;
    let tail = 0;
    queue[tail++] = from;
    while (head < tail) {
      const k = queue[head++]!;
      if (goal[k]) {
        move(first[k] as Dir);
        return true;
      }
      const i = Math.floor(k / C);
      const j = k % C;
      for (const d of DIRS) {
        const ni = i + DI[d]!;
        const nj = j + DJ[d]!;
        if (ni < 0 || nj < 0 || ni >= R || nj >= C) continue;
        const n = ni * C + nj;
        if (first[n] !== -1 || grid[n] === CType.Rock) continue;
        first[n] = k === from ? d : first[k]!;
        queue[tail++] = n;
      }
    }
    return false;
  }
}
