# honest: compile_sandboxed
# flags: --no-network --clean-env --cpu 5 --mem 256 --landlock
# variant: isolate_tmp | --no-network --clean-env --cpu 5 --mem 256 --landlock --isolate-tmp | landlock+isolate-tmp
# variant: - | --no-network --clean-env --cpu 5 --mem 256 | no-landlock
# evidence: the grader's compile step run sandboxed: gcc and g++ (cc1/cc1plus, as, collect2, ld: forking profile, Landlock defaults, temporary files in TMPDIR) build a C and a C++ submission into the working directory, then run them; the runner checks both binaries in CWD and their output
# ok-if: [ -x "$CWD/sub_c" ] && [ -x "$CWD/sub_cxx" ] && out_has "c says 42" && out_has "c++ says 42 [a b c]"
set -e
printf '%s\n' '#include <stdio.h>' 'int main(void) { printf("c says %d\n", 6 * 7); return 0; }' >sub.c
printf '%s\n' '#include <iostream>' '#include <vector>' '#include <string>' \
	'int main() { std::vector<std::string> v{"a", "b", "c"}; std::cout << "c++ says " << 6 * 7 << " [";' \
	'for (size_t i = 0; i < v.size(); i++) std::cout << (i ? " " : "") << v[i]; std::cout << "]" << std::endl; }' >sub.cpp
gcc -O2 -Wall -o sub_c sub.c -lm
g++ -O2 -Wall -std=c++17 -o sub_cxx sub.cpp
./sub_c
./sub_cxx
