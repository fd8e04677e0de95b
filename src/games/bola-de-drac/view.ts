// Bola de Drac's view, declared once: index.ts's encodeView writes it,
// bot-api.ts reads it. Pure: bundled into the bots' isolates.

import { defineView } from '../../sdk/view-layout.ts';
import { MATCH_PARAMS } from './consts.ts';

export const VIEW = defineView({
  meta: {
    type: 'Int32',
    fields: ['round', 'rows', 'cols', ...MATCH_PARAMS],
    doc: 'the round, the board size and the parameters of the match (each one an API getter of the same name)',
  },
  cells: { type: 'Int8', doc: 'per cell (i*cols+j): its CType' },
  gokus: {
    type: 'Int32',
    fields: ['i', 'j', 'type', 'balls', 'strength', 'kinton', 'alive', 'time'],
    doc: 'per goku (player id): position, GType, balls deposited, strength, kinton rounds left, alive (0/1), rounds before it may come back',
  },
  beans: { type: 'Int32', fields: ['i', 'j', 'present', 'time'], doc: 'per magic bean spot: position, present (0/1), rounds before it comes back' },
  kintons: { type: 'Int32', fields: ['i', 'j', 'present', 'time'], doc: 'per kinton cloud spot: position, present (0/1), rounds before it comes back' },
});
