# honest: go_run
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: landlock | --no-fork --no-network --clean-env --cpu 5 --mem 256 --landlock | landlock
# setup: stdin
# evidence: a Go submission (built by the grader with go build, run as a static binary: runtime threads, GC, 8 goroutines with a WaitGroup and a mutex, map, sort, bufio stdin, a file in CWD); prints go-ok with known values (go-missing accepted only when the runner has no go either)
# ok-if: { out_has "go-ok lines 3 goroutines 8 sum 31999997 keys 1000 sorted true" && grep -qx "go wrote 3" "$CWD/go.out"; } || { out_has "go-missing" && ! [ -x /usr/local/go/bin/go ] && ! command -v go; }
# The grader's build step is the eval'd args: line (source after "exit 3"),
# with a build cache shared by the suite's runs (the first build compiles the
# standard library: several seconds once; later ones take a fraction of one).
# args: $(sed '1,/^exit 3$/d' "$file" >"$RUN/main.go" && cd "$RUN" && HOME="$BUILD" GOCACHE="$BUILD/gocache" GOPATH="$BUILD/gopath" GOFLAGS= GO111MODULE=off CGO_ENABLED=0 "$(command -v go || echo /usr/local/go/bin/go)" build -o "$CWD/go_prog" main.go >"$RUN/go.log" 2>&1)
[ -x ./go_prog ] || { echo go-missing; exit 0; }
exec ./go_prog
exit 3
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"sync"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	lines := 0
	for sc.Scan() {
		lines++
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			s := 0
			for i := 0; i < 1000000; i++ {
				s += (i+g)%7 + 1
			}
			mu.Lock()
			total += s
			mu.Unlock()
		}(g)
	}
	wg.Wait()
	m := map[string]int{}
	for i := 0; i < 100000; i++ {
		m[strconv.Itoa(i%1000)]++
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if err := os.WriteFile("go.out", []byte(fmt.Sprintf("go wrote %d\n", lines)), 0o644); err != nil {
		fmt.Println("write failed:", err)
		os.Exit(1)
	}
	fmt.Printf("go-ok lines %d goroutines 8 sum %d keys %d sorted %v\n", lines, total, len(keys), sort.StringsAreSorted(keys))
}
