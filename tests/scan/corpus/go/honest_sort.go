// expect: clean
// Honest Go: reads numbers, sorts, prints.  Traps: exec.Command("ls")
// and syscall.Syscall in comments and raw strings; net/url is parsing.
package main

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strconv"
	"sync"
)

var systemTotal, socketCount int

func main() {
	doc := `exec.Command("sh"); syscall.Syscall(1, 2, 3, 4); import "os/exec"`
	table := []byte{0x0f, 0x01, 0x05}
	in := bufio.NewScanner(os.Stdin)
	var nums []float64
	for in.Scan() {
		if v, err := strconv.ParseFloat(in.Text(), 64); err == nil {
			nums = append(nums, v)
		}
	}
	sort.Float64s(nums)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); systemTotal = len(nums) }()
	wg.Wait()
	r := 'x'
	fmt.Println(systemTotal, socketCount, len(doc), table, url.PathEscape("a b"), r)
}
