// Demo: a tour of the Bola de Drac API, not a player to imitate (the C++ twin
// of bots/Demo.ts: the same decisions and the same random() calls, so the
// same match for the same seed).
//
// It takes the decisions of the demo player of the original game (2012): a
// goku that runs straight ahead and throws Kame Hames at random, so against
// three Dummies it almost never finishes first, and it never passes the
// gate. Start your own player from AINull.cc and borrow from here only the
// calls you need.
//
// Every round:
//  - With one chance in two it throws a Kame Hame in its current direction.
//  - Otherwise it moves in its current direction, after choosing another one
//    (at random, never the same) when a rock or a stronger goku is in the way,
//    or now and then (one chance in a hundred) for no reason at all.
// It asks for an action in every round, even dead or on foot in an odd round
// (then the judge ignores it).
#include "Player.hh"

// The name of your player: the file must be called AI<name>.cc.
#define PLAYER_NAME Demo

struct PLAYER_NAME : public Player {

  // The judge builds your player with this function: do not change it.
  static Player* factory () {
    return new PLAYER_NAME;
  }

  // Members keep their values between rounds: where the goku is heading.
  Dir heading = None;

  // Called once per round.
  virtual void play () {
    if (round() == 0) heading = other_direction(None);

    Goku mine = goku(me()); // my goku (its id is me()): pos, strength, alive, ...
    if (random(0, 1) == 0) {
      // random(l, u): an integer in [l, u]
      throw_kamehame(heading);
      return;
    }
    // Is the step in direction d off the board, into a rock, or into a goku stronger than mine?
    auto blocked = [&](Dir d) {
      if (not pos_ok(mine.pos, d)) return true;
      const Cell& c = cell(dest(mine.pos, d)); // dest(p, d): one step from p
      return c.type == Rock or (c.id != -1 and mine.strength < goku(c.id).strength); // c.id: the goku there, or -1
    };
    // A new heading now and then, and whenever the way is blocked.
    if (random(0, 99) == 0 or blocked(heading)) heading = other_direction(heading);
    move(heading); // only the first action of a round counts
  }

  // A random direction other than d.
  Dir other_direction (Dir d) {
    const Dir choices[] = {Left, Right, Bottom, Top}; // drawn from in this order
    while (true) {
      Dir e = choices[random(0, 3)];
      if (e != d) return e;
    }
  }
};

// Registers the player with the judge: do not change it.
RegisterPlayer(PLAYER_NAME);
