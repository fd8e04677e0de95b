// The Walking Dead's Action.hh: move(id, dir). Every command goes to the
// judge, which counts it toward the 1000-commands limit and checks it again.
#ifndef Action_hh
#define Action_hh

#include "Structs.hh"
#include "arbiter.hh"

class Action {
  set<int> u_;

protected:
  void reset_action_ () { u_.clear(); }

public:
  void move (int id, Dir dir) {
    int32_t items[2] = {id, int32_t(dir)};
    arbiter_order(items, 2, -1);
    if (u_.find(id) != u_.end()) {
      cerr << "warning: command already requested for unit " << id << endl;
      return;
    }
    u_.insert(id);
  }
};

#endif
