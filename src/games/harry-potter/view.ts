// Harry Potter's view, declared once: index.ts's encodeView writes it,
// bot-api.ts reads it. Pure: bundled into the bots' isolates.

import { defineView } from '../../sdk/view-layout.ts';

/** The settings as the bots read them (the API's getters), in the original default.cnf's order. */
export const SETTING_FIELDS = [
  'num_players',
  'num_rounds',
  'board_rows',
  'board_cols',
  'num_ini_wizards_per_clan',
  'num_ini_books',
  'clan_ini_magic_strength',
  'points_for_converting_wizard',
  'points_per_owned_cell',
  'book_magic_strength',
  'rounds_for_converting',
  'rounds_attack_resting_ghost',
  'rounds_spell_resting_ghost',
  'rounds_no_attack_ghost',
] as const;

export const VIEW = defineView({
  meta: {
    type: 'Int32',
    fields: ['round', 'rows', 'cols', 'voldemort_i', 'voldemort_j', 'nb_units'],
    doc: 'the round, the board size, where Voldemort is, how many units',
  },
  players: { type: 'Int32', fields: ['score', 'strength'], doc: 'per player: score, overall magic strength' },
  spell: { type: 'Int32', doc: 'the spell ingredients, in order' },
  settings: { type: 'Int32', fields: SETTING_FIELDS, doc: 'the settings' },
  cells: {
    type: 'Uint8',
    bits: [
      ['wall', 1],
      ['book', 1],
      ['owner1', 6],
    ],
    doc: 'per cell (i*cols+j): a wall, a book, owner + 1 (0 = none)',
  },
  units: { type: 'Int16', fields: ['type', 'player', 'i', 'j', 'rounds_pending', 'next_player'], doc: 'per unit id' },
});
