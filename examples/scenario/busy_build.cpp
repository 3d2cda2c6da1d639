// The scenario's red herring: a translation unit that keeps a compiler busy (and its RSS moving)
// for several seconds, as a parallel build does beside the leak. make-memory-leak.sh compiles it
// from stdin in a loop and throws the object away; nothing runs it.
#include <algorithm>
#include <map>
#include <regex>
#include <string>
#include <vector>

template <int N>
struct Stage {
  static std::map<std::string, std::vector<int>> run(const std::string& text) {
    auto words = Stage<N - 1>::run(text);
    const std::regex pattern("([a-z]+)" + std::to_string(N) + "(\\d*)");
    std::vector<int> lengths;
    for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) {
      lengths.push_back(static_cast<int>(it->length(1)) * N);
    }
    std::sort(lengths.begin(), lengths.end());
    words[std::to_string(N)] = std::move(lengths);
    return words;
  }
};

template <>
struct Stage<0> {
  static std::map<std::string, std::vector<int>> run(const std::string&) { return {}; }
};

int main(int argc, char** argv) {
  return static_cast<int>(Stage<40>::run(argc > 1 ? argv[1] : "").size());
}
