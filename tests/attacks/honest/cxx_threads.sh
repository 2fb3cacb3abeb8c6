# honest: cxx_threads
# flags: --landlock --no-network --clean-env --cpu 5 --mem 256
# variant: - | --no-network --clean-env --cpu 5 --mem 256 | no-landlock
# evidence: a C++17 submission compiled sandboxed (g++ into the working directory) and run: 4 std::thread workers with std::mutex, std::vector, std::sort, std::cout/iostream; the runner checks the binary and its output
# ok-if: [ -x "$CWD/solution" ] && out_has "cxx-ok 4 threads sum=2000000 sorted=1"
set -eu
cat >solution.cpp <<'SRC'
#include <algorithm>
#include <iostream>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>
int main() {
    std::mutex mu;
    long sum = 0;
    std::vector<std::thread> ts;
    for (int t = 0; t < 4; t++)
        ts.emplace_back([&] { for (int i = 0; i < 500000; i++) { std::lock_guard<std::mutex> g(mu); sum++; } });
    for (auto &t : ts) t.join();
    std::vector<int> v(100000);
    std::iota(v.rbegin(), v.rend(), 0);
    std::sort(v.begin(), v.end());
    std::cout << "cxx-ok " << ts.size() << " threads sum=" << sum
              << " sorted=" << std::is_sorted(v.begin(), v.end()) << std::endl;
}
SRC
g++ -std=c++17 -O2 -pthread -o solution solution.cpp
./solution
