// expect: dynload@7 network@10 process@12 dynload@13 asm@18 process@23 process@24 syscall@25 opcode-bytes@28
package main

/*
#include <unistd.h>
*/
import "C"

import (
	"net"
	"os"
	ex "os/exec"
	"plugin"
	"syscall"
	_ "unsafe"
)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

func main() {
	ex.Command("id").Run()
	syscall.ForkExec("/bin/sh", nil, nil)
	os.StartProcess("/bin/sh", nil, &os.ProcAttr{})
	syscall.Syscall(syscall.SYS_GETPID, 0, 0, 0)
	net.Dial("tcp", "127.0.0.1:80")
	plugin.Open("x.so")
	code := []byte{0x0f, 0x05, 0xc3}
	_ = code
}
