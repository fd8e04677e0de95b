// Demo: a tour of the Harry Potter API, not a player to imitate (the C++ twin
// of bots/Demo.ts: the same decisions and the same random() calls, so the same
// match for the same seed).
//
// It takes the decisions of the demo player that came with the original
// game package, which only shows how the calls are made: its wizards wander
// at random, so against three Dummies it almost never finishes first, and it
// never passes the gate. Start your own player from AINull.cc and borrow from
// here only the calls you need.
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
#include "Player.hh"

// The name of your player: the file must be called AI<name>.cc.
#define PLAYER_NAME Demo

struct PLAYER_NAME : public Player {

  // The judge builds your player with this function: do not change it.
  static Player* factory () {
    return new PLAYER_NAME;
  }

  // The four directions a wizard can take, in the order the Demo draws them.
  const vector<Dir> straight = {Up, Down, Left, Right};

  // The plan of the round: (wizard id, direction) in the order they were
  // planned. Like the judge, the plan keeps the first direction given to a
  // wizard and ignores later ones.
  vector<pair<int, Dir>> plan;
  set<int> planned;

  void propose (int id, Dir d) {
    if (planned.count(id)) return;
    planned.insert(id);
    plan.push_back({id, d});
  }

  // Called once per round.
  virtual void play () {
    if (status(me()) >= 0.9) return; // status(pl): the fraction of its CPU time pl has used

    vector<int> ws = wizards(me()); // ids of my wizards
    plan.clear();
    planned.clear();

    for (int run = 0; run < int(ws.size()); ++run) {
      if (round() % 2 == 0) {
        for (int id : ws) {
          Dir d = straight[random(0, 3)]; // random(l, u): an integer in [l, u]
          if (can_step(id, d)) propose(id, d);
        }
      }
      else if (random(0, 3) <= 1) {
        for (int id : ws)
          if (can_step(id, Left)) propose(id, Left);
      }
      else {
        for (int id : ws)
          for (Dir d : straight)
            if (enemy_wizard_at(unit(id).pos + d)) {
              propose(id, d); // moving onto an enemy wizard attacks it
              break;
            }
      }
    }

    // The orders, in the order they were planned.
    for (auto& order : plan) move(order.first, order.second);
    // The ghost casts: sol[k] is the group (0..4) of ingredient k of spell_ingredients().
    spell(ghost(me()), {0, 2, 4, 1, 3, 2, 0, 1, 4, 1, 4, 0, 3, 3, 2});
  }

  // Is the cell one step from unit id in direction d on the board, and not a wall?
  bool can_step (int id, Dir d) {
    Pos p = unit(id).pos + d; // unit(id).pos: where it stands
    return pos_ok(p) and cell(p.i, p.j).type != Wall;
  }

  // Is there a wizard of another clan at p? cell(p).id is the unit there, or -1.
  bool enemy_wizard_at (Pos p) {
    if (not pos_ok(p)) return false;
    int other = cell(p.i, p.j).id;
    return other != -1 and unit(other).type == Wizard and unit(other).player != me();
  }
};

// Registers the player with the judge: do not change it.
RegisterPlayer(PLAYER_NAME);
