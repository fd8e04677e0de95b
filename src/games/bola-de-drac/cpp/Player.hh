// Bola de Drac's Player.hh: the base class of a player (the 2012 API; a
// player's file includes only this).
#ifndef Player_hh
#define Player_hh

#include "Utils.hh"
#include "PosDir.hh"
#include "Board.hh"
#include "Action.hh"
#include "Registry.hh"
#include "Random.hh"

#define stringification(s) #s

class Player : public Board, public Action, public Random_generator {
public:
  Player () { srandomize(arbiter_seed()); }

  /** Identifier of my player. */
  int me () const { return arbiter_me(); }

  /** Play intelligence: called once per round. */
  virtual void play () { }

  /** Called by the runtime before every play(): the round's caches start empty. */
  void arbiter_reset () {
    reset_board_();
    reset_action_();
  }

  virtual ~Player () { }
};

#include "arbiter-exports.hh"

#endif
