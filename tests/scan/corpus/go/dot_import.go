// expect: syscall@7 syscall@8
package main

import . "syscall"

func main() {
	Syscall(39, 0, 0, 0)
	RawSyscall(39, 0, 0, 0)
}
