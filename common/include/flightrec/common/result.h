#pragma once
// The one way a function reports a recoverable error: a Result<T> holds either the value or an
// Error whose message is one line naming what was wrong (the file, flag, key or byte offset) and
// why. std::expected would do, but it is C++23 and clang 14's tidy cannot parse libstdc++ 12's.
// Callers test it (`if (!result)`), then read `*result` or `result.error()`; a Result is never
// dropped unread ([[nodiscard]]).
#include <string>
#include <utility>
#include <variant>

namespace flightrec {

// The failure side of a Result: built with `Error{"what was wrong"}` and converted to any Result.
struct Error {
  std::string message;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value)
      : state_(std::in_place_index<0>, std::move(value)) {
  }  // implicit, so a function returns a T or an Error
  Result(Error error)
      : state_(std::in_place_index<1>, std::move(error)) {
  }  // implicit, so a function returns a T or an Error

  [[nodiscard]] bool ok() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  // The value; only after ok() said true.
  [[nodiscard]] T& value() & { return std::get<0>(state_); }
  [[nodiscard]] const T& value() const& { return std::get<0>(state_); }
  [[nodiscard]] T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // The message; only after ok() said false.
  [[nodiscard]] const std::string& error() const& { return std::get<1>(state_).message; }
  [[nodiscard]] std::string&& error() && { return std::move(std::get<1>(state_).message); }

 private:
  std::variant<T, Error> state_;
};

// A step with no value to return: success, or the Error that stopped it.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error)
      : error_(std::move(error.message)),
        failed_(true) {}  // implicit, so a function returns a T or an Error

  [[nodiscard]] bool ok() const noexcept { return !failed_; }
  explicit operator bool() const noexcept { return ok(); }
  [[nodiscard]] const std::string& error() const& { return error_; }
  [[nodiscard]] std::string&& error() && { return std::move(error_); }

 private:
  std::string error_;
  bool failed_ = false;
};

using Status = Result<void>;

}  // namespace flightrec
