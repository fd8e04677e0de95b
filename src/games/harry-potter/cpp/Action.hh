// Harry Potter's Action.hh: move(id, dir) and spell(id, solution). Every
// command goes to the judge, which counts it toward the 1000-commands limit
// and checks it again.
#ifndef Action_hh
#define Action_hh

#include "Structs.hh"
#include "arbiter.hh"

class Action {
  set<int> u_;

  void once_ (int id, const char* what) {
    if (u_.find(id) != u_.end()) {
      cerr << "warning: " << what << ": command already requested for unit " << id << endl;
      return;
    }
    u_.insert(id);
  }

protected:
  void reset_action_ () { u_.clear(); }

public:
  void move (int id, Dir dir) {
    int32_t items[3] = {0, id, int32_t(dir)};
    arbiter_order(items, 3, -1);
    once_(id, "move");
  }

  void spell (int id, const vector<int>& sol) {
    int n = min(int(sol.size()), 64);
    vector<int32_t> items(2 + n);
    items[0] = 1;
    items[1] = id;
    for (int k = 0; k < n; ++k) items[2 + k] = sol[k];
    arbiter_order(items.data(), 2 + n, 2);
    once_(id, "spell");
  }
};

#endif
