// The course's Registry.hh: RegisterPlayer(PLAYER_NAME) (see arbiter.hh).
#ifndef Registry_hh
#define Registry_hh
#include "Utils.hh"
#include "arbiter.hh"
#endif
