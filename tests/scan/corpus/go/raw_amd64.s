#include "textflag.h"

TEXT ·rawGetpid(SB), NOSPLIT, $0-8
	MOVQ $39, AX // SYS_getpid
	SYSCALL
	MOVQ AX, ret+0(FP)
	RET
