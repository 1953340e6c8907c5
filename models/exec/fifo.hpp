// A first-in first-out queue on a ring of kept storage. A thread's store buffer fills and drains
// all the time; std::deque frees and allocates a block whenever it crosses one, this allocates only
// when it grows past the most it ever held (issue 18: no allocation per system call).
#pragma once

#include <cstddef>
#include <vector>

namespace walksim::exec {

template <class T>
class Fifo {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  T& front() { return ring_[head_]; }
  const T& front() const { return ring_[head_]; }
  // The i-th element from the front.
  const T& operator[](std::size_t i) const { return ring_[(head_ + i) & (ring_.size() - 1)]; }
  T& operator[](std::size_t i) { return ring_[(head_ + i) & (ring_.size() - 1)]; }

  void push_back(const T& v) {
    if (size_ == ring_.size()) grow();
    ring_[(head_ + size_) & (ring_.size() - 1)] = v;
    ++size_;
  }
  void pop_front() {
    head_ = (head_ + 1) & (ring_.size() - 1);
    --size_;
  }

 private:
  // Doubles the ring (a power of two, so positions wrap with a mask), keeping the order.
  void grow() {
    std::vector<T> bigger(ring_.empty() ? 4 : 2 * ring_.size());
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = (*this)[i];
    ring_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> ring_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace walksim::exec
