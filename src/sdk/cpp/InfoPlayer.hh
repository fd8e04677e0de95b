// The Player class of the games whose API is an Info (the round's state and
// the settings) and an Action (Moria, Harry Potter, The Walking Dead: their
// originals share it), written once. Each game's Player.hh includes it after
// its Info.hh and Action.hh; AIName.cc still includes only Player.hh.
#ifndef InfoPlayer_hh
#define InfoPlayer_hh

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
