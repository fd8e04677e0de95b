// The view probe the contract test (test/games/contract.test.ts) runs: a bot
// that reads everything the API shows each round and logs a hash of it, and
// the same hash computed from the engine's state. Add every new API function
// to both sides.

import type { State } from './index.ts';
import { fnv1a, probeHeader } from '../../../sdk/view-probe.ts';

export const probeBot = `${probeHeader('__ID__')}export default class extends Player {
  play(): void {
    let s = [me(), round(), nb_rounds(), rows(), cols()].join(',') + ';';
    for (let i = 0; i < rows(); i++) for (let j = 0; j < cols(); j++) s += cell(i, j).owner + ',' + cell(i, j).unit + ';';
    for (let p = 0; p < 4; p++) s += ';' + unit(p).i + ',' + unit(p).j + ',' + score(p);
    console.log('VIEW ' + round() + ' ' + fnv1a(s));
  }
}
`;

export function expectedViewHash(state: State, me: number): number {
  const { cfg } = state;
  let s = [me, state.round, cfg.nb_rounds, cfg.rows, cfg.cols].join(',') + ';';
  for (let c = 0; c < state.owner.length; c++) s += state.owner[c] + ',' + state.pos.indexOf(c) + ';';
  for (let p = 0; p < 4; p++) s += ';' + Math.floor(state.pos[p]! / cfg.cols) + ',' + (state.pos[p]! % cfg.cols) + ',' + state.score[p];
  return fnv1a(s);
}
