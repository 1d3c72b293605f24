// Savina's BitonicSort: its sorting network of actors as a plain table, what each actor does with a
// message, and the network run sequentially (the reference), shared by the workload (bitonicsort.cpp)
// and its test. The input and the check of the output are RadixSort's (the same source and validator).
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "../../message.hpp"
#include "../../rng.hpp"
#include "radixsort.hpp"

namespace twinsched::savina_bitonicsort {

enum tag : std::uint32_t { start_tag = 1, value_tag, data_tag, exit_tag };

/// The actor kinds of Savina's network. Its wrappers (the kernel, merge stages, steps and
/// partitions) only pass what they receive to the part they built, so they are one kind here.
enum class kind : std::uint8_t {
  source,      ///< IntSourceActor: the n values, then an exit
  forward,     ///< a wrapper: a value or exit to `next`
  value_data,  ///< ValueDataAdapterActor: a value becomes data tagged `order`
  data_value,  ///< DataValueAdapterActor: data becomes a value
  splitter,    ///< RoundRobinSplitterActor: runs of `length` values to each of `outs` in turn
  joiner,      ///< RoundRobinJoinerActor: data from `count` branches, released in runs of `length`
  compare,     ///< CompareExchangeActor: each pair in, as data `order`, smaller first if `up`
  validator,   ///< ValidationActor: collects the values
};

struct node {
  kind k;
  bool up = true;
  std::uint32_t order = 0, length = 1, count = 0;
  std::uint32_t next = 0;        ///< the one actor it sends to (not the splitter)
  std::uint32_t outs_begin = 0;  ///< the splitter's receivers: network::outs[outs_begin, + count)
};

/// The whole network, built as Savina's constructors build it; node 0 is the source.
struct network {
  std::vector<node> nodes;
  std::vector<std::uint32_t> outs;
  std::uint32_t validator = 0;

  std::uint32_t add(node n) {
    nodes.push_back(n);
    return std::uint32_t(nodes.size() - 1);
  }
  std::uint32_t add_splitter(std::uint32_t length, const std::vector<std::uint32_t>& to) {
    node n{kind::splitter};
    n.length = length;
    n.count = std::uint32_t(to.size());
    n.outs_begin = std::uint32_t(outs.size());
    outs.insert(outs.end(), to.begin(), to.end());
    return add(n);
  }
  std::uint32_t add_joiner(std::uint32_t length, std::uint32_t branches, std::uint32_t next) {
    node n{kind::joiner};
    n.length = length;
    n.count = branches;
    n.next = next;
    return add(n);
  }
  std::uint32_t add_simple(kind k, std::uint32_t next, std::uint32_t order = 0, bool up = true) {
    node n{k};
    n.next = next;
    n.order = order;
    n.up = up;
    return add(n);
  }

  /// PartitionBitonicSequenceActor: length/2 compare-exchanges between a splitter and a joiner.
  std::uint32_t partition(std::uint32_t order, std::uint32_t length, bool up, std::uint32_t next) {
    const std::uint32_t fwd = add_simple(kind::value_data, next, order);
    const std::uint32_t join = add_joiner(1, length / 2, fwd);
    std::vector<std::uint32_t> workers;
    for (std::uint32_t i = 0; i < length / 2; ++i) workers.push_back(add_simple(kind::compare, join, i, up));
    return add_simple(kind::forward, add_splitter(1, workers));
  }
  /// A branch of a step: a partition, or for length 2 a compare-exchange alone.
  std::uint32_t branch(std::uint32_t i, std::uint32_t length, bool up, std::uint32_t join) {
    return length > 2 ? partition(i, length, up, join) : add_simple(kind::compare, join, i, up);
  }
  /// StepOfMergeActor: a branch's direction alternates every `dir_counter` branches.
  std::uint32_t step_of_merge(std::uint32_t length, std::uint32_t parts, std::uint32_t dir_counter, std::uint32_t next) {
    const std::uint32_t join = add_joiner(length, parts, add_simple(kind::data_value, next));
    std::vector<std::uint32_t> workers;
    for (std::uint32_t i = 0; i < parts; ++i) workers.push_back(branch(i, length, (i / dir_counter) % 2 == 0, join));
    return add_simple(kind::forward, add_splitter(length, workers));
  }
  /// StepOfLastMergeActor: every branch one direction, its joiner straight to `next`.
  std::uint32_t step_of_last_merge(std::uint32_t length, std::uint32_t parts, bool up, std::uint32_t next) {
    const std::uint32_t join = add_joiner(length, parts, next);
    std::vector<std::uint32_t> workers;
    for (std::uint32_t i = 0; i < parts; ++i) workers.push_back(branch(i, length, up, join));
    return add_simple(kind::forward, add_splitter(length, workers));
  }
  /// MergeStageActor: sorts runs of p, alternately up and down, in log2(p) steps (lengths p ... 2).
  std::uint32_t merge_stage(std::uint32_t p, std::uint32_t n, std::uint32_t next) {
    for (std::uint32_t i = p / 2; i >= 1; i /= 2) next = step_of_merge(p / i, n / p * i, i, next);
    return add_simple(kind::forward, next);
  }
  /// LastMergeStageActor: merges the bitonic whole in log2(n) steps.
  std::uint32_t last_merge_stage(std::uint32_t n, bool up, std::uint32_t next) {
    for (std::uint32_t i = n / 2; i >= 1; i /= 2) next = step_of_last_merge(n / i, i, up, next);
    return add_simple(kind::forward, next);
  }
  /// BitonicSortKernelActor: merge stages 2, 4, ..., n/2, then the last.
  std::uint32_t kernel(std::uint32_t n, bool up, std::uint32_t next) {
    next = last_merge_stage(n, up, next);
    for (std::uint32_t i = n / 2; i >= 2; i /= 2) next = merge_stage(i, n, next);
    return add_simple(kind::forward, next);
  }
};

/// Savina's network for n values (a power of two), sorting up: source, kernel, an adapter, the validator.
inline network build(std::uint32_t n) {
  network net;
  net.add(node{kind::source});
  net.validator = net.add(node{kind::validator});
  net.nodes[0].next = net.kernel(n, true, net.add_simple(kind::data_value, net.validator));
  return net;
}

/// One actor's changing state.
struct state {
  /// A joiner's queue for one branch (Savina's ListBuffer).
  struct fifo {
    std::vector<std::uint64_t> v;
    std::size_t head = 0;
  };
  std::uint64_t k1 = 0;
  bool has_k1 = false;
  std::uint32_t index = 0, run = 0, exits = 0;
  std::vector<fifo> queues;
};

/// What actor `self` does with `m`: calls send(to, message) for each message it sends, pushes a
/// value the validator receives onto `out`; returns true when the actor is done (Savina's exit()).
template <class Send>
bool step(const network& net, std::uint32_t self, state& st, const message& m, const std::vector<std::uint64_t>& input,
          std::vector<std::uint64_t>& out, Send&& send) {
  const node& n = net.nodes[self];
  auto value = [](std::uint64_t v) { return message{v, 0, value_tag}; };
  auto data = [](std::uint32_t order, std::uint64_t v) { return message{v, order, data_tag}; };
  const message exit{0, 0, exit_tag};
  switch (n.k) {
    case kind::source:
      for (std::uint64_t v : input) send(n.next, value(v));
      send(n.next, exit);
      return true;
    case kind::forward:
      send(n.next, m);
      return m.tag == exit_tag;
    case kind::value_data:
      send(n.next, m.tag == value_tag ? data(n.order, m.a) : m);
      return m.tag == exit_tag;
    case kind::data_value:
      send(n.next, m.tag == data_tag ? value(m.a) : m);
      return m.tag == exit_tag;
    case kind::splitter:
      if (m.tag == exit_tag) {
        for (std::uint32_t i = 0; i < n.count; ++i) send(net.outs[n.outs_begin + i], exit);
        return true;
      }
      send(net.outs[n.outs_begin + st.index], m);
      if (++st.run == n.length) st.index = (st.index + 1) % n.count, st.run = 0;
      return false;
    case kind::joiner:
      if (m.tag == exit_tag) {
        if (++st.exits < n.count) return false;
        send(n.next, exit);
        return true;
      }
      if (st.queues.empty()) st.queues.resize(n.count);
      st.queues[m.b].v.push_back(m.a);
      for (;;) {
        auto& q = st.queues[st.index];
        if (q.head == q.v.size()) break;
        send(n.next, value(q.v[q.head++]));
        if (q.head == q.v.size()) q.v.clear(), q.head = 0;
        if (++st.run == n.length) st.index = (st.index + 1) % n.count, st.run = 0;
      }
      return false;
    case kind::compare:
      if (m.tag == exit_tag) {
        send(n.next, exit);
        return true;
      }
      if (!st.has_k1) {
        st.k1 = m.a;
        st.has_k1 = true;
      } else {
        st.has_k1 = false;
        const std::uint64_t lo = std::min(st.k1, m.a), hi = std::max(st.k1, m.a);
        send(n.next, data(n.order, n.up ? lo : hi));
        send(n.next, data(n.order, n.up ? hi : lo));
      }
      return false;
    case kind::validator:
      if (m.tag == value_tag) out.push_back(m.a);
      return m.tag == exit_tag;
  }
  return false;
}

/// What a message adds to its receiver's sum: the message and the receiver, in any order of runs.
inline std::uint64_t message_value(std::uint32_t self, const message& m) {
  return splitmix64(m.a ^ splitmix64(m.b ^ std::uint64_t(m.tag) << 32 ^ std::uint64_t(self) << 40));
}

/// The network run sequentially, one global first-in first-out queue (each sender's messages in
/// order, as the actors see them): the messages processed, their sum of message_value, and what
/// the validator received.
struct run_result {
  std::uint64_t messages = 0, acc = 0;
  std::vector<std::uint64_t> out;
};
inline run_result run_sequentially(const network& net, const std::vector<std::uint64_t>& input) {
  run_result r;
  std::vector<state> states(net.nodes.size());
  std::deque<std::pair<std::uint32_t, message>> queue{{0u, message{0, 0, start_tag}}};
  while (!queue.empty()) {
    auto [to, m] = queue.front();
    queue.pop_front();
    ++r.messages;
    r.acc += message_value(to, m);
    step(net, to, states[to], m, input, r.out, [&](std::uint32_t t, const message& x) { queue.emplace_back(t, x); });
  }
  return r;
}

}  // namespace twinsched::savina_bitonicsort
