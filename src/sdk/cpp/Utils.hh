// The course's Utils.hh: the standard headers a player may use, `using
// namespace std`, and the asserting helpers. Arbiter's own, written from the
// statement's API.
#ifndef Utils_hh
#define Utils_hh

#include <cassert>
#include <cstdlib>
#include <string.h>
#include <iostream>
#include <iomanip>
#include <sstream>
#include <fstream>
#include <string>
#include <queue>
#include <stack>
#include <vector>
#include <map>
#include <set>
#include <list>
#include <deque>
#include <unordered_map>
#include <unordered_set>
#include <algorithm>
#include <numeric>
#include <utility>
#include <climits>
#include <cmath>

using namespace std;

// A warning of the API's, printed out of line: the accessor that may print it
// (cell, unit) stays small enough for clang to inline into a player's loops,
// as g++ does by splitting the accessor's cold part out by itself.
template <typename T>
__attribute__((cold, noinline)) void arbiter_warn (const char* text, const T& value) {
  cerr << text << value << endl;
}

// _my_assert writes what its game's package writes before the assert: "ERROR: "
// and the message (Moria), "error: " (The Walking Dead: its Structs.hh
// defines ARBITER_MY_ASSERT_WORD), nothing (Harry Potter: ARBITER_MY_ASSERT_SILENT).
#ifdef ARBITER_MY_ASSERT_SILENT
#define _my_assert(b, s) { assert(b); }
#else
#ifndef ARBITER_MY_ASSERT_WORD
#define ARBITER_MY_ASSERT_WORD "ERROR: "
#endif
#define _my_assert(b, s) { if (not (b)) { cerr << ARBITER_MY_ASSERT_WORD << s << endl; assert(b); } }
#endif
#define _unreachable() { _my_assert(false, "Unreachable code reached."); }

inline string int_to_string (int i) {
  ostringstream oss;
  oss << i;
  return oss.str();
}

inline int string_to_int (const string& s) {
  istringstream iss(s);
  int i = 0;
  iss >> i;
  return i;
}

#endif
