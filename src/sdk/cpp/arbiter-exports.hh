// The functions the judge's runtime calls in the module. Included by each
// game's Player.hh after class Player, which provides arbiter_reset() (its
// per-round caches) and play().
#ifndef arbiter_exports_hh
#define arbiter_exports_hh

#include <iostream>
#include <streambuf>

extern "C" {
/** Text the module wrote to cout, cerr or clog: 1 while the bot's log has room, 0 once it is full. */
ARBITER_IMPORT(log) int arbiter_log (const char* text, int n);
}

namespace arbiter_rt {
/**
 * cout, cerr and clog write here, into the module's own memory, at the cost
 * of a copy: the text crosses to the judge once per play() (or when the
 * buffer fills), not once per write. Once the judge answers that the log is
 * full, the three streams are left in a failed state (a write is then a test
 * of a flag) and what still reaches the buffer is dropped without crossing.
 */
class LogBuf : public std::streambuf {
public:
  static const int SIZE = 1 << 16;
  bool open = true;
  LogBuf () { setp(area_, area_ + SIZE); }
  /** Hands the buffered text to the judge. */
  void drain () {
    int n = int(pptr() - pbase());
    if (n > 0 and open and not arbiter_log(pbase(), n)) {
      open = false;
      std::cout.setstate(std::ios_base::badbit);
      std::cerr.setstate(std::ios_base::badbit);
      std::clog.setstate(std::ios_base::badbit);
    }
    setp(area_, area_ + SIZE);
  }
protected:
  int_type overflow (int_type c) override {
    drain();
    if (not traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  // endl, flush and unitbuf (cerr's) cost nothing: the text crosses when play() returns.
  int sync () override { return 0; }
private:
  char area_[SIZE];
};

inline LogBuf log_buffer;
inline Player* player = nullptr;
inline int32_t table[2 * arbiter_view::COUNT];
inline void* view_buffer = nullptr;
inline int view_capacity = 0;
}

extern "C" ARBITER_EXPORT(arbiter_view_names) const char* arbiter_view_names () {
  return arbiter_view::NAMES;
}

extern "C" ARBITER_EXPORT(arbiter_view_table) int32_t* arbiter_view_table () {
  return arbiter_rt::table;
}

/** Room for the round's view, kept between rounds (the view has the same size every round). */
extern "C" ARBITER_EXPORT(arbiter_view_alloc) void* arbiter_view_alloc (int bytes) {
  if (bytes > arbiter_rt::view_capacity) {
    free(arbiter_rt::view_buffer);
    arbiter_rt::view_buffer = malloc(bytes);
    if (not arbiter_rt::view_buffer) arbiter_out_of_memory(uint32_t(bytes));
    arbiter_rt::view_capacity = bytes;
  }
  return arbiter_rt::view_buffer;
}

/** Creates the registered player: 0 if the file registers none. */
/** Hands cout, cerr and clog's buffered text to the judge (after play(), before a stdio write, after a trap). */
extern "C" ARBITER_EXPORT(arbiter_log_drain) void arbiter_log_drain () {
  arbiter_rt::log_buffer.drain();
}

extern "C" ARBITER_EXPORT(arbiter_create) int arbiter_create () {
  std::cout.flush();
  std::cout.rdbuf(&arbiter_rt::log_buffer);
  std::cerr.rdbuf(&arbiter_rt::log_buffer);
  std::clog.rdbuf(&arbiter_rt::log_buffer);
  Registry::Factory f = Registry::factory_();
  if (not f) return 0;
  arbiter_rt::player = f();
  arbiter_rt::log_buffer.drain();
  return 1;
}

extern "C" ARBITER_EXPORT(arbiter_play) void arbiter_play () {
  arbiter_view::bind(arbiter_rt::table);
  arbiter_rt::player->arbiter_reset();
  arbiter_rt::player->play();
  arbiter_rt::log_buffer.drain();
}

#endif
