// The simulated platform's out-of-line parts: the engine and hosts, worker actors, the clock, tracing, migration, aborting.
#include "sim_platform.hpp"

#include "engine_access.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <simgrid/s4u.hpp>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif
#include <xbt/log.h>

namespace sg = simgrid::s4u;

namespace twinsched {

namespace {
sim_platform* running_platform = nullptr;  // the one simulation of this process (on_maybe_all_parked)
}  // namespace

using sim_detail::actor_state;

struct sim_platform::impl {
  actor_state driver;
  std::vector<std::unique_ptr<actor_state>> workers;
  std::vector<std::unique_ptr<actor_state>> services;  // platform.hpp 18
  std::vector<sg::ActorPtr> actors;
  std::vector<std::uint32_t> per_core;
  double time_limit_s = 3600;
  double driver_done_s = 0;  // simulated clock when the driver returned
  bool driver_done = false;
  bool ran = false;
};

namespace {
// What sim_platform::prepare made: never deleted (SimGrid's engine cannot be torn down and made
// again within a process); inherited by the children this process forks.
sg::Engine* prepared_engine = nullptr;
std::string prepared_factory;           // the context factory it was made with
std::vector<sg::Host*> prepared_hosts;  // one host per modeled core
double prepared_speed = 0;              // their speed: the machine's clock, in Hz
bool simulated = false;                 // a sim_platform was made in this process
bool reusable = false;                  // ... and its run ended with no actor left: another may follow

// SimGrid 3.32 cannot reset its engine. Once a run has ended with no actor, no activity and
// no timer left, its clock is all that remains of it; setting it back to 0 (engine_access.hpp)
// makes the next run start from the state a fresh engine has, so that it is the run a fresh
// process makes, bit for bit (tests/sim/batch_test.cpp compares the event hashes).

void check_factory(const std::string& f) {
  if (f != "raw" && f != "boost" && f != "ucontext" && f != "thread")
    throw config_error("unknown context factory '" + f + "' (known: raw, boost, ucontext, thread)");
}

constexpr double heartbeat_s = 1e6;  // the heartbeat actor's period (run): simulated seconds

// Under AddressSanitizer: SimGrid switches actors' stacks without telling it, so when a killed
// actor's stack unwinds from a simcall, ASan cannot clear the redzones of the frames it leaves
// (it finds no stack it knows), and the rethrow below, whose runtime first calls
// sigaltstack with a local on that same stack, can land on one and report an overflow that is
// not there. The frames below this one are dead by then: their shadow is cleared first.
void forget_dead_frames() {
#if defined(__SANITIZE_ADDRESS__)
  constexpr std::size_t below = 64 * 1024;  // far less than an actor's stack (prepare: 1 MiB), far more than a flush's frames
  char* here = static_cast<char*>(__builtin_frame_address(0));
  __asan_unpoison_memory_region(here - below, below);
#endif
}

unsigned modeled_cores(const machine_model& m, const sim_config& c) {
  const unsigned cores = c.cores ? c.cores : m.cores();
  if (cores > sim_detail::core_set::max_cores)  // a machine file may describe more than the cache model tracks
    throw config_error("machine '" + m.name + "' has " + std::to_string(cores) +
                       " cores; the simulator's cache model tracks at most " + std::to_string(sim_detail::core_set::max_cores));
  return cores;
}
}  // namespace

void sim_platform::prepare(const machine_model& m, const sim_config& c) {
  check_factory(c.context_factory);
  const unsigned cores = modeled_cores(m, c);
  const double speed = m.clock_ghz * 1e9;
  if (prepared_engine) {
    if (prepared_factory != c.context_factory || prepared_hosts.size() != cores || prepared_speed != speed)
      throw std::logic_error("SimGrid's engine of this process was prepared for " + std::to_string(prepared_hosts.size()) +
                             " cores at " + std::to_string(prepared_speed) + " Hz, context factory " + prepared_factory + "; not " +
                             std::to_string(cores) + " at " + std::to_string(speed) + " Hz, " + c.context_factory);
    return;
  }
  xbt_log_control_set("root.thresh:critical");
  // Configuration goes through argv: some keys only exist once the engine initializes.
  static std::string cfg_factory, cfg_stack = "--cfg=contexts/stack-size:1024";  // KiB per actor
  cfg_factory = "--cfg=contexts/factory:" + c.context_factory;
  static char name[] = "twinsched-sim";
  static char log[] = "--log=root.thresh:critical";
  static char* argv[] = {name, log, cfg_factory.data(), cfg_stack.data(), nullptr};
  static int argc = 4;
  prepared_engine = new sg::Engine(&argc, argv);
  prepared_factory = c.context_factory;
  // One single-core host per modeled core. The first zone also makes SimGrid's host, CPU and
  // network models: most of what a small simulation costs before it runs.
  sg::NetZone* zone = sg::create_full_zone("machine");
  for (unsigned i = 0; i < cores; ++i) prepared_hosts.push_back(zone->create_host("core-" + std::to_string(i), speed));
  zone->seal();
  prepared_speed = speed;
  // Each solve dates the actions begun before it: the lookahead may move the clock again.
  sg::Engine::on_time_advance_cb([](double) { sim_detail::g.unsolved_waits = 0; });
}

sim_platform::sim_platform(const machine_model& m, const sim_config& c) : impl_(std::make_unique<impl>()) {
  if (simulated && !reusable)
    throw std::logic_error("one simulation per process after a run that did not end cleanly (SimGrid's engine cannot be reset)");
  prepare(m, c);  // or reuse what this process's parent prepared before forking it
  if (simulated) sim_detail::engine_access::set_clock(0);  // the previous run left nothing else behind
  reusable = false;
  cores_ = unsigned(prepared_hosts.size());
  simulated = true;
  // Keep the machine's socket layout; more cores than it has widen each socket.
  std::uint32_t per_socket = cores_ <= m.cores() ? m.cores_per_socket : (cores_ + m.sockets - 1) / m.sockets;

  sim_detail::g = sim_detail::state{};
  sim_detail::g.fine = c.fine;
  sim_detail::g.quantum = c.quantum_ns > 0 ? c.quantum_ns : m.quantum_ns;
  sim_detail::g.cores_per_socket = per_socket;
  sim_detail::g.clock_ghz = m.clock_ghz;
  sim_detail::g.load = m.atomic_load;
  sim_detail::g.store = m.atomic_store;
  sim_detail::g.rmw = m.atomic_rmw;
  sim_detail::g.fence = m.fence;
  sim_detail::g.same = m.line_same_socket;
  sim_detail::g.cross = m.line_cross_socket;
  sim_detail::g.per_kib = m.migration_per_kib;
  sim_detail::g.handoff = m.lock_handoff;
  sim_detail::g.contended_unlock = m.contended_unlock;
  sim_detail::g.queue_op = {m.queue_op, m.locked_queue_op};  // queue_kind order
  sim_detail::g.park = m.park;
  sim_detail::g.unpark = m.unpark;
  sim_detail::g.block_cpu = m.block_cpu;
  sim_detail::g.wake = m.wake_latency;
  sim_detail::g.wake_quantiles = m.wake_latency_quantiles;
  sim_detail::g.timer_late_quantiles = m.timer_late_quantiles;
  sim_detail::g.spin = m.spin;
  sim_detail::g.yield = m.yield;
  sim_detail::g.burn_call = m.burn_call;
  sim_detail::g.runtime = {m.message, m.turn, m.envelope, m.mailbox_push, m.mailbox_pop};  // runtime_op order
  sim_detail::g.cur = &impl_->driver;
  impl_->time_limit_s = c.time_limit_s;
  sim_detail::g.limit_s = std::min(c.time_limit_s, heartbeat_s);  // the lookahead overtakes neither
  sim_detail::g.lookahead = c.lookahead;
  sim_detail::g.max_points = c.max_points;
  if (c.schedule.active()) {
    schedule_ = std::make_unique<sim_detail::schedule_perturbation>(c.schedule);
    sim_detail::g.schedule = schedule_.get();
  }
  sim_detail::g.slow_points = c.fine || sim_detail::g.schedule;
  impl_->per_core.assign(cores_, 0);
  if (m.private_cache_kib > 0 && m.cold_actor > 0) {
    cache_bytes_ = double(m.private_cache_kib) * 1024.0;
    cold_actor_ = m.cold_actor;
    memory_load_ = m.memory_load > 0 ? m.memory_load : m.cold_actor;
    streams_ = m.stream_load > 0;
    stream_load_ = std::min(m.stream_load, memory_load_);
    last_read_slot_.assign(cores_, no_stream);
    last_cold_actor_.assign(cores_, no_stream);
    lru_.assign(cores_, lru{});
    if (m.shared_cache_kib > 0) {  // llc_actor 0: a hit there costs nothing beyond the other terms
      shared_bytes_ = double(m.shared_cache_kib) * 1024.0;
      llc_actor_ = m.llc_actor;
    }
  }
}

sim_platform::~sim_platform() = default;

bool sim_platform::can_simulate_again() { return !simulated || reusable; }

void sim_platform::run(std::function<void()> driver) {
  if (impl_->ran) throw std::logic_error("sim_platform::run: once per platform");
  impl_->ran = true;
  impl* I = impl_.get();
  running_platform = this;
  sim_detail::g.on_maybe_all_parked = &sim_platform::on_maybe_all_parked;
  sim_detail::g.on_points_spent = &sim_platform::on_points_spent;
  sim_detail::g.made_runnable_s = 0;  // every actor starts runnable at 0
  sim_detail::g.actors[0] = &I->driver;
  sg::Actor::create("driver", prepared_hosts[0], [this, I, driver = std::move(driver)] {
    I->driver.actor = sg::Actor::self();
    sim_detail::resume(&I->driver);
    try {
      driver();
      I->driver_done_s = sg::Engine::get_clock();
      I->driver_done = true;
    } catch (const simgrid::ForcefulKillException&) {
      forget_dead_frames();
      throw;
    } catch (const std::exception& e) {
      abort_run(std::string("driver failed: ") + e.what());
    } catch (...) {
      abort_run("driver failed: unknown exception");
    }
  });
  // A daemon that is always waiting on a timer: with it, a run where every worker blocks
  // forever (a lost wake-up) is never a SimGrid "deadlock" (which kills the actors, unwinding
  // their stacks through models/ code); simulated time just runs to the limit instead.
  sg::Actor::create("heartbeat", prepared_hosts[0], [] {
    for (;;) sg::this_actor::sleep_for(heartbeat_s);
  })->daemonize();
  prepared_engine->run_until(I->time_limit_s);
  // run_until leaves the clock at the limit even when the driver returned long before it.
  stats_.sim_ns = (sim_detail::g.aborting ? abort_clock_s_ : I->driver_done ? I->driver_done_s : sg::Engine::get_clock()) * 1e9;
  if (!I->driver_done && !sim_detail::g.aborting) {
    unsigned parked = 0, running = 0;
    for (auto& w : I->workers)
      if (!w->finished) ++(w->parked ? parked : running);
    // Every worker is blocked or halted: the report reads their state as the driver (no
    // charges, no scheduling points: sim_detail::point ignores the driver).
    std::string state;
    if (state_report_) {
      sim_detail::g.cur = &I->driver;
      state = "; the state at the limit:\n" + state_report_();
    }
    abort_run("simulated time limit of " + std::to_string(I->time_limit_s) + " s reached with " + std::to_string(parked) +
              " workers parked and " + std::to_string(running) + " still running (a lost wake-up, or a livelock?)" + state);
  }
  stats_.event_hash = sim_detail::g.hash;
  stats_.flushes = sim_detail::g.flushes;
  stats_.lookahead_skips = sim_detail::g.skipped;
  stats_.hand_offs = sim_detail::g.hand_offs;
  stats_.holds = sim_detail::g.holds;
  stats_.blocks = sim_detail::g.blocks;
  stats_.contended_locks = sim_detail::g.contended_locks;
  stats_.points = sim_detail::g.points;
  if (schedule_) stats_.preemptions = schedule_->applied();
  stats_.aborted = !I->driver_done;
  // A run that was aborted leaves halted workers (and the scheduler they point into) behind.
  reusable = I->driver_done && !sim_detail::g.aborting && prepared_engine->get_actor_count() == 0;
}

std::uint64_t sim_platform::now_ns() const {
  const actor_state* me = sim_detail::g.cur;
  double t = me->core < 0 ? sg::Engine::get_clock() * 1e9 : sim_detail::local_ns(me);
  return std::uint64_t(std::llround(t));
}

void sim_platform::yield_now() {
  actor_state* me = sim_detail::g.cur;
  if (me->core < 0) return;
  me->idle = true;  // not_before (cost_model.hpp)
  me->pending_ns += sim_detail::g.yield;
  sim_detail::flush();  // give the core away: on a shared core the others run meanwhile
}

void sim_platform::start_worker(int index, std::function<void()> fn) {
  impl* I = impl_.get();
  auto st = std::make_unique<actor_state>();
  ++sim_detail::g.live_workers;  // the all-parked check (cost_model.hpp)
  if (schedule_) st->pending_ns += schedule_->start_delay(index);  // pct: initial priorities
  st->worker = index;
  sim_detail::enter(st.get());
  st->dither = std::uint64_t(index);
  st->wake_draws = splitmix64(0x77616b65ull + std::uint64_t(index));  // its own wake-up sequence
  sim_detail::next_yield_at(st.get());
  st->core = int(unsigned(index) % cores_);
  st->socket = int(unsigned(st->core) / sim_detail::g.cores_per_socket);
  if (++I->per_core[unsigned(st->core)] > 1) {
    sim_detail::g.shared_cores = true;  // work on a shared core ends when SimGrid's sharing says: no lookahead
    for (auto& w : I->workers)
      if (w->core == st->core) w->shared_core = true;
  }
  st->shared_core = I->per_core[unsigned(st->core)] > 1;
  actor_state* s = st.get();
  I->workers.push_back(std::move(st));
  actor_state* caller = sim_detail::g.cur;
  sim_detail::made_runnable();  // before the simcall: the new actor may run before its creator returns
  sg::ActorPtr a = sg::Actor::create("worker-" + std::to_string(index), prepared_hosts[unsigned(s->core)], [this, I, s, fn = std::move(fn)] {
    s->actor = sg::Actor::self();
    sim_detail::resume(s);
    try {
      fn();
      if (s->pending_ns > 0) sim_detail::flush();  // the run ends when the last charge is paid
    } catch (const simgrid::ForcefulKillException&) {
      forget_dead_frames();
      throw;
    } catch (const std::exception& e) {
      abort_run("worker " + std::to_string(s->worker) + " failed: " + e.what());
    } catch (...) {
      abort_run("worker " + std::to_string(s->worker) + " failed: unknown exception");
    }
    s->finished = true;
    sim_detail::made_runnable();  // its joiner
    --sim_detail::g.live_workers;
    sim_detail::check_all_parked();
    // A retired worker (adaptive) frees its share of the core.
    if (--I->per_core[unsigned(s->core)] <= 1)
      for (auto& w : I->workers)
        if (w->core == s->core) w->shared_core = false;
  });
  a->daemonize();
  I->actors.push_back(a);
  sim_detail::g.cur = caller;  // Actor::create was a simcall
}

void sim_platform::start_service(std::function<void()> fn) {
  impl* I = impl_.get();
  auto st = std::make_unique<actor_state>();
  st->service = true;  // worker and core stay -1: outside simulated time, like the driver
  sim_detail::enter(st.get());
  st->wake_draws = splitmix64(0x73657276ull);  // apart from every worker's
  actor_state* s = st.get();
  I->services.push_back(std::move(st));
  ++sim_detail::g.services_awake;
  actor_state* caller = sim_detail::g.cur;
  sim_detail::made_runnable();  // before the simcall: the new actor may run before its creator returns
  sg::ActorPtr a = sg::Actor::create("service", prepared_hosts[0], [this, s, fn = std::move(fn)] {
    s->actor = sg::Actor::self();
    sim_detail::resume(s);
    try {
      fn();
    } catch (const simgrid::ForcefulKillException&) {
      forget_dead_frames();
      throw;
    } catch (const std::exception& e) {
      abort_run(std::string("the runtime's service failed: ") + e.what());
    } catch (...) {
      abort_run("the runtime's service failed: unknown exception");
    }
    s->finished = true;
    sim_detail::made_runnable();
    --sim_detail::g.services_awake;
    sim_detail::check_all_parked();
  });
  a->daemonize();
  I->actors.push_back(a);
  sim_detail::g.cur = caller;  // Actor::create was a simcall
}

void sim_platform::join_workers() {
  actor_state* me = sim_detail::g.cur;
  sim_detail::g.driver_waiting = true;  // every initial worker is launched: the all-parked check may judge
  sim_detail::check_all_parked();
  for (auto& a : impl_->actors) {
    a->join();
    sim_detail::resume(me);
  }
  impl_->actors.clear();
}

void sim_platform::trace(const trace_event& ev) {
  ++stats_.trace_events;
  if (recorder_) recorder_->lane(ev.worker).push_exact(ev);
  sim_detail::mix(ev.time_ns ^ (ev.message * 0x9e3779b97f4a7c15ull) ^ (std::uint64_t(ev.actor) << 20) ^
                  (std::uint64_t(ev.other) << 40) ^ (std::uint64_t(ev.worker) << 52) ^ (std::uint64_t(ev.kind) << 60));
}

void sim_platform::migrate_state(unsigned from_worker, unsigned to_worker, std::uint32_t bytes, behavior_at where) {
  actor_state* me = sim_detail::g.cur;
  if (me->core < 0) return;
  unsigned from = from_worker % cores_, to = to_worker % cores_;
  if (from == to) return;
  ++stats_.migrations;
  const double line = sim_detail::transfer(int(from), int(to));  // same- or cross-socket
  charge(line * (where == behavior_at::in_cell ? in_cell_lines : actor_overhead_lines) + stream_ns(int(from), int(to), bytes));
}

double sim_platform::stream_ns(int from, int to, std::uint32_t bytes) {
  const double stream = sim_detail::g.per_kib * double(bytes) / 1024.0;
  // measured within a socket: across, scaled like a line
  return sim_detail::g.same > 0 ? stream * (sim_detail::transfer(from, to) / sim_detail::g.same) : stream;
}

// The private-cache model (cold_actor). Each core keeps what its workers touched in an LRU
// list of footprints, evicting the oldest while they exceed private_cache_kib; a unit is in
// the list of the core that touched it last, or in none. An actor is two units: its cell
// (cell_bytes: the mailbox and flags, written by a push into its mailbox) and its behavior
// object with its declared state (the rest of actor_overhead_bytes + state bytes, separately
// allocated, read only by its turn). A push touches the cell; a turn both. A touch finds a
// unit cached if it is in a list, on this core or another (still cached on another core:
// moving its lines is migrate_state's and the atomics' business, so nothing is charged here);
// otherwise its lines come from memory: cold_actor, once per touch (a turn's two misses are
// independent loads and overlap). A first touch is cold (the spawn wrote the cell outside the
// run). Distinct actors, not touches, fill the cache: 1000 actors sending at random (forward)
// all stay cached in 1 MiB however long between two visits of one. Why two units: fanout-idle
// pushes to a random one of 100000 actors and runs its turn a few thousand actors later; the
// push misses on the cell, the turn on the behavior, which the push did not reach. As one
// unit the turn was found warm, and fanout-idle on 1 worker simulated far too fast. It stays
// two units for a behavior built in the cell (spawn_as), whose turn touches only the line the
// push wrote: fanout-idle's real runs did not get faster when its behaviors moved there, and
// one unit simulated them too fast where two did not (docs/ACCURACY.md, "Figures behind the
// code"): in the real runs the turn, a few thousand actors after the push, misses again on
// what the push brought.
// Nothing is recorded when the machine has no private_cache_kib or no cold_actor cost.
// With a shared level (shared_cache_kib and llc_actor), every touch also goes to the head of
// one LRU list for the whole machine; a touch that misses the private lists but finds its
// units there costs llc_actor instead of cold_actor (calibrate finds the shared level's size
// and cost from a random walk's latency curve).
void sim_platform::unlink(lru& l, place touch::*which, std::uint32_t unit) {
  place& t = unit_touch(unit).*which;
  (t.prev == no_unit ? l.head : (unit_touch(t.prev).*which).next) = t.next;
  (t.next == no_unit ? l.tail : (unit_touch(t.next).*which).prev) = t.prev;
  l.bytes -= unit_touch(unit).footprint;
  t.prev = t.next = no_unit;
  t.in = false;
}

void sim_platform::link_front(lru& l, place touch::*which, std::uint32_t unit, double capacity) {
  place& t = unit_touch(unit).*which;
  t.in = true;
  t.next = l.head;
  (l.head == no_unit ? l.tail : (unit_touch(l.head).*which).prev) = unit;
  l.head = unit;
  l.bytes += unit_touch(unit).footprint;
  while (l.bytes > capacity && l.tail != unit) unlink(l, which, l.tail);  // a unit larger than the cache stays alone
}

bool sim_platform::touch_unit(std::uint32_t unit, double footprint, bool& from_memory) {
  auto& v = touches_of(unit);
  if (const std::size_t i = unit & ~envelope_unit; i >= v.size()) v.resize(i + 1 + v.size() / 2);
  touch& t = unit_touch(unit);
  const bool missed = !t.priv.in, in_shared = t.shared.in;
  if (!missed) unlink(lru_[t.core], &touch::priv, unit);
  if (in_shared) unlink(shared_lru_, &touch::shared, unit);
  t.core = unsigned(sim_detail::g.cur->core);
  t.footprint = footprint;
  link_front(lru_[t.core], &touch::priv, unit, cache_bytes_);
  if (shared_bytes_ > 0) link_front(shared_lru_, &touch::shared, unit, shared_bytes_);
  from_memory |= missed && !in_shared;
  return missed;
}

void sim_platform::touch_state(std::uint32_t actor, std::uint32_t bytes, touch_at at) {
  actor_state* me = sim_detail::g.cur;
  if (cache_bytes_ == 0 || me->core < 0) return;
  bool from_memory = false;
  bool cold = touch_unit(2 * actor, cell_bytes, from_memory);
  const double footprint = at == touch_at::turn ? actor_overhead_bytes + double(bytes) : cell_bytes;
  if (at == touch_at::turn) cold |= touch_unit(2 * actor + 1, footprint - cell_bytes, from_memory);
  if (!cold) return;
  // Actors made one after another lie one after another in the arena: a miss on the actor
  // next to the one this core missed on last (fjcreate's 40000 actors, run in the reverse of
  // their spawning) is a stream too, its lines prefetched, and leaves a run of envelope reads
  // running. A miss elsewhere (fanout-idle's random actors) ends it.
  std::uint32_t& last = last_cold_actor_[unsigned(me->core)];
  const bool streamed = streams_ && last != no_stream && (actor == last + 1 || actor + 1 == last);
  last = actor;
  const double cost = from_memory ? cold_actor_ : llc_actor_;
  if (streamed) {
    me->pending_ns += std::min(cost, stream_load_ * std::ceil(footprint / 64));
  } else {
    me->pending_ns += cost;
    last_read_slot_[unsigned(me->core)] = no_stream;
  }
}

// An envelope is one line, a unit of its own in the same lists. The send's write is free (the
// store buffer hides its miss, and a burst of sends' misses overlap); the turn's read, which
// the message's processing waits for, pays llc_actor from the shared level, memory_load from
// memory, if the line left this core's cache since. A FIFO queue or a recycled envelope finds
// it warm; a LIFO deque that buries messages under many newer ones (stealing on fanout-idle:
// 400000 messages queued before most are read) does not. memory_load, not cold_actor: an
// actor's queued messages are a linked list, each envelope's address in the one before (the
// first's in the cell), so their misses come one after another, with nothing to overlap them;
// cold_actor is calibrated on a ring whose turns' misses overlap: stealing on fanout-idle
// simulated half its real time with cold_actor for its envelope reads (docs/ACCURACY.md).
// Except a run of envelope reads with no other miss between them, each envelope next to the
// one before (slot +-1: a worker's pool hands out each batch of slots in descending order, so
// a burst read in the order it was sent walks down within a batch and up across batches): an
// actor draining a long mailbox (count's million messages to one actor) reads adjacent lines
// and nothing else from memory, and the hardware prefetcher streams them in. Such a read costs
// stream_load. A turn that missed on its actor (touch_state) ends the run: fanout-idle's LIFO
// deque also reads adjacent envelopes, one per turn of a cold actor, and its measured runs fit
// memory_load.
void sim_platform::touch_message(std::uint32_t slot, touch_at at) {
  actor_state* me = sim_detail::g.cur;
  if (cache_bytes_ == 0 || me->core < 0) return;
  bool from_memory = false;
  const bool cold = touch_unit(envelope_unit | slot, 64, from_memory);
  if (at != touch_at::turn) return;
  std::uint32_t& last = last_read_slot_[unsigned(me->core)];
  const bool streamed = streams_ && last != no_stream && (slot == last + 1 || slot + 1 == last);
  last = slot;
  if (cold) me->pending_ns += !from_memory ? llc_actor_ : streamed ? stream_load_ : memory_load_;
}

void sim_platform::touch_data(std::uint32_t slot, std::uint32_t bytes, touch_at at) {
  actor_state* me = sim_detail::g.cur;
  if (at == touch_at::push) {  // the driver's (a workload's start, before the run) records -1: free
    if (slot >= data_core_.size()) data_core_.resize(std::size_t(slot) + 1024, -1);
    data_core_[slot] = std::int16_t(me->core);
    return;
  }
  const int from = slot < data_core_.size() ? data_core_[slot] : -1;
  if (me->core < 0 || from < 0 || from == me->core) return;
  me->pending_ns += stream_ns(from, me->core, bytes);
}

std::string sim_platform::where_now() const {
  const actor_state* me = sim_detail::g.cur;
  std::string w = me && me->worker >= 0 ? ", worker " + std::to_string(me->worker) : "";
  return " (at simulated " + std::to_string(std::llround(me && me->core >= 0 ? sim_detail::local_ns(me) : sg::Engine::get_clock() * 1e9)) +
         " ns, scheduling point #" + std::to_string(sim_detail::g.points) + w + ")";
}

void sim_platform::fail(const std::string& why) {
  abort_run(why + where_now());
  sim_detail::halt();
}

/// If every live worker waits in a parker with no timeout and the driver waits for the end,
/// nothing can wake anyone, so the run is stuck now. Fails it with the state report (read as
/// the driver: no charges, no scheduling points), from the worker that parked last.
void sim_platform::on_maybe_all_parked() {
  sim_platform* self = running_platform;
  if (sim_detail::g.services_awake != 0) return;  // a timer will fire: it delivers and wakes a worker
  for (auto& w : self->impl_->workers)
    if (!w->finished && !w->untimed) return;  // someone can still run, or unpark the others
  actor_state* me = sim_detail::g.cur;
  std::string where = self->where_now();
  std::string state;
  if (self->state_report_) {
    sim_detail::g.cur = &self->impl_->driver;
    state = "; the state:\n" + self->state_report_();
    sim_detail::g.cur = me;
  }
  self->abort_run("every worker (" + std::to_string(sim_detail::g.live_workers) +
                  ") is parked with no timeout and the run is not over: a lost wake-up, or work no worker will take" +
                  where + state);
}

/// The run used up sim_config::max_points platform operations without ending: a livelock
/// (or a budget too small). Workers halt at their next yield.
void sim_platform::on_points_spent() {
  sim_platform* self = running_platform;
  self->abort_run("the run used " + std::to_string(sim_detail::g.max_points) +
                  " platform operations without ending: a livelock (or --max-operations is too small)" + self->where_now());
}

void sim_platform::abort_run(const std::string& why) {
  stats_.errors.push_back(why);
  stats_.aborted = true;
  if (sim_detail::g.aborting) return;
  sim_detail::g.aborting = true;
  sim_detail::g.slow_points = true;
  abort_clock_s_ = sg::Engine::get_clock();
  // Running workers halt at their next yield; parked ones stay blocked; the engine then runs
  // to the time limit at once (only the heartbeat's timer is left) and run() returns. No
  // actor is ever unwound: their stacks point into the scheduler.
}

}  // namespace twinsched
