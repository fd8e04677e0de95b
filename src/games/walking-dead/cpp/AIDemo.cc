// Demo: a tour of The Walking Dead API, not a player to imitate (the C++ twin
// of bots/Demo.ts: the same decisions and the same random() calls, so the same
// match for the same seed).
//
// It takes the decisions of the demo player that came with the original
// game package, which only shows how the calls are made: its units wander
// at random and stop playing halfway through the match, so against three
// Dummies it almost never finishes first, and it never passes the gate.
// Start your own player from AINull.cc and borrow from here only the calls
// you need.
//
// Every round of the first half of the match (and only while less than 90%
// of its CPU time is gone):
//  - Even rounds: each alive unit draws one of the four directions and steps
//    that way when the cell there is on the board and a street.
//  - Odd rounds: a coin flip; heads, every alive unit steps left (streets
//    allowing); tails, every alive unit next to a zombie attacks it.
#include "Player.hh"

// The name of your player: the file must be called AI<name>.cc.
#define PLAYER_NAME Demo

struct PLAYER_NAME : public Player {

  // The judge builds your player with this function: do not change it.
  static Player* factory () {
    return new PLAYER_NAME;
  }

  // Members keep their values between rounds; this one never changes: the four
  // directions a unit can take, in the order the Demo draws them.
  const vector<Dir> dirs = {Up, Down, Left, Right};

  // What a round is for.
  enum Mode { Wander, GoLeft, Hunt };

  // Called once per round.
  virtual void play () {
    if (round() > num_rounds() / 2) return; // the second half: no orders at all
    if (status(me()) >= 0.9) return; // status(pl): the fraction of its CPU time pl has used

    // Even rounds wander; odd ones flip a coin (random(l, u) is an integer in
    // [l, u]) to go left or to hunt zombies.
    Mode mode = round() % 2 == 0 ? Wander : random(0, 3) <= 1 ? GoLeft : Hunt;

    vector<int> alive = alive_units(me()); // ids of my alive units
    // Whatever you write to cerr goes to your log, shown on the match page.
    cerr << "round " << round() << ": " << alive.size() << " alive units" << endl;

    for (int id : alive) {
      Pos here = unit(id).pos; // unit(id): type, id, player, pos, rounds_for_zombie
      if (mode == Hunt) {
        int d = zombie_next_to(here);
        if (d != -1) move(id, Dir(d)); // moving onto a zombie attacks it
      }
      else {
        Dir d = mode == Wander ? dirs[random(0, 3)] : Left;
        if (walkable(here, d)) move(id, d);
      }
    }
  }

  // Is p + d on the board and a street (not waste)?
  bool walkable (Pos p, Dir d) {
    Pos q = p + d;
    return pos_ok(q) and cell(q).type == Street;
  }

  // The first direction (in the Demo's order) with a zombie next to p, or -1.
  int zombie_next_to (Pos p) {
    for (Dir d : dirs) {
      Pos q = p + d;
      // cell(q).id: the unit on that cell, or -1.
      if (pos_ok(q) and cell(q).id != -1 and unit(cell(q).id).type == Zombie) return d;
    }
    return -1;
  }
};

// Registers the player with the judge: do not change it.
RegisterPlayer(PLAYER_NAME);
