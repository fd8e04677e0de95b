// The __TITLE__ API inside a bot's isolate: the names player.d.ts declares,
// read through the view declaration. Pure: bundled into the isolate, so it
// imports nothing from Node. The runtime adds me(), random(l, u) and status.

import type { BotRuntime } from '../../../../sandbox/bot-runtime-types.ts';
import { VIEW } from './view.ts';

const M = VIEW.meta.at;
const P = VIEW.players;

export function install(rt: BotRuntime): void {
  let meta: Int32Array = new Int32Array(VIEW.meta.stride);
  let cells: Int8Array = new Int8Array(0);
  let players: Int32Array = new Int32Array(4 * P.stride);
  rt.onView((view) => {
    meta = view['meta'] as Int32Array;
    cells = view['cells'] as Int8Array;
    players = view['players'] as Int32Array;
  });
  const cols = () => meta[M.cols]!;
  const inside = (i: unknown, j: unknown): boolean =>
    typeof i === 'number' && typeof j === 'number' && Number.isInteger(i) && Number.isInteger(j) && i >= 0 && j >= 0 && i < meta[M.rows]! && j < cols();
  const d = rt.define;
  d('Dir', { None: 0, Up: 1, Down: 2, Left: 3, Right: 4 });
  d('round', () => meta[M.round]);
  d('nb_rounds', () => meta[M.nb_rounds]);
  d('rows', () => meta[M.rows]);
  d('cols', cols);
  d('pos_ok', (i: number, j: number) => inside(i, j));
  d('owner', (i: number, j: number) => (inside(i, j) ? cells[i * cols() + j] : -1));
  d('unit', (pl: number) => {
    const pos = players[pl * P.stride + P.at.pos];
    return pos === undefined ? null : { i: Math.floor(pos / cols()), j: pos % cols() };
  });
  d('score', (pl: number) => players[pl * P.stride + P.at.score]);
  d('move', (dir: number) => rt.order([dir]));
}
