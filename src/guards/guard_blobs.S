/* What the guards put into the program, carried in the library itself so
 * that a run needs no file of ours at a known path (a static sandlock in a
 * serverless layer): the Python guard's source, NUL-terminated, and the
 * preload library. */
	.section .rodata
	.global sl_guard_python_src
	.hidden sl_guard_python_src
sl_guard_python_src:
	.incbin PYTHON_GUARD
	.byte 0

	.balign 16
	.global sl_preload_so
	.hidden sl_preload_so
	.global sl_preload_so_end
	.hidden sl_preload_so_end
sl_preload_so:
	.incbin PRELOAD_SO
sl_preload_so_end:

	.section .note.GNU-stack,"",@progbits
