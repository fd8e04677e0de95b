// The Walking Dead's view, declared once: index.ts's encodeView writes it,
// bot-api.ts reads it. Pure: bundled into the bots' isolates.

import { defineView } from '../../sdk/view-layout.ts';

export const VIEW = defineView({
  meta: { type: 'Int32', fields: ['round'], doc: 'the round' },
  settings: {
    type: 'Int32',
    fields: [
      'num_players',
      'num_rounds',
      'board_rows',
      'board_cols',
      'num_ini_units_per_clan',
      'num_ini_zombies',
      'num_ini_food',
      'clan_ini_strength',
      'points_for_killing_person',
      'points_for_killing_zombie',
      'points_per_owned_cell',
      'food_strength',
      'rounds_before_becoming_zombie',
    ],
    doc: 'the settings, as the original default.cnf names them',
  },
  players: { type: 'Int32', fields: ['points', 'score'], doc: 'per player: strength points, score' },
  cells: {
    type: 'Uint8',
    bits: [
      ['owner1', 3],
      ['food', 1],
      ['waste', 1],
    ],
    doc: 'per cell (i*cols+j): owner + 1 (0 = none), food, waste',
  },
  units: {
    type: 'Int16',
    fields: ['type', 'player', 'pos', 'rounds_for_zombie'],
    doc: 'per unit id: type, clan (-1 zombie), cell (-1 = none), rounds before it becomes a zombie',
  },
});
