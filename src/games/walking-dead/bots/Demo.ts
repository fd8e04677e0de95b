/// <reference path="../player.d.ts" />
// Demo: a tour of The Walking Dead API, not a player to imitate.
//
// It takes the decisions of the demo player that came with the original
// game package, which only shows how the calls are made: its units wander
// at random and stop playing halfway through the match, so against three
// Dummies it almost never finishes first, and it never passes the gate.
// Start your own player from the template (MyBot.ts) and borrow from here
// only the calls you need.
//
// Every round of the first half of the match (and only while less than 90%
// of its CPU time is gone):
//  - Even rounds: each alive unit draws one of the four directions and steps
//    that way when the cell there is on the board and a street.
//  - Odd rounds: a coin flip; heads, every alive unit steps left (streets
//    allowing); tails, every alive unit next to a zombie attacks it.
export const GAME = 'walking-dead';
export const PLAYER_NAME = 'Demo';

/** What a round is for. */
type Mode = 'wander' | 'left' | 'hunt';

export default class extends Player {
  // Fields keep their values between rounds; this one never changes: the four
  // directions a unit can take, in the order the Demo draws them.
  dirs: Dir[] = [Up, Down, Left, Right];

  play(): void {
    if (round() > num_rounds() / 2) return; // the second half: no orders at all
    if (status(me()) >= 0.9) return; // status(pl): the fraction of its CPU time pl has used

    // What the round is for: even rounds wander; odd ones flip a coin (random(l, u)
    // is an integer in [l, u]) to go left or to hunt zombies.
    const mode: Mode = round() % 2 === 0 ? 'wander' : random(0, 3) <= 1 ? 'left' : 'hunt';

    for (const id of alive_units(me())) {
      const here = unit(id).pos; // unit(id): type, id, player, pos, rounds_for_zombie
      if (mode === 'hunt') {
        const d = this.zombieNextTo(here);
        if (d !== -1) move(id, d); // moving onto a zombie attacks it
      } else {
        const d = mode === 'wander' ? this.dirs[random(0, 3)]! : Left;
        if (this.walkable(here, d)) move(id, d);
      }
    }
  }

  /** Is p + d on the board and a street (not waste)? */
  walkable(p: Pos, d: Dir): boolean {
    const q = pos_add(p, d);
    return pos_ok(q) && cell(q).type === Street;
  }

  /** The first direction (in the Demo's order) with a zombie next to p, or -1. */
  zombieNextTo(p: Pos): Dir | -1 {
    for (const d of this.dirs) {
      const q = pos_add(p, d);
      // cell(q).id: the unit on that cell, or -1.
      if (pos_ok(q) && cell(q).id !== -1 && unit(cell(q).id).type === Zombie) return d;
    }
    return -1;
  }
}
