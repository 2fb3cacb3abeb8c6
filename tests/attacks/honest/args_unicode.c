// honest: args_unicode
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// args: "two words" "ünïcødé ✓ 日本" "" "--not-an-option" $'tab\tand\nnewline' "*"
// evidence: arguments with spaces, non-ASCII, empty, option-like, tab/newline and glob characters arrive intact (hex-dumped by the program, compared by the runner)
// ok-if: args_intact
#include <stdio.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		printf("ARG ");
		for (unsigned char *p = (unsigned char *)argv[i]; *p; p++)
			printf("%02x", *p);
		printf("\n");
	}
	return 0;
}
