/// <reference path="../player.d.ts" />
// Demo: a tour of the Bola de Drac API, not a player to imitate.
//
// It takes the decisions of the demo player of the original game (2012): a
// goku that runs straight ahead and throws Kame Hames at random, so against
// three Dummies it almost never finishes first, and it never passes the
// gate. Start your own player from the template (MyBot.ts) and borrow from
// here only the calls you need.
//
// Every round:
//  - With one chance in two it throws a Kame Hame in its current direction.
//  - Otherwise it moves in its current direction, after choosing another one
//    (at random, never the same) when a rock or a stronger goku is in the way,
//    or now and then (one chance in a hundred) for no reason at all.
// It asks for an action in every round, even dead or on foot in an odd round
// (then the judge ignores it).
export const GAME = 'bola-de-drac';
export const PLAYER_NAME = 'Demo';

// The directions the Demo draws from, in this order.
const CHOICES = [Dir.Left, Dir.Right, Dir.Bottom, Dir.Top];

export default class extends Player {
  // Fields keep their values between rounds: where the goku is heading.
  heading: Dir = Dir.None;

  play(): void {
    if (round() === 0) this.heading = this.otherDirection(Dir.None);

    const mine = goku(me()); // my goku (its id is me()): pos, strength, alive, ...
    if (random(0, 1) === 0) {
      // random(l, u): an integer in [l, u]
      throw_kamehame(this.heading);
      return;
    }
    // Is the step in direction d off the board, into a rock, or into a goku stronger than mine?
    const blocked = (d: Dir): boolean => {
      if (!pos_ok(mine.pos, d)) return true;
      const c = cell(dest(mine.pos, d)); // dest(p, d): one step from p
      return c.type === CType.Rock || (c.id !== -1 && mine.strength < goku(c.id).strength); // c.id: the goku there, or -1
    };
    // A new heading now and then, and whenever the way is blocked.
    if (random(0, 99) === 0 || blocked(this.heading)) this.heading = this.otherDirection(this.heading);
    move(this.heading); // only the first action of a round counts
  }

  /** A random direction other than d. */
  otherDirection(d: Dir): Dir {
    for (;;) {
      const e = CHOICES[random(0, 3)]!;
      if (e !== d) return e;
    }
  }
}
