// Harry Potter's Action.hh: move(id, dir) and spell(id, solution). Every
// command goes to the judge, which counts it toward the 1000-commands limit
// and checks it again.
#ifndef Action_hh
#define Action_hh

#include "Structs.hh"
#include "arbiter.hh"

// Every command goes to the judge, a second one for a unit too (it counts
// toward the limit, as in the original); this API does not warn about it, as
// the original does not (its warning is commented out).
class Action {
protected:
  void reset_action_ () { }

public:
  void move (int id, Dir dir) {
    int32_t items[3] = {0, id, int32_t(dir)};
    arbiter_order(items, 3, -1);
  }

  void spell (int id, const vector<int>& sol) {
    int n = min(int(sol.size()), 64);
    vector<int32_t> items(2 + n);
    items[0] = 1;
    items[1] = id;
    for (int k = 0; k < n; ++k) items[2 + k] = sol[k];
    arbiter_order(items.data(), 2 + n, 2);
  }
};

#endif
