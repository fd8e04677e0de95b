// The Walking Dead's Player.hh: the base class of a player (AIName.cc
// includes only this), under the statement's names.
#ifndef Player_hh
#define Player_hh

// random_permutation(n) draws n swaps in this game.
#define ARBITER_PERMUTATION_FULL 1

#include "Info.hh"
#include "Action.hh"
// The Player class, as the games built on Info and Action share it (src/sdk/cpp/).
#include "InfoPlayer.hh"

#endif
