// Boards in the format of the original game's .cnf files (2012,
// hecrj/bola-de-drac): an optional preamble of `key value` lines (`boladedrac v1`,
// nb_players ... cols, `names a b c d`), then `round N`, the rows of the maze
// (X rock, . empty, C capsule, B ball; the border all rock), `beans` and
// `kintons` with one `i j y|n time` line each, and one line per goku:
// `type i j time a|d balls strength kinton [status]`, type one of normal,
// on_kinton, with_ball, on_kinton_with_ball. The checks are those the original
// engine makes when it reads a board. Pure: no Node APIs.

import { CType, MATCH_PARAMS } from './consts.ts';

export interface CnfItem {
  i: number;
  j: number;
  present: boolean;
  time: number;
}

export interface CnfGoku {
  i: number;
  j: number;
  ball: boolean;
  kinton: number;
  alive: boolean;
  time: number;
  balls: number;
  strength: number;
}

export interface Cnf {
  /** The integer parameters of the preamble (only those written). */
  params: Record<string, number>;
  round: number;
  rows: number;
  cols: number;
  /** CType per cell, row-major; beans and kintons that are present drawn as Bean / Kinton. */
  grid: Uint8Array;
  capsules: number;
  /** Free balls plus balls carried. */
  balls: number;
  beans: CnfItem[];
  kintons: CnfItem[];
  gokus: CnfGoku[];
}

/** The parameters of a .cnf file, in the order the original prints them. */
const PARAM_ORDER: readonly string[] = [...MATCH_PARAMS, 'rows', 'cols'];
const PARAM_KEYS = new Set(PARAM_ORDER);

const GOKU_TYPES: Record<string, [ball: boolean, kinton: boolean]> = {
  normal: [false, false],
  on_kinton: [false, true],
  with_ball: [true, false],
  on_kinton_with_ball: [true, true],
};

/** Reads a .cnf board token by token, part by part; each part checks what it reads and says what is wrong, where. */
class CnfReader {
  private readonly tok: string[];
  private at = 0;

  constructor(text: string) {
    this.tok = text.split(/\s+/).filter((t) => t !== '');
  }

  peek(): string | undefined {
    return this.tok[this.at];
  }

  take(what: string): string {
    const t = this.tok[this.at++];
    if (t === undefined) throw new Error(`the board ends where ${what} was expected`);
    return t;
  }

  int(what: string): number {
    const t = this.take(what);
    if (!/^-?\d+$/.test(t)) throw new Error(`${what}: expected an integer, got "${t.slice(0, 20)}"`);
    return Number(t);
  }

  /** Words not read yet. */
  left(): number {
    return this.tok.length - this.at;
  }

  /** The preamble up to "round": the version, the names, the match's parameters. */
  params(): Record<string, number> {
    const params: Record<string, number> = {};
    while (this.peek() !== undefined && this.peek() !== 'round') {
      const key = this.take('a parameter');
      if (key === 'boladedrac') {
        const v = this.take('the version');
        if (v !== 'v1') throw new Error(`version ${v}: only boladedrac v1 boards are known`);
      } else if (key === 'names') {
        for (let p = 0; p < 4 && this.peek() !== undefined && this.peek() !== 'round'; p++) this.take('a name');
      } else if (PARAM_KEYS.has(key)) {
        params[key] = this.int(key);
      } else throw new Error(`unknown key "${key.slice(0, 20)}" before "round"`);
    }
    return params;
  }

  /** "round N". */
  round(): number {
    if (this.take('"round"') !== 'round') throw new Error('"round" expected');
    const round = this.int('round');
    if (round < 0) throw new Error('round must not be negative');
    return round;
  }

  /** The maze: rows x cols characters when the preamble says so, else one token per row up to "beans". */
  maze(params: Record<string, number>): Maze {
    const rowsText: string[] = [];
    if (params['rows'] !== undefined && params['cols'] !== undefined) {
      const need = params['rows'] * params['cols'];
      let chars = '';
      while (chars.length < need) chars += this.take('a row of the maze');
      if (chars.length !== need) throw new Error('the maze does not have rows x cols cells');
      for (let i = 0; i < params['rows']; i++) rowsText.push(chars.slice(i * params['cols'], (i + 1) * params['cols']));
    } else {
      while (this.peek() !== undefined && this.peek() !== 'beans') rowsText.push(this.take('a row'));
    }
    const rows = rowsText.length;
    const cols = rows ? rowsText[0]!.length : 0;
    if (rows < 3 || cols < 3) throw new Error('the maze must have at least 3 rows and 3 columns');
    const grid = new Uint8Array(rows * cols);
    let capsules = 0;
    let freeBalls = 0;
    for (let i = 0; i < rows; i++) {
      const line = rowsText[i]!;
      if (line.length !== cols) throw new Error(`row ${i} has ${line.length} cells, expected ${cols}`);
      for (let j = 0; j < cols; j++) {
        const c = line[j]!.toUpperCase();
        const t = c === '.' ? CType.Empty : c === 'X' ? CType.Rock : c === 'C' ? CType.Capsule : c === 'B' ? CType.Ball : -1;
        if (t < 0) throw new Error(`row ${i}: unknown cell "${line[j]}" (X . C B)`);
        if ((i === 0 || j === 0 || i === rows - 1 || j === cols - 1) && t !== CType.Rock) throw new Error(`cell (${i},${j}): the border must be rock`);
        if (t === CType.Capsule) capsules++;
        if (t === CType.Ball) freeBalls++;
        grid[i * cols + j] = t;
      }
    }
    return { rows, cols, grid, capsules, freeBalls };
  }

  /** The beans or the kintons: count lines, or lines up to the word stop() accepts; present ones are drawn on the maze. */
  items(what: 'beans' | 'kintons', stop: (t: string | undefined) => boolean, count: number | undefined, maze: Maze, spot: Set<number>): CnfItem[] {
    const { rows, cols, grid } = maze;
    if (this.take(`"${what}"`) !== what) throw new Error(`"${what}" expected`);
    const out: CnfItem[] = [];
    while (count !== undefined ? out.length < count : !stop(this.peek())) {
      const i = this.int(`${what} row`);
      const j = this.int(`${what} column`);
      const c = this.take(`${what} y|n`);
      const time = this.int(`${what} time`);
      if (i < 0 || i >= rows || j < 0 || j >= cols) throw new Error(`${what} (${i},${j}) is off the board`);
      if (c !== 'y' && c !== 'n') throw new Error(`${what} (${i},${j}): y or n expected`);
      if (time < 0) throw new Error(`${what} (${i},${j}): negative time`);
      const k = i * cols + j;
      if (grid[k] !== CType.Empty || spot.has(k)) throw new Error(`${what} (${i},${j}) is not on a free empty cell`);
      spot.add(k);
      const present = c === 'y';
      if (present && time > 0) throw new Error(`${what} (${i},${j}): present with a regeneration time`);
      if (present) grid[k] = what === 'beans' ? CType.Bean : CType.Kinton;
      out.push({ i, j, present, time });
    }
    return out;
  }

  /** The four goku lines (with or without the status word), and how many balls they carry. */
  gokus(maze: Maze): { gokus: CnfGoku[]; carried: number } {
    const { rows, cols, grid } = maze;
    const rest = this.left();
    const perGoku = rest === 36 ? 9 : rest === 32 ? 8 : 0;
    if (!perGoku) throw new Error(`4 goku lines expected after the kintons (type i j time a|d balls strength kinton [status]), found ${rest} words`);
    const gokus: CnfGoku[] = [];
    const occupied = new Set<number>();
    let carried = 0;
    for (let p = 0; p < 4; p++) {
      const type = this.take('a goku type');
      const kind = Object.hasOwn(GOKU_TYPES, type) ? GOKU_TYPES[type] : undefined;
      if (!kind) throw new Error(`goku ${p}: unknown type "${type.slice(0, 20)}"`);
      const i = this.int('goku row');
      const j = this.int('goku column');
      const time = this.int('goku time');
      const state = this.take('goku a|d');
      const balls = this.int('goku balls');
      const strength = this.int('goku strength');
      const kinton = this.int('goku kinton');
      if (perGoku === 9) this.take('goku status');
      if (i < 0 || i >= rows || j < 0 || j >= cols) throw new Error(`goku ${p} (${i},${j}) is off the board`);
      if (state !== 'a' && state !== 'd') throw new Error(`goku ${p}: a or d expected`);
      if (time < 0 || balls < 0 || strength < 0 || kinton < 0) throw new Error(`goku ${p}: negative value`);
      if (kind[1] !== kinton > 0) throw new Error(`goku ${p}: type ${type} with kinton ${kinton}`);
      const alive = state === 'a';
      const k = i * cols + j;
      if (alive) {
        const t = grid[k];
        if (!(t === CType.Empty || t === CType.Capsule || (t === CType.Ball && kind[0]))) throw new Error(`goku ${p} stands on a cell it cannot be on`);
        if (t === CType.Capsule && kind[0]) throw new Error(`goku ${p} stands on a capsule with a ball`);
        if (occupied.has(k)) throw new Error(`goku ${p} shares its cell`);
        if (time !== 0) throw new Error(`goku ${p} is alive with a regeneration time`);
        occupied.add(k);
      } else if (kind[0] || kind[1] || strength !== 0) {
        throw new Error(`goku ${p} is dead: it must be normal, with strength 0 and no kinton`);
      }
      if (kind[0]) carried++;
      gokus.push({ i, j, ball: kind[0], kinton, alive, time, balls, strength });
    }
    return { gokus, carried };
  }
}

/** The maze part of a board. */
interface Maze {
  rows: number;
  cols: number;
  grid: Uint8Array;
  capsules: number;
  freeBalls: number;
}

export function parseCnf(text: string): Cnf {
  const r = new CnfReader(text);
  const params = r.params();
  const round = r.round();
  const maze = r.maze(params);
  const { rows, cols, grid, capsules } = maze;
  const spot = new Set<number>();
  const beans = r.items('beans', (t) => t === 'kintons' || t === undefined, params['nb_beans'], maze, spot);
  const kintons = r.items('kintons', (t) => t === undefined || Object.hasOwn(GOKU_TYPES, t), params['nb_kintons'], maze, spot);
  const { gokus, carried } = r.gokus(maze);
  if (params['nb_capsules'] !== undefined && params['nb_capsules'] !== capsules)
    throw new Error(`nb_capsules ${params['nb_capsules']} but the maze has ${capsules}`);
  if (capsules < 1) throw new Error('the maze needs a capsule');
  const balls = maze.freeBalls + carried;
  if (params['nb_balls'] !== undefined && params['nb_balls'] !== balls) throw new Error(`nb_balls ${params['nb_balls']} but the board has ${balls}`);
  if (balls < 1) throw new Error('the board needs a ball');
  return { params, round, rows, cols, grid, capsules, balls, beans, kintons, gokus };
}

/** What cnfText prints: the parameters, and the board. */
export interface CnfSource {
  params: Record<string, number>;
  names?: string[];
  round: number;
  rows: number;
  cols: number;
  grid: Uint8Array;
  beans: CnfItem[];
  kintons: CnfItem[];
  gokus: CnfGoku[];
}

/** A board as the original reads it (status 0 for every goku). */
export function cnfText(src: CnfSource): string {
  const out: string[] = ['boladedrac v1'];
  for (const key of PARAM_ORDER) if (src.params[key] !== undefined) out.push(`${key} ${src.params[key]}`);
  out.push(`names ${(src.names ?? ['?', '?', '?', '?']).join(' ')}`);
  out.push(`round ${src.round}`);
  for (let i = 0; i < src.rows; i++) {
    let line = '';
    for (let j = 0; j < src.cols; j++) {
      const t = src.grid[i * src.cols + j]!;
      line += t === CType.Rock ? 'X' : t === CType.Capsule ? 'C' : t === CType.Ball ? 'B' : '.';
    }
    out.push(line);
  }
  out.push('beans');
  for (const b of src.beans) out.push(`${b.i} ${b.j} ${b.present ? 'y' : 'n'} ${b.time}`);
  out.push('kintons');
  for (const b of src.kintons) out.push(`${b.i} ${b.j} ${b.present ? 'y' : 'n'} ${b.time}`);
  for (const g of src.gokus) {
    const type = g.kinton > 0 ? (g.ball ? 'on_kinton_with_ball' : 'on_kinton') : g.ball ? 'with_ball' : 'normal';
    out.push(`${type} ${g.i} ${g.j} ${g.time} ${g.alive ? 'a' : 'd'} ${g.balls} ${g.strength} ${g.kinton} 0`);
  }
  return out.join('\n') + '\n';
}
