// Bola de Drac's Utils.hh (the 2012 package's helpers, from its public API):
// the standard headers, check(), s2i/i2s, and the old randomize() generator,
// here seeded per match and player so a match replays identically.
#ifndef Utils_hh
#define Utils_hh

#include <iostream>
#include <fstream>
#include <sstream>
#include <vector>
#include <string>
#include <map>
#include <set>
#include <queue>
#include <stack>
#include <list>
#include <limits>
#include <algorithm>
#include <cmath>
#include <cassert>
#include <cstdlib>
#include <cerrno>
#include <cstdio>
#include <time.h>

using namespace std;

#define myerror_at_line(status, error, file, line, ...) { fprintf(stderr, "Error at %s:%i: ", file, line); fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); exit(status); }
#define myerr(...) myerror_at_line(EXIT_FAILURE, errno, __FILE__, __LINE__, __VA_ARGS__)
#define myerrx(...) myerror_at_line(EXIT_FAILURE, 0, __FILE__, __LINE__, __VA_ARGS__)
#define check(b) { if (not (b)) { fprintf(stderr, "Assertion `" #b "' failed in check().\n"); abort(); } }
#define _unused(x) ((void)x)
#define _unreachable() { assert(0); abort(); }
#define _my_assert(b, s) { if (not (b)) { cerr << "ERROR: " << s << endl; assert(b); } }

const double infinite = numeric_limits<double>::infinity();
const int maxint = numeric_limits<int>::max();
const int minint = numeric_limits<int>::min();

inline int s2i (const string& s) {
  istringstream iss(s);
  int i = 0;
  iss >> i;
  return i;
}

inline string i2s (int i) {
  ostringstream oss;
  oss << i;
  return oss.str();
}

template <typename T>
inline int sze (T& x) {
  return int(x.size());
}

#define implies % (boolean)
class boolean {
public:
  boolean (bool b = false) : val(b) { }
  operator bool () { return val; }
  friend boolean operator% (bool b1, boolean b2) { return not b1 or b2.val; }
private:
  bool val;
};

#ifndef PRINT
#define PRINT_AUX(ARG,SEP) { string tmpStr(SEP # ARG # SEP); cerr << boolalpha << tmpStr.substr(1, tmpStr.size() - 5) << ": " << ARG << endl; }
#define PRINT(ARG) PRINT_AUX(ARG, "\"")
#endif

const int RANDOMIZE_MODULUS    = 2147483647;
const int RANDOMIZE_MULTIPLIER = 48271;
const int RANDOMIZE_DEFAULT    = 123456789;
const int RANDOMIZE_MAX        = RANDOMIZE_MODULUS - 2;

/** The generator's state (a player's own: seeded for each match and player before the first round). */
inline long rnd_seed = RANDOMIZE_DEFAULT;

inline void srandomize (int s = RANDOMIZE_DEFAULT) {
  if (s < 0) s = -s;
  rnd_seed = 1 + s % (RANDOMIZE_MODULUS - 1);
}

/** A pseudo-random number between 0 and RANDOMIZE_MAX (Park and Miller's minimal standard). */
inline int randomize (void) {
  const long Q = RANDOMIZE_MODULUS / RANDOMIZE_MULTIPLIER;
  const long R = RANDOMIZE_MODULUS % RANDOMIZE_MULTIPLIER;
  long long t = (long long)RANDOMIZE_MULTIPLIER * (rnd_seed % Q) - (long long)R * (rnd_seed / Q);
  rnd_seed = t > 0 ? long(t) : long(t + RANDOMIZE_MODULUS);
  return rnd_seed - 1;
}

#endif
