// The Walking Dead's Player.hh: the base class of a player (AIName.cc
// includes only this), under the statement's names.
#ifndef Player_hh
#define Player_hh

// random_permutation(n) draws n swaps in this game.
#define ARBITER_PERMUTATION_FULL 1

#include "Info.hh"
#include "Action.hh"
#include "Random.hh"
#include "Registry.hh"

class Player : public Info, public Random_generator, public Action {
public:
  /** Play intelligence: called once per round. */
  virtual void play () { }

  /** Identifier of my player. */
  int me () const { return arbiter_me(); }

  /** Called by the runtime before every play(): the round's caches start empty. */
  void arbiter_reset () {
    reset_state_();
    reset_action_();
  }

  virtual ~Player () { }
};

#include "arbiter-exports.hh"

#endif
