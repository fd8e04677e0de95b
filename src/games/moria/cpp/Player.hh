// Moria's Player.hh: the base class of a player (AIName.cc includes only
// this). The statement's API (P44849) under its own names, read from the view
// the judge writes into the module's memory every round.
#ifndef Player_hh
#define Player_hh

#include "Info.hh"
#include "Action.hh"
// The Player class, as the games built on Info and Action share it (src/sdk/cpp/).
#include "InfoPlayer.hh"

#endif
