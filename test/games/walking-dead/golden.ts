// Canonical text of a Walking Dead state for golden traces: what the original
// engine (mostazomarc/joc_eda, Board::print_state) prints for every state,
// except the players' CPU status, which Arbiter does not keep in the state.
//
//   round R
//   60 grid rows: W waste, 0-3 owner, . none
//   units N, then one line per unit in id order: type id player row column rounds
//   food N, then one line per food item in row-major order: row column
//   score / scr_acc / strength, one value per player

import type { TwdState } from '../../../src/games/walking-dead/engine.ts';

const TYPE_CHAR = ['a', 'd', 'z'];

function canonical(round: number, grid: string[], units: string[], food: string[], score: string[], acc: string[], strength: string[]): string {
  return [
    `round ${round}`,
    ...grid,
    `units ${units.length}`,
    ...units,
    `food ${food.length}`,
    ...food,
    `score ${score.join(' ')}`,
    `scr_acc ${acc.join(' ')}`,
    `strength ${strength.join(' ')}`,
    '',
  ].join('\n');
}

/** Every state of an original output file (.res), round 0 first. */
export function originalStates(resText: string): string[] {
  const lines = resText.split('\n').map((l) => l.replace(/\r$/, ''));
  const out: string[] = [];
  let k = 0;
  const fields = (l: string | undefined): string[] =>
    (l ?? '')
      .trim()
      .split(/\s+/)
      .filter((x) => x !== '');
  const expect = (key: string): string[] => {
    while (k < lines.length && lines[k]!.trim() === '') k++;
    const f = fields(lines[k++]);
    if (f[0] !== key) throw new Error(`line ${k}: expected "${key}", got ${JSON.stringify(lines[k - 1])}`);
    return f.slice(1);
  };
  while (k < lines.length) {
    // A state starts with the two column-label lines.
    if (!/^ {3}\d+$/.test(lines[k]!) || !/^ {3}\d+$/.test(lines[k + 1] ?? '')) {
      k++;
      continue;
    }
    k += 2;
    const grid: string[] = [];
    while (k < lines.length && /^\d\d /.test(lines[k]!)) grid.push(lines[k++]!.slice(3));
    const nu = Number(expect('units')[0] ?? fields(lines[k++])[0]);
    const units: string[] = [];
    if (fields(lines[k])[0] === 'type') k++;
    for (let u = 0; u < nu; u++) units.push(fields(lines[k++]).join(' '));
    expect('food');
    const nf = Number(fields(lines[k++])[0]);
    if (fields(lines[k])[0] === 'row') k++;
    const food: string[] = [];
    for (let f = 0; f < nf; f++) food.push(fields(lines[k++]).join(' '));
    const round = Number(expect('round')[0]);
    const score = expect('score');
    const acc = expect('scr_acc');
    const strength = expect('strength');
    out.push(canonical(round, grid, units, food, score, acc, strength));
  }
  return out;
}

/** The same text from Arbiter's engine state. */
export function arbiterState(s: TwdState): string {
  const { rows, cols } = s;
  const grid: string[] = [];
  for (let i = 0; i < rows; i++) {
    let row = '';
    for (let j = 0; j < cols; j++) {
      const c = i * cols + j;
      row += s.waste[c] ? 'W' : s.owner[c]! >= 0 ? String(s.owner[c]) : '.';
    }
    grid.push(row);
  }
  const units: string[] = [];
  for (let u = 0; u < s.uType.length; u++) {
    const p = s.uPos[u]!;
    const [i, j] = p < 0 ? [-1, -1] : [Math.floor(p / cols), p % cols];
    units.push(`${TYPE_CHAR[s.uType[u]!]} ${u} ${s.uPlayer[u]} ${i} ${j} ${s.uRfz[u]}`);
  }
  const food: string[] = [];
  for (let c = 0; c < s.food.length; c++) if (s.food[c]) food.push(`${Math.floor(c / cols)} ${c % cols}`);
  const np = s.cfg.num_players;
  const arr = (a: Int32Array) => Array.from(a.subarray(0, np), String);
  return canonical(s.round, grid, units, food, arr(s.score), arr(s.scrAcc), arr(s.points));
}
