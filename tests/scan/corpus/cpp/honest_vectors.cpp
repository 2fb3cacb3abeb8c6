// expect: clean
// Honest C++: containers, algorithms, std::bind, threads.  Traps:
// system(), fork(), asm in comments; R"(...)" raw strings with them.
#include <algorithm>
#include <functional>
#include <iostream>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

struct Stats {
    long system_total = 0;
    int socket_count = 0;
    int connect(int x) { return x + socket_count; }
};

static std::string execute_query(const std::string &q) { return "ok: " + q; }

int main()
{
    std::vector<long> v;
    long x;
    while (std::cin >> x)
        v.push_back(x);
    std::sort(v.begin(), v.end());
    auto add = std::bind(std::plus<long>(), std::placeholders::_1, 1);
    Stats st;
    st.system_total = std::accumulate(v.begin(), v.end(), 0L);
    std::thread t([&] { st.socket_count = st.connect(2); });
    t.join();
    const char *raw = R"(asm volatile("syscall"); system("sh"); fork();)";
    std::cout << add(st.system_total) << ' ' << st.socket_count << ' ' << execute_query("x") << ' '
              << raw << '\n';
    return 0;
}
