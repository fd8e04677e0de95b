// Moria's Action.hh: the commands of a round. Each one goes to the judge,
// which counts it toward the 1000-commands limit and checks it again.
#ifndef Action_hh
#define Action_hh

#include "Structs.hh"
#include "arbiter.hh"

struct Movement {
  int id;
  Dir dir;
  Movement (int id, Dir dir) : id(id), dir(dir) { }
};

class Action {
  set<int> u_;

protected:
  void reset_action_ () { u_.clear(); }

public:
  void command (Movement m) {
    int32_t items[2] = {m.id, int32_t(m.dir)};
    arbiter_order(items, 2, -1);
    // The original's checks, in its order: a second command for a unit first, then the direction.
    if (u_.find(m.id) != u_.end()) {
      cerr << "warning: action already requested for unit " << m.id << endl;
      return;
    }
    int num = int(m.dir);
    if (num < 0 or num > 8) {
      cerr << "warning: wrong direction " << num << endl;
      return;
    }
    u_.insert(m.id);
  }
  void command (int id, Dir dir) { command(Movement(id, dir)); }
};

#endif
