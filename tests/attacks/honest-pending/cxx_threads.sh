# honest: cxx_threads
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a C++17 submission (std::thread x8, std::mutex, std::atomic, iostream, vector/sort/map/string) compiled by the grader with g++ and run under the seed profile; prints cxx-ok with known values
# ok-if: out_has "cxx-ok 8 threads 8000000 sum 1499985000000 sorted 1 words 3"
# The suite only compiles C, so the grader's compile step is the eval'd args:
# line (the C++ source is the part of this file after "exit 3"); it runs on
# the runner's side before each run and passes nothing to the program.
# args: $(sed '1,/^exit 3$/d' "$file" | g++ -std=c++17 -O2 -pthread -x c++ -o "$CWD/cxx_threads" - >"$RUN/cxx.log" 2>&1)
exec ./cxx_threads
exit 3
#include <algorithm>
#include <atomic>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

int main()
{
	std::atomic<long> hits{0};
	std::mutex m;
	std::vector<long> parts;
	std::vector<std::thread> ts;
	for (int t = 0; t < 8; t++)
		ts.emplace_back([&, t] {
			long s = 0;
			for (long i = t; i < 30000000; i += 8)
				s += i % 100000;
			for (int i = 0; i < 1000000; i++)
				if (i % 2)
					hits.fetch_add(2, std::memory_order_relaxed);
			std::lock_guard<std::mutex> g(m);
			parts.push_back(s);
		});
	for (auto &t : ts)
		t.join();
	long total = 0;
	for (long p : parts)
		total += p;
	std::vector<int> v;
	for (int i = 0; i < 100000; i++)
		v.push_back((i * 7919) % 100003);
	std::sort(v.begin(), v.end());
	std::map<std::string, int> words;
	std::istringstream in("to be or not to be or");
	for (std::string w; in >> w;)
		words[w]++;
	std::cout << "cxx-ok " << ts.size() << " threads " << hits.load() << " sum " << total << " sorted "
		  << std::is_sorted(v.begin(), v.end()) << " words " << words["or"] + words["not"] << std::endl;
	return 0;
}
