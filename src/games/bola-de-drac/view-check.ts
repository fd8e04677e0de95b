// The view probe of the game contract test: a bot that reads, through the
// statement's API, everything a player can see, and logs a hash of it each
// round; and the same hash computed from the engine's state. They agree when
// the view carries the state faithfully and bot-api.ts decodes it right.

import { score, type State } from './engine.ts';
import { fnv1a, probeHeader } from '../../sdk/view-probe.ts';

export const probeBot = `${probeHeader('bola-de-drac')}export default class extends Player {
  play(): void {
    const np = nb_players();
    let s = [me(), round(), np, nb_rounds(), nb_capsules(), nb_balls(), nb_beans(), nb_kintons(), goku_regen_time(), bean_regen_time(), kinton_regen_time(),
      kinton_life_time(), max_strength(), res_strength(), moving_penalty(), kamehame_penalty(), combat_penalty(), rows(), cols()].join(',');
    for (let id = 0; id < np; id++) {
      const g = goku(id);
      s += ';' + [g.id, g.pos.i, g.pos.j, g.type, g.balls, g.strength, g.kinton, g.alive ? 1 : 0, g.time, balls(id), strength(id), score(id)].join('.');
    }
    for (const b of [...beans(), ...kintons()]) s += ';' + b.pos.i + '.' + b.pos.j + '.' + (b.present ? 1 : 0) + '.' + b.time;
    s += ';';
    for (let i = 0; i < rows(); i++)
      for (let j = 0; j < cols(); j++) {
        const c = cell(i, j);
        s += c.pos.i + '.' + c.pos.j + '.' + c.type + '.' + c.id + ' ';
      }
    console.log('VIEW ' + round() + ' ' + fnv1a(s));
  }
}
`;

export function expectedViewHash(st: State, me: number): number {
  const c = st.cfg;
  const np = st.gokus.length;
  let s = [
    me,
    st.round,
    np,
    c.nb_rounds,
    c.nb_capsules,
    c.nb_balls,
    st.beans.length / 3,
    st.kintons.length / 3,
    c.goku_regen_time,
    c.bean_regen_time,
    c.kinton_regen_time,
    c.kinton_life_time,
    c.max_strength,
    c.res_strength,
    c.moving_penalty,
    c.kamehame_penalty,
    c.combat_penalty,
    st.rows,
    st.cols,
  ].join(',');
  for (const [id, g] of st.gokus.entries()) {
    const type = (g.kinton > 0 ? 1 : 0) + (g.ball ? 2 : 0);
    s +=
      ';' +
      [id, Math.floor(g.pos / st.cols), g.pos % st.cols, type, g.balls, g.strength, g.kinton, g.alive ? 1 : 0, g.time, g.balls, g.strength, score(st, id)].join(
        '.',
      );
  }
  for (const items of [st.beans, st.kintons])
    for (let k = 0; k < items.length; k += 3)
      s += ';' + Math.floor(items[k]! / st.cols) + '.' + (items[k]! % st.cols) + '.' + items[k + 1] + '.' + items[k + 2];
  s += ';';
  for (let p = 0; p < st.grid.length; p++) s += Math.floor(p / st.cols) + '.' + (p % st.cols) + '.' + st.grid[p] + '.' + st.occ[p] + ' ';
  return fnv1a(s);
}
