// The course's Random.hh: the player's own generator. The draws come from the
// judge's generator for this player (seeded match seed + me + 1), the same one
// a JavaScript player draws from, with the original's algorithm.
#ifndef Random_hh
#define Random_hh

#include "Utils.hh"
#include "arbiter.hh"

#ifndef ARBITER_PERMUTATION_FULL
#define ARBITER_PERMUTATION_FULL 0
#endif

class Random_generator {
public:
  /** A random integer in [l, u] (l if the interval is empty or longer than 1e6). */
  int random (int l, int u) {
    return arbiter_random(l, u);
  }

  /** A random permutation of 0..n-1. */
  vector<int> random_permutation (int n) {
    if (n < 0 or n > 1e6) return vector<int>(0);
    vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = i;
    int last = ARBITER_PERMUTATION_FULL ? n - 1 : n - 2;
    for (int i = 0; i <= last; ++i) swap(v[i], v[random(i, n - 1)]);
    return v;
  }
};

#endif
