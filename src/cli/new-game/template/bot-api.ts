// The __TITLE__ API inside a bot's isolate, declared once as a table
// (src/sdk/api-table.ts): installTable defines each function for the bot
// (a global and a method of Player) and refuses a function without an
// implementation; player.d.ts is generated from the same table
// (`arbiter new-game` wrote it; after a change: scripts/gen-player-dts.ts).
// Pure: bundled into the isolate, so it imports nothing from Node. The
// runtime itself gives me(), random(l, u), random_permutation(n) and status(pl).

import type { BotRuntime } from '../../../sdk/bot-runtime-types.ts';
import { defineApi, enumOf, fn, getters, installTable, record, section, type ApiImpl } from '../../../sdk/api-table.ts';
import { ijOf, posWithin } from '../../../sdk/bot-pos.ts';
import { VIEW } from './view.ts';

const M = VIEW.meta.at;
const P = VIEW.players;

/** What a bot sees: the names the statement uses. */
export const API = defineApi({
  intro: `__TITLE__ player API. Every function is a global and also a method of Player:
\`cell(i, j)\` and \`this.cell(i, j)\` are the same.`,
  entries: [
    enumOf('Dir', { None: 0, Up: 1, Down: 2, Left: 3, Right: 4 }, 'The directions a unit steps in.'),
    record(
      'Cell',
      [
        ['owner', 'number', 'The player who painted it, or -1.'],
        ['unit', 'number', 'The player whose unit stands on it, or -1.'],
      ],
      'A cell of the board (off the board: owner and unit -1).',
    ),
    section('State'),
    fn('unit', [['pl', 'number']], 'Pos', "Where player pl's unit stands."),
    fn('score', [['pl', 'number']], 'number', "Player pl's score: the cells painted in its colour."),
    section('Action'),
    fn('move', [['dir', 'Dir']], 'void', "This round's move; only the first one counts."),
    section('Settings'),
    ...getters(['nb_rounds', 'rows', 'cols'], { nb_rounds: 'Rounds of a match.', rows: 'Rows of the board.', cols: 'Columns of the board.' }),
  ],
});

export function install(rt: BotRuntime): void {
  let meta: Int32Array = new Int32Array(VIEW.meta.stride);
  let cells: Int8Array = new Int8Array(0);
  let players: Int32Array = new Int32Array(4 * P.stride);
  rt.onView((view) => {
    meta = view['meta'] as Int32Array;
    cells = view['cells'] as Int8Array;
    players = view['players'] as Int32Array;
  });
  const rows = () => meta[M.rows]!;
  const cols = () => meta[M.cols]!;
  // (i, j) or a Pos, checked: anything may arrive from a bot.
  const at = (a: unknown, b: unknown): number => {
    const [i, j] = ijOf(a, b);
    return posWithin(i, j, rows(), cols()) ? i * cols() + j : -1;
  };
  const posOf = (c: number) => ({ i: Math.floor(c / cols()), j: c % cols() });
  const impl: ApiImpl = {
    Pos: (i: number, j: number) => ({ i, j }),
    round: () => meta[M.round]!,
    cell: (a: unknown, b: unknown) => {
      const c = at(a, b);
      if (c < 0) return { owner: -1, unit: -1 };
      let unit = -1;
      for (let p = 0; p < 4; p++) if (players[p * P.stride + P.at.pos] === c) unit = p;
      return { owner: cells[c]!, unit };
    },
    unit: (pl: number) => posOf(players[pl * P.stride + P.at.pos] ?? 0),
    score: (pl: number) => players[pl * P.stride + P.at.score],
    move: (dir: number) => rt.order([dir]),
    player_ok: (pl: unknown) => typeof pl === 'number' && Number.isInteger(pl) && pl >= 0 && pl < 4,
    pos_ok: (a: unknown, b: unknown) => at(a, b) >= 0,
    nb_rounds: () => meta[M.nb_rounds]!,
    rows,
    cols,
  };
  installTable(rt, API, impl);
}
