// The canonical text of a Moria state, for golden traces: what the original
// engine prints for every state (Board::print_state of the original package,
// repository alvaroarino/JOC-EDA-2019-2020, folder game19/, Board.o), minus
// the CPU `status` line, which a local run of the original always prints as
// zeros.
//
//   one line per grid row: O outside, C cave, T treasure, 0-3 owned cave,
//     G granite, A abyss, R rock, a.. rock with 1.. hits left
//   round r / nb_cells ... / nb_treasures ...
//   one line per unit id: type(d|w|o|t|b) player row column health

import { gridString } from '../../../src/games/moria/index.ts';
import type { MoriaState } from '../../../src/games/moria/engine.ts';

const TYPE = 'dwotb';

/** Every state of an original output file (round 0 first), as canonical text. */
export function originalStates(resText: string): string[] {
  const lines = resText.split('\n').map((l) => l.replace(/\r$/, ''));
  const out: string[] = [];
  for (let k = 0; k < lines.length; k++) {
    if (!/^round \d+$/.test(lines[k]!)) continue;
    const grid: string[] = [];
    for (let g = k - 1; g >= 0 && grid.length < 1000; g--) {
      const l = lines[g]!;
      if (l === '') {
        if (grid.length) break;
        continue;
      }
      grid.unshift(l);
    }
    const cells = lines[k + 1]!;
    const treasures = lines[k + 2]!;
    if (!cells.startsWith('nb_cells ') || !treasures.startsWith('nb_treasures ') || !lines[k + 3]!.startsWith('status '))
      throw new Error(`moria golden: unexpected lines after "${lines[k]}"`);
    const units: string[] = [];
    for (let u = k + 4; u < lines.length && lines[u] !== '' && lines[u] !== 'movements'; u++) units.push(lines[u]!.trim().split(/\s+/).join(' '));
    out.push([...grid, lines[k], squeeze(cells), squeeze(treasures), ...units, ''].join('\n'));
  }
  return out;
}

function squeeze(l: string): string {
  return l.trim().split(/\s+/).join(' ');
}

/** The same text from Arbiter's engine state. */
export function arbiterState(s: MoriaState): string {
  const { rows, cols } = s.cfg;
  const g = gridString(s);
  const out: string[] = [];
  for (let i = 0; i < rows; i++) out.push(g.slice(i * cols, (i + 1) * cols));
  out.push(`round ${s.round}`, `nb_cells ${Array.from(s.nbCells).join(' ')}`, `nb_treasures ${Array.from(s.nbTreasures).join(' ')}`);
  for (let id = 0; id < s.utype.length; id++) {
    const p = s.upos[id]!;
    const [i, j] = p < 0 ? [-1, -1] : [Math.floor(p / cols), p % cols];
    out.push(`${TYPE[s.utype[id]!]} ${s.uplayer[id]} ${i} ${j} ${s.uhealth[id]}`);
  }
  out.push('');
  return out.join('\n');
}
