// Moria's view, declared once: index.ts's encodeView writes it, bot-api.ts
// reads it. Pure: bundled into the bots' isolates.

import { defineView } from '../../sdk/view-layout.ts';

export const VIEW = defineView({
  meta: {
    type: 'Int32',
    fields: ['round', 'nb_players', 'nb_rounds', 'nb_dwarves', 'nb_wizards', 'max_nb_orcs', 'nb_trolls', 'treasure_value', 'rock_resistance', 'rows', 'cols'],
    doc: 'the round and the settings',
  },
  players: { type: 'Int32', fields: ['nb_cells', 'nb_treasures'], doc: 'per player: caves conquered, treasures found' },
  cells: {
    type: 'Uint16',
    bits: [
      ['type', 3],
      ['owner1', 3],
      ['treasure', 1],
      ['turns', 9],
    ],
    doc: 'per cell (i*cols+j): CellType, owner + 1 (0 = none), a treasure, hits a rock still needs',
  },
  units: {
    type: 'Int16',
    fields: ['player', 'health', 'pos'],
    doc: 'per unit id: clan (-1 Sauron), health, cell (-1 = not on the board); types follow from the ids',
  },
  grid: {
    type: 'Int16',
    doc: "per cell: the id of the unit the board shows there, or -1 (the original's grid: after a killed troll walks before its rebirth, a cell can show it away from its position)",
  },
});
