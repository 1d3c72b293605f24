// Delta debugging (Zeller and Hildebrandt's ddmin): the smallest part of a failing input that still fails.
//
// ddmin splits the list into n parts and tests each part, then each complement (the list
// without one part); the first that fails becomes the list. When none fails it doubles n,
// up to one element a part, where testing every complement proves the result 1-minimal:
// removing any single element of it makes the failure go away. A batch of candidates is
// tested together (explore runs them in parallel) and the first failing one in batch order
// wins, so the result and every batch tried depend only on the input and the test.
#pragma once
#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace twinsched::explore {

/// `first_failing(candidates)` tests a batch and returns the index of the first candidate
/// (in the batch's order) that still fails, or nullopt. Returns the 1-minimal list; an empty
/// one if the failure needs none of the elements (tested when one is left).
template <class T, class FirstFailing>
std::vector<T> ddmin(std::vector<T> list, FirstFailing&& first_failing) {
  std::size_t n = 2;
  while (list.size() >= 2) {
    const std::size_t size = list.size();
    n = std::min(n, size);
    std::vector<std::vector<T>> parts(n), complements(n);
    for (std::size_t i = 0; i < size; ++i) parts[i * n / size].push_back(list[i]);
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < n; ++j)
        if (j != k) complements[k].insert(complements[k].end(), parts[j].begin(), parts[j].end());
    if (auto i = first_failing(parts)) {
      list = parts[*i];
      n = 2;
    } else if (auto j = n > 2 ? first_failing(complements) : std::nullopt) {
      list = complements[*j];
      n = std::max<std::size_t>(n - 1, 2);
    } else if (n >= size) {
      break;
    } else {
      n = std::min(size, 2 * n);
    }
  }
  if (list.size() == 1 && first_failing(std::vector<std::vector<T>>(1))) list.clear();  // fails with none at all
  return list;
}

}  // namespace twinsched::explore
