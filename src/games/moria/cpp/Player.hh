// Moria's Player.hh: the base class of a player (AIName.cc includes only
// this). The statement's API (P44849) under its own names, read from the view
// the judge writes into the module's memory every round.
#ifndef Player_hh
#define Player_hh

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
