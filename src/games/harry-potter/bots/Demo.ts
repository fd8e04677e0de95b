/// <reference path="../player.d.ts" />
// Demo: a tour of the Harry Potter API, not a player to imitate.
//
// It takes the decisions of the demo player that came with the original
// game package, which only shows how the calls are made: its wizards wander
// at random, so against three Dummies it almost never finishes first, and it
// never passes the gate. Start your own player from the template (MyBot.ts)
// and borrow from here only the calls you need.
//
// Every round (unless 90% of its CPU time is gone: then it does nothing):
//  - Even rounds: each wizard draws one of the four straight directions and
//    steps that way when the cell there is on the board and not a wall.
//  - Odd rounds: a coin flip; heads, every wizard steps left (walls allowing);
//    tails, every wizard next to an enemy wizard attacks it.
//  - That plan is run as many times as the clan has wizards. A unit keeps its
//    first command of the round, so a wizard that found a wall gets another
//    draw in the next run, and in odd rounds each run flips the coin again.
//  - The ghost always offers the same solution to the spell (almost always
//    wrong: solving it is up to you).
export const GAME = 'harry-potter';
export const PLAYER_NAME = 'Demo';

// The four directions a wizard can take, in the order the Demo draws them.
const STRAIGHT = [Up, Down, Left, Right];

export default class extends Player {
  play(): void {
    if (status(me()) >= 0.9) return; // status(pl): the fraction of its CPU time pl has used

    const ws = wizards(me()); // ids of my wizards
    // The plan of the round: wizard id -> direction. Like the judge, the plan
    // keeps the first direction given to a wizard and ignores later ones.
    const plan = new Map<number, Dir>();
    const propose = (id: number, d: Dir) => {
      if (!plan.has(id)) plan.set(id, d);
    };

    for (let run = 0; run < ws.length; run++) {
      if (round() % 2 === 0) {
        for (const id of ws) {
          const d = STRAIGHT[random(0, 3)]!; // random(l, u): an integer in [l, u]
          if (this.canStep(id, d)) propose(id, d);
        }
      } else if (random(0, 3) <= 1) {
        for (const id of ws) if (this.canStep(id, Left)) propose(id, Left);
      } else {
        for (const id of ws) {
          const d = STRAIGHT.find((e) => this.enemyWizardAt(pos_add(unit(id).pos, e)));
          if (d !== undefined) propose(id, d); // moving onto an enemy wizard attacks it
        }
      }
    }

    // The orders, in the order they were planned.
    for (const [id, d] of plan) move(id, d);
    // The ghost casts: sol[k] is the group (0..4) of ingredient k of spell_ingredients().
    spell(ghost(me()), [0, 2, 4, 1, 3, 2, 0, 1, 4, 1, 4, 0, 3, 3, 2]);
  }

  /** Is the cell one step from unit id in direction d on the board, and not a wall? */
  canStep(id: number, d: Dir): boolean {
    const p = pos_add(unit(id).pos, d); // unit(id).pos: where it stands
    return pos_ok(p) && cell(p.i, p.j).type !== Wall;
  }

  /** Is there a wizard of another clan at p? cell(p).id is the unit there, or -1. */
  enemyWizardAt(p: Pos): boolean {
    if (!pos_ok(p)) return false;
    const other = cell(p.i, p.j).id;
    return other !== -1 && unit(other).type === Wizard && unit(other).player !== me();
  }
}
