// honest: c_output_10mb_file
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: writes exactly 10 MiB (the default --fsize 10 limit, inclusive) through stdio to CWD/result.txt; the runner checks its size and content
// ok-if: [ "$(fsize "$CWD/result.txt")" = 10485760 ] && [ "$(head -c 64 "$CWD/result.txt")" = "$(printf '%063d\n' 0)" ] && [ "$(tail -c 64 "$CWD/result.txt")" = "$(printf '%063d\n' 163839)" ] && out_has "wrote 10485760"
#include <stdio.h>

int main(void)
{
	FILE *f = fopen("result.txt", "w");
	if (!f)
		return perror("result.txt"), 1;
	long n = 0;
	for (int i = 0; i < 10485760 / 64; i++)
		n += fprintf(f, "%063d\n", i);
	if (fclose(f) != 0)
		return perror("fclose"), 1;
	printf("wrote %ld\n", n);
	return 0;
}
