// The Walking Dead's Info.hh: the settings and the state together.
#ifndef Info_hh
#define Info_hh

#include "Settings.hh"
#include "State.hh"

class Info : public Settings, public State {
};

#endif
