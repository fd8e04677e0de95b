// Bola de Drac's Action.hh: one action per round, move(d) or
// throw_kamehame(d); the first one asked counts. It goes to the judge, which
// checks it again.
#ifndef Action_hh
#define Action_hh

#include "Utils.hh"
#include "PosDir.hh"
#include "arbiter.hh"

enum AType {
  Undefined, Moving, Throwing
};

class Action {
  AType type_ = Undefined;

  void act_ (char tag, AType t, Dir d, const char* what) {
    if (int(d) < None or int(d) > Right) {
      cerr << "warning: " << what << ": invalid direction " << int(d) << "; ignored" << endl;
      return;
    }
    if (type_ != Undefined) {
      cerr << "warning: " << what << " action already requested for this goku." << endl;
      return;
    }
    type_ = t;
    int32_t dir = d;
    arbiter_order_tagged(tag, &dir, 1);
  }

protected:
  void reset_action_ () { type_ = Undefined; }

public:
  void move (Dir d) { act_('m', Moving, d, "moving"); }
  void throw_kamehame (Dir d) { act_('t', Throwing, d, "throwing"); }
};

#endif
